package resolver

import (
	"strconv"
	"strings"

	"github.com/envguard/envguard/resolver/kb"
)

// Accel is what one written item says about the accelerator a build targets.
// The zero value says nothing.
type Accel struct {
	// Variant is "cuda", "cpu", "rocm", or "" when the item says nothing.
	Variant string
	// CUDA is the CUDA runtime major.minor ("11.8"); "" when unknown or only
	// the major is written (see Major).
	CUDA string
	// Major is the CUDA major; set whenever CUDA is, and alone for names
	// that carry only the major (cupy-cuda12x, jax[cuda12], nvidia-*-cu12).
	Major int
	// AtLeast marks builds made for CUDA >= CUDA within the same major:
	// conda-forge's `cudaXYZ` builds from 11.2 on rely on CUDA minor-version
	// compatibility (cuda112 serves every 11.x from 11.2, cuda120 every
	// 12.x), whereas the pytorch channel's `cuda11.6` builds require exactly
	// that minor (they depend on `pytorch-cuda 11.6.*`/`cudatoolkit 11.6.*`),
	// and so do conda-forge's builds for CUDA before 11.2 (conda-forge's
	// nvcc-feedstock run_exports `cudatoolkit X.Y|X.Y.*` below 11.2 and
	// `cudatoolkit >=X.Y,<major+1` from 11.2) and the defaults channel's
	// pytorch builds (the resolver clears it there).
	AtLeast bool
	CuDNN   string // "8" of cudnn8, "" when absent
	Python  string // "3.10" of py3.10 / py310, "" when absent
	ROCm    string // "5.6" of rocm5.6
}

// Says renders what the item implies, as Evidence.Says carries it.
func (a Accel) Says() string {
	switch {
	case a.CUDA != "":
		return a.CUDA
	case a.Major > 0:
		return strconv.Itoa(a.Major)
	case a.Variant == "rocm" && a.ROCm != "":
		return "rocm" + a.ROCm
	}
	return a.Variant
}

// DecodeBuild reads a conda build string, or a build glob from a spec
// (`*cuda*`, `*cuda11.8*`, `cuda*`), as every channel writes them:
//
//	pytorch channel  py3.9_cuda11.6_cudnn8_0, py3.10_cpu_0
//	conda-forge      cuda118_py310h..._300, cuda126_generic_py312..., cpu_mkl_py311..., cpu_generic_...
//	defaults         gpu_cuda118py310..., cpu_py310...
//	TensorFlow       cuda112py39h..., cuda120py311..., gpu_py39...
//	mutex            cpu, cuda (pytorch-mutex=*=cpu)
//
// A build whose text holds neither cuda, gpu, cpu nor rocm says nothing.
func DecodeBuild(build string) Accel {
	raw := strings.ToLower(build)
	s := strings.ReplaceAll(raw, "*", "")
	var a Accel
	a.Python = pyTag(s)
	a.CuDNN = afterTag(s, "cudnn", true)
	switch {
	case strings.Contains(s, "cuda"):
		a.Variant = "cuda"
		i := strings.Index(s, "cuda")
		v := leadingVersion(s[i+4:])
		if strings.Contains(v, ".") {
			a.CUDA = majorMinor(v)
		} else if v != "" && len(v) == 2 && strings.Contains(raw, "cuda"+v+"*") {
			// a glob cut after two digits (cuda12*) names a major: cuda120, cuda126...
			a.Major = majorOf(v)
		} else if v != "" {
			a.CUDA = cuDigits(v)
			if c, ok := kb.CompareDotted(a.CUDA, "11.2"); ok && c >= 0 {
				a.AtLeast = true
			}
		}
		if a.CUDA != "" {
			a.Major = majorOf(a.CUDA)
			if a.Major == 0 { // cuda0.0 is no CUDA release
				a.CUDA, a.AtLeast = "", false
			}
		}
	case strings.Contains(s, "gpu"):
		a.Variant = "cuda"
	case strings.Contains(s, "rocm"):
		a.Variant = "rocm"
		a.ROCm = majorMinor(afterTag(s, "rocm", true))
	case strings.Contains(s, "cpu"):
		a.Variant = "cpu"
	}
	return a
}

// DecodeLocalVersion reads the local part of a pip version: `+cu118`,
// `+cpu`, `+rocm5.6`. Versions without a local part say nothing.
func DecodeLocalVersion(version string) Accel {
	i := strings.IndexByte(version, '+')
	if i < 0 {
		return Accel{}
	}
	return decodeWheelTag(strings.ToLower(version[i+1:]))
}

// DecodeIndexURL reads a PyTorch wheel index URL (`.../whl/cu118`,
// `.../whl/cpu`, `.../whl/nightly/cu121`, `.../whl/rocm5.6`). Other URLs say
// nothing.
func DecodeIndexURL(url string) Accel {
	u := strings.ToLower(url)
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	segs := strings.Split(u, "/")
	whl := -1
	for i, s := range segs {
		if s == "whl" {
			whl = i
		}
	}
	if whl < 0 {
		return Accel{}
	}
	for _, s := range segs[whl+1:] {
		if a := decodeWheelTag(s); a.Variant != "" {
			return a
		}
	}
	return Accel{}
}

// decodeWheelTag reads cu118, cpu, rocm5.6 (a local version or an index
// directory). PyTorch wheels require exactly that CUDA minor.
func decodeWheelTag(t string) Accel {
	switch {
	case strings.HasPrefix(t, "cu") && len(t) > 2 && isDigit(t[2]):
		d := leadingDigits(t[2:])
		c := cuDigits(d)
		if c == "" {
			return Accel{}
		}
		return Accel{Variant: "cuda", CUDA: c, Major: majorOf(c)}
	case t == "cpu" || strings.HasPrefix(t, "cpu.") || strings.HasPrefix(t, "cpu-"):
		return Accel{Variant: "cpu"}
	case strings.HasPrefix(t, "rocm"):
		return Accel{Variant: "rocm", ROCm: majorMinor(leadingVersion(t[4:]))}
	}
	return Accel{}
}

// DecodePipName reads the CUDA build a pip distribution's name (and extras)
// declares: cupy-cuda12x (major 12), cupy-cuda112 (11.2), jax[cuda12],
// jax[cuda12_pip], jax-cuda12-plugin, jax-cuda12-pjrt, nvidia-cublas-cu12,
// tensorflow[and-cuda], tensorflow-gpu, tensorflow-cpu, jax[cpu].
// name may be written in any case or separator style.
func DecodePipName(name string, extras []string) Accel {
	n := pep503(name)
	switch {
	case strings.HasPrefix(n, "cupy-cuda"):
		t := n[len("cupy-cuda"):]
		if strings.HasSuffix(t, "x") {
			if m, err := strconv.Atoi(t[:len(t)-1]); err == nil && m > 0 {
				return Accel{Variant: "cuda", Major: m}
			}
			return Accel{}
		}
		if c := cuDigits(t); c != "" && leadingDigits(t) == t {
			return Accel{Variant: "cuda", CUDA: c, Major: majorOf(c)}
		}
	case strings.HasPrefix(n, "jax-cuda") || strings.HasPrefix(n, "jaxlib-cuda"):
		t := n[strings.Index(n, "cuda")+4:]
		if m, err := strconv.Atoi(leadingDigits(t)); err == nil && m > 0 {
			return Accel{Variant: "cuda", Major: m}
		}
	case strings.HasPrefix(n, "nvidia-"):
		if i := strings.LastIndex(n, "-cu"); i > 0 {
			t := n[i+3:]
			if m, err := strconv.Atoi(t); err == nil && m > 0 && leadingDigits(t) == t {
				return Accel{Variant: "cuda", Major: m}
			}
		}
	case n == "jax":
		for _, e := range extras {
			e = pep503(e)
			if strings.HasPrefix(e, "cuda") {
				a := Accel{Variant: "cuda"}
				if m, err := strconv.Atoi(leadingDigits(e[4:])); err == nil && m > 0 {
					a.Major = m
				}
				return a
			}
			if e == "cpu" {
				return Accel{Variant: "cpu"}
			}
		}
	case n == "tensorflow" || n == "tf-nightly":
		for _, e := range extras {
			if pep503(e) == "and-cuda" {
				return Accel{Variant: "cuda"}
			}
		}
	case n == "tensorflow-gpu":
		return Accel{Variant: "cuda"}
	case n == "tensorflow-cpu":
		return Accel{Variant: "cpu"}
	}
	return Accel{}
}

// pep503 applies PEP 503 normalisation: lower case, runs of -_. as -. PEP
// 685 normalises extra names the same way (jax[cuda12-pip] is jax's
// cuda12_pip extra), so every comparison of extras goes through it too.
func pep503(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c == '-' || c == '_' || c == '.' {
			if !dash {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		dash = false
		b.WriteRune(c)
	}
	return b.String()
}

// cuDigits turns the digits of cu118/cuda118 into "11.8": the last digit is
// the minor, the rest the major (cu92 → 9.2, cu102 → 10.2, cu130 → 13.0),
// which is how PyTorch, conda-forge and cupy all spell them.
func cuDigits(d string) string {
	if len(d) < 2 || len(d) > 4 {
		return ""
	}
	major, err := strconv.Atoi(d[:len(d)-1])
	if err != nil || major == 0 {
		return ""
	}
	return strconv.Itoa(major) + "." + d[len(d)-1:]
}

// pyTag finds py3.10 or py310 in a build string and returns "3.10".
func pyTag(s string) string {
	for i := 0; i+2 < len(s); i++ {
		if s[i] != 'p' || s[i+1] != 'y' || !isDigit(s[i+2]) {
			continue
		}
		// py after a letter belongs to a word or hash, not a tag; after a
		// digit it follows a CUDA tag (cuda118py310)
		if i > 0 && s[i-1] >= 'a' && s[i-1] <= 'z' {
			continue
		}
		v := leadingVersion(s[i+2:])
		if strings.Contains(v, ".") {
			return majorMinor(v)
		}
		if len(v) >= 2 && len(v) <= 3 {
			return v[:1] + "." + v[1:]
		}
	}
	return ""
}

// afterTag returns the version that follows tag in s (cudnn8 → "8",
// cudnn8.2.1 → "8.2.1"), "" when tag is absent or bare.
func afterTag(s, tag string, dots bool) string {
	i := strings.Index(s, tag)
	if i < 0 {
		return ""
	}
	if dots {
		return leadingVersion(s[i+len(tag):])
	}
	return leadingDigits(s[i+len(tag):])
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i]
}

// leadingVersion returns the leading run of digits and interior dots.
func leadingVersion(s string) string {
	i := 0
	for i < len(s) && (isDigit(s[i]) || (s[i] == '.' && i > 0 && i+1 < len(s) && isDigit(s[i+1]))) {
		i++
	}
	return s[:i]
}

// majorMinor cuts a dotted version to major.minor ("10.2.89" → "10.2");
// a bare major stays as it is.
func majorMinor(v string) string {
	// Slicing, not splitting: this runs for every version the rules compare.
	if i := strings.IndexByte(v, '.'); i >= 0 {
		if j := strings.IndexByte(v[i+1:], '.'); j >= 0 {
			return v[:i+1+j]
		}
	}
	return v
}

// majorOf returns the major of "11.8" (0 when v does not start with one).
func majorOf(v string) int {
	m, err := strconv.Atoi(leadingDigits(v))
	if err != nil {
		return 0
	}
	return m
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
