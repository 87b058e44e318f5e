package kb

import (
	"strings"
	"testing"
)

// TestPytorchChannelCuDNNOf: the cuDNN a pytorch-channel build carries is
// looked up by its torch release, series and CUDA variant, and agrees with
// the build strings the rows cite (1.11/11.3 is cudnn8.2.0; 1.13/11.7 is
// cudnn8.5.0; 1.7.0/11.0 is cudnn8.0.3 and 1.7.1/11.0 cudnn8.0.5, so the
// release's row wins over none); a variant the channel never built has no
// row.
func TestPytorchChannelCuDNNOf(t *testing.T) {
	k := Default()
	for _, c := range []struct{ series, release, cuda, want string }{
		{"1.11", "1.11.0", "11.3", "8.2.0"},
		{"1.13", "", "11.7", "8.5.0"},
		{"2.3", "2.3.1", "12.1", "8.9.2"},
		{"1.7", "1.7.0", "11.0", "8.0.3"},
		{"1.7", "1.7.1", "11.0", "8.0.5"},
		{"1.7", "", "11.0", ""}, // the release open: 1.7's two builds differ
		{"1.7", "1.7.0", "10.2", "7.6.5"},
		{"1.0", "1.0.1", "9.0", "7.4.2"},
		{"1.0", "1.0.0", "8.0", "7.1.2"},
		{"1.11", "1.11.0", "11.8", ""},
	} {
		r, ok := k.PytorchChannelCuDNNOf(c.series, c.release, c.cuda)
		got := ""
		if ok {
			got = r.CuDNN
		}
		if got != c.want {
			t.Errorf("PytorchChannelCuDNNOf(%s, %s, %s) = %q, want %q", c.series, c.release, c.cuda, got, c.want)
		}
	}
}

// TestLastCuDNNOfMajor: cuDNN 7 ends at 7.6.5 and cuDNN 8 at 8.9.7; the
// loader refuses a row whose last release is not of its major.
func TestLastCuDNNOfMajor(t *testing.T) {
	k := Default()
	for _, c := range []struct{ major, want string }{{"7", "7.6.5"}, {"8", "8.9.7"}, {"9", ""}} {
		got := ""
		if r, ok := k.LastCuDNNOfMajor(c.major); ok {
			got = r.Last
		}
		if got != c.want {
			t.Errorf("LastCuDNNOfMajor(%s) = %q, want %q", c.major, got, c.want)
		}
	}
	bad, err := LoadEmbeddedYAML()
	if err != nil {
		t.Fatal(err)
	}
	bad.CuDNNLastOfMajor = append(bad.CuDNNLastOfMajor, CuDNNLastOfMajor{Major: "8", Last: "7.6.5", Source: "CUDNN_ARCHIVES"})
	bad.PytorchChannelCuDNN = append(bad.PytorchChannelCuDNN, PytorchChannelCuDNN{Series: "1.7", Release: "1.8.0", CUDA: "11.0", CuDNN: "8.0.5", Source: "MOI90_BUILDS"})
	text := ""
	for _, e := range bad.validate() {
		text += e.Error() + "\n"
	}
	for _, want := range []string{`last "7.6.5" must be`, `release "1.8.0"`} {
		if !strings.Contains(text, want) {
			t.Errorf("validate: no %q in:\n%s", want, text)
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
