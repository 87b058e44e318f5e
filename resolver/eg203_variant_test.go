package resolver

import (
	"strings"
	"testing"
)

// A pip companion pin keeps its local variant, and where the release that
// pairs with torch never had a wheel of that variant (torchvision 0.8.0 has
// no +cu110 one: pytorch/vision#2912) the message, hint and fix name the
// release issued in its place (corpus 174; review 3 #1043). A variant the
// gap does not list keeps the paired release.
func TestEG203CompanionVariantPublished(t *testing.T) {
	tests := []struct {
		name, torch, vision, want, wantNot string
	}{
		{"cu110: 0.8.0 never published", "1.7.0+cu110", "0.8.2+cu110", "torchvision==0.8.1+cu110", "torchvision==0.8.0"},
		{"cu102: the paired release", "1.7.0", "0.8.2", "torchvision==0.8.0", "0.8.1"},
		{"the local variant is kept", "2.1.0+cu118", "0.15.2+cu118", "torchvision==0.16.0+cu118", "use torchvision==0.16.0;"},
		// review nine #135: torchvision 0.22.0 has no +cu121 wheel; torch's
		// own variant names the one that pairs with it
		{"torch's variant, not the companion's", "2.1.0+cu118", "0.15.2+cu117", "torchvision==0.16.0+cu118", "0.16.0+cu117"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "name: x\nchannels:\n  - defaults\ndependencies:\n  - python=3.8\n  - pip\n  - pip:\n" +
				"      - -f https://download.pytorch.org/whl/torch_stable.html\n" +
				"      - torch==" + tt.torch + "\n      - torchvision==" + tt.vision + "\n"
			_, ds := lintSrc(t, src)
			fs := findingsOf(ds, "EG203")
			if len(fs) != 1 {
				t.Fatalf("EG203 findings = %v", ds)
			}
			d := fs[0]
			for _, s := range []string{d.Message, d.Hint} {
				if !strings.Contains(s, tt.want) || strings.Contains(s, tt.wantNot) {
					t.Errorf("%q: want %q, not %q", s, tt.want, tt.wantNot)
				}
			}
			if len(d.Edits) != 1 || "torchvision"+d.Edits[0].New != tt.want {
				t.Errorf("edits = %+v, want the line to read %s", d.Edits, tt.want)
			}
		})
	}
}
