package resolver

import (
	"strings"
	"testing"
)

// TestTensorFlowPipCPUOnly: review thirteen #1096. The package index's
// `tensorflow` had no GPU support before 1.15, in 1.15.2 and in 2.0 (the
// GPU build was tensorflow-gpu; tensorflow_pip_cpu_only): a pin of such a
// release is the CPU build, and says why. 1.15.0 and 2.1.0 include GPU
// support, tensorflow-gpu is the GPU build, and 1.15.3, which no source
// read describes, stays open.
func TestTensorFlowPipCPUOnly(t *testing.T) {
	for _, tt := range []struct{ line, variant string }{
		{"tensorflow==1.3.0", "cpu"},
		{"tensorflow==1.14.0", "cpu"},
		{"tensorflow==1.15.2", "cpu"},
		{"tensorflow==2.0.0", "cpu"},
		{"tensorflow==1.15.0", ""},
		{"tensorflow==1.15.3", ""},
		{"tensorflow==2.1.0", ""},
		{"tensorflow-gpu==1.14.0", "cuda"},
	} {
		st, _ := lintSrc(t, "dependencies:\n  - python=3.7\n  - pip\n  - pip:\n    - "+tt.line+"\n")
		if st.Framework == nil {
			t.Fatalf("%s: no framework", tt.line)
		}
		if st.Framework.Variant != tt.variant {
			t.Errorf("%s: variant %q, want %q", tt.line, st.Framework.Variant, tt.variant)
		}
		if tt.variant == "cpu" && !strings.Contains(st.Framework.VariantFrom, "is the CPU-only build") {
			t.Errorf("%s: no reason: %q", tt.line, st.Framework.VariantFrom)
		}
	}
}
