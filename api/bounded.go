package api

import (
	"context"
	"fmt"
	"runtime/debug"
)

// runBounded runs f (a pipeline call) and returns its result, or ctx's error
// as soon as the request deadline passes even when f does not watch ctx:
// the client gets its 504 on time instead of a connection cut by the
// server's write timeout. f keeps its validation slot until it really
// returns (release runs then), so runaway work still counts against
// MaxConcurrent and the service sheds load with 503s rather than pile up.
func runBounded[T any](ctx context.Context, release func(), f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
		p   *panicValue
	}
	ch := make(chan result, 1)
	go func() {
		defer release()
		defer func() {
			if rvr := recover(); rvr != nil {
				ch <- result{p: &panicValue{value: rvr, stack: debug.Stack()}}
			}
		}()
		v, err := f()
		ch <- result{v: v, err: err}
	}()
	select {
	case r := <-ch:
		if r.p != nil {
			// Re-raised in the handler's goroutine, where the recoverer
			// answers it; the stack is the original one.
			panic(r.p)
		}
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// panicValue carries a panic from a pipeline goroutine with its stack.
type panicValue struct {
	value any
	stack []byte
}

func (p *panicValue) String() string { return fmt.Sprint(p.value) }
