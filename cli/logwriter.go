package cli

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logWriter buffers serve's log lines and writes them out at least every
// interval, and when it is closed. One line a request written straight to
// stderr is a system call a request (and, where stderr is a pipe, a wake-up
// of the reader); a busy service now writes a few times a second instead.
// A line reaches the log at most interval late; a process killed outright
// loses at most interval's lines.
type logWriter struct {
	mu   sync.Mutex
	buf  *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newLogWriter(w io.Writer, interval time.Duration) *logWriter {
	l := &logWriter{buf: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go l.flushEvery(interval)
	return l
}

// Write takes one record; slog's handlers write each in one call.
func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// Flush writes out what is buffered.
func (l *logWriter) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Flush()
}

func (l *logWriter) flushEvery(interval time.Duration) {
	defer close(l.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_ = l.Flush()
		case <-l.stop:
			_ = l.Flush()
			return
		}
	}
}

// Close flushes and stops the timer; l must not be written after.
func (l *logWriter) Close() error {
	close(l.stop)
	<-l.done
	return nil
}
