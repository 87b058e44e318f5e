package lockfile

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/internal/readertest"
)

// Every reader's cost grows in proportion to its input, for each hostile
// shape that applies to it (readertest.GrowsLinearly).

// A growthShape makes one hostile shape for one reader at a scale.
type growthShape struct {
	reader, shape string
	make          func(t *testing.T, scale int) (read func())
}

func readerOf(name string, f func(file string, src []byte, opt Options) *envspec.Env, gen func(n int) string, unit int) func(t *testing.T, scale int) func() {
	return func(t *testing.T, scale int) func() {
		src := []byte(gen(unit * scale))
		return func() { f(name, src, Options{Platform: "linux-64", MaxItems: readertest.NoBudget}) }
	}
}

const pixiHead = "[workspace]\nchannels = [\"conda-forge\"]\nplatforms = [\"linux-64\"]\n"
const pyprojectHead = "[project]\nname = \"p\"\n[tool.pixi.workspace]\nchannels = [\"conda-forge\"]\nplatforms = [\"linux-64\"]\n"
const condaURL = "https://conda.anaconda.org/conda-forge/linux-64/"

func growthShapes() []growthShape {
	dotted := func(head, key string) func(n int) string {
		return func(n int) string { return head + strings.Repeat(key+".", n-1) + key + " = \"1\"\n" }
	}
	header := func(head, open, close string) func(n int) string {
		return func(n int) string { return head + open + strings.Repeat("a.", n-1) + "a" + close + "\nx = 1\n" }
	}
	return []growthShape{
		// pixi.toml
		{"pixi.toml", "deep dotted key", readerOf("pixi.toml", ReadPixiManifest, dotted(pixiHead+"[dependencies]\n", "a"), 4000)},
		{"pixi.toml", "deep dotted key, non-ASCII", readerOf("pixi.toml", ReadPixiManifest, dotted(pixiHead+"[dependencies]\n", "\"é\""), 2000)},
		{"pixi.toml", "deep table header", readerOf("pixi.toml", ReadPixiManifest, header(pixiHead, "[", "]"), 4000)},
		{"pixi.toml", "long key", readerOf("pixi.toml", ReadPixiManifest, func(n int) string {
			return pixiHead + "[dependencies]\n" + strings.Repeat("k", n) + " = \"*\"\n"
		}, 16<<10)},
		{"pixi.toml", "long line", readerOf("pixi.toml", ReadPixiManifest, func(n int) string {
			return pixiHead + "dependencies = {" + readertest.Seq(n, "p%d = \"*\", ") + "z = \"*\"}\n"
		}, 500)},
		{"pixi.toml", "many entries", readerOf("pixi.toml", ReadPixiManifest, func(n int) string {
			return pixiHead + "[dependencies]\n" + readertest.Seq(n, "p%d = \">=1.0\"\n")
		}, 500)},
		{"pixi.toml", "deep nesting", readerOf("pixi.toml", ReadPixiManifest, func(n int) string {
			return pixiHead + "[dependencies]\nx = " + strings.Repeat("{a = ", n) + "1" + strings.Repeat("}", n) + "\n"
		}, 1000)},

		// pyproject.toml
		{"pyproject.toml", "deep dotted key", readerOf("pyproject.toml", ReadPixiManifest, dotted(pyprojectHead+"[tool.pixi.dependencies]\n", "a"), 4000)},
		{"pyproject.toml", "long line", readerOf("pyproject.toml", ReadPixiManifest, func(n int) string {
			return "[project]\nname = \"p\"\ndependencies = [" + readertest.Seq(n, "\"p%d>=1\", ") + "\"z\"]\n" + pyprojectHead[len("[project]\nname = \"p\"\n"):]
		}, 500)},
		{"pyproject.toml", "many entries", readerOf("pyproject.toml", ReadPixiManifest, func(n int) string {
			return pyprojectHead + "[tool.pixi.dependencies]\n" + readertest.Seq(n, "p%d = \">=1.0\"\n")
		}, 500)},

		// uv.lock
		{"uv.lock", "deep table header", readerOf("uv.lock", ReadUVLock, header("version = 1\n", "[[", "]]"), 4000)},
		{"uv.lock", "many entries", readerOf("uv.lock", ReadUVLock, func(n int) string {
			return "version = 1\n" + readertest.Seq(n, "[[package]]\nname = \"p%d\"\nversion = \"1.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n")
		}, 300)},
		{"uv.lock", "long line", readerOf("uv.lock", ReadUVLock, func(n int) string {
			return "version = 1\n[[package]]\nname = \"torch\"\nversion = \"2.5.1\"\nwheels = [" +
				readertest.Seq(n, "{ url = \"https://h/whl/cu124/torch-2.5.1-cp312-cp312-manylinux_%d_x86_64.whl\" }, ") + "]\n"
		}, 300)},

		// pylock.toml
		{"pylock.toml", "many entries", readerOf("pylock.toml", ReadPylock, func(n int) string {
			return "lock-version = \"1.0\"\n" + readertest.Seq(n, "[[packages]]\nname = \"p%d\"\nversion = \"1.0\"\n[packages.sdist]\nurl = \"https://h/p.tar.gz\"\n")
		}, 300)},
		{"pylock.toml", "long line", readerOf("pylock.toml", ReadPylock, func(n int) string {
			return "lock-version = \"1.0\"\n[[packages]]\nname = \"torch\"\nwheels = [" +
				readertest.Seq(n, "{ url = \"https://h/torch-2.5.1-cp312-cp312-manylinux_%d_x86_64.whl\" }, ") + "]\n"
		}, 300)},
		{"pylock.toml", "long key", readerOf("pylock.toml", ReadPylock, func(n int) string {
			return "lock-version = \"1.0\"\n" + strings.Repeat("k", n) + " = 1\n[[packages]]\nname = \"a\"\n"
		}, 16<<10)},

		// conda-lock
		{"conda-lock", "many entries", readerOf("conda-lock.yml", ReadCondaLock, func(n int) string {
			return "version: 1\nmetadata:\n  platforms: [linux-64]\npackage:\n" +
				readertest.Seq(n, "- name: p%[1]d\n  version: '1.0'\n  manager: conda\n  platform: linux-64\n  url: "+condaURL+"p%[1]d-1.0-0.conda\n")
		}, 200)},
		{"conda-lock", "long line", readerOf("conda-lock.yml", ReadCondaLock, func(n int) string {
			return "version: 1\nmetadata: {platforms: [linux-64]}\npackage: [" +
				readertest.Seq(n, "{name: p%[1]d, version: '1.0', manager: conda, platform: linux-64, url: "+condaURL+"p%[1]d-1.0-0.conda}, ") + "]\n"
		}, 200)},
		{"conda-lock", "deep nesting", readerOf("conda-lock.yml", ReadCondaLock, func(n int) string {
			return "version: 1\nmetadata: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\npackage: []\n"
		}, 16<<10)},

		// pixi.lock
		{"pixi.lock", "many entries", readerOf("pixi.lock", ReadPixiLock, func(n int) string {
			return "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n" + readertest.Seq(n, "      - conda: "+condaURL+"p%d-1.0-0.conda\n") +
				"packages:\n" + readertest.Seq(n, "- conda: "+condaURL+"p%[1]d-1.0-0.conda\n  name: p%[1]d\n  version: '1.0'\n")
		}, 200)},
		{"pixi.lock", "long line", readerOf("pixi.lock", ReadPixiLock, func(n int) string {
			return "version: 6\nenvironments: {default: {packages: {linux-64: [" + readertest.Seq(n, "{conda: "+condaURL+"p%d-1.0-0.conda}, ") + "]}}}\npackages: []\n"
		}, 200)},

		// explicit files
		{"explicit", "many lines", readerOf("spec-file.txt", ReadExplicitWith, func(n int) string {
			return "@EXPLICIT\n" + readertest.Seq(n, condaURL+"p%d-1.0-0.conda#0123456789abcdef0123456789abcdef\n")
		}, 300)},
		{"explicit", "long line", readerOf("spec-file.txt", ReadExplicitWith, func(n int) string {
			return "@EXPLICIT\n" + condaURL + strings.Repeat("p", n) + "-1.0-0.conda\n"
		}, 16<<10)},

		// requirements files (requirements.go)
		{"requirements", "many continuations", readerOf("requirements.txt", ReadRequirements, func(n int) string {
			return "numpy" + strings.Repeat(" \\\n", n) + "==1.26\n"
		}, 4000)},
		{"requirements", "many lines", readerOf("requirements.txt", ReadRequirements, func(n int) string {
			return readertest.Seq(n, "pkg%d>=1.0\n")
		}, 1000)},
		{"requirements", "long line", readerOf("requirements.txt", ReadRequirements, func(n int) string {
			return "numpy==1.26 ; " + strings.Repeat("python_version >= '3' and ", n) + "python_version >= '3'\n"
		}, 500)},
	}
}

func TestReadersGrowLinearly(t *testing.T) {
	for _, g := range growthShapes() {
		t.Run(g.reader+"/"+g.shape, func(t *testing.T) { readertest.GrowsLinearly(t, g.make) })
	}
}
