package kb

import "testing"

// conda-forge's tensorflow has rows of its own (arch-tfjax-2.yaml), read
// from the feedstock's build script; where its recipe states disagree the
// row keeps the common SASS and says ptx_unknown, and where none is carried
// FrameworkArch answers with the wheel's row, which gpucheck refuses.
func TestTensorFlowCondaForgeArch(t *testing.T) {
	k := Default()
	a, ok := k.FrameworkArch("tensorflow", "2.14.0", "11.8", DistCondaForge)
	if !ok || a.Dist != DistCondaForge || !a.Known || a.PTXUnknown {
		t.Fatalf("2.14 cuda 11.8 conda-forge: %+v %v", a, ok)
	}
	if got := join(a.SASS); got != "3.5,5.0,6.0,6.2,7.0,7.2,7.5,8.0,8.6,8.7,8.9,9.0" || join(a.PTX) != "9.0" {
		t.Errorf("2.14 cuda 11.8 conda-forge: sass %s ptx %s", got, join(a.PTX))
	}
	a, ok = k.FrameworkArch("tensorflow", "2.19.1", "12.8", DistCondaForge)
	if !ok || a.Dist != DistCondaForge || !a.PTXUnknown || join(a.SASS) != "6.0,7.0,7.5,8.0,8.6,8.9,9.0" {
		t.Errorf("2.19 cuda 12.8 conda-forge: %+v %v", a, ok)
	}
	if a, ok := k.FrameworkArch("tensorflow", "2.17.0", "12.0", DistCondaForge); ok && a.Dist == DistCondaForge {
		t.Errorf("2.17 conda-forge has no row of its own (pull-request states set no list): %+v", a)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}
