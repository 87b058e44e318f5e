package api

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	vm "github.com/VictoriaMetrics/metrics"
)

// runBounded runs f (a pipeline call) and returns its result, or ctx's error
// as soon as ctx ends (the request deadline passed, or the client went
// away) even when f does not watch ctx: the client gets its 504 on time
// instead of a connection cut by the server's write timeout.
//
// The validation slot (release) goes back when f returns or, at the
// latest, when ctx ends: a request that timed out or was abandoned never
// keeps a slot from the requests after it. The real pipeline watches ctx
// and stops within one phase of an input its budget bounds; work still
// running after its request ended is counted in ab, and at most ab's limit
// of it runs at once. Past that limit a call keeps its slot until it
// really returns, so work that ignores its context cannot pile up without
// bound: the service then sheds load with 503s instead.
//
// f runs on one of p's workers, with ctx made to yield (yieldingContext);
// heavy (nil: never) says when it is to sleep at each yield from its start.
func runBounded[T any](ctx context.Context, p *pool, ab *abandoned, release func(), heavy func() bool, f func(context.Context) (T, error)) (T, error) {
	type result struct {
		v   T
		err error
		p   *panicValue
	}
	var (
		once     sync.Once
		mu       sync.Mutex
		finished bool // f has returned
		left     bool // counted in ab: its request ended first
	)
	free := func() { once.Do(release) }
	ch := make(chan result, 1)
	p.run(func() {
		defer func() {
			mu.Lock()
			finished = true
			wasLeft := left
			mu.Unlock()
			free()
			if wasLeft {
				ab.done()
			}
		}()
		defer func() {
			if rvr := recover(); rvr != nil {
				ch <- result{p: &panicValue{value: rvr, stack: debug.Stack()}}
			}
		}()
		v, err := f(yielding(ctx, &p.running, heavy))
		ch <- result{v: v, err: err}
	})
	select {
	case r := <-ch:
		if r.p != nil {
			// Re-raised in the handler's goroutine, where the recoverer
			// answers it; the stack is the original one.
			panic(r.p)
		}
		return r.v, r.err
	case <-ctx.Done():
		mu.Lock()
		if !finished && ab.take() {
			left = true
			mu.Unlock()
			free()
		} else {
			mu.Unlock()
		}
		var zero T
		return zero, ctx.Err()
	}
}

// abandoned counts pipeline calls still running after their request ended,
// up to a limit.
type abandoned struct {
	mu    sync.Mutex
	n     int
	limit int
	gauge *vm.Gauge
}

// take counts one more, unless the limit is reached.
func (a *abandoned) take() bool {
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n >= a.limit {
		return false
	}
	a.n++
	a.gauge.Inc()
	return true
}

func (a *abandoned) done() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n--
	a.gauge.Dec()
}

// panicValue carries a panic from a pipeline goroutine with its stack.
type panicValue struct {
	value any
	stack []byte
}

func (p *panicValue) String() string { return fmt.Sprint(p.value) }

// yieldingContext is the context a pipeline call gets. The pipeline checks
// its context between units of work (every few dozen items, between
// rules, every 512 bytes of YAML); there, at most once a yieldEvery, the
// call gives up its processor, so that a long validation lets short ones
// run between its steps. Without it a CPU-bound call keeps its processor
// for the Go scheduler's time slice, 10 ms, while short requests queue
// behind it: with one client sending heavy bodies to one slot, the other
// clients' p99 was 3× that of a quiet run (issue 22, N13).
//
// A yield alone gives the processor only to goroutines already runnable;
// an honest request whose packets arrive a moment later still finds both
// processors of a 2-core machine busy, and with a heavy call on one of
// them the honest clients' p99 came within a hair of 2× that of a quiet
// run (1.5–2.4× in CI, issue 18). So a call that has run past longAfter,
// longer than any ordinary file takes, while other calls are under way,
// sleeps for longPause at each yield instead: shortest work first, as an
// operating system's scheduler favours interactive work. A heavy body then
// takes at most about three times as long while others are served, and as
// long as before when it is alone.
//
// A call with a large body (coolBody) while other clients are about
// (heavy) sleeps at each yield from its start: in its first longAfter it
// kept a processor, and the machine's CPU, from the short requests whose
// packets had not yet arrived, which running does not count. With the
// service in a process of its own (issue 18), the honest p99 was 1.5-2.9x
// that of a quiet run without this, 1.45-2.03x with it and a pause of
// 0.25 ms, and 1.29-1.77x with the pause of 1 ms.
type yieldingContext struct {
	context.Context
	start   int64        // unix nanoseconds when the call began
	last    atomic.Int64 // unix nanoseconds of the last yield
	running *atomic.Int64
	heavy   func() bool // nil: never
	yield   func()      // runtime.Gosched; counted by a test
	pause   func()      // sleeps longPause; counted by a test
}

const (
	yieldEvery = 500 * time.Microsecond
	longAfter  = 10 * time.Millisecond
	longPause  = time.Millisecond
)

// yielding makes ctx yield; running counts the calls under way, this one
// among them (nil: it is always alone); heavy is runBounded's.
func yielding(ctx context.Context, running *atomic.Int64, heavy func() bool) context.Context {
	now := time.Now().UnixNano()
	y := &yieldingContext{Context: ctx, start: now, running: running, heavy: heavy,
		yield: runtime.Gosched, pause: func() { time.Sleep(longPause) }}
	y.last.Store(now)
	return y
}

func (y *yieldingContext) Err() error {
	if now := time.Now().UnixNano(); now-y.last.Load() >= int64(yieldEvery) {
		if now-y.start >= int64(longAfter) && y.running != nil && y.running.Load() > 1 ||
			y.heavy != nil && y.heavy() {
			y.pause()
			// From the end of the pause: a sleep that overshoots does not
			// leave the call no time to run before the next one.
			now = time.Now().UnixNano()
		} else {
			y.yield()
		}
		y.last.Store(now)
	}
	return y.Context.Err()
}
