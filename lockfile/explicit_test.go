package lockfile

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
)

const explicitSample = `# This file may be used to create an environment using:
# $ conda create --name <env> --file <this file>
# platform: linux-64
@EXPLICIT
https://conda.anaconda.org/conda-forge/linux-64/_libgcc_mutex-0.1-conda_forge.tar.bz2
https://conda.anaconda.org/conda-forge/linux-64/numpy-1.26.4-py311h64a7726_0.conda#a502d7aad449a1206efb366d6a12c52d
https://conda.anaconda.org/pytorch/linux-64/pytorch-2.5.1-py3.11_cuda12.4_cudnn9.1.0_0.tar.bz2#abc
https://conda.anaconda.org/conda-forge/noarch/python-dateutil-2.9.0.post0-pyhff2d567_1.conda
https://repo.anaconda.com/pkgs/main/linux-64/libffi-3.4.4-h6a678d5_1.conda
`

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		src  string
		want envspec.Kind
	}{
		{explicitSample, envspec.KindExplicit},
		{"@EXPLICIT\n", envspec.KindExplicit},
		{"\xef\xbb\xbf\n  @EXPLICIT  \r\n", envspec.KindExplicit},
		{"name: x\ndependencies: [a]\n", envspec.KindEnvFile},
		{"# a comment\nname: x\n@EXPLICIT\n", envspec.KindEnvFile},
		{"", envspec.KindEnvFile},
	} {
		if got := Sniff([]byte(c.src)); got != c.want {
			t.Errorf("Sniff(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

func TestReadExplicit(t *testing.T) {
	env := readExplicit("spec.txt", []byte(explicitSample))
	if env.Kind != envspec.KindExplicit || env.Platform != "linux-64" {
		t.Errorf("Kind %v Platform %q", env.Kind, env.Platform)
	}
	if len(env.Diags) != 0 {
		t.Fatalf("Diags = %v", env.Diags)
	}
	want := []struct {
		name, version, build, channel, subdir, spec string
		line                                        int
	}{
		{"_libgcc_mutex", "0.1", "conda_forge", "conda-forge", "linux-64", "conda-forge/linux-64::_libgcc_mutex==0.1=conda_forge", 5},
		{"numpy", "1.26.4", "py311h64a7726_0", "conda-forge", "linux-64", "conda-forge/linux-64::numpy==1.26.4=py311h64a7726_0", 6},
		{"pytorch", "2.5.1", "py3.11_cuda12.4_cudnn9.1.0_0", "pytorch", "linux-64", "pytorch/linux-64::pytorch==2.5.1=py3.11_cuda12.4_cudnn9.1.0_0", 7},
		{"python-dateutil", "2.9.0.post0", "pyhff2d567_1", "conda-forge", "noarch", "conda-forge/noarch::python-dateutil==2.9.0.post0=pyhff2d567_1", 8},
		{"libffi", "3.4.4", "h6a678d5_1", "https://repo.anaconda.com/pkgs/main", "linux-64", "", 9},
	}
	if len(env.Deps) != len(want) {
		t.Fatalf("Deps = %d, want %d", len(env.Deps), len(want))
	}
	for i, w := range want {
		d := env.Deps[i]
		in := d.Installed
		if in.Name != w.name || in.Version != w.version || in.Build != w.build || in.Channel != w.channel || in.Subdir != w.subdir {
			t.Errorf("dep %d: %+v", i, in)
		}
		if d.Raw.Pos.Line != w.line || d.Raw.Pos.Col != 1 {
			t.Errorf("dep %d at %v", i, d.Raw.Pos)
		}
		if d.Spec == nil || d.Spec.Name != w.name || d.Spec.Build != w.build || d.Spec.Version == nil {
			t.Errorf("dep %d: spec %+v", i, d.Spec)
			continue
		}
		if w.spec != "" && d.Spec.Raw != w.spec {
			t.Errorf("dep %d: spec raw %q, want %q", i, d.Spec.Raw, w.spec)
		}
		if d.Spec.Channel != w.channel {
			t.Errorf("dep %d: spec channel %q, want %q", i, d.Spec.Channel, w.channel)
		}
		if v, err := envspec.ParseVersion(w.version); err != nil || !d.Spec.Version.Match(v) {
			t.Errorf("dep %d: spec version %v does not match %s (%v)", i, d.Spec.Version, w.version, err)
		}
	}
}

func TestReadExplicitErrors(t *testing.T) {
	src := "https://conda.anaconda.org/conda-forge/linux-64/a-1-0.conda\n@EXPLICIT\nnot-a-url\nhttps://conda.anaconda.org/conda-forge/linux-64/readme.txt\nhttps://x.org/c/linux-64/nodash.conda\n"
	env := readExplicit("bad.txt", []byte(src))
	var got []string
	for _, d := range env.Diags {
		got = append(got, d.Code)
		if d.Pos.Line < 1 {
			t.Errorf("no line: %v", d)
		}
	}
	// Line 1 precedes @EXPLICIT (EG101) but is still read; lines 3-5 are not packages.
	if len(got) != 4 || got[0] != "EG101" || got[1] != "EG103" || got[3] != "EG103" {
		t.Errorf("codes %v: %v", got, env.Diags)
	}
	if len(env.Deps) != 1 || env.Deps[0].Installed.Name != "a" {
		t.Errorf("Deps = %+v", env.Deps)
	}
}

func TestReadExplicitItemBudget(t *testing.T) {
	src := "# platform: linux-64\n@EXPLICIT\n" + strings.Repeat("https://example.invalid/conda-forge/linux-64/numpy-1.26.4-py311h64a7726_0.conda\n", 30)
	env := ReadExplicitMax("e.txt", []byte(src), 10)
	if len(env.Deps) != 10 || len(env.Diags) != 1 || env.Diags[0].Code != "EG101" || env.Diags[0].Pos.Line != 13 {
		t.Errorf("%d deps, %v", len(env.Deps), env.Diags)
	}
	if env := readExplicit("e.txt", []byte(src)); len(env.Deps) != 30 || len(env.Diags) != 0 {
		t.Errorf("default budget: %d deps, %v", len(env.Deps), env.Diags)
	}
}

// readExplicit reads an explicit file with the default item budget.
func readExplicit(file string, src []byte) *envspec.Env { return ReadExplicitMax(file, src, 0) }
