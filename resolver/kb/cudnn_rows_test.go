package kb

import (
	"strings"
	"testing"
)

// TestPytorchChannelCuDNNOf: the cuDNN a pytorch-channel build carries is
// looked up by its torch series and CUDA variant, and agrees with the
// build strings the rows cite (1.11/11.3 is cudnn8.2.0; 1.13/11.7 is
// cudnn8.5.0); a series with no release branch in pytorch/builder has no
// row.
func TestPytorchChannelCuDNNOf(t *testing.T) {
	k := Default()
	for _, c := range []struct{ series, cuda, want string }{
		{"1.11", "11.3", "8.2.0"},
		{"1.13", "11.7", "8.5.0"},
		{"2.3", "12.1", "8.9.2"},
		{"1.7", "11.0", ""},
		{"1.11", "11.8", ""},
	} {
		r, ok := k.PytorchChannelCuDNNOf(c.series, c.cuda)
		got := ""
		if ok {
			got = r.CuDNN
		}
		if got != c.want {
			t.Errorf("PytorchChannelCuDNNOf(%s, %s) = %q, want %q", c.series, c.cuda, got, c.want)
		}
	}
}

// TestValidateCuDNNRows: the loader refuses a cuda_lib_arch row that says
// nothing (no since, until or none_through) and a pytorch_channel_cudnn
// row whose cuDNN is not major.minor.patch (the build strings' form), so
// a row cannot silently never match.
func TestValidateCuDNNRows(t *testing.T) {
	k := Default()
	bad, err := LoadEmbeddedYAML() // a copy of its own to spoil
	if err != nil {
		t.Fatal(err)
	}
	bad.CUDALibArch = append([]CUDALibArch{{Lib: "cudnn", CC: "9.0", Source: k.CUDALibArch[0].Source}}, k.CUDALibArch...)
	bad.CUDALibArch = append(bad.CUDALibArch,
		CUDALibArch{Lib: "cudnn", CC: "3.7", Since: "7.5.0", CarriesThrough: "8.5.0", Source: k.CUDALibArch[0].Source},
		CUDALibArch{Lib: "cudnn", CC: "3.5", CarriesThrough: "9.0.0", Until: "8.9.5", Source: k.CUDALibArch[0].Source})
	bad.PytorchChannelCuDNN = append([]PytorchChannelCuDNN{{Series: "1.11", CUDA: "11.3", CuDNN: "8.2", Source: k.PytorchChannelCuDNN[0].Source}}, k.PytorchChannelCuDNN...)
	errs := bad.validate()
	text := ""
	for _, e := range errs {
		text += e.Error() + "\n"
	}
	for _, want := range []string{"none of since, until and none_through is set", `cudnn "8.2" must be`, "carries_through 8.5.0 needs an until after it", "carries_through 9.0.0 needs an until after it"} {
		if !strings.Contains(text, want) {
			t.Errorf("validate: no %q in:\n%s", want, text)
		}
	}
	if errs := k.validate(); len(errs) != 0 {
		t.Errorf("the embedded rows do not validate: %v", errs)
	}
}
