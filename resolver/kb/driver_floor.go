package kb

// OldestDriverFloor returns the GA row of the oldest CUDA release the driver
// table lists: a driver below its floor runs no CUDA runtime envguard knows.
func (k *KB) OldestDriverFloor() (*CUDADriver, bool) {
	var best *CUDADriver
	for i := range k.CUDADrivers {
		r := &k.CUDADrivers[i]
		if r.BranchOnly || majorMinor(r.CUDA) != r.CUDA {
			continue
		}
		if best == nil {
			best = r
			continue
		}
		if c, ok := CompareDotted(r.CUDA, best.CUDA); ok && c < 0 {
			best = r
		}
	}
	if best == nil {
		return nil, false
	}
	out := *best
	return &out, true
}
