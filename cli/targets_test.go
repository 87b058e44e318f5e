package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

var fleetTargets = filepath.Join("..", "gpucheck", "testdata", "targets")

// targets list reads every target source: a Kubernetes node list becomes
// one target per pool (or per GPU and driver inside a mixed pool), with
// node counts; nvidia-smi's CSV one machine.
func TestTargetsList(t *testing.T) {
	code, out, errs := runCLI(t, nil, nil, "targets", "list", "--targets", filepath.Join(fleetTargets, "kube-nodes.json"))
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "a3-pool: driver 550.90.07 (CUDA 12.4); 8× NVIDIA H100 80GB HBM3 (9.0); 2 nodes\n" +
		"l4-pool/NVIDIA-L4/535.183.01: driver 535.183.01 (CUDA 12.2); NVIDIA L4 (8.9); 1 node\n" +
		"l4-pool/NVIDIA-L4/550.90.07: driver 550.90.07 (CUDA 12.4); NVIDIA L4 (8.9); 1 node\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	code, out, _ = runCLI(t, nil, nil, "targets", "list", "--json", "--targets", filepath.Join(fleetTargets, "nvidia-smi.csv"))
	var hosts []struct {
		Name   string
		Driver string
		GPUs   []struct {
			Name string
			CC   string `json:"compute_capability"`
		} `json:"gpus"`
	}
	if err := json.Unmarshal([]byte(out), &hosts); err != nil || code != ExitOK {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if len(hosts) != 1 || hosts[0].Driver != "580.159.04" || len(hosts[0].GPUs) != 1 || hosts[0].GPUs[0].CC != "9.0" {
		t.Errorf("nvidia-smi target: %+v", hosts)
	}
}

// export prints what each installer reads, from one description.
func TestTargetsExport(t *testing.T) {
	kube := filepath.Join(fleetTargets, "kube-nodes.json")
	for _, tc := range []struct{ as, want string }{
		{"conda-overrides", "CONDA_OVERRIDE_CUDA=12.2\nCONDA_OVERRIDE_CUDA_ARCH=8.9\n"},
		{"nv-variant", "NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION=12.2\nNV_VARIANT_PROVIDER_FORCE_SM_ARCH=8.9\n"},
		{"pixi", "platforms = [{ platform = \"linux-64\", cuda = \"12.2\" }]"},
	} {
		code, out, errs := runCLI(t, nil, nil, "targets", "export", "--as", tc.as, "--targets", kube, "l4-pool/NVIDIA-L4/535.183.01")
		if code != ExitOK || !strings.Contains(out, tc.want) {
			t.Errorf("--as %s: exit %d\n%s%s\nwant %q", tc.as, code, out, errs, tc.want)
		}
	}
	// A target described by its driver alone exports no architecture, and
	// says so on stderr; stdout keeps only what can be evaluated.
	code, out, errs := runCLI(t, nil, nil, "targets", "export", "--as", "conda-overrides", "--targets",
		filepath.Join(fleetTargets, "virtual-packages.yml"), "virtual-packages")
	if code != ExitOK || out != "CONDA_OVERRIDE_CUDA=12.4\n" || !strings.Contains(errs, "no architecture is exported") {
		t.Errorf("driver-only target: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, args := range [][]string{
		{"targets", "export", "--targets", kube, "a3-pool"},
		{"targets", "export", "--as", "docker", "--targets", kube, "a3-pool"},
		{"targets", "export", "--as", "pixi", "--targets", kube, "nope"},
	} {
		if code, out, errs := runCLI(t, nil, nil, args...); code != ExitUsage || out != "" || errs == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error", args, code, out, errs)
		}
	}
}

// A node pool read from kubectl is a target validate checks like any
// other: CUDA 12.4 on the L4 pool's 535 driver (CUDA 12.2) runs only
// through minor-version compatibility (EG402 for that pool alone).
func TestValidateKubeTarget(t *testing.T) {
	dir := t.TempDir()
	env := filepath.Join(dir, "environment.yml")
	write(t, env, "name: x\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.11\n  - pytorch=2.5.1\n  - pytorch-cuda=12.4\n")
	code, out, errs := runCLI(t, nil, nil, "validate", "--targets", filepath.Join(fleetTargets, "kube-nodes.json"),
		"--target", "l4-pool/NVIDIA-L4/535.183.01", "--target", "a3-pool", env)
	if !strings.Contains(out, "EG402 driver 535.183.01") || !strings.Contains(out, "(target l4-pool/NVIDIA-L4/535.183.01)") ||
		strings.Contains(out, "(target a3-pool)") || !strings.Contains(out, "targets: l4-pool/NVIDIA-L4/535.183.01 ok, a3-pool ok") {
		t.Errorf("exit %d: want EG402 for the 535 pool alone, both targets checked:\n%s%s", code, out, errs)
	}
}
