package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestForeignExport: review thirteen #1154. A `conda env export` made on
// macOS or Windows (its prefix says so) that pins that platform's build of
// a package every platform compiles itself cannot be created on the Linux
// machine a target is: conda finds no such build (ResolvePackageNotFound).
// Every target fails on the file, naming the line of the pinned build and
// how to export it again (reviews forty-four F1, fifty-three F42); without
// builds, or with the platform named, the file is judged as before.
func TestForeignExport(t *testing.T) {
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"a100"})
	if err != nil {
		t.Fatal(err)
	}
	const body = "name: x\nchannels: [conda-forge]\ndependencies:\n  - python=3.9.16=%s\n  - pip\n  - pip:\n    - torch==2.0.0\nprefix: %s\n"
	for _, tc := range []struct {
		name, build, prefix, platform string
		foreign                       bool
	}{
		{"macOS export", "hea58f1e_0_cpython", "/opt/homebrew/Caskroom/miniforge/base/envs/x", "", true},
		{"Windows export", "h4de0772_0_cpython", `C:\Users\me\miniconda3\envs\x`, "", true},
		{"Linux export", "h2782a2a_0_cpython", "/home/me/miniconda3/envs/x", "", false},
		{"macOS export read for its platform", "hea58f1e_0_cpython", "/Users/me/miniconda3/envs/x", "osx-arm64", false},
		{"macOS export without builds", "*", "/Users/me/miniconda3/envs/x", "", false},
	} {
		src := strings.Replace(strings.Replace(body, "%s", tc.build, 1), "%s", tc.prefix, 1)
		if tc.build == "*" {
			src = strings.Replace(src, "=*", "", 1)
		}
		r := Validate("environment.yml", []byte(src), Options{Platform: tc.platform, Hosts: hosts})
		// conda cannot create it there: every target fails on the file
		// (reviews forty-four F1, fifty-three F42)
		got := ""
		for _, tr := range r.Targets {
			if strings.Contains(tr.Uninstallable, "conda env export made on") {
				got = tr.Uninstallable
				if tr.Verdict != gpucheck.VerdictFail {
					t.Errorf("%s: verdict %s, want fail", tc.name, tr.Verdict)
				}
			}
		}
		if (got != "") != tc.foreign {
			t.Errorf("%s: foreign export %v, want %v", tc.name, got != "", tc.foreign)
			continue
		}
		if got != "" && (!strings.Contains(got, "python=3.9.16="+tc.build+", line 4") || !strings.Contains(got, "linux-64 has no such build") || !strings.Contains(got, "conda env export --from-history")) {
			t.Errorf("%s: %s", tc.name, got)
		}
	}
}

// TestWindowsRuntimeWithoutPrefix: review thirteen #142. A file with no
// prefix that lists the Visual C++ runtime (vc, vs2015_runtime), which
// conda publishes for Windows only, was written on Windows: read for
// linux-64, every target fails on the file (conda cannot create it); read for
// win-64 it is judged.
func TestWindowsRuntimeWithoutPrefix(t *testing.T) {
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"a100"})
	if err != nil {
		t.Fatal(err)
	}
	src := "channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - vc=14.42\n  - pip\n  - pip:\n    - torch==2.7.0\n"
	for _, tc := range []struct {
		platform string
		foreign  bool
	}{{"linux-64", true}, {"win-64", false}} {
		r := Validate("environment.yml", []byte(src), Options{Platform: tc.platform, Hosts: hosts})
		got := false
		for _, tr := range r.Targets {
			if strings.Contains(tr.Uninstallable, "vc=14.42 (line 4)") && tr.Verdict == gpucheck.VerdictFail {
				got = true
			}
		}
		if got != tc.foreign {
			t.Errorf("%s: foreign %v, want %v", tc.platform, got, tc.foreign)
		}
	}
}

// TestNameReasonOfUnreadFile: review fourteen, name 171. A file envguard
// could not read (EG100) whose framework sits after the error is not a
// file with no framework: the refusal says the file was not read first.
func TestNameReasonOfUnreadFile(t *testing.T) {
	src := "name: x\ndependencies:\n  - python=3.7\n  - numpy: [\n  - tensorflow-gpu=2.0.0\n"
	r := Validate("environment.yml", []byte(src), Options{Platform: "linux-64"})
	if r.Name.Canonical != "" || !strings.HasPrefix(r.Name.Reason, "envguard could not read the file (EG100") {
		t.Errorf("name %+v", r.Name)
	}
}

// TestLocalProjectGPUExtra: review fifteen, corpus 181. `-e .[gpu]`
// installs a local project's GPU extra, whose dependencies are in the
// project's metadata, not in the file: no target is ok beside it. A local
// project without such an extra (`-e .`) is not taken for GPU code.
func TestLocalProjectGPUExtra(t *testing.T) {
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"h100"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line string
		want gpucheck.Verdict
	}{
		{"-e .[gpu]", gpucheck.VerdictUnknown},
		{"-e ./pkg[cuda12]", gpucheck.VerdictUnknown},
		{"-e .", gpucheck.VerdictOK},
		{"-e .[dev]", gpucheck.VerdictOK},
	} {
		src := "channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - " + tc.line + "\n"
		r := Validate("environment.yml", []byte(src), Options{Platform: "linux-64", Hosts: hosts})
		if len(r.Targets) != 1 || r.Targets[0].Verdict != tc.want {
			t.Errorf("%s: %+v, want %s", tc.line, r.Targets, tc.want)
		}
	}
}
