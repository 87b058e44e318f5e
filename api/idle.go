package api

import (
	"runtime/debug"
	"sync"
	"time"
)

// idleReleaseAfter is how long the service must have been idle before it
// gives its free memory back to the system.
const idleReleaseAfter = 5 * time.Second

// idleRelease gives the process's free memory back to the system once no
// validation has run for a while. Go's background scavenger returns memory
// only down to what the heap's last goal allows, and after a burst that
// goal is several times the heap of the burst (GOGC 400, see
// service.TuneGC); with no allocation while idle no new cycle lowers it, so
// an idle service kept hundreds of MiB (issue 22, N13). One forced
// collection and release after the last request of a busy spell costs a
// few milliseconds; probes and metrics scrapes do not start a spell, so an
// idle service is not collected again and again.
type idleRelease struct {
	mu    sync.Mutex
	busy  int  // requests in the slot path and pipeline calls still running
	dirty bool // a validation ran since the last release
	after time.Duration
	timer *time.Timer
	free  func()
}

// processIdle is shared by every server in the process: the memory it
// frees is the process's.
var processIdle = &idleRelease{after: idleReleaseAfter, free: debug.FreeOSMemory}

func (r *idleRelease) begin() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy++
	r.dirty = true
	if r.timer != nil {
		r.timer.Stop()
	}
}

func (r *idleRelease) end() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy--
	if r.busy > 0 {
		return
	}
	if r.timer == nil {
		r.timer = time.AfterFunc(r.after, r.fire)
	} else {
		r.timer.Reset(r.after)
	}
}

func (r *idleRelease) fire() {
	r.mu.Lock()
	run := r.busy == 0 && r.dirty
	if run {
		r.dirty = false
	}
	r.mu.Unlock()
	if run {
		r.free()
	}
}
