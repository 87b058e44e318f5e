package lockfile

import (
	"strings"
	"testing"
)

// TestPickByName: the names a directory search takes outright, those it
// takes only when their content is an environment file's, and those it
// never looks at.
func TestPickByName(t *testing.T) {
	for _, tc := range []struct {
		name           string
		input, content bool
	}{
		{"environment.yml", true, false},
		{"Environment-GPU.YAML", true, false},
		{"envs/train.environment.yml", true, false},
		{"gpu.conda.yml", true, false},
		{"deploy/cpu.conda.yaml", true, false},
		{"conda-lock.yml", true, false},
		{"linux.conda-lock.yaml", true, false},
		{"requirements-dev.txt", true, false},
		{"pixi.toml", true, false},
		// by content: env*, envs/, conda/, environments/, any YAML
		{"env.yml", true, true},
		{"envoy.yaml", true, true},
		{"envs/gpu.yml", true, true},
		{"conda/meta.yaml", true, true},
		{"environments/cpu.yaml", true, true},
		{"ci/train.yml", true, true},
		{"001.yml", true, true},
		{"docker-compose.yml", true, true},
		{"pyproject.toml", true, true},
		{"spec-file.txt", true, true},
		// never
		{"README.md", false, false},
		{"envs/train.py", false, false},
		{"environment.yml.bak", false, false},
		{"setup.cfg", false, false},
	} {
		if got := IsInputName(tc.name); got != tc.input {
			t.Errorf("IsInputName(%q) = %v, want %v", tc.name, got, tc.input)
		}
		if got := NeedsContentToPick(tc.name); got != tc.content {
			t.Errorf("NeedsContentToPick(%q) = %v, want %v", tc.name, got, tc.content)
		}
	}
}

// TestPickByContent: a YAML file is an environment file when its top level
// is a mapping with a dependencies: list and a channels: or name: key;
// where its name or directory suggests one, a top-level dependencies: key
// is enough. Other YAML is left alone.
func TestPickByContent(t *testing.T) {
	env := "name: gpu\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - pip:\n      - torch\n"
	for _, tc := range []struct {
		what, name, src string
		want            bool
	}{
		{"an environment file", "ci/train.yml", env, true},
		{"channels without name", "a.yml", "channels: [conda-forge]\ndependencies:\n- numpy\n", true},
		{"name without channels, flow list", "a.yml", "name: x\ndependencies: [numpy, \"scipy>=1\"]\n", true},
		{"empty flow list", "a.yml", "name: x\ndependencies: []\n", true},
		{"pip first", "a.yml", "name: x\ndependencies:\n  - pip:\n    - torch\n", true},
		{"channel-qualified first", "a.yml", "name: x\ndependencies:\n  - conda-forge::numpy  # pinned\n", true},
		{"BOM, comments, document start", "a.yml", "\xef\xbb\xbf# env\n%YAML 1.2\n---\nname: x # n\n\ndependencies:\n\n  # first\n  - numpy\n", true},
		{"quoted keys", "a.yml", "\"name\": x\n'dependencies':\n  - numpy\n", true},
		{"CRLF", "a.yml", "name: x\r\ndependencies:\r\n  - numpy\r\n", true},
		{"head cut mid-list", "a.yml", "name: x\ndependencies:\n  - numpy\n  - sci", true},
		{"broken: dependencies a pip: mapping", "a.yml", "name: heroku\ndependencies:\n pip:\n  - Django\n", true},
		{"broken: items unindented, beside channels", "a.yml", "name: x\nchannels:\n  - conda-forge\ndependencies:\nabsl-py=0.7.0=pypi_0\n", true},
		{"broken: a mapping beside channels", "a.yml", "channels: [conda-forge]\ndependencies:\n  numpy: 1\n", true},
		{"dependencies only", "a.yml", "dependencies:\n  - numpy\n", false},
		{"dependencies only, in envs/", "envs/a.yml", "dependencies:\n  - numpy\n", true},
		{"dependencies only, env-named", "env-cpu.yaml", "dependencies:\n  - numpy\n", true},
		{"name only", "a.yml", "name: x\n\n- conda-forge\n", false},
		{"a list at the top", "a.yml", "- conda-forge\ndependencies:\n  - numpy\n", false},
		{"a flow mapping at the top", "a.yml", "{name: x}\n", false},
		{"null dependencies beside channels: broken", "a.yml", "name: x\ndependencies:\nchannels: [a]\n", true},
		{"null dependencies beside a name", "a.yml", "name: x\ndependencies:\n", false},
		{"a mapping of dependencies beside a name", "a.yml", "name: x\ndependencies:\n  numpy: 1\n", false},
		{"a mapping of dependencies", "pubspec.yaml", "name: app\ndependencies:\n  flutter:\n    sdk: flutter\n", false},
		{"a Helm chart", "Chart.yaml", "apiVersion: v2\nname: web\ndependencies:\n  - name: common\n    version: 1.x\n", false},
		{"a flow list of mappings", "a.yml", "name: x\ndependencies: [{name: y}]\n", false},
		{"nested dependencies", "a.yml", "name: x\nspec:\n  dependencies:\n    - numpy\n", false},
		{"second document", "a.yml", "kind: A\n---\nname: x\ndependencies:\n  - numpy\n", false},
		{"docker compose", "envs-compose.yml", "services:\n  web:\n    image: nginx\n    depends_on: [db]\n", false},
		{"envoy", "envoy.yaml", "static_resources:\n  listeners:\n  - name: l\n", false},
		{"dotenv-style env.yml", "deploy/env.yml", "DATABASE_URL: postgres://db\nDEBUG: \"1\"\n", false},
		{"dotenv lines", "env.yml", "FOO=bar\nBAZ=1\n", false},
		{"conda-build recipe", "conda/meta.yaml", "package:\n  name: x\nrequirements:\n  run:\n    - numpy\n", false},
		{"empty", "env.yml", "", false},
	} {
		if got := PickByContent(tc.name, []byte(tc.src)); got != tc.want {
			t.Errorf("%s: PickByContent(%q) = %v, want %v", tc.what, tc.name, got, tc.want)
		}
	}
	// The head alone decides: keys after PickHead bytes are not seen.
	long := "dependencies:\n" + strings.Repeat("  - numpy\n", PickHead/10) + "name: x\n"
	if PickByContent("a.yml", []byte(long[:PickHead])) {
		t.Errorf("a name: key past the head was seen")
	}
	if !PickByContent("a.yml", []byte(long)) {
		t.Errorf("the whole file is an environment file")
	}
}

// FuzzPickByContent: the head reader never panics, and what it says of a
// text does not depend on a trailing comment line.
func FuzzPickByContent(f *testing.F) {
	for _, s := range []string{"name: x\ndependencies:\n  - numpy\n", "'a':\n", "\"", "dependencies: [", "---\n...\n", "- a\n", "\xef\xbb\xbf"} {
		f.Add("a.yml", s)
		f.Add("envs/b.yaml", s)
	}
	f.Fuzz(func(t *testing.T, name, src string) {
		got := PickByContent(name, []byte(src))
		if strings.HasSuffix(src, "\n") && isYAMLName(strings.ToLower(name)) {
			if again := PickByContent(name, []byte(src+"# end\n")); again != got {
				t.Errorf("a trailing comment changed the answer for %q: %v, then %v", src, got, again)
			}
		}
	})
}
