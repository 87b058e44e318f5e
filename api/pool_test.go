package api

import (
	"bytes"
	"runtime"
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
		case <-time.After(5 * time.Second):
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
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 5 s after the calls, %d before: idle workers did not end", runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
