package kb

import (
	"strings"
	"testing"
)

// TestGPUTableNVMLNames holds real product strings, as NVML (nvidia-smi,
// torch.cuda.get_device_name) prints them, against the row and compute
// capability they must resolve to: data-centre boards with their memory and
// form-factor words, workstation parts whose model number NVIDIA reused,
// every RTX 3060/3070/3080 variant, and laptop parts.
func TestGPUTableNVMLNames(t *testing.T) {
	k := Default()
	tests := []struct{ in, name, cc string }{
		// Data centre, Kepler to Blackwell.
		{"Tesla K80", "Tesla K80", "3.7"},
		{"Tesla K40m", "Tesla K40", "3.5"},
		{"Tesla M40 24GB", "Tesla M40", "5.2"},
		{"Tesla M60", "Tesla M60", "5.2"},
		{"Tesla P4", "Tesla P4", "6.1"},
		{"Tesla P40", "Tesla P40", "6.1"},
		{"Tesla P100-PCIE-16GB", "Tesla P100", "6.0"},
		{"Tesla P100-SXM2-16GB", "Tesla P100", "6.0"},
		{"Tesla V100-SXM2-16GB", "Tesla V100", "7.0"},
		{"Tesla V100-SXM2-32GB", "Tesla V100", "7.0"},
		{"Tesla V100-PCIE-32GB", "Tesla V100", "7.0"},
		{"Tesla V100-FHHL-16GB", "Tesla V100", "7.0"},
		{"Tesla V100-DGXS-32GB", "Tesla V100", "7.0"},
		{"Tesla V100S-PCIE-32GB", "Tesla V100", "7.0"},
		{"Tesla T4", "NVIDIA T4", "7.5"},
		{"NVIDIA A2", "NVIDIA A2", "8.6"},
		{"NVIDIA A10", "NVIDIA A10", "8.6"},
		{"NVIDIA A10G", "NVIDIA A10G", "8.6"},
		{"NVIDIA A16", "NVIDIA A16", "8.6"},
		{"NVIDIA A30", "NVIDIA A30", "8.0"},
		{"NVIDIA A40", "NVIDIA A40", "8.6"},
		{"A100-SXM4-40GB", "NVIDIA A100", "8.0"},
		{"NVIDIA A100-SXM4-80GB", "NVIDIA A100", "8.0"},
		{"NVIDIA A100-PCIE-40GB", "NVIDIA A100", "8.0"},
		{"NVIDIA A100 80GB PCIe", "NVIDIA A100", "8.0"},
		{"NVIDIA A800-SXM4-80GB", "NVIDIA A800", "8.0"},
		{"NVIDIA H100 PCIe", "NVIDIA H100", "9.0"},
		{"NVIDIA H100 80GB HBM3", "NVIDIA H100", "9.0"},
		{"NVIDIA H100 NVL", "NVIDIA H100", "9.0"},
		{"NVIDIA H200", "NVIDIA H200", "9.0"},
		{"NVIDIA H200 NVL", "NVIDIA H200", "9.0"},
		{"NVIDIA H800 PCIe", "NVIDIA H800", "9.0"},
		{"NVIDIA H20", "NVIDIA H20", "9.0"},
		{"NVIDIA GH200 480GB", "NVIDIA GH200", "9.0"},
		{"NVIDIA GH200 144G HBM3e", "NVIDIA GH200", "9.0"},
		{"NVIDIA L4", "NVIDIA L4", "8.9"},
		{"NVIDIA L40", "NVIDIA L40", "8.9"},
		{"NVIDIA L40S", "NVIDIA L40S", "8.9"},
		{"NVIDIA B200", "NVIDIA B200", "10.0"},
		{"NVIDIA GB200", "NVIDIA GB200", "10.0"},
		{"NVIDIA B300 SXM6 AC", "NVIDIA B300", "10.3"},
		{"NVIDIA GB300", "NVIDIA GB300", "10.3"},
		{"NVIDIA GB10", "NVIDIA GB10", "12.1"},
		// Workstation: one model number, three generations.
		{"Quadro RTX 6000", "Quadro RTX 6000", "7.5"},
		{"NVIDIA RTX 6000 Ada Generation", "NVIDIA RTX 6000 Ada", "8.9"},
		{"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "NVIDIA RTX PRO 6000 Blackwell", "12.0"},
		{"NVIDIA RTX PRO 6000 Blackwell Server Edition", "NVIDIA RTX PRO 6000 Blackwell", "12.0"},
		{"Quadro RTX 5000", "Quadro RTX 5000", "7.5"},
		{"NVIDIA RTX 5000 Ada Generation", "NVIDIA RTX 5000 Ada", "8.9"},
		{"NVIDIA RTX PRO 5000 Blackwell", "NVIDIA RTX PRO 5000 Blackwell", "12.0"},
		{"Quadro RTX 4000", "Quadro RTX 4000", "7.5"},
		{"NVIDIA RTX 4000 Ada Generation", "NVIDIA RTX 4000 Ada", "8.9"},
		{"NVIDIA RTX 4000 SFF Ada Generation", "NVIDIA RTX 4000 SFF Ada", "8.9"},
		{"NVIDIA RTX PRO 4000 Blackwell", "NVIDIA RTX PRO 4000 Blackwell", "12.0"},
		{"NVIDIA RTX PRO 4000 Blackwell SFF Edition", "NVIDIA RTX PRO 4000 Blackwell", "12.0"},
		{"NVIDIA RTX 4500 Ada Generation", "NVIDIA RTX 4500 Ada", "8.9"},
		{"NVIDIA RTX PRO 4500 Blackwell", "NVIDIA RTX PRO 4500 Blackwell", "12.0"},
		{"NVIDIA RTX 2000 Ada Generation", "NVIDIA RTX 2000 Ada", "8.9"},
		{"NVIDIA RTX PRO 2000 Blackwell", "NVIDIA RTX PRO 2000 Blackwell", "12.0"},
		{"Quadro RTX 8000", "Quadro RTX 8000", "7.5"},
		{"Quadro GV100", "Quadro GV100", "7.0"},
		{"Quadro GP100", "Quadro GP100", "6.0"},
		{"Quadro P5000", "Quadro P5000", "6.1"},
		{"Quadro P2000", "Quadro P2000", "6.1"},
		{"Quadro M4000", "Quadro M4000", "5.2"},
		{"NVIDIA T1000 8GB", "NVIDIA T1000", "7.5"},
		{"NVIDIA RTX A2000 12GB", "NVIDIA RTX A2000", "8.6"},
		{"NVIDIA RTX A4000", "NVIDIA RTX A4000", "8.6"},
		{"NVIDIA RTX A4500", "NVIDIA RTX A4500", "8.6"},
		{"NVIDIA RTX A5000", "NVIDIA RTX A5000", "8.6"},
		{"NVIDIA RTX A5500", "NVIDIA RTX A5500", "8.6"},
		{"NVIDIA RTX A6000", "NVIDIA RTX A6000", "8.6"},
		{"NVIDIA RTX A3000 12GB Laptop GPU", "NVIDIA RTX A3000", "8.6"},
		{"NVIDIA RTX A4500 Laptop GPU", "NVIDIA RTX A4500 Laptop GPU", "8.6"},
		// GeForce 10, 16, 20 and TITAN.
		{"NVIDIA GeForce GTX 1050 Ti", "GeForce GTX 1050 Ti", "6.1"},
		{"NVIDIA GeForce GTX 1060 6GB", "GeForce GTX 1060", "6.1"},
		{"NVIDIA GeForce GTX 1060 3GB", "GeForce GTX 1060", "6.1"},
		{"NVIDIA GeForce GTX 1070 Ti", "GeForce GTX 1070 Ti", "6.1"},
		{"NVIDIA GeForce GTX 1080 Ti", "GeForce GTX 1080 Ti", "6.1"},
		{"NVIDIA GeForce GTX 1650", "GeForce GTX 1650", "7.5"},
		{"NVIDIA GeForce GTX 1650 Ti", "GeForce GTX 1650 Ti", "7.5"},
		{"NVIDIA GeForce GTX 1660 SUPER", "GeForce GTX 1660 SUPER", "7.5"},
		{"NVIDIA GeForce GTX 1660 Ti", "GeForce GTX 1660 Ti", "7.5"},
		{"NVIDIA GeForce RTX 2060", "GeForce RTX 2060", "7.5"},
		{"NVIDIA GeForce RTX 2070 SUPER", "GeForce RTX 2070 SUPER", "7.5"},
		{"NVIDIA GeForce RTX 2080 SUPER", "GeForce RTX 2080 SUPER", "7.5"},
		{"NVIDIA GeForce RTX 2080 Ti", "GeForce RTX 2080 Ti", "7.5"},
		{"NVIDIA TITAN RTX", "NVIDIA TITAN RTX", "7.5"},
		{"NVIDIA TITAN V", "NVIDIA TITAN V", "7.0"},
		{"NVIDIA TITAN Xp", "NVIDIA TITAN Xp", "6.1"},
		{"TITAN X (Pascal)", "NVIDIA TITAN X", "6.1"},
		{"GeForce GTX TITAN X", "GeForce GTX TITAN X", "5.2"},
		// GeForce 30: every 3060, 3070 and 3080.
		{"NVIDIA GeForce RTX 3060", "GeForce RTX 3060", "8.6"},
		{"NVIDIA GeForce RTX 3060 8GB", "GeForce RTX 3060", "8.6"},
		{"NVIDIA GeForce RTX 3060 12GB", "GeForce RTX 3060", "8.6"},
		{"NVIDIA GeForce RTX 3060 Ti", "GeForce RTX 3060 Ti", "8.6"},
		{"NVIDIA GeForce RTX 3070", "GeForce RTX 3070", "8.6"},
		{"NVIDIA GeForce RTX 3070 Ti", "GeForce RTX 3070 Ti", "8.6"},
		{"NVIDIA GeForce RTX 3080", "GeForce RTX 3080", "8.6"},
		{"NVIDIA GeForce RTX 3080 12GB", "GeForce RTX 3080", "8.6"},
		{"NVIDIA GeForce RTX 3080 Ti", "GeForce RTX 3080 Ti", "8.6"},
		{"NVIDIA GeForce RTX 3090", "GeForce RTX 3090", "8.6"},
		{"NVIDIA GeForce RTX 3090 Ti", "GeForce RTX 3090 Ti", "8.6"},
		{"NVIDIA GeForce RTX 3050", "GeForce RTX 3050", "8.6"},
		// GeForce 40 and 50.
		{"NVIDIA GeForce RTX 4060 Ti 16GB", "GeForce RTX 4060 Ti", "8.9"},
		{"NVIDIA GeForce RTX 4070 SUPER", "GeForce RTX 4070 SUPER", "8.9"},
		{"NVIDIA GeForce RTX 4070 Ti SUPER", "GeForce RTX 4070 Ti SUPER", "8.9"},
		{"NVIDIA GeForce RTX 4080 SUPER", "GeForce RTX 4080 SUPER", "8.9"},
		{"NVIDIA GeForce RTX 4090", "GeForce RTX 4090", "8.9"},
		{"NVIDIA GeForce RTX 5090", "GeForce RTX 5090", "12.0"},
		{"NVIDIA GeForce RTX 5090 D", "GeForce RTX 5090 D", "12.0"},
		{"NVIDIA GeForce RTX 5070 Ti", "GeForce RTX 5070 Ti", "12.0"},
		{"NVIDIA GeForce RTX 5050", "GeForce RTX 5050", "12.0"},
		// Laptop parts, as NVML names them and as people write them.
		{"NVIDIA GeForce RTX 3050 Laptop GPU", "GeForce RTX 3050 Laptop GPU", "8.6"},
		{"NVIDIA GeForce RTX 3050 Ti Laptop GPU", "GeForce RTX 3050 Ti Laptop GPU", "8.6"},
		{"NVIDIA GeForce RTX 3060 Laptop GPU", "GeForce RTX 3060 Laptop GPU", "8.6"},
		{"NVIDIA GeForce RTX 3070 Laptop GPU", "GeForce RTX 3070 Laptop GPU", "8.6"},
		{"NVIDIA GeForce RTX 3070 Ti Laptop GPU", "GeForce RTX 3070 Ti Laptop GPU", "8.6"},
		{"NVIDIA GeForce RTX 3080 Laptop GPU", "GeForce RTX 3080 Laptop GPU", "8.6"},
		{"NVIDIA GeForce RTX 3080 Ti Laptop GPU", "GeForce RTX 3080 Ti Laptop GPU", "8.6"},
		{"NVIDIA GeForce RTX 4060 Laptop GPU", "GeForce RTX 4060 Laptop GPU", "8.9"},
		{"NVIDIA GeForce RTX 4090 Laptop GPU", "GeForce RTX 4090 Laptop GPU", "8.9"},
		{"NVIDIA GeForce RTX 5070 Laptop GPU", "GeForce RTX 5070 Laptop GPU", "12.0"},
		{"NVIDIA GeForce RTX 5080 Laptop GPU", "GeForce RTX 5080 Laptop GPU", "12.0"},
		{"NVIDIA GeForce RTX 5090 Laptop GPU", "GeForce RTX 5090 Laptop GPU", "12.0"},
		{"RTX 3060 Laptop", "GeForce RTX 3060 Laptop GPU", "8.6"},
		{"rtx 4090 laptop gpu", "GeForce RTX 4090 Laptop GPU", "8.9"},
		{"GeForce RTX 4090 Mobile", "GeForce RTX 4090 Laptop GPU", "8.9"},
		// Jetson: the product names, and the names CUDA reports on the board.
		{"Jetson TX1", "Jetson TX1", "5.3"},
		{"Jetson Nano", "Jetson Nano", "5.3"},
		{"NVIDIA Tegra X1", "Jetson Nano", "5.3"},
		{"Jetson TX2", "Jetson TX2", "6.2"},
		{"Jetson Xavier NX", "Jetson Xavier NX", "7.2"},
		{"Jetson AGX Xavier", "Jetson AGX Xavier", "7.2"},
		{"Jetson AGX Orin", "Jetson AGX Orin", "8.7"},
		{"Jetson Orin NX", "Jetson Orin NX", "8.7"},
		{"Jetson Orin Nano", "Jetson Orin Nano", "8.7"},
		{"Jetson AGX Thor", "Jetson AGX Thor", "11.0"},
		{"NVIDIA Thor", "Jetson AGX Thor", "11.0"},
		{"Jetson T5000", "Jetson T5000", "11.0"},
	}
	for _, tt := range tests {
		g, ok := k.GPUByName(tt.in)
		if !ok {
			t.Errorf("GPUByName(%q) found nothing, want %s (%s)", tt.in, tt.name, tt.cc)
			continue
		}
		if g.Name != tt.name || g.CC != tt.cc {
			t.Errorf("GPUByName(%q) = %s %s, want %s %s", tt.in, g.Name, g.CC, tt.name, tt.cc)
		}
	}
}

// TestGPUTableNearMisses holds names that look like a row but are another
// product, or no product the table knows: each must resolve to its own row or
// to nothing, never to its neighbour.
func TestGPUTableNearMisses(t *testing.T) {
	k := Default()
	// The neighbour a near miss must not resolve to.
	notTo := []struct{ in, not string }{
		{"NVIDIA GeForce RTX 3090 Ti", "GeForce RTX 3090"},
		{"NVIDIA GeForce RTX 3060 Ti", "GeForce RTX 3060"},
		{"NVIDIA GeForce RTX 3060 Laptop GPU", "GeForce RTX 3060"},
		{"NVIDIA GeForce RTX 4090 Laptop GPU", "GeForce RTX 4090"},
		{"NVIDIA GeForce RTX 5090 D", "GeForce RTX 5090"},
		{"NVIDIA GeForce RTX 4070 Ti SUPER", "GeForce RTX 4070 Ti"},
		{"NVIDIA GeForce RTX 2080 SUPER", "GeForce RTX 2080"},
		{"Quadro RTX 6000", "NVIDIA RTX 6000 Ada"},
		{"NVIDIA RTX 6000 Ada Generation", "Quadro RTX 6000"},
		{"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "NVIDIA RTX 6000 Ada"},
		{"Jetson Orin Nano", "Jetson Nano"},
		{"NVIDIA GH200 480GB", "NVIDIA H200"},
		{"NVIDIA GB200", "NVIDIA B200"},
		{"GeForce GTX TITAN X", "NVIDIA TITAN X"},
		{"NVIDIA TITAN Xp", "NVIDIA TITAN X"},
		{"NVIDIA L40S", "NVIDIA L40"},
		{"NVIDIA T1000", "NVIDIA T4"},
	}
	for _, tt := range notTo {
		if g, ok := k.GPUByName(tt.in); ok && g.Name == tt.not {
			t.Errorf("GPUByName(%q) = %s, a different product", tt.in, g.Name)
		}
	}
	// Names that must match nothing: a model number NVIDIA reused across
	// generations without the word that picks one, a laptop or Max-Q part the
	// table has no row for (never the desktop row), and products not listed.
	for _, in := range []string{
		"RTX 6000", "NVIDIA RTX 5000", "RTX 4000", "RTX PRO 6000",
		"NVIDIA GeForce RTX 4070 Ti Laptop GPU", "NVIDIA GeForce RTX 5060 Laptop GPU",
		"GeForce RTX 2080 with Max-Q Design", "GeForce GTX 1060 Mobile",
		"NVIDIA B100", "NVIDIA GeForce RTX 4090 D", "NVIDIA GeForce RTX 2050",
		"NVIDIA GeForce MX550", "GeForce GT 1030", "Tesla K10", "NVIDIA A100X",
		"NVIDIA H100 Foo", "RTX 3060 Super", "Orin", "16GB", "Laptop GPU",
	} {
		if g, ok := k.GPUByName(in); ok {
			t.Errorf("GPUByName(%q) = %s %s, want no match", in, g.Name, g.CC)
		}
	}
}

// TestGPUTableRows checks the table as a whole: every row's compute
// capability belongs to its architecture, laptop rows carry "Laptop GPU" in
// their name, and no two rows share a normalised name.
func TestGPUTableRows(t *testing.T) {
	k := Default()
	majors := map[string][]string{
		"Kepler": {"3"}, "Maxwell": {"5"}, "Pascal": {"6"}, "Volta": {"7"}, "Turing": {"7"},
		"Ampere": {"8"}, "Ada": {"8"}, "Hopper": {"9"}, "Blackwell": {"10", "11", "12"},
		"Blackwell Ultra": {"10"},
	}
	seen := map[string]string{}
	for _, g := range k.GPUs {
		want, ok := majors[g.Arch]
		if !ok {
			t.Errorf("%s: unknown arch %q", g.Name, g.Arch)
			continue
		}
		major, _, _ := strings.Cut(g.CC, ".")
		found := false
		for _, m := range want {
			found = found || m == major
		}
		if !found {
			t.Errorf("%s: cc %s is not a %s compute capability", g.Name, g.CC, g.Arch)
		}
		for _, n := range append([]string{g.Name}, g.Aliases...) {
			key := strings.Join(gpuTokens(n), " ")
			if other, dup := seen[key]; dup && other != g.Name {
				t.Errorf("%q of %s is also a name of %s", n, g.Name, other)
			}
			seen[key] = g.Name
			if strings.Contains(strings.ToLower(n), "laptop") && !strings.Contains(g.Name, "Laptop GPU") && g.Name != "NVIDIA RTX A3000" {
				t.Errorf("%s: laptop alias %q on a row that is not a laptop part", g.Name, n)
			}
		}
		// Every name resolves to its own row.
		for _, n := range append([]string{g.Name}, g.Aliases...) {
			if r, ok := k.GPUByName(n); !ok || r.Name != g.Name {
				t.Errorf("GPUByName(%q) does not find its own row %s", n, g.Name)
			}
		}
	}
	if len(k.GPUs) < 150 {
		t.Errorf("table has %d rows; issue 9 item 4 brought it to 159", len(k.GPUs))
	}
}

// TestGPUCandidates: a reused model number names its generations, in table
// order; a resolved name and a name of no known model name none.
func TestGPUCandidates(t *testing.T) {
	k := Default()
	tests := []struct {
		in   string
		want []string
	}{
		{"RTX 6000", []string{"Quadro RTX 6000 7.5", "NVIDIA RTX 6000 Ada 8.9", "NVIDIA RTX PRO 6000 Blackwell 12.0"}},
		{"NVIDIA RTX 4000", []string{"Quadro RTX 4000 7.5", "NVIDIA RTX 4000 Ada 8.9", "NVIDIA RTX 4000 SFF Ada 8.9", "NVIDIA RTX PRO 4000 Blackwell 12.0"}},
		{"Jetson Orin", []string{"Jetson AGX Orin 8.7", "Jetson Orin NX 8.7", "Jetson Orin Nano 8.7"}},
		{"NVIDIA GeForce RTX 3060 Laptop GPU", nil},
		{"NVIDIA B100", nil},
		{"16GB", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, g := range k.GPUCandidates(tt.in) {
			got = append(got, g.Name+" "+g.CC)
		}
		if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
			t.Errorf("GPUCandidates(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
