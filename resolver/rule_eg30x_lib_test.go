package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// fakeEnv builds an Env from a small environment.yml with real positions,
// by lines: `  - item` under dependencies, `    - item` under `- pip:`, and
// `  KEY: value` under variables. It lets these tests run without the file
// parser (envspec.Parse), whose job is not under test here; Spec and Line
// stay nil, which is also the path taken for items the parsers reject.
func fakeEnv(t *testing.T, src string) *envspec.Env {
	t.Helper()
	env := &envspec.Env{File: "test.yml", Kind: envspec.KindEnvFile}
	section := ""
	for i, line := range strings.Split(src, "\n") {
		n := i + 1
		env.Lines = append(env.Lines, line)
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if indent == 0 {
			section = strings.TrimSuffix(trimmed, ":")
			continue
		}
		item, comment, _ := strings.Cut(trimmed, " #")
		item = strings.TrimSpace(item)
		switch {
		case section == "dependencies" && item == "- pip:":
			section = "pip"
			env.PipKey = &finding.Pos{File: env.File, Line: n, Col: indent + 3}
		case section == "pip" && indent <= 2:
			section = "dependencies"
			fallthrough
		case section == "dependencies" && strings.HasPrefix(item, "- "):
			env.Deps = append(env.Deps, &envspec.CondaDep{
				Raw:     envspec.String{Value: strings.TrimSpace(item[2:]), Pos: finding.Pos{File: env.File, Line: n, Col: indent + 3}},
				Comment: comment})
		case section == "pip" && strings.HasPrefix(item, "- "):
			env.Pip = append(env.Pip, &envspec.PipDep{
				Raw:     envspec.String{Value: strings.TrimSpace(item[2:]), Pos: finding.Pos{File: env.File, Line: n, Col: indent + 3}},
				Comment: comment})
		case section == "variables":
			k, v, ok := strings.Cut(trimmed, ":")
			if !ok {
				t.Fatalf("line %d: variable without ':'", n)
			}
			vcol := indent + len(k) + 2
			rest := v
			for strings.HasPrefix(rest, " ") {
				rest = rest[1:]
				vcol++
			}
			val := strings.Trim(rest, `"'`)
			env.Variables = append(env.Variables, envspec.Variable{
				Key:   envspec.String{Value: k, Pos: finding.Pos{File: env.File, Line: n, Col: indent + 1}},
				Value: envspec.String{Value: val, Pos: finding.Pos{File: env.File, Line: n, Col: vcol}},
			})
		}
	}
	return env
}

// runRule runs one rule on a file and returns its findings as Error() lines.
func runRule(t *testing.T, r *Rule, ctx *Context) []string {
	t.Helper()
	var out []string
	for _, d := range r.Run(ctx) {
		if d.Code != r.Code || d.Severity != r.Severity {
			t.Errorf("%s returned code %s severity %v", r.Code, d.Code, d.Severity)
		}
		if d.Hint == "" {
			t.Errorf("%s: finding without a hint: %s", r.Code, d.Error())
		}
		out = append(out, d.Error())
	}
	return out
}

type ruleCase struct {
	name string
	src  string
	// want are substrings, one per expected finding, in order: the
	// position prefix and a part of the message.
	want  []string
	stack *Stack
	env   map[string]string
}

func checkRuleCases(t *testing.T, r *Rule, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := &Context{Env: fakeEnv(t, tc.src), Stack: tc.stack}
			if tc.env != nil {
				ctx.Getenv = func(k string) string { return tc.env[k] }
			}
			got := runRule(t, r, ctx)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("finding %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestMixRulesRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range mixRules() {
		if r.run == nil || r.Code == "" || r.Name == "" || r.Title == "" || r.Why == "" || r.Fix == "" ||
			r.Before == "" || r.After == "" || r.Since != "0.1.0" {
			t.Errorf("%s: incomplete documentation or no Run", r.Code)
		}
		if seen[r.Code] || seen[r.Name] {
			t.Errorf("%s: duplicate code or name", r.Code)
		}
		seen[r.Code], seen[r.Name] = true, true
		if r.Name != strings.ToLower(r.Name) || strings.ContainsAny(r.Name, " _") {
			t.Errorf("%s: name %q is not kebab-case", r.Code, r.Name)
		}
	}
	want := map[string]finding.Severity{
		"EG301": finding.SeverityError, "EG302": finding.SeverityWarning, "EG303": finding.SeverityWarning,
		"EG304": finding.SeverityWarning, "EG305": finding.SeverityError, "EG503": finding.SeverityWarning,
		"EG504": finding.SeverityWarning, "EG505": finding.SeverityInfo,
	}
	for _, r := range mixRules() {
		if s, ok := want[r.Code]; !ok || s != r.Severity {
			t.Errorf("%s: severity %v, RULES.md says %v", r.Code, r.Severity, s)
		}
	}
	if n := len(mixRules()); n != len(want) {
		t.Errorf("%d mixing rules, want %d", n, len(want))
	}
}

func TestRulesNilSafe(t *testing.T) {
	for _, r := range mixRules() {
		_ = r.Run(nil)
		_ = r.Run(&Context{})
		_ = r.Run(&Context{Env: &envspec.Env{Deps: []*envspec.CondaDep{nil}, Pip: []*envspec.PipDep{nil}}})
	}
}

func TestPipCUDAMajor(t *testing.T) {
	cases := []struct {
		line, index string
		want        int
	}{
		{"torch==2.1.0+cu121", "", 12},
		{"torch==1.13.1+cu117", "", 11},
		{"torch==1.7.1+cu92", "", 9},
		{"torch==2.1.0", "cu118", 11},
		{"torch==2.1.0", "", 0},
		{"torch==2.1.0+cpu", "cu118", 0},
		{"cupy-cuda11x", "", 11},
		{"cupy-cuda12x==13.0", "", 12},
		{"cupy-cuda102", "", 10},
		{"nvidia-cudnn-cu12==8.9.2.26", "", 12},
		{"nvidia-cuda-runtime-cu11", "", 11},
		{"jax[cuda12]==0.4.30", "", 12},
		{"jax[cuda11_pip]", "", 11},
		{"jax-cuda12-plugin", "", 12},
		{"tensorrt-cu12", "", 12},
		{"cudf-cu11==24.2", "", 11},
		{"mxnet-cu112", "", 11},
		{"numpy==1.26", "cu121", 0},
		{"https://example.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl", "", 11},
	}
	for _, tc := range cases {
		it, ok := roughPipReq(tc.line)
		if !ok {
			t.Errorf("%q: not read as a requirement", tc.line)
			continue
		}
		if got, _ := pipCUDAMajor(it, tc.index); got != tc.want {
			t.Errorf("pipCUDAMajor(%q, %q) = %d, want %d", tc.line, tc.index, got, tc.want)
		}
	}
}

func TestRoughPip(t *testing.T) {
	if o, ok := roughPipOption("--extra-index-url https://x/whl/cu118"); !ok || o.Name != "--extra-index-url" || o.Value != "https://x/whl/cu118" {
		t.Errorf("option: %+v %v", o, ok)
	}
	if o, ok := roughPipOption("--index-url=https://x/whl/cpu"); !ok || o.Name != "--index-url" || o.Value != "https://x/whl/cpu" {
		t.Errorf("option with '=': %+v %v", o, ok)
	}
	if o, ok := roughPipOption("-f https://x/whl/torch_stable.html"); !ok || o.Name != "--find-links" {
		t.Errorf("-f: %+v %v", o, ok)
	}
	if it, ok := roughPipReq("Jax[CUDA12] >=0.4"); !ok || it.Name != "jax" || len(it.Extras) != 1 || it.Extras[0] != "cuda12" {
		t.Errorf("extras: %+v %v", it, ok)
	}
	if it, ok := roughPipReq("https://storage.example/cuda101/jaxlib-0.1.51-cp37-none-manylinux2010_x86_64.whl"); !ok || it.Name != "jaxlib" {
		t.Errorf("wheel URL: %+v %v", it, ok)
	}
	if got := roughConda("pytorch::pytorch=2.1=py3.10_cuda12.1*"); got != "pytorch" {
		t.Errorf("roughConda = %q", got)
	}
}
