package resolver

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// The EG3xx rules read the environment file itself (Env.Deps and Env.Pip)
// rather than the resolved Stack: they are about which installer provides
// what, which the file states directly, and they must work when the stack
// cannot be resolved.

// condaItem is a conda dependency reduced to what these rules need.
type condaItem struct {
	Name  string // lower case
	Dep   *envspec.CondaDep
	Index int // Dep's index in Env.Deps
}

// pipItem is a pip requirement reduced to what these rules need.
type pipItem struct {
	Name   string // PEP 503 normalised
	Extras []string
	Local  string // the local version label of an == pin (cu118, cpu), lower case
	URL    string
	Dep    *envspec.PipDep
}

// pipOption is a pip option line (--index-url URL).
type pipOption struct {
	Name, Value string
	Dep         *envspec.PipDep
}

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var (
	nameRe     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*`) })
	localCUDA  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(?:\+|%2B)(cu\d{2,3}|cpu|rocm[\d.]+)\b`) })
	wheelIndex = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)/whl/(?:nightly/|test/)?(cu\d{2,3}|cpu|rocm[\d.]+|xpu)\b`)
	})
)

func normalizePip(name string) string { return envspec.NormalizePipName(name) }

// condaItems lists the conda dependencies with a package name.
func condaItems(env *envspec.Env) []condaItem {
	out := make([]condaItem, 0, len(env.Deps))
	for i, d := range env.Deps {
		if d == nil {
			continue
		}
		it := condaItem{Dep: d, Index: i}
		if d.Spec != nil && d.Spec.Name != "" {
			it.Name = strings.ToLower(d.Spec.Name)
		} else {
			it.Name = roughConda(d.Raw.Value)
		}
		if it.Name != "" {
			out = append(out, it)
		}
	}
	return out
}

// roughConda reads the name of a MatchSpec when no parsed spec is at hand,
// so the rules still work on specs the MatchSpec parser rejected.
func roughConda(raw string) string {
	s := strings.TrimSpace(raw)
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	return strings.ToLower(nameRe().FindString(s))
}

// pipItems lists the pip requirements and the pip option lines.
func pipItems(env *envspec.Env) ([]pipItem, []pipOption) {
	reqs := make([]pipItem, 0, len(env.Pip))
	var opts []pipOption
	for _, d := range env.Pip {
		if d == nil {
			continue
		}
		if d.Line != nil {
			switch {
			case d.Line.Option != nil:
				opts = append(opts, pipOption{Name: d.Line.Option.Name, Value: d.Line.Option.Value, Dep: d})
			case d.Line.Req != nil:
				r := d.Line.Req
				it := pipItem{Name: r.Normalized, Extras: r.Extras, URL: r.URL, Dep: d}
				if it.Name == "" {
					it.Name = normalizePip(r.Name)
				}
				if it.Name == "" && r.URL != "" {
					it.Name = wheelName(r.URL)
				}
				for _, sp := range r.Specifiers {
					if sp.Op == "==" || sp.Op == "===" {
						if i := strings.IndexByte(sp.Version, '+'); i >= 0 {
							it.Local = strings.ToLower(sp.Version[i+1:])
						}
					}
				}
				if it.Local == "" {
					it.Local = localOf(d.Raw.Value)
				}
				if it.Name != "" {
					reqs = append(reqs, it)
				}
			}
			continue
		}
		if o, ok := roughPipOption(d.Raw.Value); ok {
			o.Dep = d
			opts = append(opts, o)
			continue
		}
		if it, ok := roughPipReq(d.Raw.Value); ok {
			it.Dep = d
			reqs = append(reqs, it)
		}
	}
	return reqs, opts
}

func localOf(raw string) string {
	// Most lines have no local version at all; skip the regexp for them.
	if !strings.Contains(raw, "+") && !strings.Contains(raw, "%2") {
		return ""
	}
	if m := localCUDA().FindStringSubmatch(raw); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// roughPipOption reads the pip options that choose an index.
func roughPipOption(raw string) (pipOption, bool) {
	s := strings.TrimSpace(raw)
	if !strings.HasPrefix(s, "-") {
		return pipOption{}, false
	}
	name, value, found := strings.Cut(s, "=")
	if !found || strings.ContainsAny(name, " \t") {
		f := strings.Fields(s)
		name, value = f[0], ""
		if len(f) > 1 {
			value = f[1]
		}
	}
	switch name {
	case "-i":
		name = "--index-url"
	case "-f":
		name = "--find-links"
	case "-r":
		name = "--requirement"
	case "-e":
		return pipOption{}, false // an editable requirement, not an option
	}
	return pipOption{Name: name, Value: strings.TrimSpace(value)}, true
}

// roughPipReq reads the name, extras and local version of a requirement
// line when no parsed line is at hand.
func roughPipReq(raw string) (pipItem, bool) {
	s := strings.TrimSpace(raw)
	if s == "" || strings.HasPrefix(s, "-") {
		return pipItem{}, false
	}
	it := pipItem{Local: localOf(s)}
	if strings.Contains(s, "://") && !strings.Contains(s, "@") || strings.HasPrefix(s, "http") {
		it.URL = s
		it.Name = wheelName(s)
		return it, it.Name != ""
	}
	name := nameRe().FindString(s)
	if name == "" {
		return pipItem{}, false
	}
	it.Name = normalizePip(name)
	rest := s[len(name):]
	if strings.HasPrefix(rest, "[") {
		if j := strings.IndexByte(rest, ']'); j > 0 {
			for _, e := range strings.Split(rest[1:j], ",") {
				if e = strings.TrimSpace(e); e != "" {
					it.Extras = append(it.Extras, strings.ToLower(e))
				}
			}
		}
	}
	if _, url, ok := strings.Cut(rest, "@"); ok {
		it.URL = strings.TrimSpace(url)
	}
	return it, true
}

// wheelName reads the distribution name from a wheel or sdist URL
// (.../jaxlib-0.1.51-cp37-none-manylinux2010_x86_64.whl → jaxlib).
func wheelName(url string) string {
	if i := strings.IndexAny(url, "#?"); i >= 0 {
		url = url[:i]
	}
	base := url[strings.LastIndexByte(url, '/')+1:]
	if !strings.HasSuffix(base, ".whl") && !strings.HasSuffix(base, ".tar.gz") && !strings.HasSuffix(base, ".zip") {
		return ""
	}
	name, _, _ := strings.Cut(base, "-")
	return normalizePip(name)
}

// A gpuLib is a library with CUDA code that either installer can provide.
// Lookups try the knowledge base (kb.LibByConda / kb.LibByPip) first and
// fall back to this table, for a nil KB or names it lacks; the Lib names
// match the knowledge base's so that the two sides of a pair compare equal.
type gpuLib struct {
	Lib   string
	Conda []string
	Pip   []string // exact PEP 503 names
	// PipPrefix lists name prefixes whose rest says the CUDA major
	// (cupy-cuda12x, tensorrt-cu12, cudf-cu12).
	PipPrefix []string
}

var gpuLibs = []gpuLib{
	{Lib: "torch", Conda: []string{"pytorch", "pytorch-gpu"}, Pip: []string{"torch"}},
	{Lib: "torchvision", Conda: []string{"torchvision"}, Pip: []string{"torchvision"}},
	{Lib: "torchaudio", Conda: []string{"torchaudio"}, Pip: []string{"torchaudio"}},
	{Lib: "tensorflow", Conda: []string{"tensorflow", "tensorflow-gpu", "tensorflow-base"}, Pip: []string{"tensorflow", "tensorflow-gpu", "tf-nightly"}},
	{Lib: "jax", Conda: []string{"jaxlib", "jax"}, Pip: []string{"jaxlib", "jax-cuda11-plugin", "jax-cuda12-plugin", "jax-cuda13-plugin", "jax-cuda11-pjrt", "jax-cuda12-pjrt", "jax-cuda13-pjrt"}},
	{Lib: "cupy", Conda: []string{"cupy", "cupy-core"}, Pip: []string{"cupy"}, PipPrefix: []string{"cupy-cuda"}},
	{Lib: "mxnet", Conda: []string{"mxnet", "mxnet-gpu"}, PipPrefix: []string{"mxnet-cu"}},
	{Lib: "paddlepaddle", Conda: []string{"paddlepaddle-gpu"}, Pip: []string{"paddlepaddle-gpu"}},
	{Lib: "onnxruntime-gpu", Conda: []string{"onnxruntime"}, Pip: []string{"onnxruntime-gpu"}},
	{Lib: "tensorrt", Conda: []string{"tensorrt"}, Pip: []string{"tensorrt"}, PipPrefix: []string{"tensorrt-cu"}},
	{Lib: "xformers", Conda: []string{"xformers"}, Pip: []string{"xformers"}},
	{Lib: "pycuda", Conda: []string{"pycuda"}, Pip: []string{"pycuda"}},
	{Lib: "cudf", Conda: []string{"cudf"}, PipPrefix: []string{"cudf-cu"}},
	{Lib: "cuml", Conda: []string{"cuml"}, PipPrefix: []string{"cuml-cu"}},
	{Lib: "cugraph", Conda: []string{"cugraph"}, PipPrefix: []string{"cugraph-cu"}},
	{Lib: "rmm", Conda: []string{"rmm"}, PipPrefix: []string{"rmm-cu"}},
	{Lib: "nvidia-dali", PipPrefix: []string{"nvidia-dali-cuda"}},
}

// libOfConda returns the GPU library a conda package belongs to, or "".
func libOfConda(ctx *Context, name string) string {
	if ctx != nil && ctx.KB != nil {
		if l, ok := ctx.KB.LibByConda(name); ok && l != nil {
			return l.Lib
		}
	}
	return gpuLibNames().conda[name]
}

// gpuLibIndex maps the exact names of gpuLibs to their library, the first
// row that names one winning; no exact name starts with a PipPrefix, so
// looking names up before prefixes answers as the table's order does.
type gpuLibIndex struct{ conda, pip map[string]string }

// gpuLibNames indexes gpuLibs on first use: most names are not GPU
// libraries, and each used to be compared with every row.
var gpuLibNames = sync.OnceValue(func() gpuLibIndex {
	idx := gpuLibIndex{conda: map[string]string{}, pip: map[string]string{}}
	for _, l := range gpuLibs {
		for _, n := range l.Conda {
			if _, dup := idx.conda[n]; !dup {
				idx.conda[n] = l.Lib
			}
		}
		for _, n := range l.Pip {
			if _, dup := idx.pip[n]; !dup {
				idx.pip[n] = l.Lib
			}
		}
	}
	return idx
})

// libOfPip returns the GPU library a pip requirement belongs to, or "".
// jax counts only with a CUDA extra: plain `jax` from pip is pure Python.
func libOfPip(ctx *Context, it pipItem) string {
	if it.Name == "jax" {
		for _, e := range it.Extras {
			if strings.HasPrefix(pep503(e), "cuda") {
				return "jax"
			}
		}
		return ""
	}
	// isNvidiaWheel inlined, so that the knowledge base is asked once.
	if strings.HasPrefix(it.Name, "nvidia-") && nvidiaWheelRe().MatchString(it.Name) {
		return "" // the CUDA runtime itself: EG303's business
	}
	if ctx != nil && ctx.KB != nil {
		if l, ok := ctx.KB.LibByPip(it.Name); ok && l != nil {
			if l.Lib == nvidiaWheelsLib {
				return ""
			}
			return l.Lib
		}
	}
	if l := gpuLibNames().pip[it.Name]; l != "" {
		return l
	}
	for _, l := range gpuLibs {
		for _, p := range l.PipPrefix {
			if strings.HasPrefix(it.Name, p) {
				return l.Lib
			}
		}
	}
	return ""
}

var (
	nvidiaWheelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^nvidia-[a-z0-9-]+-cu(\d{2})$`) })
	cudaSuffixRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-cu(?:da)?(\d{2,3})x?$`) })
	jaxExtraRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^cuda(\d{2})`) })
	// jaxCUDAPluginRe reads jax-cuda12-plugin and jax-cuda12-pjrt.
	jaxCUDAPluginRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^jax-cuda(\d{2})-`) })
)

// nvidiaWheelsLib is the knowledge base's name for NVIDIA's CUDA wheels,
// which also covers the CUDA 13 names without a -cuXX suffix.
const nvidiaWheelsLib = "nvidia-cuda-wheels"

// isNvidiaWheel reports whether a pip name is one of NVIDIA's CUDA wheels
// (nvidia-cuda-runtime-cu12, nvidia-cudnn-cu11, ...).
func isNvidiaWheel(ctx *Context, name string) bool {
	if strings.HasPrefix(name, "nvidia-") && nvidiaWheelRe().MatchString(name) {
		return true
	}
	if ctx != nil && ctx.KB != nil {
		if l, ok := ctx.KB.LibByPip(name); ok && l != nil && l.Lib == nvidiaWheelsLib {
			return true
		}
	}
	return false
}

// cudaMajorOfTag reads the major of cu118 / cu92 / cuda12x / cuda110 tags.
func cudaMajorOfTag(digits string) int {
	switch len(digits) {
	case 2:
		if digits[0] == '1' {
			n, _ := strconv.Atoi(digits) // cu11, cu12: a bare major
			return n
		}
		n, _ := strconv.Atoi(digits[:1]) // cu92, cu80
		return n
	case 3:
		n, _ := strconv.Atoi(digits[:2])
		return n
	}
	return 0
}

// pipCUDAMajor returns the CUDA major a pip requirement is built for, 0 if
// the line does not say. index is the CUDA tag of a PyTorch wheel index the
// pip section uses ("cu121"), which decides the torch family's build.
func pipCUDAMajor(it pipItem, index string) (int, string) {
	// The prefix and substring tests spare most names the regular
	// expressions: this runs for every pip GPU library.
	if strings.HasPrefix(it.Name, "nvidia-") {
		if m := nvidiaWheelRe().FindStringSubmatch(it.Name); m != nil {
			return cudaMajorOfTag(m[1]), "cu" + m[1]
		}
	}
	if strings.HasPrefix(it.Local, "cu") {
		return cudaMajorOfTag(it.Local[2:]), it.Local
	}
	if it.URL != "" {
		if m := wheelIndex().FindStringSubmatch(it.URL); m != nil && strings.HasPrefix(strings.ToLower(m[1]), "cu") {
			return cudaMajorOfTag(m[1][2:]), strings.ToLower(m[1])
		}
	}
	if it.Name == "jax" {
		for _, e := range it.Extras {
			if m := jaxExtraRe().FindStringSubmatch(pep503(e)); m != nil {
				return cudaMajorOfTag(m[1]), "[" + e + "]"
			}
		}
	}
	if strings.HasPrefix(it.Name, "jax-cuda") {
		if m := jaxCUDAPluginRe().FindStringSubmatch(it.Name); m != nil {
			return cudaMajorOfTag(m[1]), "cuda" + m[1]
		}
	}
	if strings.Contains(it.Name, "-cu") && !strings.HasPrefix(it.Name, "torch") {
		if m := cudaSuffixRe().FindStringSubmatch(it.Name); m != nil {
			return cudaMajorOfTag(m[1]), it.Name[strings.LastIndexByte(it.Name, '-')+1:]
		}
	}
	if isTorchFamily(it.Name) && strings.HasPrefix(index, "cu") && it.Local == "" {
		return cudaMajorOfTag(index[2:]), index
	}
	return 0, ""
}

func isTorchFamily(name string) bool {
	return name == "torch" || name == "torchvision" || name == "torchaudio"
}

// wheelIndexTag returns the variant tag of the first PyTorch wheel index
// among the pip options (cu118, cpu, rocm6.1), with its option.
func wheelIndexTag(k *kb.KB, opts []pipOption) (string, *pipOption) {
	for i, o := range opts {
		switch o.Name {
		case "--index-url", "--extra-index-url", "--find-links":
			if m := wheelIndex().FindStringSubmatch(o.Value); m != nil && !extensionIndex(k, o.Value) {
				return strings.ToLower(m[1]), &opts[i]
			}
		}
	}
	return "", nil
}

// cudaStackItems returns the conda packages that make up a CUDA stack,
// the one that best names the stack first (cudatoolkit or pytorch-cuda
// rather than a header package such as cuda-cccl), then in file order.
func cudaStackItems(ctx *Context, items []condaItem) []condaItem {
	var out []condaItem
	for _, it := range items {
		if isCUDAStack(ctx, it.Name) {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return stackRank(out[i].Name) < stackRank(out[j].Name) })
	return out
}

func stackRank(name string) int {
	for i, n := range []string{"cudatoolkit", "pytorch-cuda", "cuda-toolkit", "cuda-runtime", "cuda-version", "cuda-cudart", "cuda", "cudnn"} {
		if name == n {
			return i
		}
	}
	return 100
}

// isCUDAStack: whether EG302 counts a conda package as the conda CUDA
// stack, as the knowledge base says (cuda_stack and cuda_stack_patterns:
// cudatoolkit, cuda-*, pytorch-cuda, cudnn and the CUDA math libraries
// conda-forge splits out).
func isCUDAStack(ctx *Context, name string) bool {
	var k *kb.KB
	if ctx != nil {
		k = ctx.KB
	}
	return names(k).InCUDAStack(name)
}

// item returns the text of a dependency for messages.
func condaText(it condaItem) string { return strings.TrimSpace(it.Dep.Raw.Value) }
func pipText(it pipItem) string     { return strings.TrimSpace(it.Dep.Raw.Value) }

// diag builds a finding of rule r.
func diag(r *Rule, pos finding.Pos, msg, hint string, related ...finding.Pos) finding.Diagnostic {
	return finding.Diagnostic{Pos: pos, Severity: r.Severity, Code: r.Code, Message: msg, Hint: hint, Related: related}
}
