package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// synthPrefix lays out a venv shaped like the H200's torch venv, for the
// check rows where no real one is given: lib/python3.12/site-packages with
// npkgs dist-infos (METADATA and a RECORD listing every file), libs ELF
// shared libraries (copies, not links, of native/testdata/fatbin's nvcc
// fixtures, so each has its own inode as an installed file has) spread
// over the packages' lib/ directories, and pyfiles ordinary .py files in
// trees four levels deep (about 60 directories a package). It returns the prefix and one library's path
// (the inspect row's).
func synthPrefix(root, dir string, npkgs, libs, pyfiles int) (string, string, error) {
	fixtures, err := filepath.Glob(filepath.Join(root, "native", "testdata", "fatbin", "*.so"))
	if err != nil || len(fixtures) == 0 {
		return "", "", fmt.Errorf("no ELF fixtures under %s/native/testdata/fatbin", root)
	}
	var bodies [][]byte
	for _, f := range fixtures {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", "", err
		}
		bodies = append(bodies, b)
	}
	prefix := filepath.Join(dir, "venv")
	site := filepath.Join(prefix, "lib", "python3.12", "site-packages")
	if err := os.MkdirAll(site, 0o755); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(filepath.Join(prefix, "pyvenv.cfg"), []byte("home = /usr/bin\nversion = 3.12.3\n"), 0o644); err != nil {
		return "", "", err
	}
	records := make([]strings.Builder, npkgs)
	name := func(i int) string { return fmt.Sprintf("synthpkg%02d", i) }
	write := func(pkg int, rel string, data []byte, mode os.FileMode) error {
		p := filepath.Join(site, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, mode); err != nil {
			return err
		}
		fmt.Fprintf(&records[pkg], "%s,,%d\n", rel, len(data))
		return nil
	}
	first := ""
	for i := range libs {
		pkg := i % npkgs
		rel := fmt.Sprintf("%s/lib/libsynth%04d.so", name(pkg), i)
		if err := write(pkg, rel, bodies[i%len(bodies)], 0o755); err != nil {
			return "", "", err
		}
		if first == "" {
			first = filepath.Join(site, filepath.FromSlash(rel))
		}
	}
	py := []byte("# generated\nimport os\n\ndef f():\n    return os.sep\n")
	for i := range pyfiles {
		pkg := i % npkgs
		// About 60 directories a package, 17 files each, as torch's tree
		// has (a few thousand directories for ~30,000 files).
		j := i / npkgs
		rel := fmt.Sprintf("%s/m%d/n%d/o%d/mod%d.py", name(pkg), j%3, (j/3)%4, (j/12)%5, i)
		if err := write(pkg, rel, py, 0o644); err != nil {
			return "", "", err
		}
	}
	for i := range npkgs {
		di := filepath.Join(site, name(i)+"-1.0.dist-info")
		if err := os.MkdirAll(di, 0o755); err != nil {
			return "", "", err
		}
		meta := fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: 1.0\n", name(i))
		if err := os.WriteFile(filepath.Join(di, "METADATA"), []byte(meta), 0o644); err != nil {
			return "", "", err
		}
		fmt.Fprintf(&records[i], "%s-1.0.dist-info/METADATA,,\n%s-1.0.dist-info/RECORD,,\n", name(i), name(i))
		if err := os.WriteFile(filepath.Join(di, "RECORD"), []byte(records[i].String()), 0o644); err != nil {
			return "", "", err
		}
	}
	return prefix, first, nil
}
