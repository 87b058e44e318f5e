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

// LastDriverBranch returns the last driver branch that supports GPUs of a
// compute capability ("3.7" → R470), false where the architecture is still
// supported or the table does not list it.
func (k *KB) LastDriverBranch(cc string) (*GPUArchDriver, bool) {
	for i := range k.GPUArchDrivers {
		for _, c := range k.GPUArchDrivers[i].CC {
			if c == cc {
				a := k.GPUArchDrivers[i]
				return &a, true
			}
		}
	}
	return nil, false
}

// NewestCUDAOfBranch returns the newest CUDA major.minor whose minimum Linux
// driver belongs to a branch at or below the given one (470 → "11.4", whose
// updates need 470.82.01): the newest runtime a driver of that branch runs
// natively. "" when no row qualifies.
func (k *KB) NewestCUDAOfBranch(branch int) string {
	best := ""
	for _, r := range k.CUDADrivers {
		v, ok := ParseNVIDIA(r.LinuxMin)
		if !ok || int(v.Major()) > branch {
			continue
		}
		mm := majorMinor(r.CUDA)
		if c, ok := CompareDotted(mm, best); best == "" || (ok && c > 0) {
			best = mm
		}
	}
	return best
}
