package kb

import (
	"slices"
	"strings"
)

// PythonBuilds returns the row of torch_python_builds that speaks for the
// build of an exact release ("2.0.0", a local part ignored) on dist with
// the given CUDA variant ("11.8"; "" for a build whose CUDA is not known or
// the CPU build). A row that names CUDA variants answers only for those, so
// a build of unknown CUDA is answered only by a row for every build.
func (k *KB) PythonBuilds(torch string, dist Distribution, cuda string) (*TorchPythonBuilds, bool) {
	return k.packagePythonBuilds("", torch, dist, cuda)
}

// PackagePythonBuilds is PythonBuilds for a wrapper metapackage's own
// uploads (conda-forge's pytorch-gpu): the row for the package, release,
// dist and CUDA variant, where the knowledge base has one.
func (k *KB) PackagePythonBuilds(pkg, torch string, dist Distribution, cuda string) (*TorchPythonBuilds, bool) {
	if pkg == "" {
		return nil, false
	}
	return k.packagePythonBuilds(pkg, torch, dist, cuda)
}

// packagePythonBuilds finds the platform-independent row of package pkg
// ("" for the framework's own package).
func (k *KB) packagePythonBuilds(pkg, torch string, dist Distribution, cuda string) (*TorchPythonBuilds, bool) {
	if k == nil {
		return nil, false
	}
	v := stripLocal(torch)
	c := majorMinor(strings.TrimSpace(cuda))
	for i := range k.TorchPythonBuilds {
		r := &k.TorchPythonBuilds[i]
		if r.Package != pkg || r.Torch != v || r.Dist != dist || len(r.Platforms) > 0 {
			continue
		}
		if len(r.CUDA) == 0 || (c != "" && slices.Contains(r.CUDA, c)) {
			return r, true
		}
	}
	return nil, false
}

// PlatformPythonBuilds returns the row of torch_python_builds that speaks
// for the builds of an exact release on dist for one platform (a conda
// subdir: win-64, osx-arm64) and only some platforms: Python minors that
// the release supports elsewhere but that platform's builds lack.
func (k *KB) PlatformPythonBuilds(torch string, dist Distribution, platform string) (*TorchPythonBuilds, bool) {
	if k == nil {
		return nil, false
	}
	v := stripLocal(torch)
	p := strings.ToLower(strings.TrimSpace(platform))
	for i := range k.TorchPythonBuilds {
		r := &k.TorchPythonBuilds[i]
		if r.Torch == v && r.Dist == dist && r.Package == "" && slices.Contains(r.Platforms, p) {
			return r, true
		}
	}
	return nil, false
}

// Supports says whether the builds a row speaks for exist for a Python
// minor, given the release's own lists (supported and experimental).
func (r *TorchPythonBuilds) Supports(python string, release, experimental []string) bool {
	if len(r.Python) > 0 {
		return slices.Contains(r.Python, python)
	}
	if slices.Contains(r.Missing, python) {
		return false
	}
	return slices.Contains(release, python) || slices.Contains(experimental, python)
}

// Minors is the list of Python minors the builds a row speaks for exist
// for, given the release's own lists; experimental minors that are not
// missing are kept, free-threaded ones ("3.13t") are not.
func (r *TorchPythonBuilds) Minors(release, experimental []string) []string {
	if len(r.Python) > 0 {
		return slices.Clone(r.Python)
	}
	var out []string
	for _, p := range append(slices.Clone(release), experimental...) {
		if !strings.HasSuffix(p, "t") && !slices.Contains(r.Missing, p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// validPythonPlatforms are the conda subdirs a torch_python_builds row
// may name.
var validPythonPlatforms = map[string]bool{"linux-64": true, "linux-aarch64": true, "osx-64": true, "osx-arm64": true, "win-64": true}

// torchPythonBuilds checks torch-python-builds.yaml: each row names a
// release of the torch tables and a distribution, exactly one of python
// and missing, Python minors of the form 3.11, missing minors the release
// lists (supported or experimental), CUDA variants the distribution
// publishes for the series, conda-forge releases conda-forge built, and no
// two rows answering for the same build.
func (v *validator) torchPythonBuilds(keys map[string]bool) {
	const table = "torch_python_builds"
	// per release and dist: the CUDA variants rows speak for ("*": every build)
	covered := map[string][]string{}
	for i, r := range v.k.TorchPythonBuilds {
		v.source(table, i, r.Source, keys)
		if !validDists[r.Dist] {
			v.errf(table, i, "unknown dist %q", r.Dist)
		}
		rel, ok := v.k.Release(r.Torch)
		if !ok {
			v.errf(table, i, "torch %q is not a release of the torch tables", r.Torch)
		}
		if r.Package != "" && r.Package != "pytorch-gpu" && r.Package != "pytorch-cpu" {
			v.errf(table, i, "package %q is not one of pytorch's wrapper metapackages (pytorch-gpu, pytorch-cpu)", r.Package)
		}
		if (len(r.Python) > 0) == (len(r.Missing) > 0) {
			v.errf(table, i, "give exactly one of python (the complete list) and missing")
		}
		for _, p := range append(slices.Clone(r.Python), r.Missing...) {
			v.version(table, i, "python", p, pythonRe())
		}
		if ok {
			for _, p := range r.Missing {
				if !slices.Contains(rel.Python, p) && !slices.Contains(rel.PythonExperimental, p) {
					v.errf(table, i, "missing Python %s is not in torch %s's python or python_experimental list", p, r.Torch)
				}
			}
		}
		vs, hasVariants := v.k.Variants(r.Torch, r.Dist)
		for _, c := range r.CUDA {
			v.cuda(table, i, c)
			if hasVariants && !slices.Contains(vs.CUDA, c) {
				v.errf(table, i, "CUDA %s is not a variant %s publishes for %s", c, r.Dist, majorMinor(r.Torch))
			}
		}
		if r.Dist == DistCondaForge && hasVariants && (vs.NotPublished || (len(vs.Releases) > 0 && !slices.Contains(vs.Releases, r.Torch))) {
			v.errf(table, i, "conda-forge did not build torch %s (torch_variants releases)", r.Torch)
		}
		for _, p := range r.Platforms {
			if !validPythonPlatforms[p] {
				v.errf(table, i, "platform %q is not a conda subdir torch publishes builds for (linux-64, linux-aarch64, osx-64, osx-arm64, win-64)", p)
			}
		}
		if len(r.Platforms) > 0 && (len(r.Python) > 0 || len(r.CUDA) > 0) {
			// A platform row names what one platform lacks of the
			// release's list; other dimensions stay in rows of their own.
			v.errf(table, i, "a row for some platforms gives missing only, with no cuda")
		}
		plats := r.Platforms
		if len(plats) == 0 {
			plats = []string{""}
		}
		cudas := r.CUDA
		if len(cudas) == 0 {
			cudas = []string{"*"}
		}
		for _, p := range plats {
			key := r.Torch + " " + string(r.Dist) + " " + r.Package + " " + p
			for _, c := range cudas {
				prev := covered[key]
				if slices.Contains(prev, c) || slices.Contains(prev, "*") || (c == "*" && len(prev) > 0) {
					v.errf(table, i, "a second row answers for torch %s on %s %s(CUDA %s)", r.Torch, r.Dist, p+" ", c)
				}
				covered[key] = append(prev, c)
			}
		}
	}
}
