package kb

// STUB: owned by the knowledge-base helper, who implements these.

// KB answers questions from Facts.
type KB struct {
	Facts
}

// Default returns the embedded knowledge base.
func Default() *KB { return &KB{} }

// Load reads the knowledge base from dir (the same file layout as embedded).
func Load(dir string) (*KB, error) { return &KB{}, nil }

// Release returns the release entry for an exact torch version ("2.0.1").
func (k *KB) Release(version string) (*TorchRelease, bool) { return nil, false }

// Series returns the releases of a series ("2.0"), oldest first.
func (k *KB) Series(series string) []TorchRelease { return nil }

// LatestTorch returns the newest torch release known.
func (k *KB) LatestTorch() string { return "" }

// Variants returns the CUDA variants a distribution publishes for a series.
func (k *KB) Variants(series string, dist Distribution) (*TorchVariants, bool) { return nil, false }

// Arch returns the architecture list of a build variant.
func (k *KB) Arch(series, cuda string, dist Distribution) (*ArchList, bool) { return nil, false }

// DriverFloor returns the minimum Linux driver of a CUDA major.minor.
func (k *KB) DriverFloor(cuda string) (*CUDADriver, bool) { return nil, false }

// MinorCompatFloor returns the minor-version-compatibility floor of a major.
func (k *KB) MinorCompatFloor(major int) (*MinorCompat, bool) { return nil, false }

// DriverCUDA returns the newest CUDA major.minor a Linux driver version
// supports, from the driver table; "" when the driver is older than every row.
func (k *KB) DriverCUDA(driver string) string { return "" }

// GPUByName finds a GPU by name as people and NVML write it ("H100",
// "NVIDIA H100 80GB HBM3", "a100-sxm4-40gb").
func (k *KB) GPUByName(name string) (*GPU, bool) { return nil, false }

// TensorFlow returns the tested configuration of a TensorFlow version.
func (k *KB) TensorFlow(version string) (*TFConfig, bool) { return nil, false }

// LibByConda returns the GPU library a conda package name belongs to.
func (k *KB) LibByConda(name string) (*GPULib, bool) { return nil, false }

// LibByPip returns the GPU library a pip name belongs to.
func (k *KB) LibByPip(name string) (*GPULib, bool) { return nil, false }

// IsCUDAStack reports whether a conda package is part of a CUDA stack.
func (k *KB) IsCUDAStack(name string) bool { return false }
