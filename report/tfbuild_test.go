package report

import (
	"strings"
	"testing"
)

// TestPipTensorFlowBuildCUDA: a pip TensorFlow wheel is held to the
// architecture row of the CUDA it was built with, not to the cudatoolkit the
// file pins (issue 26, review 3 #390: corpus 065 printed "tensorflow 2.1.0
// (CUDA 10.0) … the build's architecture list is not known", missing the
// KB's 2.1/10.1 row). Where TensorFlow cannot load the file's CUDA at all
// (10.0 for a 10.1 build), no target is ok: it uses the GPU only with
// libraries from outside the environment.
func TestPipTensorFlowBuildCUDA(t *testing.T) {
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"k80", "a100", "h100", "rtx5090"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src string
		want      map[string]string
		has       []string
		hasNot    []string
	}{
		{
			name: "2.1.0 beside cudatoolkit 10.0: unloadable, never ok",
			src: "name: x\nchannels:\n  - defaults\ndependencies:\n  - python=3.6\n  - cudatoolkit=10.0.130=0\n  - cudnn=7.6.4=cuda10.0_0\n" +
				"  - pip\n  - pip:\n    - tensorflow==2.1.0\n",
			want:   map[string]string{"k80": "unknown", "a100": "unknown", "h100": "unknown", "rtx5090": "unknown"},
			has:    []string{"tensorflow 2.1.0 (built with CUDA 10.1)", "cuda-libraries-unloadable", "uses the GPU only if it finds CUDA 10.1 libraries outside the environment"},
			hasNot: []string{"(CUDA 10.0", "architecture list is not known", "EG408"},
		},
		{
			name: "2.12.0 beside cudatoolkit 11.2: the 2.12/11.8 row decides",
			src: "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.10\n  - cudatoolkit=11.2\n  - cudnn=8.1\n" +
				"  - pip\n  - pip:\n    - tensorflow==2.12.0\n",
			has:    []string{"tensorflow 2.12.0 (SASS sm_35", "compute_80 PTX"},
			hasNot: []string{"architecture list is not known", "cuda-libraries-unloadable"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Validate("env.yml", []byte(tt.src), Options{Platform: "linux-64", Hosts: hosts})
			assertVerdictsHonest(t, r)
			text := verdictText(r)
			for _, tg := range r.Targets {
				if w, ok := tt.want[tg.Name]; ok && string(tg.Verdict) != w {
					t.Errorf("target %s: %s, want %s\n%s", tg.Name, tg.Verdict, w, text)
				}
			}
			for _, s := range tt.has {
				if !strings.Contains(text, s) {
					t.Errorf("no %q in:\n%s", s, text)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(text, s) {
					t.Errorf("%q in:\n%s", s, text)
				}
			}
		})
	}
}
