package gpucheck

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// TestGPUCodePackagesNotOK: a target is ok only where every GPU-code package
// of the environment was decided. detectron2, PyTorch3D, DGL's CUDA builds,
// AutoGPTQ, torch-harmonics, torchao, OpenMM and Open3D carry CUDA kernels the knowledge base
// has no release rows of (extensions-13.yaml), so a corpus-like file that
// reads ok on an A100 without them reads unknown with any one of them, with
// an EG409 that names the package; so does XGBoost (a GPU library: its
// Linux wheel has GPU algorithms, and conda-forge builds CUDA variants from
// 1.5.1), but not conda-forge's py-xgboost 0.90, which is CPU-only (its
// recipe names no CUDA compiler). open3d-cpu (Open3D's CPU-only wheel) and
// torch-memory-saver (no kernels: .cpp sources only) leave it ok.
func TestGPUCodePackagesNotOK(t *testing.T) {
	k := kb.Default()
	const base = "channels:\n  - conda-forge\ndependencies:\n  - python=3.9\n  - pip\n%CONDA%  - pip:\n    - torch==2.0.0\n%PIP%"
	eval := func(conda, pip string) TargetResult {
		src := strings.NewReplacer("%CONDA%", conda, "%PIP%", pip).Replace(base)
		st := resolver.Resolve(envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"}), k)
		return Evaluate(st, host("550.54.15", "12.4", "8.0"), k, CheckOptions{})
	}
	if r := eval("", ""); r.Verdict != VerdictOK {
		t.Fatalf("the file without them on an A100: verdict %s, want ok; %v", r.Verdict, r.Findings)
	}
	for _, tt := range []struct {
		conda, pip string // one line each, or ""
		name       string // what the EG409 names
		verdict    Verdict
	}{
		// no detectron2 on the package index: pip installs nothing
		{pip: "detectron2==0.2", verdict: VerdictFail},
		{pip: "pytorch3d==0.7.1", name: "pytorch3d 0.7.1", verdict: VerdictUnknown},
		{conda: "pytorch3d=0.7.1=py37_cu113_pyt1110", name: "pytorch3d 0.7.1", verdict: VerdictUnknown},
		{conda: "dgl-cuda10.0=0.4.3", name: "dgl-cuda10.0 0.4.3", verdict: VerdictUnknown},
		{conda: "dgl-cuda10.1=0.4.3post2=py37_0", name: "dgl-cuda10.1 0.4.3", verdict: VerdictUnknown},
		{conda: "dgl-cuda11.1", name: "dgl-cuda11.1", verdict: VerdictUnknown},
		{pip: "dgl-cu101==0.4.3", name: "dgl-cu101 0.4.3", verdict: VerdictUnknown},
		{conda: "auto-gptq=0.4.2", name: "auto-gptq 0.4.2", verdict: VerdictUnknown},
		{pip: "auto-gptq==0.7.1", name: "auto-gptq 0.7.1", verdict: VerdictUnknown},
		{pip: "torch-harmonics", name: "torch-harmonics", verdict: VerdictUnknown},
		{pip: "torchao==0.11.0", name: "torchao 0.11.0", verdict: VerdictUnknown},
		{conda: "openmm=8.0.0", name: "openmm 8.0.0", verdict: VerdictUnknown},
		{pip: "open3d==0.17.0", name: "open3d 0.17.0", verdict: VerdictUnknown},
		{pip: "open3d==0.18.0", name: "open3d 0.18.0", verdict: VerdictUnknown},
		{pip: "xgboost==1.7.6", name: "xgboost 1.7.6", verdict: VerdictUnknown},
		{conda: "py-xgboost=1.7.6", name: "py-xgboost 1.7.6", verdict: VerdictUnknown},
		{conda: "conda-forge::py-xgboost=0.90", verdict: VerdictOK},
		{pip: "open3d-cpu==0.19.0", verdict: VerdictOK},
		{pip: "torch-memory-saver==0.0.6", verdict: VerdictOK},
	} {
		conda, pip := "", ""
		if tt.conda != "" {
			conda = "  - " + tt.conda + "\n"
		}
		if tt.pip != "" {
			pip = "    - " + tt.pip + "\n"
		}
		label := tt.conda + tt.pip
		r := eval(conda, pip)
		if r.Verdict != tt.verdict {
			t.Errorf("%s on an A100: verdict %s, want %s; %v", label, r.Verdict, tt.verdict, r.Findings)
		}
		if tt.name == "" {
			continue
		}
		found := false
		for _, d := range r.Findings {
			if d.Code == "EG409" && strings.Contains(d.Message, "could not check "+tt.name) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s on an A100: no EG409 naming %s; %v", label, tt.name, r.Findings)
		}
	}
}
