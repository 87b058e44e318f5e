package envspec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/readertest"
)

// Every reader's cost grows in proportion to its input, for each hostile
// shape that applies to it (readertest.GrowsLinearly).

// A growthShape makes one hostile shape for one reader at a scale.
type growthShape struct {
	reader, shape string
	make          func(t *testing.T, scale int) (read func())
}

// parseOf makes the environment file gen writes, unit*scale units of it.
func parseOf(gen func(n int) string, unit int) func(t *testing.T, scale int) func() {
	return func(t *testing.T, scale int) func() {
		src := []byte(gen(unit * scale))
		return func() {
			Parse("environment.yml", src, ParseOptions{Platform: "linux-64", MaxItems: readertest.NoBudget})
		}
	}
}

func growthShapes() []growthShape {
	return []growthShape{
		// environment.yml
		{"environment.yml", "long key", parseOf(func(n int) string {
			return "dependencies:\n- numpy\n" + strings.Repeat("k", n) + ": 1\n"
		}, 16<<10)},
		{"environment.yml", "long line", parseOf(func(n int) string {
			return "dependencies: [" + strings.Repeat("numpy, ", n) + "scipy]\n"
		}, 2000)},
		{"environment.yml", "many entries", parseOf(func(n int) string {
			return "dependencies:\n" + readertest.Seq(n, "- pkg%d >=1.0\n")
		}, 1000)},
		{"environment.yml", "deep nesting", parseOf(func(n int) string {
			return "dependencies: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"
		}, 16<<10)},
		{"environment.yml", "many continuations", parseOf(func(n int) string {
			return "dependencies:\n- pip:\n  - numpy" + strings.Repeat(" \\\n", n) + "    ==1.26\n"
		}, 4000)},

		// conda-meta records (ReadPrefix)
		{"conda-meta", "long strings", prefixOf(func(n int) map[string]string {
			return map[string]string{"conda-meta/p-1.0-0.json": condaMetaJSON("p", "1."+strings.Repeat("9", n), strings.Repeat("b", n), "https://conda.anaconda.org/conda-forge", "linux-64", 1)}
		}, 16<<10)},
		{"conda-meta", "many keys", prefixOf(func(n int) map[string]string {
			return map[string]string{"conda-meta/p-1.0-0.json": "{\n" + readertest.Seq(n, "  \"k%d\": 1,\n") + "  \"name\": \"p\",\n  \"version\": \"1.0\"\n}\n"}
		}, 1000)},
		{"conda-meta", "long line", prefixOf(func(n int) map[string]string {
			return map[string]string{"conda-meta/p-1.0-0.json": "{\"name\": \"p\", \"version\": \"1.0\", \"files\": [" + readertest.Seq(n, "\"lib/f%d.py\", ") + "\"z\"]}"}
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
				"lib/python3.11/site-packages/p-1.0.dist-info/METADATA": "Metadata-Version: 2.1\n" + readertest.Seq(n, "Classifier: c%d\n") + "Name: p\nVersion: 1.0\n\n"}
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

func TestReadersGrowLinearly(t *testing.T) {
	for _, g := range growthShapes() {
		t.Run(g.reader+"/"+g.shape, func(t *testing.T) { readertest.GrowsLinearly(t, g.make) })
	}
}
