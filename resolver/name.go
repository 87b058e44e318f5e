package resolver

import (
	"errors"
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// fwPrefix is the framework's part of a canonical name.
var fwPrefix = map[string]string{"pytorch": "pt", "tensorflow": "tf", "jax": "jax"}

// CanonicalName names a stack by convention, `<fw><major><minor>_<accel>`:
// pt20_cu118, pt113_cu116, tf212_cu118, pt25_cpu. The error says why there is
// none: no framework, a version not pinned to a release, an accelerator left
// open or contradicted, or a CUDA version not written anywhere.
func CanonicalName(st *Stack) (string, error) {
	if st == nil || st.Framework == nil {
		return "", errors.New("no framework (pytorch, tensorflow or jax) is named in the file")
	}
	f := st.Framework
	p := fwPrefix[f.Name]
	if p == "" {
		return "", fmt.Errorf("framework %q has no name prefix", f.Name)
	}
	version := f.Version
	if version == "" {
		// The name holds major and minor only: a spec that admits releases
		// of one series (tensorflow=2.12) names it as well as a release.
		version = oneSeries(f.Candidates)
	}
	if version == "" {
		if f.Spec == "" {
			return "", fmt.Errorf("%s version is not pinned", f.Name)
		}
		return "", fmt.Errorf("%s version is not pinned to a release (%s)", f.Name, strings.TrimSpace(f.Spec))
	}
	digits, err := nameDigits(version)
	if err != nil {
		return "", fmt.Errorf("%s version %s: %v", f.Name, version, err)
	}
	if f.NotPublished != "" {
		// no build of what the file asks for exists, so no name can say
		// what it installs (review twenty-three: 146's pytorch 2.7.1 with
		// pytorch-cuda=11.8, named pt27_cu118)
		return "", errors.New(f.NotPublished)
	}
	switch f.Variant {
	case "cpu":
		return p + digits + "_cpu", nil
	case "cuda":
		if f.Name == "jax" && (st.CUDA == nil || st.CUDA.Version == "") {
			// JAX's CUDA wheels name only the major (tf_jax.go)
			if cu := cudaMajorName(st); cu != "" {
				return p + digits + "_" + cu, nil
			}
		}
		if st.CUDA == nil || st.CUDA.Version == "" {
			return "", fmt.Errorf("%s is a CUDA build but no item says which CUDA version", f.Name)
		}
		if st.CUDA.NotPublished != "" {
			return "", errors.New(st.CUDA.NotPublished)
		}
		cu, err := nameDigits(st.CUDA.Version)
		if err != nil {
			return "", fmt.Errorf("CUDA version %s: %v", st.CUDA.Version, err)
		}
		return p + digits + "_cu" + cu, nil
	case "rocm":
		return "", fmt.Errorf("%s is a ROCm build; the naming convention covers CUDA and CPU only", f.Name)
	}
	if len(st.CPU) > 0 && st.CUDA != nil {
		return "", fmt.Errorf("%s is asked for both as a CPU-only and as a CUDA build", f.Name)
	}
	if cu := solverCUDA(st); cu != "" {
		digits2, err := nameDigits(cu)
		if err == nil {
			return p + digits + "_cu" + digits2, nil
		}
	}
	if f.Name == "tensorflow" && f.From == envspec.ProviderPip && f.BuildCUDA != "" && f.VariantWhy == "" {
		// One wheel for CPU and GPU, built for one CUDA: the name is that
		// build's, as a CUDA jaxlib that loads the machine's libraries is
		// named for its own (jax03_cu11); that the file brings no CUDA
		// libraries it could use is the targets' finding, not the name's
		// (review fifty-one N15, fifty N12, corpus 129: tf25_cu112).
		if digits2, err := nameDigits(f.BuildCUDA); err == nil {
			return p + digits + "_cu" + digits2, nil
		}
	}
	if f.DefaultsToolkitPin != nil && st.CUDA != nil && hasMinor(st.CUDA.Version) {
		// review twenty-six: 071's pytorch=1.9 with cudatoolkit=11.1 and
		// defaults listed first. The pytorch channel's builds up to 1.12
		// are selected by cudatoolkit; the defaults channel's are not
		// described, so which one the solver takes is not known.
		if cu, err := nameDigits(st.CUDA.Version); err == nil {
			return "", fmt.Errorf("pytorch %s comes from the defaults channel, listed first, whose builds of it the knowledge base does not describe, so whether the file's CUDA %s pin selects a CUDA build there is not known (on the pytorch channel up to 1.12 it would: %s); list the pytorch channel first, or pin the build", version, st.CUDA.Version, p+digits+"_cu"+cu)
		}
	}
	return "", fmt.Errorf("%s's accelerator (CUDA or CPU) is not pinned", f.Name)
}

// nameDigits runs major and minor together: 2.0.1 → 20, 1.13 → 113, 11.8 → 118.
func nameDigits(v string) (string, error) {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" || leadingDigits(parts[0]) != parts[0] {
		return "", errors.New("no major.minor")
	}
	minor := leadingDigits(parts[1])
	if minor == "" {
		return "", errors.New("no numeric minor")
	}
	return parts[0] + minor, nil
}

// solverCUDA is the CUDA version a conda framework whose variant is left to
// the solver gets when it gets a CUDA build: a cudatoolkit or cuda-version
// pin decides which CUDA build the solver may take (`tensorflow=2.12` with
// `cudatoolkit=11.2` can only be conda-forge's cuda112 build), though not
// whether it takes one (EG207 still says so). The pytorch channel is not
// such a case: from 1.13 on its builds ignore cudatoolkit and cuda-version
// (pytorch-cuda selects them), and up to 1.12 cudatoolkit is a pin already.
// "" when nothing decides it.
func solverCUDA(st *Stack) string {
	f := st.Framework
	if f == nil || f.Variant != "" || f.From != envspec.ProviderConda || len(st.CPU) > 0 || st.CUDA == nil || st.CUDA.NotPublished != "" {
		return ""
	}
	if f.Name == "pytorch" && f.Dist != kb.DistCondaForge {
		return ""
	}
	a := authority(st.CUDA.Evidence)
	if a == nil || (a.Kind != EvidenceCudatoolkit && a.Kind != EvidenceCUDAVersion) || !hasMinor(a.Says) {
		return ""
	}
	// two pins that disagree decide nothing (EG201 reports them)
	for _, e := range st.CUDA.Evidence {
		if (e.Kind == EvidenceCudatoolkit || e.Kind == EvidenceCUDAVersion) && hasMinor(e.Says) && e.Says != a.Says {
			return ""
		}
	}
	return a.Says
}

// OneSeries is the major.minor every candidate release shares, "" when
// there are none or they span several series.
func OneSeries(cands []string) string { return oneSeries(cands) }

func oneSeries(cands []string) string {
	s := ""
	for _, c := range cands {
		cs := seriesOf(c)
		if !strings.Contains(cs, ".") || (s != "" && cs != s) {
			return ""
		}
		s = cs
	}
	return s
}

// tfUnloadableCUDA says why a pip TensorFlow's stack has no canonical name
// when the CUDA the file provides is one TensorFlow cannot load: a name such
// as tf21_cu100 would name a stack that does not exist (EG208 reports the
// line). pip TensorFlow loads the CUDA libraries by soname; before CUDA 11
// the soname carries major and minor (libcudart.so.10.1), from 11 on the
// major only (CUDA minor version compatibility), so only a different major,
// or a different minor below 11, cannot load. nil when the name stands.
func tfUnloadableCUDA(st *Stack, k *kb.KB) error {
	if st == nil || k == nil || st.Framework == nil || st.CUDA == nil {
		return nil
	}
	f := st.Framework
	if f.Name != "tensorflow" || f.From != envspec.ProviderPip || f.Version == "" {
		return nil
	}
	cfg, ok := k.TensorFlow(f.Version)
	if !ok || cfg.CUDA == "" {
		return nil
	}
	a := authority(st.CUDA.Evidence)
	if a == nil || a.Kind == EvidenceDefault || !hasMinor(a.Says) {
		return nil
	}
	want := majorMinor(cfg.CUDA)
	got := majorMinor(a.Says)
	if majorOf(got) == majorOf(want) && (majorOf(want) >= 11 || got == want) {
		return nil
	}
	return fmt.Errorf("%s %s loads CUDA %s (its tested build configuration), not the CUDA %s that %s%s provides (EG208)", f.Name, f.Version, want, got, a.Item, at(a.Pos))
}
