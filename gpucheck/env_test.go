package gpucheck

import (
	"reflect"
	"strings"
	"testing"
)

func fourGPUs() *Host {
	h := &Host{Name: "local", Available: true, Driver: "580.65.06", CUDADriver: "13.0", Source: SourceNVML}
	uuids := []string{
		"GPU-8932f937-d72c-4106-c12f-20bd9faed9f6",
		"GPU-8932f938-0000-4106-c12f-20bd9faed9f6",
		"GPU-1a2b3c4d-0000-4106-c12f-20bd9faed9f6",
		"GPU-ffee0011-0000-4106-c12f-20bd9faed9f6",
	}
	for i, u := range uuids {
		h.GPUs = append(h.GPUs, GPU{Index: i, Name: "NVIDIA H100 80GB HBM3", UUID: u, CC: "9.0"})
	}
	h.GPUs[3].MIG = true
	h.GPUs[3].MIGDevices = []MIGDevice{{Index: 0, UUID: "MIG-5c6c3a2e-8c2b-5a5c-9f3e-2b1c0d9e8f7a"}}
	return h
}

func indices(h *Host) []int {
	out := []int{}
	for _, g := range h.GPUs {
		out = append(out, g.Index)
	}
	return out
}

func TestSelectVisible(t *testing.T) {
	tests := []struct {
		value string
		set   bool
		want  []int
	}{
		{"", false, []int{0, 1, 2, 3}},
		{"", true, []int{}},
		{"0", true, []int{0}},
		{"2,1", true, []int{2, 1}},      // the order given
		{"0,2,-1,1", true, []int{0, 2}}, // CUDA's own example: an invalid entry ends the list
		{"0,7,1", true, []int{0}},       // out of range ends it too
		{" 1 , 3 ", true, []int{1, 3}},  // spaces around entries
		{"1gpu,2", true, []int{1, 2}},   // read like strtoul
		{"0,1,0", true, []int{}},        // a device named twice: none at all
		{"GPU-8932f937-d72c-4106-c12f-20bd9faed9f6", true, []int{0}},
		{"GPU-1a2b", true, []int{2}},               // a unique prefix
		{"GPU-8932f93,GPU-1a2b", true, []int{}},    // ambiguous prefix ends the list at once
		{"GPU-1a2b,GPU-8932f93,2", true, []int{2}}, // ... after the valid ones
		{"GPU-0000", true, []int{}},                // unknown UUID
		{"GPU-ffee,0", true, []int{3, 0}},          // UUIDs and indices mixed
		{"MIG-5c6c3a2e", true, []int{3}},           // a MIG device selects its GPU
		{"MIG-GPU-ffee0011-0000-4106-c12f-20bd9faed9f6/1/0", true, []int{3}},
		{"MIG-deadbeef", true, []int{}},
		{",0", true, []int{}}, // an empty first entry is invalid
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			in := fourGPUs()
			got := SelectVisible(in, tt.value, tt.set)
			if g := indices(got); !reflect.DeepEqual(g, tt.want) {
				t.Fatalf("SelectVisible(%q) = %v, want %v", tt.value, g, tt.want)
			}
			if len(in.GPUs) != 4 {
				t.Error("the input host was changed")
			}
			if len(tt.want) == 0 && tt.set && got.Reason == "" {
				t.Error("no GPU selected, yet no reason given")
			}
		})
	}
}

func env(kv ...string) LookupEnv {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestApplyOverrides(t *testing.T) {
	noDriver := &Host{Name: "local", Source: SourceNVML, Reason: "no NVIDIA driver: libnvidia-ml.so.1 not found", GPUs: []GPU{}}
	tests := []struct {
		name      string
		h         *Host
		env       LookupEnv
		available bool
		cuda      string
		source    string
		ccs       []string
		note      string
	}{
		{"nothing set", fourGPUs(), env(), true, "13.0", SourceNVML, []string{"9.0", "9.0", "9.0", "9.0"}, ""},
		{"CONDA_OVERRIDE_CUDA set", fourGPUs(), env("CONDA_OVERRIDE_CUDA", "12.4"), true, "12.4", SourceOverride, []string{"9.0", "9.0", "9.0", "9.0"}, ""},
		{"CONDA_OVERRIDE_CUDA empty: no driver", fourGPUs(), env("CONDA_OVERRIDE_CUDA", ""), false, "", SourceOverride, []string{}, ""},
		{"CONDA_OVERRIDE_CUDA blank: no driver", fourGPUs(), env("CONDA_OVERRIDE_CUDA", "  "), false, "", SourceOverride, []string{}, ""},
		{"CONDA_OVERRIDE_CUDA without a driver", noDriver, env("CONDA_OVERRIDE_CUDA", "12.4"), true, "12.4", SourceOverride, []string{}, ""},
		{"CONDA_OVERRIDE_CUDA not a version", fourGPUs(), env("CONDA_OVERRIDE_CUDA", "twelve"), true, "13.0", SourceNVML, []string{"9.0", "9.0", "9.0", "9.0"}, "not a version"},
		{"ARCH overrides every GPU", fourGPUs(), env("CONDA_OVERRIDE_CUDA_ARCH", "8.0"), true, "13.0", SourceOverride, []string{"8.0", "8.0", "8.0", "8.0"}, ""},
		{"ARCH with CUDA and no driver: one GPU", noDriver, env("CONDA_OVERRIDE_CUDA", "12.4", "CONDA_OVERRIDE_CUDA_ARCH", "9.0"), true, "12.4", SourceOverride, []string{"9.0"}, ""},
		{"ARCH without any driver is ignored", noDriver, env("CONDA_OVERRIDE_CUDA_ARCH", "9.0"), false, "", SourceNVML, []string{}, "ignored"},
		{"ARCH empty: none", fourGPUs(), env("CONDA_OVERRIDE_CUDA_ARCH", ""), true, "13.0", SourceOverride, []string{}, "not checked"},
		{"ARCH not major.minor is ignored", fourGPUs(), env("CONDA_OVERRIDE_CUDA_ARCH", "9.0a"), true, "13.0", SourceNVML, []string{"9.0", "9.0", "9.0", "9.0"}, "not major.minor"},
		{"ARCH with CUDA empty: absent", fourGPUs(), env("CONDA_OVERRIDE_CUDA", "", "CONDA_OVERRIDE_CUDA_ARCH", "9.0"), false, "", SourceOverride, []string{}, "ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ApplyOverrides(tt.h, tt.env)
			var ccs []string
			for _, g := range got.GPUs {
				ccs = append(ccs, g.CC)
			}
			if ccs == nil {
				ccs = []string{}
			}
			if got.Available != tt.available || got.CUDADriver != tt.cuda || got.Source != tt.source || !reflect.DeepEqual(ccs, tt.ccs) {
				t.Fatalf("got available=%v cuda=%q source=%q ccs=%v, want %v %q %q %v",
					got.Available, got.CUDADriver, got.Source, ccs, tt.available, tt.cuda, tt.source, tt.ccs)
			}
			if tt.note != "" && !strings.Contains(strings.Join(got.Notes, "\n")+got.Reason, tt.note) {
				t.Errorf("notes %q, want one containing %q", got.Notes, tt.note)
			}
			if !tt.available && got.Reason == "" {
				t.Error("no driver, no reason")
			}
			if got.CUDADriver != tt.h.CUDADriver && got.Driver != "" {
				t.Errorf("override kept driver %q, which no longer describes the host", got.Driver)
			}
		})
	}
}

func TestOverrideThenCheck(t *testing.T) {
	// CONDA_OVERRIDE_CUDA="" says "no driver": a CUDA stack gets EG404.
	h := ApplyOverrides(fourGPUs(), env("CONDA_OVERRIDE_CUDA", ""))
	ds, _ := checkT(stack("2.1.0", "12.1", "wheel"), h, testKB, CheckOptions{})
	if codes(ds) != "EG404" || !strings.Contains(ds[0].Message, "CONDA_OVERRIDE_CUDA") {
		t.Fatalf("%v", ds)
	}
	// CONDA_OVERRIDE_CUDA=11.4 judges the stack against a CUDA 11.4 driver.
	h = ApplyOverrides(fourGPUs(), env("CONDA_OVERRIDE_CUDA", "11.4"))
	h.GPUs = h.GPUs[:3] // leave the MIG GPU out: EG406 is not at stake
	// The test facts have no arch range for CUDA 11.6: the architectures
	// stay undecided (EG409, on the framework's line, first).
	ds, _ = checkT(stack("2.1.0", "11.6", "conda-forge"), h, testKB, CheckOptions{})
	if codes(ds) != "EG409,EG402" || !strings.Contains(ds[1].Message, "CONDA_OVERRIDE_CUDA=11.4") {
		t.Fatalf("%v", ds)
	}
}

func TestLocalNoProbeEnv(t *testing.T) {
	p := newProbe(fixedSource{fourGPUs()})
	h := Local(p, env("CUDA_VISIBLE_DEVICES", "3,1", "CONDA_OVERRIDE_CUDA", "12.8"))
	if !reflect.DeepEqual(indices(h), []int{3, 1}) || h.CUDADriver != "12.8" || h.Source != SourceOverride {
		t.Fatalf("Local = %+v", h)
	}
	if h := Local(p, nil); len(h.GPUs) != 4 || h.Source != SourceNVML {
		t.Fatalf("Local without env = %+v", h)
	}
}

// fixedSource is a source that always reads the same host.
type fixedSource struct{ h *Host }

func (f fixedSource) static() *Host { return f.h.Clone() }
func (f fixedSource) refresh(*Host) {}
func (f fixedSource) close() error  { return nil }

// TestOverridesBounded: an override of a megabyte that would pass as a
// version (1.1.1…) is not taken, and neither it nor a CUDA_VISIBLE_DEVICES
// of a megabyte makes a note or reason of a megabyte (issue 22, N11).
func TestOverridesBounded(t *testing.T) {
	long := "12" + strings.Repeat(".4", 1<<19)
	got := ApplyOverrides(fourGPUs(), env("CONDA_OVERRIDE_CUDA", long, "CONDA_OVERRIDE_CUDA_ARCH", "9."+strings.Repeat("0", 1<<20)))
	if got.CUDADriver != "13.0" || got.Source != SourceNVML {
		t.Errorf("a 1 MB CONDA_OVERRIDE_CUDA was taken: cuda %.20q, source %q", got.CUDADriver, got.Source)
	}
	if len(got.Notes) != 2 {
		t.Fatalf("notes %.200q, want one for each override", got.Notes)
	}
	for _, n := range got.Notes {
		if len(n) > 200 || !strings.Contains(n, "ignored") {
			t.Errorf("note of %d bytes: %.200q", len(n), n)
		}
	}
	h := SelectVisible(fourGPUs(), strings.Repeat("x", 1<<20), true)
	if len(h.GPUs) != 0 || len(h.Reason) > 200 || !strings.Contains(h.Reason, "selects none") {
		t.Errorf("CUDA_VISIBLE_DEVICES of 1 MB: %d GPUs, reason of %d bytes %.200q", len(h.GPUs), len(h.Reason), h.Reason)
	}
	// A real value is quoted whole.
	if got := ApplyOverrides(fourGPUs(), env("CONDA_OVERRIDE_CUDA", "twelve")); !strings.Contains(strings.Join(got.Notes, ""), `"twelve"`) {
		t.Errorf("notes %q", got.Notes)
	}
}
