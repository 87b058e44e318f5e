package gpucheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

var (
	fwPosT   = finding.Pos{File: "environment.yml", Line: 5, Col: 5}
	cudaPosT = finding.Pos{File: "environment.yml", Line: 6, Col: 5}
)

// stack builds a CUDA stack: framework version, CUDA runtime, distribution.
func stack(version, cuda string, dist kb.Distribution) *resolver.Stack {
	st := &resolver.Stack{
		Framework: &resolver.Framework{Name: "pytorch", Version: version, Variant: "cuda", Dist: dist, Pos: fwPosT},
	}
	if cuda != "" {
		st.CUDA = &resolver.CUDAInfo{Version: cuda, Evidence: []resolver.Evidence{{Item: "pytorch-cuda=" + cuda, Pos: cudaPosT, Line: cudaPosT.Line}}}
	}
	return st
}

func host(driver, cudaDriver string, ccs ...string) *Host {
	h := &Host{Name: "t", Available: true, Driver: driver, CUDADriver: cudaDriver, Source: SourceTarget, GPUs: []GPU{}}
	for i, c := range ccs {
		h.GPUs = append(h.GPUs, GPU{Index: i, Name: "GPU " + c, CC: c})
	}
	return h
}

func codes(ds []finding.Diagnostic) string {
	var s []string
	for _, d := range ds {
		s = append(s, d.Code)
	}
	return strings.Join(s, ",")
}

func TestArchVerdict(t *testing.T) {
	list := func(sass, ptx string) *kb.ArchList {
		l := &kb.ArchList{Known: true}
		if sass != "" {
			l.SASS = strings.Split(sass, ";")
		}
		if ptx != "" {
			l.PTX = strings.Split(ptx, ";")
		}
		return l
	}
	tests := []struct {
		name      string
		gpu       string
		sass, ptx string
		want      archRun
		by        string
	}{
		{"sm_86 build on sm_89 L4 (same major, higher minor)", "8.9", "7.5;8.0;8.6", "", runsSASS, "8.6"},
		{"exact match", "9.0", "8.0;9.0", "", runsSASS, "9.0"},
		{"sm_80 build on sm_90 without PTX", "9.0", "7.0;8.0;8.6", "", runsNone, ""},
		{"sm_80 build on sm_90 with 8.0 PTX", "9.0", "7.0;8.0", "8.0", runsPTX, "8.0"},
		{"9.0+PTX build on a 12.0 GPU", "12.0", "8.0;9.0", "9.0", runsPTX, "9.0"},
		{"SASS of a higher minor does not run", "8.0", "8.6", "", runsNone, ""},
		{"PTX above the GPU cannot be JIT-compiled for it", "8.0", "7.0", "8.6", runsNone, ""},
		{"highest usable PTX wins", "9.0", "", "7.0;8.0;12.0", runsPTX, "8.0"},
		{"arch-specific 9.0a runs on 9.0 only", "9.0", "9.0a", "", runsSASS, "9.0a"},
		{"arch-specific 9.0a is no SASS for a later 9.x", "9.2", "9.0a", "", runsNone, ""},
		{"arch-specific PTX is not forward compatible", "10.0", "", "9.0a", runsNone, ""},
		{"sm_ notation", "8.9", "sm_80;sm_86", "", runsSASS, "8.6"},
		{"older major SASS never runs on a newer major", "10.0", "9.0", "", runsNone, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, ok := parseCC(tt.gpu)
			if !ok {
				t.Fatalf("parseCC(%q) failed", tt.gpu)
			}
			v, by := archVerdict(g, list(tt.sass, tt.ptx))
			if v != tt.want {
				t.Fatalf("verdict = %d, want %d", v, tt.want)
			}
			if tt.by != "" && by.String() != tt.by {
				t.Errorf("by = %s, want %s", by, tt.by)
			}
		})
	}
}

func TestCheckArch(t *testing.T) {
	facts := testFacts
	facts.Arch = []kb.ArchList{
		{Series: "2.0", CUDA: "11.8", Dist: kb.DistWheel, SASS: []string{"7.5", "8.0", "8.6"}, Known: true},
		{Series: "2.1", CUDA: "11.8", Dist: kb.DistWheel, SASS: []string{"7.0", "8.0"}, PTX: []string{"8.0"}, Known: true},
		{Series: "2.2", CUDA: "11.8", Dist: kb.DistWheel, SASS: []string{"8.0", "9.0"}, Known: true},
		{Series: "2.3", CUDA: "11.8", Dist: kb.DistWheel, SASS: []string{"8.0", "9.0"}, PTX: []string{"9.0"}, Known: true},
		{Series: "2.4", CUDA: "11.8", Dist: kb.DistWheel, Known: false},
	}
	k := factsKB{facts}
	const drv = "580.65.06" // CUDA 13.0: the driver is never the problem here
	tests := []struct {
		name    string
		version string
		gpu     string
		want    string
		note    string
	}{
		{"sm_86 build on sm_89 runs", "2.0.1", "8.9", "", ""},
		{"sm_80 build on sm_90 without PTX", "2.0.1", "9.0", "EG403", ""},
		{"sm_80 build on sm_90 with 8.0 PTX", "2.1.0", "9.0", "EG408", ""},
		{"9.0 SASS on sm_90", "2.2.0", "9.0", "", ""},
		{"12.0 GPU on a build with 9.0+PTX", "2.3.0", "12.0", "EG408", ""},
		{"12.0 GPU on a build with 9.0 and no PTX", "2.2.0", "12.0", "EG403", ""},
		{"unknown list, GPU inside CUDA 11.8's range: undecided", "2.4.0", "9.0", "EG409", "the build's architecture list is not known, so whether it carries code for sm_90 on target t's GPU 0 (GPU 9.0, compute capability 9.0) is not known (CUDA 11.8's compiler targets sm_35 … sm_90)"},
		{"series absent from the KB: undecided", "1.9.0", "9.0", "EG409", "the build's architecture list is not known"},
		{"unknown list, GPU above CUDA 11.8's range: PTX only, undecided", "2.4.0", "12.0", "EG409", "CUDA 11.8's compiler targets sm_35 … sm_90, so no build made with it has SASS for"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := stack(tt.version, "11.8", kb.DistWheel)
			h := host(drv, "13.0", tt.gpu)
			ds, notes := checkT(st, h, k, CheckOptions{})
			if got := codes(ds); got != tt.want {
				t.Fatalf("codes = %q, want %q; %v", got, tt.want, ds)
			}
			for _, d := range ds {
				if d.Pos != fwPosT {
					t.Errorf("%s at %v, want the framework at %v", d.Code, d.Pos, fwPosT)
				}
				if !strings.Contains(d.Message, "sm_"+strings.ReplaceAll(tt.gpu, ".", "")) {
					t.Errorf("message does not name the GPU's architecture: %s", d.Message)
				}
			}
			if tt.note != "" && !strings.Contains(strings.Join(notes, "\n"), tt.note) {
				t.Errorf("undecided = %q, want one containing %q", notes, tt.note)
			}
			if tt.note == "" && len(notes) > 0 {
				t.Errorf("unexpected notes %q", notes)
			}
		})
	}
}

func TestCheckDriver(t *testing.T) {
	tests := []struct {
		name       string
		cuda       string
		driver     string
		driverCUDA string // "" = from the KB
		want       string
		msg        string
	}{
		{"11.6 on 470.57.02: minor-version compatibility", "11.6", "470.57.02", "11.4", "EG402",
			"driver 470.57.02 supports CUDA 11.4; this environment's CUDA 11.6 runtime needs 510.39.01, or at least 450.80.02 through minor-version compatibility"},
		{"12.4 on 470.57.02: another major", "12.4", "470.57.02", "11.4", "EG401",
			"driver 470.57.02 supports CUDA 11.4; this environment's CUDA 12.4 runtime needs 550.54.14, or at least 525.60.13 through minor-version compatibility"},
		{"13.0 on 580.65.06: fine", "13.0", "580.65.06", "13.0", "", ""},
		{"12.1 on a newer-major driver: fine", "12.1", "580.65.06", "13.0", "", ""},
		{"11.6 below the 11.x floor", "11.6", "450.51.06", "11.0", "EG401",
			"driver 450.51.06 supports CUDA 11.0; this environment's CUDA 11.6 runtime needs 510.39.01, or at least 450.80.02"},
		{"driver CUDA from the KB when NVML gives none", "11.6", "470.57.02", "", "EG402", "supports CUDA 11.4"},
		{"13.0 on a 12.9 driver: another major", "13.0", "575.51.03", "12.9", "EG401", "CUDA 13 runtimes do not run on a CUDA 12 driver"},
		{"13.x floor unknown: undecided", "13.1", "580.65.06", "13.0", "EG409", "whether it reaches the minor-version-compatibility floor of CUDA 13 is not known"},
	}
	for kbName, k := range kbs() {
		for _, tt := range tests {
			t.Run(kbName+"/"+tt.name, func(t *testing.T) {
				st := stack("2.1.0", tt.cuda, kb.DistCondaForge) // no arch row: only driver findings
				h := host(tt.driver, tt.driverCUDA)
				ds, _ := checkT(st, h, k, CheckOptions{})
				ds = dropNoGPU(t, ds)
				if got := codes(ds); got != tt.want {
					t.Fatalf("codes = %q, want %q; %v", got, tt.want, ds)
				}
				if tt.want == "" {
					return
				}
				if !strings.Contains(ds[0].Message, tt.msg) {
					t.Errorf("message %q\nwant it to contain %q", ds[0].Message, tt.msg)
				}
				if ds[0].Pos != cudaPosT {
					t.Errorf("pos = %v, want the CUDA evidence %v", ds[0].Pos, cudaPosT)
				}
				if ds[0].Hint == "" {
					t.Error("no hint")
				}
			})
		}
	}
}

func TestCheckPTXNeedsNewDriver(t *testing.T) {
	// Under minor-version compatibility the driver cannot JIT the newer
	// toolkit's PTX: a PTX-only GPU has nothing it can run.
	facts := testFacts
	facts.Arch = []kb.ArchList{{Series: "2.1", CUDA: "11.6", Dist: kb.DistWheel, SASS: []string{"8.0"}, PTX: []string{"8.0"}, Known: true}}
	ds, _ := checkT(stack("2.1.0", "11.6", kb.DistWheel), host("470.57.02", "11.4", "9.0"), factsKB{facts}, CheckOptions{})
	if got := codes(ds); got != "EG402,EG403" && got != "EG403,EG402" {
		t.Fatalf("codes = %q, want EG402 and EG403; %v", got, ds)
	}
}

func TestCheckMachine(t *testing.T) {
	gpu := func(i int, procs ...Process) GPU {
		return GPU{Index: i, Name: "NVIDIA A100-SXM4-40GB", CC: "8.0", MemoryTotal: 40 << 30, MemoryFree: 30 << 30, MemoryUsed: 10 << 30, Processes: procs}
	}
	local := func(gs ...GPU) *Host {
		return &Host{Name: "local", Available: true, Driver: "580.65.06", CUDADriver: "13.0", Source: SourceNVML, GPUs: gs}
	}
	cpu := &resolver.Stack{Framework: &resolver.Framework{Name: "pytorch", Version: "2.3.1", Variant: "cpu", Pos: fwPosT}}
	rocm := &resolver.Stack{Framework: &resolver.Framework{Name: "pytorch", Version: "2.3.1", Variant: "rocm", Pos: fwPosT}}
	migGPU := gpu(1)
	migGPU.MIG = true
	tests := []struct {
		name string
		st   *resolver.Stack
		h    *Host
		opt  CheckOptions
		want string
		msg  string
	}{
		{"no library", stack("2.1.0", "12.1", kb.DistWheel),
			&Host{Name: "local", Source: SourceNVML, Reason: "no NVIDIA driver: libnvidia-ml.so.1 not found"}, CheckOptions{}, "EG404", "libnvidia-ml.so.1 not found"},
		{"CUDA_VISIBLE_DEVICES hides every GPU", stack("2.1.0", "12.1", kb.DistWheel),
			&Host{Name: "local", Available: true, Driver: "580.65.06", CUDADriver: "13.0", Source: SourceNVML, GPUs: []GPU{}, Reason: "CUDA_VISIBLE_DEVICES is set to an empty value: no GPU is visible"},
			CheckOptions{}, "EG404", "CUDA_VISIBLE_DEVICES"},
		{"cuda variant without a runtime version still needs a driver", &resolver.Stack{Framework: &resolver.Framework{Name: "pytorch", Version: "2.1.0", Variant: "cuda", Pos: fwPosT}},
			&Host{Name: "local", Source: SourceNVML, Reason: "NVIDIA driver not loaded"}, CheckOptions{}, "EG404", "driver not loaded"},
		{"a CPU build with no driver is fine", cpu, &Host{Name: "local", Source: SourceNVML, Reason: "no NVIDIA device"}, CheckOptions{}, "", ""},
		{"a CPU build on GPUs", cpu, local(gpu(0), gpu(1)), CheckOptions{}, "EG407", "2 NVIDIA GPUs"},
		{"a ROCm build on NVIDIA GPUs", rocm, local(gpu(0)), CheckOptions{}, "EG407", "a ROCm build, for AMD GPUs"},
		{"a ROCm build with no driver is fine", rocm, &Host{Name: "local", Source: SourceNVML, Reason: "no NVIDIA device"}, CheckOptions{}, "", ""},
		{"other processes", stack("2.1.0", "12.1", kb.DistWheel), local(gpu(0, Process{PID: 4121, Name: "/usr/bin/python3", UsedMemory: 9 << 30})), CheckOptions{}, "EG405", "python3[4121] 9.0 GiB"},
		{"less free than --min-free", stack("2.1.0", "12.1", kb.DistWheel), local(gpu(0)), CheckOptions{MinFree: 35 << 30}, "EG405", "30.0 GiB free of 40.0 GiB, less than the 35.0 GiB"},
		{"enough free memory", stack("2.1.0", "12.1", kb.DistWheel), local(gpu(0)), CheckOptions{MinFree: 20 << 30}, "", ""},
		{"MIG", stack("2.1.0", "12.1", kb.DistWheel), local(gpu(0), migGPU), CheckOptions{}, "EG406", "GPU 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, _ := checkT(tt.st, tt.h, testKB, tt.opt)
			if got := codes(ds); got != tt.want {
				t.Fatalf("codes = %q, want %q; %v", got, tt.want, ds)
			}
			if tt.want != "" && !strings.Contains(ds[0].Message, tt.msg) {
				t.Errorf("message %q\nwant it to contain %q", ds[0].Message, tt.msg)
			}
			for _, d := range ds {
				want := severityOf(t, d.Code)
				if d.Severity != want {
					t.Errorf("%s severity %v, want %v", d.Code, d.Severity, want)
				}
			}
		})
	}
}

func severityOf(t *testing.T, code string) finding.Severity {
	for _, r := range Rules {
		if r.Code == code {
			return r.Severity
		}
	}
	t.Fatalf("no rule %s", code)
	return 0
}

func TestEvaluate(t *testing.T) {
	h, err := Target{Name: "h100-pool", CUDADriver: "12.4", GPUs: []string{"H100"}}.host(testKB)
	if err != nil {
		t.Fatal(err)
	}
	r := evaluate(stack("2.0.1", "11.7", kb.DistWheel), h, testKB, CheckOptions{})
	if r.Verdict != VerdictFail || codes(r.Findings) != "EG403" {
		t.Fatalf("verdict %s findings %v, want fail with EG403", r.Verdict, r.Findings)
	}
	if r.Name != "h100-pool" || r.Driver != "550.54.14" || r.CUDADriver != "12.4" || len(r.GPUs) != 1 || r.GPUs[0] != (GPUSummary{"H100", "9.0"}) {
		t.Errorf("summary = %+v", r)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "driver taken as 550.54.14") {
		t.Errorf("notes %q do not say the driver was assumed", r.Notes)
	}
	ok := evaluate(stack("2.1.0", "12.1", kb.DistWheel), h, testKB, CheckOptions{})
	if ok.Verdict != VerdictOK || len(ok.Findings) != 0 || len(ok.Undecided) != 0 {
		t.Errorf("2.1/12.1 on H100 with CUDA 12.4: verdict %s %v %v", ok.Verdict, ok.Findings, ok.Undecided)
	}
	// A warning alone keeps ok.
	w := evaluate(stack("2.1.0", "12.1", kb.DistWheel), host("530.30.02", "12.1", "8.9"), testKB, CheckOptions{})
	if w.Verdict != VerdictOK {
		t.Errorf("no error, nothing undecided, yet verdict %s: %v", w.Verdict, w.Findings)
	}
}

// TestCheckEmbeddedKB runs the cases against the knowledge base as
// shipped (its embedded data files), not a test copy.
func TestCheckEmbeddedKB(t *testing.T) {
	k := kb.Default()
	if _, ok := k.DriverFloor("12.4"); !ok {
		t.Fatal("the embedded knowledge base has no driver floor for CUDA 12.4")
	}
	tests := []struct {
		name string
		st   *resolver.Stack
		h    *Host
		want string
	}{
		{"11.6 on 470.57.02", stack("2.1.0", "11.6", kb.DistCondaForge), host("470.57.02", ""), "EG402"},
		{"12.4 on 470.57.02", stack("2.1.0", "12.4", kb.DistCondaForge), host("470.57.02", ""), "EG401"},
		{"13.0 on 580.65.06", stack("2.1.0", "13.0", kb.DistCondaForge), host("580.65.06", ""), ""},
		{"torch 2.0 cu117 wheel on an H100", stack("2.0.1", "11.7", kb.DistWheel), host("580.65.06", "", "9.0"), "EG403"},
		{"torch 2.0 cu117 wheel on an L4", stack("2.0.1", "11.7", kb.DistWheel), host("580.65.06", "", "8.9"), ""},
		{"torch 2.1 cu121 wheel on an H100", stack("2.1.0", "12.1", kb.DistWheel), host("580.65.06", "", "9.0"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := Check(tt.st, tt.h, k, CheckOptions{})
			if len(tt.h.GPUs) == 0 {
				ds = dropNoGPU(t, ds)
			}
			if got := codes(ds); got != tt.want {
				t.Errorf("codes = %q, want %q; %v", got, tt.want, ds)
			}
		})
	}
	h, err := Target{Name: "pool", CUDADriver: "12.4", GPUs: []string{"H100", "NVIDIA A100-SXM4-40GB", "L4"}}.Host(k)
	if err != nil {
		t.Fatal(err)
	}
	var ccs []string
	for _, g := range h.GPUs {
		ccs = append(ccs, g.CC)
	}
	if strings.Join(ccs, ",") != "9.0,8.0,8.9" || h.Driver != "550.54.14" || !h.DriverAssumed {
		t.Errorf("target host = %+v", h)
	}
}

func TestCheckWithRealKB(t *testing.T) {
	k, ok := realKB()
	if !ok {
		t.Fatal("resolver/kb does not answer from Facts: the KB under test is not the real one")
	}
	ds := dropNoGPU(t, Check(stack("11.6", "11.6", kb.DistCondaForge), host("470.57.02", "11.4"), k, CheckOptions{}))
	if codes(ds) != "EG402" {
		t.Errorf("11.6 on 470.57.02 with the real KB: %v", ds)
	}
	ds = Check(stack("2.0.1", "11.7", kb.DistWheel), host("580.65.06", "13.0", "9.0"), k, CheckOptions{})
	if codes(ds) != "EG403" {
		t.Errorf("2.0/11.7 on sm_90 with the real KB: %v", ds)
	}
}

func TestCheckNil(t *testing.T) {
	if ds := Check(nil, &Host{}, nil, CheckOptions{}); ds != nil {
		t.Errorf("nil stack: %v", ds)
	}
	if ds := Check(&resolver.Stack{}, nil, nil, CheckOptions{}); ds != nil {
		t.Errorf("nil host: %v", ds)
	}
	// An empty stack needs nothing from any machine.
	if ds := Check(&resolver.Stack{}, &Host{Source: SourceNVML}, nil, CheckOptions{}); len(ds) != 0 {
		t.Errorf("empty stack: %v", ds)
	}
}

func TestRulesRegistry(t *testing.T) {
	seen := map[string]bool{}
	for i, r := range Rules {
		want := fmt.Sprintf("EG%d", 401+i)
		if r.Code != want {
			t.Errorf("rule %d is %s, want %s (code order)", i, r.Code, want)
		}
		if seen[r.Name] || r.Name == "" || strings.ToLower(r.Name) != r.Name || strings.Contains(r.Name, " ") {
			t.Errorf("%s: name %q empty, duplicate or not kebab-case", r.Code, r.Name)
		}
		seen[r.Name] = true
		if r.Title == "" || r.Why == "" || r.Fix == "" || r.Before == "" || r.After == "" || (r.Since != "0.1.0" && r.Since != "0.2.0" && r.Since != "0.3.0") {
			t.Errorf("%s: incomplete documentation", r.Code)
		}
	}
	if len(Rules) != 12 {
		t.Errorf("%d rules, want EG401–EG412", len(Rules))
	}
}

// dropNoGPU removes the EG409 that a target describing no GPU gets (its
// architectures cannot be checked), for tests about the driver alone; it
// fails the test if that finding is missing.
func dropNoGPU(t *testing.T, ds []finding.Diagnostic) []finding.Diagnostic {
	t.Helper()
	var out []finding.Diagnostic
	found := false
	for _, d := range ds {
		if d.Code == "EG409" && strings.Contains(d.Message, "names no GPU") {
			found = true
			continue
		}
		out = append(out, d)
	}
	if !found {
		t.Errorf("a host with no GPU described, but no EG409 saying its architectures were not checked: %v", ds)
	}
	return out
}

// TestCompilerCUDA: a conda-forge build made for "CUDA 12.6 or newer 12.x"
// beside cuda-version=12.8 has 12.8 as its runtime and 12.6's architecture
// list; looking the list up by the runtime found no row (EG409).
func TestCompilerCUDA(t *testing.T) {
	k := kb.Default()
	cf := func(runtime string) *resolver.Stack {
		st := stack("2.6.0", runtime, kb.DistCondaForge)
		build := resolver.Evidence{Item: "pytorch=2.6.0=cuda126_generic_py312_h1234567_200", Pos: fwPosT, Line: fwPosT.Line,
			Says: "12.6", Kind: resolver.EvidenceBuild, AtLeast: true, Package: "pytorch"}
		st.CUDA.Evidence = append([]resolver.Evidence{build}, st.CUDA.Evidence...)
		st.Framework.BuildCUDA = "12.6" // as the resolver reads the build string (resolver.TestBuildCUDA)
		return st
	}
	tests := []struct {
		name, runtime, cc, want, says string
	}{
		{"runtime above the build's CUDA, H100", "12.8", "9.0", "", ""},
		{"runtime above the build's CUDA, B200 runs by compute_90 PTX", "12.8", "10.0", "EG408", "(SASS sm_50"},
		{"runtime equal to the build's CUDA, B200", "12.6", "10.0", "EG408", "(SASS sm_50"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := Check(cf(tt.runtime), host("570.86.10", "", tt.cc), k, CheckOptions{})
			if got := codes(ds); got != tt.want {
				t.Fatalf("codes = %q, want %q; %v", got, tt.want, ds)
			}
			if tt.says != "" && !strings.Contains(ds[0].Message, tt.says) {
				t.Errorf("message %q does not say %q", ds[0].Message, tt.says)
			}
		})
	}
}

// TestUnreadableComputeCapability: a GPU whose compute capability does not
// read as major.minor leaves the architecture check undecided for it, and
// the other GPUs are still judged, in order of their capability.
func TestUnreadableComputeCapability(t *testing.T) {
	h := host("580.65.06", "", "9.0", "nine", "3.5")
	r := Evaluate(stack("2.1.0", "12.1", kb.DistWheel), h, kb.Default(), CheckOptions{})
	if r.Verdict != VerdictFail { // the sm_35 GPU's EG403 decides it
		t.Errorf("verdict = %q, want fail", r.Verdict)
	}
	var reasons []string
	for _, u := range r.Undecided {
		reasons = append(reasons, u.Check+"/"+u.Reason)
	}
	if strings.Join(reasons, ",") != "architecture/cc-unreadable" {
		t.Errorf("undecided = %v, want only architecture/cc-unreadable", reasons)
	}
	// sm_35 is below what the 2.1 cu121 wheel carries: still judged.
	if got := codes(r.Findings); got != "EG403,EG409" {
		t.Errorf("codes = %q, want EG403 for the sm_35 GPU and EG409 for the unreadable one; %v", got, r.Findings)
	}
	for _, d := range r.Findings {
		if d.Code == "EG409" && !strings.Contains(d.Message, `unreadable compute capability "nine"`) {
			t.Errorf("EG409 message %q does not name the capability", d.Message)
		}
	}
}

// EG407's hint names the CUDA build of the framework's own distribution
// that the machine runs, from the knowledge base's variants: a pip torch a
// wheel of the PyTorch index, the pytorch channel its release's selector.
func TestEG407HintNamesARunningBuild(t *testing.T) {
	k := kb.Default()
	a100 := &Host{Name: "a100", Available: true, Driver: "535.104.05", Source: SourceTarget, GPUs: []GPU{{Name: "NVIDIA A100-SXM4-40GB", CC: "8.0"}}}
	k80 := &Host{Name: "k80", Available: true, Driver: "470.82.01", Source: SourceTarget, GPUs: []GPU{{Name: "Tesla K80", CC: "3.7"}}}
	for _, tt := range []struct {
		name string
		fw   *resolver.Framework
		h    *Host
		want string
	}{
		{"pip torch", &resolver.Framework{Name: "pytorch", Version: "2.3.1", Variant: "cpu", From: envspec.ProviderPip, Dist: kb.DistWheel, Pos: fwPosT}, a100,
			"torch==2.3.1+cu121 with --index-url …/whl/cu121"},
		{"pytorch channel 1.12", &resolver.Framework{Name: "pytorch", Version: "1.12.1", Variant: "cpu", From: envspec.ProviderConda, Dist: kb.DistPytorchConda, Pos: fwPosT}, k80,
			"select the CUDA build with cudatoolkit=11.3 in place of cpuonly or a cpu build string (-c pytorch;"},
		{"pip tensorflow", &resolver.Framework{Name: "tensorflow", Version: "2.13.0", Variant: "cpu", From: envspec.ProviderPip, Pos: fwPosT}, a100,
			"tensorflow==2.13.0 with CUDA 11.8 and cuDNN 8.6 beside it"},
		{"pytorch channel 2.1", &resolver.Framework{Name: "pytorch", Version: "2.1.0", Variant: "cpu", From: envspec.ProviderConda, Dist: kb.DistPytorchConda, Pos: fwPosT}, a100,
			"select the CUDA build with pytorch-cuda=12.1 in place of cpuonly or a cpu build string (-c pytorch -c nvidia;"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ds, _ := checkT(&resolver.Stack{Framework: tt.fw}, tt.h, k, CheckOptions{})
			for _, d := range ds {
				if d.Code == "EG407" {
					if !strings.Contains(d.Hint, tt.want) {
						t.Errorf("hint %q, want %q", d.Hint, tt.want)
					}
					return
				}
			}
			t.Fatalf("no EG407 in %v", ds)
		})
	}
}

// An environment with a CUDA toolkit and no framework: code built with the
// toolkit can target a GPU in its compiler's range, so the architecture
// check is decided there (the packages' own rules judge their prebuilt
// code); below the range nothing built with it runs.
func TestNoFrameworkToolkitRange(t *testing.T) {
	k := kb.Default()
	st := func() *resolver.Stack {
		return &resolver.Stack{CUDA: &resolver.CUDAInfo{Version: "12.8", Evidence: []resolver.Evidence{{Pos: fwPosT}}}}
	}
	a100 := &Host{Name: "a100", Available: true, Driver: "570.124.06", Source: SourceTarget, GPUs: []GPU{{Name: "NVIDIA A100-SXM4-40GB", CC: "8.0"}}}
	ds, undecided := checkT(st(), a100, k, CheckOptions{})
	if len(ds) != 0 || len(undecided) != 0 {
		t.Errorf("CUDA 12.8 on an A100: %v, undecided %v", ds, undecided)
	}
	k80 := &Host{Name: "k80", Available: true, Driver: "570.124.06", Source: SourceTarget, GPUs: []GPU{{Name: "Tesla K80", CC: "3.7"}}}
	if ds, _ := checkT(st(), k80, k, CheckOptions{}); !strings.Contains(codes(ds), "EG403") {
		t.Errorf("CUDA 12.8 on a K80: %v, want EG403", ds)
	}
}
