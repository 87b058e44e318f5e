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

// NewestCUDAOfMajor returns the newest CUDA major.minor of a major that the
// driver table lists as a release ("12" → "12.9"), "" when none.
func (k *KB) NewestCUDAOfMajor(major int) string {
	best := ""
	for _, r := range k.CUDADrivers {
		mm := majorMinor(r.CUDA)
		v, ok := ParseNVIDIA(mm)
		if !ok || int(v.Major()) != major || r.BranchOnly {
			continue
		}
		if c, ok := CompareDotted(mm, best); best == "" || (ok && c > 0) {
			best = mm
		}
	}
	return best
}
