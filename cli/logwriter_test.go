package cli

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe to read while logWriter writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestLogWriterFlushes: lines wait in the buffer, reach the writer within
// the interval without a Flush, and every one of many concurrent lines is
// there, whole, after Close.
func TestLogWriterFlushes(t *testing.T) {
	var out lockedBuffer
	l := newLogWriter(&out, time.Hour)
	fmt.Fprintln(l, "first")
	if out.String() != "" {
		t.Fatalf("written through before a flush: %q", out.String())
	}
	if err := l.Flush(); err != nil || out.String() != "first\n" {
		t.Fatalf("after Flush: %q, %v", out.String(), err)
	}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			for j := range 100 {
				fmt.Fprintf(l, "line %d %d\n", i, j)
			}
		})
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	seen := map[string]bool{}
	for _, ln := range lines[1:] {
		seen[ln] = true
	}
	if len(lines) != 1+50*100 || len(seen) != 50*100 {
		t.Errorf("%d lines (%d distinct) after Close, want 1 + 5000 distinct", len(lines), len(seen))
	}

	var timed lockedBuffer
	l = newLogWriter(&timed, 10*time.Millisecond)
	defer l.Close()
	fmt.Fprintln(l, "soon")
	// A guard against a flusher that never runs, not a speed bound.
	deadline := time.Now().Add(30 * time.Second)
	for timed.String() != "soon\n" {
		if time.Now().After(deadline) {
			t.Fatalf("a line not flushed 30 s after it was written with a 10 ms interval: %q", timed.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
