package gpucheck

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// solverPick narrows the builds a file leaves open to those conda installs
// where the environment is created on this target, release by release, as
// the knowledge base's conda_variant_pick rows say conda chooses between a
// release's CPU and CUDA builds: a CUDA build needs conda's __cuda virtual
// package (the newest CUDA the driver supports; absent without a driver),
// at least its own CUDA where the row says build_cuda; where one installs
// and the recipe ranks the CPU builds below the CUDA ones, conda takes a
// CUDA build (in a file that lists no companion package). A release no row covers keeps every build, as does a target
// whose driver is not known, and a release left with no build at all.
// why says what was assumed, in words; "" where nothing was narrowed.
func (c *checker) solverPick(cands []candidate) ([]candidate, string) {
	fw := c.st.Framework
	if fw == nil || fw.From == envspec.ProviderPip || fw.Dist == "" || fw.PipPick != nil || !solvedOnTarget(c.st) {
		return cands, ""
	}
	h := c.h
	drv := ""
	if !h.NoDriver {
		drv = h.CUDADriver
		if drv == "" && h.Driver != "" {
			drv = c.k.DriverCUDA(h.Driver)
		}
		if drv == "" {
			return cands, ""
		}
	}
	// one driver for the whole target: a CUDA build it cannot install is
	// out on every machine. A range's Driver is its oldest member only.
	oneDriver := h.DriverRange == ""
	var order []string
	byRel := map[string][]int{}
	for i, cd := range cands {
		rel := cd.st.Framework.Version
		if _, ok := byRel[rel]; !ok {
			order = append(order, rel)
		}
		byRel[rel] = append(byRel[rel], i)
	}
	drop := make([]bool, len(cands))
	var whys []string
	for _, rel := range order {
		row, ok := c.k.CondaVariantPick(fw.Name, fw.Dist, rel)
		if !ok || !c.cudaBuildsSolvable(row, rel) {
			continue
		}
		var cpu, cuda, installs, cannot []int
		for _, i := range byRel[rel] {
			st := cands[i].st
			if st.Framework.Variant != "cuda" {
				cpu = append(cpu, i)
				continue
			}
			cuda = append(cuda, i)
			cu := ""
			if st.CUDA != nil {
				cu = st.CUDA.Version
			}
			switch {
			case row.CUDANeeds == "none":
				// no __cuda in its requirements: it installs on any
				// machine, driver or not (the pytorch channel's)
				installs = append(installs, i)
			case h.NoDriver:
				cannot = append(cannot, i)
			case cu != "" && compareVersions(drv, cu) >= 0:
				installs = append(installs, i)
			case cu != "" && row.CUDANeeds == "build_cuda" && oneDriver:
				cannot = append(cannot, i)
			}
		}
		if len(cpu) == 0 || len(cuda) == 0 {
			continue
		}
		what := fmt.Sprintf("%s %s (%s)", fw.Name, rel, fw.Dist)
		switch {
		case len(installs) > 0 && row.CPURank != "none" && companionsFollow(c.st, row):
			// A companion the file lists (torchvision) can pick the
			// variant by its own builds: conda-forge's torchvision
			// requires pytorch * [build=cpu*] or [build=cuda*] with one
			// build number for both, and a defaults pytorch build string
			// (gpu_cuda118…) matches neither cuda* nor the defaults
			// torchvision's: so only a file without one is narrowed to
			// the CUDA builds. That no CUDA build installs holds whatever
			// the companions are.
			for _, i := range cpu {
				drop[i] = true
			}
			for _, i := range cannot {
				drop[i] = true
			}
			if row.CUDANeeds == "none" {
				whys = append(whys, fmt.Sprintf("%s: its CUDA builds (%s) need no driver to install, and %s, so conda takes one on every machine", what, cudaOf(cands, installs), rankWords(row.CPURank)))
				continue
			}
			whys = append(whys, fmt.Sprintf("%s: the driver supports CUDA %s, so a CUDA build (%s) installs, and %s, so conda takes one; an environment created on a machine without an NVIDIA driver gets the CPU build (EG207)",
				what, drv, cudaOf(cands, installs), rankWords(row.CPURank)))
		case len(cannot) == len(cuda):
			for _, i := range cuda {
				drop[i] = true
			}
			need := "conda's __cuda virtual package, which a machine without an NVIDIA driver lacks"
			if !h.NoDriver {
				need = fmt.Sprintf("__cuda >= its own CUDA (%s), and the driver supports CUDA %s", cudaOf(cands, cuda), drv)
			}
			whys = append(whys, fmt.Sprintf("%s: every CUDA build needs %s, so conda installs the CPU build here; created on a machine whose driver runs a CUDA build, the environment may get that one (EG207)", what, need))
		}
	}
	if len(whys) == 0 {
		return cands, ""
	}
	var out []candidate
	for i, cd := range cands {
		if !drop[i] {
			out = append(out, cd)
		}
	}
	return out, "as conda solves it on this machine: " + strings.Join(whys, "; ")
}

// cudaBuildsSolvable reports whether a release's CUDA builds can be
// solved from the file's channels, as far as a cuda_needs none row
// narrows on it: the pytorch channel's builds selected by pytorch-cuda
// (1.13 … 2.5) need the CUDA packages pytorch-cuda requires, which its
// install commands take from the nvidia channel (-c pytorch -c nvidia), so
// without that channel conda may be left with the CPU build and nothing
// is narrowed; builds selected by cudatoolkit (up to 1.12) need only
// cudatoolkit, which conda-forge and defaults serve.
func (c *checker) cudaBuildsSolvable(row *kb.CondaVariantPick, rel string) bool {
	fw := c.st.Framework
	if row.CUDANeeds != "none" || fw.NVIDIAChannel {
		return true
	}
	vs, ok := c.k.Variants(resolver.SeriesOf(rel), fw.Dist)
	return ok && strings.HasPrefix(vs.Selector, "cudatoolkit")
}

// companionsFollow reports whether the file's companions (torchvision,
// torchaudio) leave conda's CPU/CUDA choice to the framework's ranking:
// where there are none; and on the pytorch channel (cuda_needs none) where
// every companion comes from it too, since its torchvision builds hang on
// the same pytorch-mutex variant (pytorch/vision packaging/torchvision/
// meta.yaml: run 'pytorch-mutex 1.0 {{ build_variant }}'). A conda-forge
// torchvision picks by its own builds, so a file with one is not narrowed.
func companionsFollow(st *resolver.Stack, row *kb.CondaVariantPick) bool {
	if len(st.Companions) == 0 {
		return true
	}
	if row.CUDANeeds != "none" || row.Dist != kb.DistPytorchConda {
		return false
	}
	for _, p := range st.Companions {
		if p.From != envspec.ProviderConda || p.Channel != "pytorch" {
			return false
		}
	}
	return true
}

// rankWords says how a conda_variant_pick row's recipe ranks the CPU
// builds below the CUDA ones.
func rankWords(rank string) string {
	switch rank {
	case "build_number":
		return "the CUDA builds' build numbers are offset above the CPU builds'"
	case "track_features":
		return "the CPU builds carry track_features (or require a package that does, the pytorch channel's pytorch-mutex), which conda weighs down"
	}
	return rank
}

// cudaOf lists the CUDA versions of the candidates at idx: "CUDA 11.8,
// 12.4".
func cudaOf(cands []candidate, idx []int) string {
	var vs []string
	seen := map[string]bool{}
	for _, i := range idx {
		if st := cands[i].st; st.CUDA != nil && !seen[st.CUDA.Version] {
			seen[st.CUDA.Version] = true
			vs = append(vs, st.CUDA.Version)
		}
	}
	return "CUDA " + strings.Join(vs, ", ")
}

// pickCandidates lists a defaults-channel release's builds from its
// conda_variant_pick row (the channel has no torch_variants row), for a
// file that pins the release and leaves the variant open: those conda
// installs on this target where the row narrows them, else every build
// the row lists, with why conda's choice is open where both install.
func (c *checker) pickCandidates() ([]candidate, string, bool) {
	st := c.st
	fw := st.Framework
	if fw == nil || fw.Dist != kb.DistDefaults || fw.Version == "" || fw.Variant != "" || fw.From == envspec.ProviderPip {
		return nil, "", false
	}
	row, ok := c.k.CondaVariantPick(fw.Name, fw.Dist, fw.Version)
	if !ok || len(row.CUDA) == 0 {
		return nil, "", false
	}
	cands := []candidate{{st: buildStack(st, c.k, fw.Version, "cpu", ""), label: fmt.Sprintf("%s %s CPU", fw.Name, fw.Version)}}
	for _, cu := range row.CUDA {
		cands = append(cands, candidate{st: buildStack(st, c.k, fw.Version, "cuda", cu), label: fmt.Sprintf("%s %s CUDA %s", fw.Name, fw.Version, cu)})
	}
	out, why := c.solverPick(cands)
	if why == "" {
		// Not narrowed here: conda's choice stays open, but each build
		// the row lists is still judged, so that a target on which every
		// build gives one answer is decided and one on which they differ
		// is told how (review twenty-one F8; issue 26's first root cause).
		return cands, strings.TrimSuffix(strings.TrimPrefix(c.bothInstall(), " ("), ")"), true
	}
	return out, why, true
}

// bothInstall says, for a release whose conda_variant_pick row ranks
// neither build above the other (cpu_rank none), that both install on
// this target's driver, so that the EG409 says why conda's choice is
// open there; "" elsewhere.
func (c *checker) bothInstall() string {
	fw := c.st.Framework
	if fw == nil || fw.Version == "" || fw.From == envspec.ProviderPip || fw.Dist == "" || c.h.NoDriver || !solvedOnTarget(c.st) {
		return ""
	}
	row, ok := c.k.CondaVariantPick(fw.Name, fw.Dist, fw.Version)
	if !ok || row.CPURank != "none" || len(row.CUDA) == 0 {
		return ""
	}
	drv := c.h.CUDADriver
	if drv == "" && c.h.Driver != "" {
		drv = c.k.DriverCUDA(c.h.Driver)
	}
	for _, cu := range row.CUDA {
		if drv != "" && compareVersions(drv, cu) >= 0 {
			return fmt.Sprintf(" (on this machine both install: its driver supports CUDA %s, at least what the CUDA %s build needs of __cuda, and in the %s packages of %s %s neither a build number nor track_features ranks one above the other)", drv, cu, fw.Dist, fw.Name, fw.Version)
		}
	}
	return ""
}

// solvedOnTarget reports whether conda solves the file on the machine the
// environment is created on, with that machine's __cuda: an
// environment.yml (conda env create). pixi solves a manifest with the
// virtual packages its [system-requirements] declare, whatever the
// machine's driver (without cuda there, the CPU builds: pixi's PyTorch
// guide), and a lock file has no variant left to pick.
func solvedOnTarget(st *resolver.Stack) bool {
	return st.Kind == envspec.KindEnvFile
}
