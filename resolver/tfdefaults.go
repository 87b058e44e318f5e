package resolver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// defaultsTFBuild is one build the defaults channel's linux tensorflow-gpu
// recipe made: a release with one of the toolkits it was built with.
type defaultsTFBuild struct {
	release, cuda, cudnnMajor string
}

// defaultsTFBuilds lists every build of every release from the knowledge
// base's tensorflow_defaults_builds and tensorflow_defaults_cuda_choices,
// in release order.
func defaultsTFBuilds(k *kb.KB) []defaultsTFBuild {
	var out []defaultsTFBuild
	for _, b := range k.TensorFlowDefaultsBuilds {
		major, _, _ := strings.Cut(b.CuDNN, ".")
		out = append(out, defaultsTFBuild{b.Release, b.CUDA, major})
	}
	for _, c := range k.TensorFlowDefaultsCUDAChoices {
		for _, cu := range c.CUDA {
			out = append(out, defaultsTFBuild{c.Release, cu, c.CuDNNMajor})
		}
	}
	slices.SortStableFunc(out, func(a, b defaultsTFBuild) int { return compareVersions(a.release, b.release) })
	return out
}

// defaultsTFCandidates expands a defaults tensorflow-gpu whose release the
// file leaves open into the builds it admits, where the knowledge base
// lists them all: from tensorflow_defaults_gpu's complete_from to the last
// linux release, for a file whose spec or Python (python_from or later)
// excludes every earlier release. A conda CUDA pin keeps the builds for
// that toolkit. The framework then gets the releases (Candidates), the
// toolkits (RuntimeCandidates, where the file pins none), the cuDNN major
// every build opens, and the code every build carries (CommonArch), so that
// a GPU or driver every admitted build agrees on is decided (review
// forty-three F33, corpus 044: an open tensorflow-gpu beside python=3.7;
// review forty-one F2, corpus 003: tensorflow-gpu>=2.0 beside cudatoolkit
// 10.1 on a K80).
func (r *resolution) defaultsTFCandidates(f *Framework) {
	if r.kb == nil || f.Name != "tensorflow" || f.Dist != kb.DistDefaults || f.Version != "" || f.Variant != "cuda" ||
		r.fw == nil || r.fw.name != "tensorflow-gpu" || (r.env.Platform != "" && r.env.Platform != "linux-64") {
		return
	}
	last, ok := r.kb.TensorFlowDefaultsGPULast()
	if !ok || last.CompleteFrom == "" {
		return
	}
	var vs *envspec.VersionSpec
	if f.Spec != "" {
		var err error
		if vs, err = envspec.ParseVersionSpec(f.Spec); err != nil || vs == nil {
			return
		}
	}
	complete := r.st.Python != "" && compareVersions(r.st.Python, last.PythonFrom) >= 0
	if !complete && vs != nil {
		before, err := envspec.ParseVersionSpec("<" + last.CompleteFrom)
		complete = err == nil && envspec.Disjoint(vs, before)
	}
	if !complete {
		return
	}
	pin := ""
	if r.st.CUDA != nil && r.st.CUDA.Version != "" && condaPinsCUDA(r.st.CUDA, majorMinor(r.st.CUDA.Version)) {
		pin = majorMinor(r.st.CUDA.Version)
	}
	var rels, cudas, cudnn []string
	var builds []defaultsTFBuild
	for _, b := range defaultsTFBuilds(r.kb) {
		if compareVersions(b.release, last.CompleteFrom) < 0 || compareVersions(b.release, last.LastLinux) > 0 || (vs != nil && !vs.MatchString(b.release)) || (pin != "" && b.cuda != pin) {
			continue
		}
		builds = append(builds, b)
		if !slices.Contains(rels, b.release) {
			rels = append(rels, b.release)
		}
		if !slices.Contains(cudas, b.cuda) {
			cudas = append(cudas, b.cuda)
		}
		if !slices.Contains(cudnn, b.cudnnMajor) {
			cudnn = append(cudnn, b.cudnnMajor)
		}
	}
	if len(rels) == 0 {
		return
	}
	f.Candidates = rels
	if pin == "" {
		slices.SortFunc(cudas, compareVersions)
		f.RuntimeCandidates = cudas
	}
	if len(cudnn) == 1 {
		f.CandidateCuDNNMajor = cudnn[0]
	}
	r.defaultsTFCommonArch(f, builds)
}

// defaultsTFCommonArch sets CommonArch to the entries every admitted build
// lists (each an X.Y entry: SASS and PTX), where every build has a row.
func (r *resolution) defaultsTFCommonArch(f *Framework, builds []defaultsTFBuild) {
	var sass, ptx []string
	lowest := ""
	for i, b := range builds {
		l, ok := r.kb.FrameworkArch("tensorflow", b.release, b.cuda, kb.DistDefaults)
		if !ok || l == nil || !l.Known || l.PTXOpen() || l.Dist != kb.DistDefaults {
			return
		}
		if i == 0 {
			sass, ptx = slices.Clone(l.SASS), slices.Clone(l.PTX)
		} else {
			sass = slices.DeleteFunc(sass, func(s string) bool { return !slices.Contains(l.SASS, s) })
			ptx = slices.DeleteFunc(ptx, func(s string) bool { return !slices.Contains(l.PTX, s) })
		}
		for _, e := range append(slices.Clone(l.SASS), l.PTX...) {
			if c, ok := kb.CompareDotted(e, lowest); lowest == "" || (ok && c < 0) {
				lowest = e
			}
		}
	}
	if len(sass)+len(ptx) == 0 {
		return
	}
	f.CommonArch = &kb.ArchList{SASS: sass, PTX: ptx, Known: true, CommonOnly: true, Dist: kb.DistDefaults, Framework: "tensorflow"}
	f.LowestCode = lowest
	f.CommonWhy = fmt.Sprintf("every build of the defaults channel's tensorflow-gpu %s the file admits", RangeOf(f.Candidates))
}
