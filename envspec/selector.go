package envspec

import (
	"fmt"
	"strings"
)

// selectorVars gives the platform variables of a conda subdir. The names and
// meanings are conda-build's preprocessing-selector namespace (its ns_cfg:
// x86, x86_64, linux, linux32, linux64, osx, unix, win, win32, win64 and one
// variable per non-x86 machine), plus `osx64` (osx and x86_64), which CEP 24
// adds. Python and NumPy variables (py, py3k, np) are not platform facts and
// CEP 24 excludes them.
func selectorVars(platform string) map[string]bool {
	osName, arch, _ := strings.Cut(platform, "-")
	v := map[string]bool{
		"linux":   osName == "linux",
		"osx":     osName == "osx",
		"win":     osName == "win",
		"unix":    osName == "linux" || osName == "osx" || osName == "emscripten",
		"x86":     arch == "32" || arch == "64",
		"x86_64":  arch == "64",
		"linux32": platform == "linux-32",
		"linux64": platform == "linux-64",
		"win32":   platform == "win-32",
		"win64":   platform == "win-64",
		"osx64":   platform == "osx-64",
	}
	for _, m := range []string{"armv6l", "armv7l", "aarch64", "arm64", "ppc64", "ppc64le", "s390x", "riscv64"} {
		v[m] = arch == m
	}
	return v
}

// selectorSubdirs lets a selector name a platform outright (`sel(linux-64)`),
// which some files do; it means "this platform".
var selectorSubdirs = map[string]bool{
	"linux-64": true, "linux-32": true, "linux-aarch64": true, "linux-ppc64le": true, "linux-s390x": true,
	"linux-armv6l": true, "linux-armv7l": true, "linux-riscv64": true,
	"osx-64": true, "osx-arm64": true, "win-64": true, "win-32": true, "win-arm64": true,
	"emscripten-wasm32": true, "wasi-wasm32": true, "zos-z": true,
}

// evalSelector evaluates a selector expression (names joined with and, or,
// not and parentheses) for a platform. An unknown name is an error.
func evalSelector(expr, platform string) (bool, error) {
	toks, err := selTokens(expr)
	if err != nil {
		return false, err
	}
	if len(toks) == 0 {
		return false, fmt.Errorf("empty selector")
	}
	if len(toks) > 200 {
		return false, fmt.Errorf("selector too long")
	}
	e := &selEval{toks: toks, vars: selectorVars(platform), platform: platform}
	v, err := e.or()
	if err != nil {
		return false, err
	}
	if e.i < len(e.toks) {
		return false, fmt.Errorf("unexpected %q", e.toks[e.i])
	}
	return v, nil
}

func selTokens(s string) ([]string, error) {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')':
			out = append(out, s[i:i+1])
			i++
		case c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9'):
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '-' || ('a' <= s[j] && s[j] <= 'z') || ('A' <= s[j] && s[j] <= 'Z') || ('0' <= s[j] && s[j] <= '9')) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			return nil, fmt.Errorf("unexpected %q in selector", c)
		}
	}
	return out, nil
}

type selEval struct {
	toks     []string
	i        int
	vars     map[string]bool
	platform string
	depth    int
}

func (e *selEval) peek() string {
	if e.i < len(e.toks) {
		return e.toks[e.i]
	}
	return ""
}

func (e *selEval) or() (bool, error) {
	v, err := e.and()
	for err == nil && e.peek() == "or" {
		e.i++
		var w bool
		w, err = e.and()
		v = v || w
	}
	return v, err
}

func (e *selEval) and() (bool, error) {
	v, err := e.not()
	for err == nil && e.peek() == "and" {
		e.i++
		var w bool
		w, err = e.not()
		v = v && w
	}
	return v, err
}

func (e *selEval) not() (bool, error) {
	if e.peek() == "not" {
		e.i++
		v, err := e.not()
		return !v, err
	}
	return e.atom()
}

func (e *selEval) atom() (bool, error) {
	t := e.peek()
	switch t {
	case "":
		return false, fmt.Errorf("selector ends too early")
	case "(":
		e.depth++
		if e.depth > 50 {
			return false, fmt.Errorf("selector nests too deep")
		}
		e.i++
		v, err := e.or()
		if err != nil {
			return false, err
		}
		if e.peek() != ")" {
			return false, fmt.Errorf("missing ')'")
		}
		e.i++
		e.depth--
		return v, nil
	case ")", "and", "or":
		return false, fmt.Errorf("unexpected %q", t)
	}
	e.i++
	if v, ok := e.vars[t]; ok {
		return v, nil
	}
	if selectorSubdirs[t] {
		return t == e.platform, nil
	}
	return false, fmt.Errorf("unknown platform name %q", t)
}
