package workpool

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestMapKeepsOrder(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 7, 100} {
		got := Map(50, workers, func(i int) int {
			// Later jobs finish first, so order comes from the index alone.
			time.Sleep(time.Duration(50-i) * 20 * time.Microsecond)
			return i * i
		})
		if len(got) != 50 {
			t.Fatalf("workers %d: %d results", workers, len(got))
		}
		for i, v := range got {
			if v != i*i {
				t.Fatalf("workers %d: result %d = %d, want %d", workers, i, v, i*i)
			}
		}
	}
}

func TestMapBoundsConcurrency(t *testing.T) {
	var running, peak atomic.Int64
	Map(64, 3, func(int) struct{} {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		running.Add(-1)
		return struct{}{}
	})
	if p := peak.Load(); p > 3 || p < 2 {
		t.Errorf("peak concurrency %d, want 2 or 3 (bounded by 3 workers)", p)
	}
}

func TestMapEmpty(t *testing.T) {
	if got := Map(0, 4, func(int) int { t.Fatal("called"); return 0 }); len(got) != 0 {
		t.Errorf("got %v", got)
	}
}
