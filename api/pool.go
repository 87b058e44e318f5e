package api

import (
	"sync/atomic"
	"time"
)

// pool runs pipeline calls on goroutines that outlive them. A fresh
// goroutine starts on a small stack that the parser's recursion grows, a
// copy at each doubling, on every request; a worker keeps the stack it
// grew for the next call. run never waits: with no idle worker it starts
// one, so how many calls run at once is still the validation slots' and
// runBounded's business alone.
type pool struct {
	idle chan func()   // idle workers receive here
	wait time.Duration // how long a worker stays idle before it ends
	// busy learns of every call from its start to its end, which may come
	// after its request's (work that outlives its deadline); nil: no one.
	busy *idleRelease
	// running counts the calls under way now; a long call yields more to
	// the others while it is not alone (yieldingContext).
	running atomic.Int64
}

func newPool(wait time.Duration) *pool {
	return &pool{idle: make(chan func()), wait: wait}
}

// run runs f on an idle worker, or on a new one.
func (p *pool) run(f func()) {
	if p.busy != nil {
		p.busy.begin()
	}
	p.running.Add(1)
	select {
	case p.idle <- f:
	default:
		go p.work(f)
	}
}

func (p *pool) work(f func()) {
	t := time.NewTimer(p.wait)
	defer t.Stop()
	for {
		f()
		p.running.Add(-1)
		if p.busy != nil {
			p.busy.end()
		}
		t.Reset(p.wait)
		select {
		case f = <-p.idle:
		case <-t.C:
			return
		}
	}
}
