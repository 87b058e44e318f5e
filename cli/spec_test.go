package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func strp(s string) *string { return &s }

func TestSpecJSON(t *testing.T) {
	for _, tc := range []struct {
		spec                            string
		channel, subdir, version, build *string
		name                            string
		matches                         map[string]bool
	}{
		{spec: "pytorch>=1.12,<2", name: "pytorch", version: strp(">=1.12,<2"),
			matches: map[string]bool{"1.13.1": true, "2.0.0": false, "1.11.0": false}},
		// conda's match_spec.py: "translate version '=1.2.3' to '1.2.3*'".
		{spec: "numpy=1.8", name: "numpy", version: strp("1.8*"),
			matches: map[string]bool{"1.8.2": true, "1.80": false, "1.9": false}},
		{spec: "numpy==1.8", name: "numpy", version: strp("1.8"),
			matches: map[string]bool{"1.8": true, "1.8.2": false}},
		{spec: "pytorch::pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0", channel: strp("pytorch"), name: "pytorch",
			version: strp("1.13.1"), build: strp("py3.9_cuda11.6_cudnn8_0"),
			matches: map[string]bool{"1.13.1": true, "1.13.0": false}},
		{spec: "conda-forge/linux-64::python", channel: strp("conda-forge"), subdir: strp("linux-64"), name: "python",
			matches: map[string]bool{"3.10.4": true}},
		{spec: "numpy[version='>=1.20',build=py*]", name: "numpy", version: strp(">=1.20"), build: strp("py*"),
			matches: map[string]bool{"1.26.4": true, "1.19.5": false}},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			args := []string{"spec", "--json", tc.spec}
			for v := range tc.matches {
				args = append(args, v)
			}
			code, out, errs := egRun(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var got specJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			// Absent parts are null, not "": check the raw JSON too.
			var raw map[string]json.RawMessage
			_ = json.Unmarshal([]byte(out), &raw)
			for _, k := range []string{"spec", "channel", "subdir", "name", "version", "build", "matches"} {
				if _, ok := raw[k]; !ok {
					t.Errorf("key %q missing", k)
				}
			}
			eq := func(field string, g, w *string) {
				switch {
				case g == nil && w == nil:
				case g == nil || w == nil || *g != *w:
					t.Errorf("%s = %s, want %s", field, show(g), show(w))
				}
			}
			if got.Spec != tc.spec || got.Name != tc.name {
				t.Errorf("spec/name = %q/%q", got.Spec, got.Name)
			}
			eq("channel", got.Channel, tc.channel)
			eq("subdir", got.Subdir, tc.subdir)
			eq("version", got.Version, tc.version)
			eq("build", got.Build, tc.build)
			for v, w := range tc.matches {
				if g, ok := got.Matches[v]; !ok || g != w {
					t.Errorf("matches[%s] = %v (present %v), want %v", v, g, ok, w)
				}
			}
		})
	}
}

func show(p *string) string {
	if p == nil {
		return "null"
	}
	return `"` + *p + `"`
}

func TestSpecErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"spec", "pytorch>=2.0,<<3"}, `invalid MatchSpec "pytorch>=2.0,<<3"`},
		{[]string{"spec", "numpy[version=1.2"}, `invalid MatchSpec`},
		{[]string{"spec"}, "arg"},
	} {
		code, out, errs := egRun(t, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q (want %q)", tc.args, code, out, errs, tc.want)
		}
	}
}

func TestSpecText(t *testing.T) {
	code, out, _ := egRun(t, "", "spec", "pytorch>=1.12,<2", "1.13.1", "2.0.0")
	if code != 0 || !strings.Contains(out, "admits 1.13.1: yes") || !strings.Contains(out, "admits 2.0.0: no") ||
		!strings.Contains(out, "channel: (any)") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// A "=>" typo: spec says what validate says (EG103 with its fix) and
// exits as validate does.
func TestSpecSaysEG103(t *testing.T) {
	code, out, _ := egRun(t, "", "spec", "pytorch=>2")
	if code != 1 || !strings.Contains(out, `error EG103 "=>" is not a conda operator`) || !strings.Contains(out, "= fixed: pytorch>=2") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = egRun(t, "", "spec", "--json", "pytorch=>2")
	var j specJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 1 || len(j.Issues) != 1 || j.Issues[0].Code != "EG103" || j.Issues[0].Fixed != "pytorch>=2" {
		t.Errorf("exit %d, %v: %s", code, err, out)
	}
	if code, out, _ := egRun(t, "", "spec", "pytorch>=2"); code != 0 || strings.Contains(out, "EG103") {
		t.Errorf("a good spec: exit %d:\n%s", code, out)
	}
}
