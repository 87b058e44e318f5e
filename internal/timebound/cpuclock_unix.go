//go:build unix

package timebound

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system, every
// thread (the garbage collector's too). The kernel advances it only while
// the process runs, so another process's load, which stretches a wall-clock
// measurement, leaves it nearly alone. Linux sums it from the scheduler's
// nanosecond run time, so it is finer than a clock tick.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
