package api

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// goroutineID reads the running goroutine's number from its stack header.
func goroutineID() string {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	return string(b[:bytes.IndexByte(b, ' ')])
}

// TestPoolReusesWorkers: calls one after another run on the same few
// goroutines, not one each.
func TestPoolReusesWorkers(t *testing.T) {
	p := newPool(time.Minute)
	ids := map[string]bool{}
	for range 100 {
		done := make(chan string)
		p.run(func() { done <- goroutineID() })
		ids[<-done] = true
	}
	// A worker that has not yet gone back to wait when the next call
	// comes makes that call start another; a handful at most.
	if len(ids) > 10 {
		t.Errorf("100 calls in turn ran on %d goroutines, want a few reused ones", len(ids))
	}
}

// TestPoolNeverWaits: with every worker busy a call starts at once on a
// new one, so the pool adds no queue to the validation slots.
func TestPoolNeverWaits(t *testing.T) {
	p := newPool(time.Minute)
	block := make(chan struct{})
	defer close(block)
	for range 3 {
		started := make(chan struct{})
		p.run(func() { close(started); <-block })
		select {
		case <-started:
		case <-time.After(30 * time.Second):
			t.Fatal("a call waited for a busy worker")
		}
	}
}

// TestPoolWorkersEnd: an idle worker ends after the pool's wait.
func TestPoolWorkersEnd(t *testing.T) {
	before := runtime.NumGoroutine()
	p := newPool(10 * time.Millisecond)
	done := make(chan struct{})
	for range 5 {
		p.run(func() { done <- struct{}{} })
	}
	for range 5 {
		<-done
	}
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 30 s after the calls, %d before: idle workers did not end", runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestIdleRelease: memory is given back once, after the last busy spell
// ends and the service stays idle; not while anything is busy, and not
// again while it stays idle.
func TestIdleRelease(t *testing.T) {
	freed := make(chan struct{}, 10)
	r := &idleRelease{after: 20 * time.Millisecond, free: func() { freed <- struct{}{} }}
	wait := func(what string) {
		t.Helper()
		select {
		case <-freed:
		case <-time.After(30 * time.Second):
			t.Fatalf("no release %s", what)
		}
	}
	none := func(what string) {
		t.Helper()
		select {
		case <-freed:
			t.Fatalf("a release %s", what)
		case <-time.After(100 * time.Millisecond):
		}
	}
	r.begin()
	r.begin()
	r.end()
	none("while one request is still busy")
	r.end()
	wait("after the last request ended")
	none("a second time while idle")
	// A spell of its own is released again.
	r.begin()
	r.end()
	wait("after a second spell")
}

// TestYieldingContext: a pipeline call that checks its context gives up its
// processor about once a yieldEvery, never on every check, and the
// context still says what its parent says.
func TestYieldingContext(t *testing.T) {
	var yields int
	parent, cancel := context.WithCancel(context.Background())
	ctx := yielding(context.WithValue(parent, yieldKey{}, "v"), nil, nil).(*yieldingContext)
	ctx.yield = func() { yields++ }
	checks := 0
	start := time.Now()
	for time.Since(start) < 5*time.Millisecond {
		if ctx.Err() != nil {
			t.Fatal("Err before cancel")
		}
		checks++
	}
	elapsed := time.Since(start)
	if yields < 1 || yields > int(elapsed/yieldEvery)+1 || yields >= checks {
		t.Errorf("%d yields in %d checks over %v, want about one a yieldEvery", yields, checks, elapsed)
	}
	if ctx.Value(yieldKey{}) != "v" {
		t.Error("the value of the parent is lost")
	}
	cancel()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("after cancel: %v", ctx.Err())
	}
	<-ctx.Done()
}

type yieldKey struct{}

// TestYieldingContextPausesLongCalls: shortest work first. A call that has
// run past longAfter sleeps at its yields while other calls are under way,
// and a heavy one (a large body among other clients) from its start; any
// other only yields.
func TestYieldingContextPausesLongCalls(t *testing.T) {
	var running atomic.Int64
	var heavy bool
	ctx := yielding(context.Background(), &running, func() bool { return heavy }).(*yieldingContext)
	var yields, pauses int
	ctx.yield = func() { yields++ }
	ctx.pause = func() { pauses++ }
	// check makes the next Err a yield point, the call having run for ran.
	check := func(ran time.Duration) {
		now := time.Now().UnixNano()
		ctx.start = now - int64(ran)
		ctx.last.Store(now - int64(yieldEvery))
		if ctx.Err() != nil {
			t.Fatal("Err on a live context")
		}
	}
	for _, c := range []struct {
		running              int64
		ran                  time.Duration
		heavy                bool
		wantYield, wantPause int
	}{
		{running: 1, ran: 10 * longAfter, wantYield: 1},  // alone
		{running: 2, ran: longAfter / 2, wantYield: 1},   // short
		{running: 2, ran: longAfter, wantPause: 1},       // long, not alone
		{running: 5, ran: 100 * longAfter, wantPause: 1}, // long, not alone
		{running: 0, ran: 100 * longAfter, wantYield: 1}, // not counted
		{running: 1, ran: 0, heavy: true, wantPause: 1},  // heavy, from its start
		{running: 1, ran: longAfter / 2, heavy: true, wantPause: 1},
	} {
		yields, pauses = 0, 0
		running.Store(c.running)
		heavy = c.heavy
		check(c.ran)
		if yields != c.wantYield || pauses != c.wantPause {
			t.Errorf("%d calls running, this one for %v: %d yields and %d pauses, want %d and %d",
				c.running, c.ran, yields, pauses, c.wantYield, c.wantPause)
		}
	}
	// The pool counts its calls from start to end.
	p := newPool(time.Minute)
	inside := make(chan int64)
	p.run(func() { inside <- p.running.Load() })
	if n := <-inside; n != 1 {
		t.Errorf("%d calls counted inside the only one, want 1", n)
	}
	for deadline := time.Now().Add(10 * time.Second); p.running.Load() != 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d calls counted after the only one ended", p.running.Load())
		}
	}
}
