package kb

import (
	"slices"
	"testing"
)

// supported_cc lists the compute capabilities a release's vendor says it
// supports (TensorRT): the loader refuses it beside a SASS/PTX description
// of the same build, without the floor below which no GPU runs it, without
// the reason a GPU outside it is undecided, and below that floor.
func TestSupportedCCValidation(t *testing.T) {
	const row = `{name: tensorrt, version: "10.8.0.43", dist: pypi, torch: [], cuda: ["12"], min_cc: "7.5", supported_cc: ["7.5", "8.0", "8.6", "8.9", "9.0"], unlisted_cc: `
	for _, tt := range []struct{ name, new, want string }{
		{"beside arch_known", `{name: tensorrt, version: "10.8.0.43", dist: pypi, torch: [], cuda: ["12"], arch_known: true, sass: ["8.0"], min_cc: "7.5", supported_cc: ["7.5", "8.0", "8.6", "8.9", "9.0"], unlisted_cc: `,
			`extensions-7\.yaml:\d+: extension_builds\[\d+\]: supported_cc is for a release described by the GPUs it supports, not beside arch_known, sass, ptx or no_device_code`},
		{"without min_cc", `{name: tensorrt, version: "10.8.0.43", dist: pypi, torch: [], cuda: ["12"], supported_cc: ["7.5", "8.0", "8.6", "8.9", "9.0"], unlisted_cc: `,
			`extensions-7\.yaml:\d+: extension_builds\[\d+\]: supported_cc without min_cc`},
		{"below min_cc", `{name: tensorrt, version: "10.8.0.43", dist: pypi, torch: [], cuda: ["12"], min_cc: "7.5", supported_cc: ["7.0", "8.0", "8.6", "8.9", "9.0"], unlisted_cc: `,
			`extensions-7\.yaml:\d+: extension_builds\[\d+\]: supported_cc 7\.0 is below min_cc 7\.5`},
		{"not a compute capability", `{name: tensorrt, version: "10.8.0.43", dist: pypi, torch: [], cuda: ["12"], min_cc: "7.5", supported_cc: ["sm_75", "8.0", "8.6", "8.9", "9.0"], unlisted_cc: `,
			`extensions-7\.yaml:\d+: extension_builds\[\d+\]: supported_cc "sm_75" is not a compute capability`},
	} {
		t.Run(tt.name, func(t *testing.T) { assertLoadRejects(t, "extensions-7.yaml", row, tt.new, tt.want) })
	}
	t.Run("without unlisted_cc", func(t *testing.T) {
		assertLoadRejects(t, "extensions-7.yaml", `supported_cc: ["7.5", "8.0", "8.6", "8.9", "9.0"], unlisted_cc: "Blackwell (10.0, 12.0) is supported from 10.8 (the GeForce 50-series; B200 and GB200 only as early access in 10.8), and only with a CUDA 12.8 or later runtime (NVIDIA/TensorRT#4525: the support matrix footnote), which pip does not fix beside this package; a GPU of another compute capability is not in the sources read", source: "X7_TRT_1050_RN; X7_TRT_1010_MATRIX; X11_TRT_10X_RN; X11_TRT_1080_RN; X11_TRT_UNSUPPORTED_SM; X11_TRT_ISSUE_4525; VSRIFE_70", note: "a release after 10.5`,
			`supported_cc: ["7.5", "8.0", "8.6", "8.9", "9.0"], source: "X7_TRT_1050_RN; X7_TRT_1010_MATRIX; X11_TRT_10X_RN; X11_TRT_1080_RN; X11_TRT_UNSUPPORTED_SM; X11_TRT_ISSUE_4525; VSRIFE_70", note: "a release after 10.5`,
			`extensions-7\.yaml:\d+: extension_builds\[\d+\]: supported_cc without unlisted_cc`)
	})
	t.Run("unlisted_cc alone", func(t *testing.T) {
		assertLoadRejects(t, "extensions-7.yaml", `{name: tensorrt, version: "10.13.2.6", dist: pypi, torch: [], cuda: ["12"], min_cc: "7.5", supported_cc: ["7.5", "8.0", "8.6", "8.9", "9.0"], unlisted_cc: `,
			`{name: tensorrt, version: "10.13.2.6", dist: pypi, torch: [], cuda: ["12"], min_cc: "7.5", unlisted_cc: `,
			`extensions-7\.yaml:\d+: extension_builds\[\d+\]: unlisted_cc without supported_cc`)
	})
}

// TensorRT 10.8.0.43's and 10.13.2.6's three pip packages each carry the
// GPUs their release supports, above their 7.5 floor.
func TestTensorRTSupportedCC(t *testing.T) {
	k := Default()
	for _, name := range []string{"tensorrt", "tensorrt-cu12", "tensorrt-cu12-libs"} {
		for _, tt := range []struct {
			version string
			want    []string
		}{{"10.8.0.43", []string{"7.5", "8.0", "8.6", "8.9", "9.0"}}, {"10.13.2.6", []string{"7.5", "8.0", "8.6", "8.9", "9.0"}}} {
			rows := k.ExtensionBuildsOf(name, tt.version)
			if len(rows) != 1 {
				t.Fatalf("%s %s: %d rows, want 1", name, tt.version, len(rows))
			}
			b := rows[0]
			if !slices.Equal(b.SupportedCC, tt.want) || b.MinCC != "7.5" || (tt.want != nil && b.UnlistedCC == "") {
				t.Errorf("%s %s: supported_cc %v, min_cc %q, unlisted_cc %q; want %v, 7.5 and a reason", name, tt.version, b.SupportedCC, b.MinCC, b.UnlistedCC, tt.want)
			}
		}
	}
}
