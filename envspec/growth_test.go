package envspec

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/envguard/envguard/internal/timebound"
)

// The growth test (issue 22): every reader, fed each hostile shape that
// applies to it at 1x, 2x, 4x and 8x its size in one run, costs time and
// memory in proportion to its input. A cost that grows with the square of
// one dimension (a column counted from the start of the line for every key
// of a dotted key, a string rebuilt for every continuation) costs 64x at
// 8x the size, far over the bounds below; linear work costs 8x.

// growthScales are the sizes each shape is read at, in units of its 1x.
var growthScales = []int{1, 2, 4, 8}

const (
	// growthAllocFactor: bytes and allocations at k times the size stay
	// within k times those at 1x, times this. Slices that double as they
	// grow may cost up to twice their final size at one scale and just
	// over it at another; quadratic growth costs k times more again.
	growthAllocFactor = 2.5
	// growthTimeLimit: the best time at 8x stays within 3x of linear,
	// 1x and 8x timed in turn and the best of growthRounds kept, so that a
	// burst of load on a shared machine slows both alike.
	growthTimeLimit = 8 * 3
	growthRounds    = 5
	growthTries     = 3
)

// A growthShape makes one hostile shape for one reader at a scale: read
// does the work that is measured (the input is made beforehand).
type growthShape struct {
	reader, shape string
	make          func(t *testing.T, scale int) (read func())
}

// noBudget lifts the item budgets, which would otherwise cut the larger
// inputs short and hide how the reading itself grows.
const noBudget = 1 << 30

func readerOf(name string, f func(file string, src []byte, opt LockOptions) *Env, gen func(n int) string, unit int) func(t *testing.T, scale int) func() {
	return func(t *testing.T, scale int) func() {
		src := []byte(gen(unit * scale))
		return func() { f(name, src, LockOptions{Platform: "linux-64", MaxItems: noBudget}) }
	}
}

func parseEnv(file string, src []byte, opt LockOptions) *Env {
	return Parse(file, src, ParseOptions{Platform: opt.Platform, MaxItems: opt.MaxItems})
}

func readExplicit(file string, src []byte, opt LockOptions) *Env {
	return ReadExplicitMax(file, src, opt.MaxItems)
}

func seq(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
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
		// environment.yml
		{"environment.yml", "long key", readerOf("environment.yml", parseEnv, func(n int) string {
			return "dependencies:\n- numpy\n" + strings.Repeat("k", n) + ": 1\n"
		}, 16<<10)},
		{"environment.yml", "long line", readerOf("environment.yml", parseEnv, func(n int) string {
			return "dependencies: [" + strings.Repeat("numpy, ", n) + "scipy]\n"
		}, 2000)},
		{"environment.yml", "many entries", readerOf("environment.yml", parseEnv, func(n int) string {
			return "dependencies:\n" + seq(n, "- pkg%d >=1.0\n")
		}, 1000)},
		{"environment.yml", "deep nesting", readerOf("environment.yml", parseEnv, func(n int) string {
			return "dependencies: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"
		}, 16<<10)},
		{"environment.yml", "many continuations", readerOf("environment.yml", parseEnv, func(n int) string {
			return "dependencies:\n- pip:\n  - numpy" + strings.Repeat(" \\\n", n) + "    ==1.26\n"
		}, 4000)},

		// pixi.toml
		{"pixi.toml", "deep dotted key", readerOf("pixi.toml", ReadPixiManifest, dotted(pixiHead+"[dependencies]\n", "a"), 4000)},
		{"pixi.toml", "deep dotted key, non-ASCII", readerOf("pixi.toml", ReadPixiManifest, dotted(pixiHead+"[dependencies]\n", "\"é\""), 2000)},
		{"pixi.toml", "deep table header", readerOf("pixi.toml", ReadPixiManifest, header(pixiHead, "[", "]"), 4000)},
		{"pixi.toml", "long key", readerOf("pixi.toml", ReadPixiManifest, func(n int) string {
			return pixiHead + "[dependencies]\n" + strings.Repeat("k", n) + " = \"*\"\n"
		}, 16<<10)},
		{"pixi.toml", "long line", readerOf("pixi.toml", ReadPixiManifest, func(n int) string {
			return pixiHead + "dependencies = {" + seq(n, "p%d = \"*\", ") + "z = \"*\"}\n"
		}, 500)},
		{"pixi.toml", "many entries", readerOf("pixi.toml", ReadPixiManifest, func(n int) string {
			return pixiHead + "[dependencies]\n" + seq(n, "p%d = \">=1.0\"\n")
		}, 500)},
		{"pixi.toml", "deep nesting", readerOf("pixi.toml", ReadPixiManifest, func(n int) string {
			return pixiHead + "[dependencies]\nx = " + strings.Repeat("{a = ", n) + "1" + strings.Repeat("}", n) + "\n"
		}, 1000)},

		// pyproject.toml
		{"pyproject.toml", "deep dotted key", readerOf("pyproject.toml", ReadPixiManifest, dotted(pyprojectHead+"[tool.pixi.dependencies]\n", "a"), 4000)},
		{"pyproject.toml", "long line", readerOf("pyproject.toml", ReadPixiManifest, func(n int) string {
			return "[project]\nname = \"p\"\ndependencies = [" + seq(n, "\"p%d>=1\", ") + "\"z\"]\n" + pyprojectHead[len("[project]\nname = \"p\"\n"):]
		}, 500)},
		{"pyproject.toml", "many entries", readerOf("pyproject.toml", ReadPixiManifest, func(n int) string {
			return pyprojectHead + "[tool.pixi.dependencies]\n" + seq(n, "p%d = \">=1.0\"\n")
		}, 500)},

		// uv.lock
		{"uv.lock", "deep table header", readerOf("uv.lock", ReadUVLock, header("version = 1\n", "[[", "]]"), 4000)},
		{"uv.lock", "many entries", readerOf("uv.lock", ReadUVLock, func(n int) string {
			return "version = 1\n" + seq(n, "[[package]]\nname = \"p%d\"\nversion = \"1.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n")
		}, 300)},
		{"uv.lock", "long line", readerOf("uv.lock", ReadUVLock, func(n int) string {
			return "version = 1\n[[package]]\nname = \"torch\"\nversion = \"2.5.1\"\nwheels = [" +
				seq(n, "{ url = \"https://h/whl/cu124/torch-2.5.1-cp312-cp312-manylinux_%d_x86_64.whl\" }, ") + "]\n"
		}, 300)},

		// pylock.toml
		{"pylock.toml", "many entries", readerOf("pylock.toml", ReadPylock, func(n int) string {
			return "lock-version = \"1.0\"\n" + seq(n, "[[packages]]\nname = \"p%d\"\nversion = \"1.0\"\n[packages.sdist]\nurl = \"https://h/p.tar.gz\"\n")
		}, 300)},
		{"pylock.toml", "long line", readerOf("pylock.toml", ReadPylock, func(n int) string {
			return "lock-version = \"1.0\"\n[[packages]]\nname = \"torch\"\nwheels = [" +
				seq(n, "{ url = \"https://h/torch-2.5.1-cp312-cp312-manylinux_%d_x86_64.whl\" }, ") + "]\n"
		}, 300)},
		{"pylock.toml", "long key", readerOf("pylock.toml", ReadPylock, func(n int) string {
			return "lock-version = \"1.0\"\n" + strings.Repeat("k", n) + " = 1\n[[packages]]\nname = \"a\"\n"
		}, 16<<10)},

		// conda-lock
		{"conda-lock", "many entries", readerOf("conda-lock.yml", ReadCondaLock, func(n int) string {
			return "version: 1\nmetadata:\n  platforms: [linux-64]\npackage:\n" +
				seq(n, "- name: p%[1]d\n  version: '1.0'\n  manager: conda\n  platform: linux-64\n  url: "+condaURL+"p%[1]d-1.0-0.conda\n")
		}, 200)},
		{"conda-lock", "long line", readerOf("conda-lock.yml", ReadCondaLock, func(n int) string {
			return "version: 1\nmetadata: {platforms: [linux-64]}\npackage: [" +
				seq(n, "{name: p%[1]d, version: '1.0', manager: conda, platform: linux-64, url: "+condaURL+"p%[1]d-1.0-0.conda}, ") + "]\n"
		}, 200)},
		{"conda-lock", "deep nesting", readerOf("conda-lock.yml", ReadCondaLock, func(n int) string {
			return "version: 1\nmetadata: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\npackage: []\n"
		}, 16<<10)},

		// pixi.lock
		{"pixi.lock", "many entries", readerOf("pixi.lock", ReadPixiLock, func(n int) string {
			return "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n" + seq(n, "      - conda: "+condaURL+"p%d-1.0-0.conda\n") +
				"packages:\n" + seq(n, "- conda: "+condaURL+"p%[1]d-1.0-0.conda\n  name: p%[1]d\n  version: '1.0'\n")
		}, 200)},
		{"pixi.lock", "long line", readerOf("pixi.lock", ReadPixiLock, func(n int) string {
			return "version: 6\nenvironments: {default: {packages: {linux-64: [" + seq(n, "{conda: "+condaURL+"p%d-1.0-0.conda}, ") + "]}}}\npackages: []\n"
		}, 200)},

		// explicit files
		{"explicit", "many lines", readerOf("spec-file.txt", readExplicit, func(n int) string {
			return "@EXPLICIT\n" + seq(n, condaURL+"p%d-1.0-0.conda#0123456789abcdef0123456789abcdef\n")
		}, 300)},
		{"explicit", "long line", readerOf("spec-file.txt", readExplicit, func(n int) string {
			return "@EXPLICIT\n" + condaURL + strings.Repeat("p", n) + "-1.0-0.conda\n"
		}, 16<<10)},

		// requirements files (envspec/requirements.go)
		{"requirements", "many continuations", readerOf("requirements.txt", ReadRequirements, func(n int) string {
			return "numpy" + strings.Repeat(" \\\n", n) + "==1.26\n"
		}, 4000)},
		{"requirements", "many lines", readerOf("requirements.txt", ReadRequirements, func(n int) string {
			return seq(n, "pkg%d>=1.0\n")
		}, 1000)},
		{"requirements", "long line", readerOf("requirements.txt", ReadRequirements, func(n int) string {
			return "numpy==1.26 ; " + strings.Repeat("python_version >= '3' and ", n) + "python_version >= '3'\n"
		}, 500)},

		// conda-meta records (ReadPrefix)
		{"conda-meta", "long strings", prefixOf(func(n int) map[string]string {
			return map[string]string{"conda-meta/p-1.0-0.json": condaMetaJSON("p", "1."+strings.Repeat("9", n), strings.Repeat("b", n), "https://conda.anaconda.org/conda-forge", "linux-64", 1)}
		}, 16<<10)},
		{"conda-meta", "many keys", prefixOf(func(n int) map[string]string {
			return map[string]string{"conda-meta/p-1.0-0.json": "{\n" + seq(n, "  \"k%d\": 1,\n") + "  \"name\": \"p\",\n  \"version\": \"1.0\"\n}\n"}
		}, 1000)},
		{"conda-meta", "long line", prefixOf(func(n int) map[string]string {
			return map[string]string{"conda-meta/p-1.0-0.json": "{\"name\": \"p\", \"version\": \"1.0\", \"files\": [" + seq(n, "\"lib/f%d.py\", ") + "\"z\"]}"}
		}, 1000)},
		{"conda-meta", "deep nesting", prefixOf(func(n int) map[string]string {
			return map[string]string{"conda-meta/p-1.0-0.json": "{\"name\": \"p\", \"version\": \"1.0\", \"x\": " + strings.Repeat("[", n) + strings.Repeat("]", n) + "}"}
		}, 1000)},
		{"conda-meta", "many records", prefixOf(func(n int) map[string]string {
			files := map[string]string{}
			for i := range n {
				name := fmt.Sprintf("p%d", i)
				files["conda-meta/"+name+"-1.0-0.json"] = condaMetaJSON(name, "1.0", "0", "https://conda.anaconda.org/conda-forge", "linux-64", 2)
			}
			return files
		}, 32)},

		// METADATA of site-packages (ReadPrefix)
		{"METADATA", "long header line", prefixOf(func(n int) map[string]string {
			return map[string]string{"pyvenv.cfg": "version = 3.11.4\n",
				"lib/python3.11/site-packages/p-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nSummary: " + strings.Repeat("s", n) + "\nName: p\nVersion: 1.0\n\n"}
		}, 16<<10)},
		{"METADATA", "many header lines", prefixOf(func(n int) map[string]string {
			return map[string]string{"pyvenv.cfg": "version = 3.11.4\n",
				"lib/python3.11/site-packages/p-1.0.dist-info/METADATA": "Metadata-Version: 2.1\n" + seq(n, "Classifier: c%d\n") + "Name: p\nVersion: 1.0\n\n"}
		}, 500)},
		{"METADATA", "many distributions", prefixOf(func(n int) map[string]string {
			files := map[string]string{"pyvenv.cfg": "version = 3.11.4\n"}
			for i := range n {
				files[fmt.Sprintf("lib/python3.11/site-packages/p%d-1.0.dist-info/METADATA", i)] = fmt.Sprintf("Metadata-Version: 2.1\nName: p%d\nVersion: 1.0\n\n", i)
			}
			return files
		}, 32)},
	}
}

// prefixOf makes an installed environment of the files gen names.
func prefixOf(gen func(n int) map[string]string, unit int) func(t *testing.T, scale int) func() {
	return func(t *testing.T, scale int) func() {
		dir := t.TempDir()
		if files := gen(unit * scale); len(files) > 0 {
			for name, content := range files {
				writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), content)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "conda-meta")); err != nil {
			if _, err := os.Stat(filepath.Join(dir, "pyvenv.cfg")); err != nil {
				t.Fatalf("%s: neither conda-meta nor pyvenv.cfg", dir)
			}
		}
		return func() {
			if _, err := ReadPrefix(dir); err != nil {
				t.Error(err)
			}
		}
	}
}

// allocated returns the fewest bytes and allocations of rounds runs of f.
func allocated(rounds int, f func()) (bytes, allocs uint64) {
	bytes, allocs = ^uint64(0), ^uint64(0)
	var before, after runtime.MemStats
	for range rounds {
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		bytes = min(bytes, after.TotalAlloc-before.TotalAlloc)
		allocs = min(allocs, after.Mallocs-before.Mallocs)
	}
	return bytes, allocs
}

func TestReadersGrowLinearly(t *testing.T) {
	for _, g := range growthShapes() {
		t.Run(g.reader+"/"+g.shape, func(t *testing.T) {
			reads := make([]func(), len(growthScales))
			for i, s := range growthScales {
				reads[i] = g.make(t, s)
				reads[i]() // warm: the first run pays for what is built once (compiled patterns, tables)
			}
			var base [2]uint64
			var line strings.Builder
			for i, s := range growthScales {
				b, n := allocated(3, reads[i])
				if i == 0 {
					base = [2]uint64{max(b, 1), max(n, 1)}
				}
				fmt.Fprintf(&line, " %dx: %d B in %d allocs;", s, b, n)
				limit := float64(s) * growthAllocFactor
				if r := float64(b) / float64(base[0]); s > 1 && r > limit {
					t.Errorf("%dx the input allocates %.1fx the bytes of 1x (%d vs %d), over %.0fx", s, r, b, base[0], limit)
				}
				if r := float64(n) / float64(base[1]); s > 1 && r > limit && n > 1000 {
					t.Errorf("%dx the input makes %.1fx the allocations of 1x (%d vs %d), over %.0fx", s, r, n, base[1], limit)
				}
			}
			t.Log("allocated:" + line.String())
			if timebound.Race() {
				t.Log("time ratio not checked under the race detector; allocations are")
				return
			}
			// The collector is held off while a round is timed and run
			// between rounds: its cycles fall on one side or the other by
			// chance, and what it costs grows with the allocations, which
			// are held above. A ratio over the bound is measured again, up
			// to growthTries times, as timebound.RatioWithin does: a burst
			// of load may land on every 8x round once, a quadratic cost is
			// over the bound every time.
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			var r float64
			var b1, b8 time.Duration
			for range growthTries {
				b1, b8 = time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
				for range growthRounds {
					runtime.GC()
					_, d1, d8 := timebound.Ratio(1, reads[0], reads[len(reads)-1])
					b1, b8 = min(b1, d1), min(b8, d8)
				}
				if r = float64(b8) / float64(max(b1, 1)); r <= growthTimeLimit {
					break
				}
			}
			t.Logf("time: 1x %v, 8x %v: %.1fx", b1, b8, r)
			if r > growthTimeLimit {
				t.Errorf("8x the input takes %.1fx the time of 1x (%v vs %v, best of %d), over %dx", r, b8, b1, growthRounds, growthTimeLimit)
			}
		})
	}
}
