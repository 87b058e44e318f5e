package kb

import (
	"strings"
	"testing"
)

// TestTorchWheelCuDNNOf: a pip torch build's own cuDNN is looked up by
// distribution. The wheel index's builds carry their image's cuDNN
// (1.11+cu113: 8.2.0, 1.12+cu113: 8.3.2, 1.8+cu111: 8.0.5, 2.0+cu118:
// 8.7.0); the package index's plain torch of 1.7 … 1.12 is the CUDA 10.2
// build (7.6.5), while its 2.0 pins nvidia-cudnn-cu11 instead, so 2.0 for
// CUDA 11.7 has a wheel row and no pypi one. 1.7's CUDA 11.0 wheels have
// none (the image's 8.0.x patch is not known), and pytorch-channel rows
// serve the channel only.
func TestTorchWheelCuDNNOf(t *testing.T) {
	k := Default()
	for _, c := range []struct {
		dist                  Distribution
		series, release, cuda string
		want                  string
	}{
		{DistWheel, "1.11", "1.11.0", "11.3", "8.2.0"},
		{DistWheel, "1.12", "1.12.1", "11.3", "8.3.2"},
		{DistWheel, "1.8", "1.8.0", "11.1", "8.0.5"},
		{DistWheel, "1.7", "1.7.1", "9.2", "7.6.3"},
		{DistWheel, "2.0", "2.0.0", "11.8", "8.7.0"},
		{DistWheel, "2.0", "2.0.0", "11.7", "8.5.0"},
		{DistPyPI, "1.11", "1.11.0", "10.2", "7.6.5"},
		{DistPyPI, "1.8", "1.8.1", "10.2", "7.6.5"},
		{DistPyPI, "2.0", "2.0.0", "11.7", ""},
		{DistPyPI, "1.13", "1.13.1", "11.7", ""},
		// the series only: the cu110 image had 8.0.0 … 8.0.5 over 1.7's life
		{DistWheel, "1.7", "1.7.0", "11.0", "8.0"},
		{DistWheel, "1.7", "1.7.1", "11.0", "8.0"},
		{DistCondaForge, "1.11", "1.11.0", "11.3", ""},
		{DistPytorchConda, "1.7", "1.7.0", "11.0", "8.0.3"},
	} {
		got := ""
		if r, ok := k.TorchCuDNNOf(c.dist, c.series, c.release, c.cuda); ok {
			got = r.CuDNN
		}
		if got != c.want {
			t.Errorf("TorchCuDNNOf(%s, %s, %s, %s) = %q, want %q", c.dist, c.series, c.release, c.cuda, got, c.want)
		}
	}
}

// TestValidateWheelCuDNNRows: a torch_wheel_cudnn row must name the
// distributions it serves, each a pip one whose torch_variants list its
// CUDA, and a pytorch_channel_cudnn row names none.
func TestValidateWheelCuDNNRows(t *testing.T) {
	bad, err := LoadEmbeddedYAML()
	if err != nil {
		t.Fatal(err)
	}
	src := bad.TorchWheelCuDNN[0].Source
	bad.TorchWheelCuDNN = append(bad.TorchWheelCuDNN,
		PytorchChannelCuDNN{Series: "1.11", CUDA: "11.3", CuDNN: "8.2.0", Source: src},
		PytorchChannelCuDNN{Series: "1.11", Release: "1.11.0", CUDA: "11.3", CuDNN: "8.2.0", Dist: []Distribution{DistPyPI}, Source: src},
		PytorchChannelCuDNN{Series: "1.12", CUDA: "11.6", CuDNN: "8.3.2", Dist: []Distribution{DistCondaForge}, Source: src})
	bad.PytorchChannelCuDNN = append(bad.PytorchChannelCuDNN, PytorchChannelCuDNN{Series: "1.12", Release: "1.12.0", CUDA: "11.6", CuDNN: "8.3.2", Dist: []Distribution{DistWheel}, Source: bad.PytorchChannelCuDNN[0].Source})
	text := ""
	for _, e := range bad.validate() {
		text += e.Error() + "\n"
	}
	for _, want := range []string{"dist is empty", `cuda "11.3" is not a CUDA variant of torch 1.11 on pypi`, `dist "conda-forge" is not wheel or pypi`, "dist is for torch_wheel_cudnn rows"} {
		if !strings.Contains(text, want) {
			t.Errorf("validate: no %q in:\n%s", want, text)
		}
	}
}
