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
// trees four levels deep (about 60 directories a package); and torch's
// C++ libraries as their symbol tables make them (synthTorch), with four
// of the packages holding an extension that imports from them. It returns
// the prefix and one library's path (the inspect row's).
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
	torchRec, err := synthTorch(site, npkgs, name)
	if err != nil {
		return "", "", err
	}
	if err := writeDist(site, "torch", "2.11.0+cu130", torchRec); err != nil {
		return "", "", err
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

// Torch's libraries in the synthetic venv, by their exports: about what
// the cu130 wheel of torch 2.11 carries (libtorch_cpu the most by far).
var synthTorchLibs = []struct {
	name    string
	exports int
	needed  []string
}{
	{"libc10.so", 20000, []string{"libc.so.6"}},
	{"libtorch_cpu.so", 150000, []string{"libc10.so", "libc.so.6"}},
	{"libtorch_cuda.so", 60000, []string{"libtorch_cpu.so", "libc10.so", "libc.so.6"}},
	{"libtorch_python.so", 15000, []string{"libtorch_cpu.so", "libc10.so", "libc.so.6"}},
}

// synthTorch writes torch/lib's libraries and an extension, importing
// 2,000 of their symbols each, in four of the packages; it returns the
// lines of torch's RECORD.
func synthTorch(site string, npkgs int, name func(int) string) (string, error) {
	var rec strings.Builder
	var all []string
	for _, l := range synthTorchLibs {
		exp := torchSymbols(strings.TrimSuffix(l.name, ".so"), l.exports)
		all = append(all, exp...)
		rel := "torch/lib/" + l.name
		if err := writeFile(site, rel, synthELF(l.name, l.needed, exp, nil)); err != nil {
			return "", err
		}
		fmt.Fprintf(&rec, "%s,,\n", rel)
	}
	for i := range min(4, npkgs) {
		imp := make([]string, 2000)
		for j := range imp {
			imp[j] = all[(j*7919+i*104729)%len(all)]
		}
		rel := fmt.Sprintf("%s/_C.cpython-312-x86_64-linux-gnu.so", name(i))
		if err := writeFile(site, rel, synthELF("", []string{"libtorch_cpu.so", "libc10.so", "libc.so.6"}, nil, imp)); err != nil {
			return "", err
		}
	}
	return rec.String(), nil
}

func writeFile(site, rel string, data []byte) error {
	p := filepath.Join(site, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o755)
}

// writeDist writes a dist-info with METADATA and RECORD.
func writeDist(site, pkg, version, record string) error {
	di := fmt.Sprintf("%s-%s.dist-info", pkg, version)
	meta := fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: %s\n", pkg, version)
	if err := writeFile(site, di+"/METADATA", []byte(meta)); err != nil {
		return err
	}
	return writeFile(site, di+"/RECORD", []byte(record+di+"/METADATA,,\n"+di+"/RECORD,,\n"))
}
