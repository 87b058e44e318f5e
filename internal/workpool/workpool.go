// Package workpool runs independent jobs on a bounded number of goroutines
// and hands their results back in the order the jobs were given, so that
// output from many files reads the same however the work was scheduled.
package workpool

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Map calls fn(i) for every i in [0, n) on at most workers goroutines
// (runtime.GOMAXPROCS(0) when workers < 1) and returns the results indexed
// by i. Jobs are handed out in index order. fn must be safe to call
// concurrently.
func Map[T any](n, workers int, fn func(i int) T) []T {
	out := make([]T, n)
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			out[i] = fn(i)
		}
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				out[i] = fn(i)
			}
		}()
	}
	wg.Wait()
	return out
}
