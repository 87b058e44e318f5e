package benchbase

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Load is what one run of Hammer saw.
type Load struct {
	Lat    []time.Duration // one latency per request sent, in no order
	Errors map[string]int  // what went wrong: "status 503", "timeout", "transport"
	Took   time.Duration
}

// Requests is the number of requests sent.
func (l Load) Requests() int { return len(l.Lat) }

// ErrorCount is the number of requests that got no answer or a status that
// ok refused.
func (l Load) ErrorCount() int {
	n := 0
	for _, v := range l.Errors {
		n += v
	}
	return n
}

// Rate is requests a second.
func (l Load) Rate() float64 {
	if l.Took <= 0 {
		return 0
	}
	return float64(len(l.Lat)) / l.Took.Seconds()
}

// Hammer has c clients POST YAML bodies to url back to back, body(i) for the
// i-th request, until n requests were sent or, where deadline is not zero,
// it passed. ok says which statuses are answers rather than errors of the
// run. Both benchmarks (go run ./bench and bench/loadtest) drive their
// servers through it, so that their figures come from the same client.
func Hammer(client *http.Client, url string, c, n int, deadline time.Time, body func(i int) []byte, ok func(status int) bool) Load {
	var (
		next atomic.Int64
		mu   sync.Mutex
		wg   sync.WaitGroup
		all  = Load{Errors: map[string]int{}}
	)
	start := time.Now()
	for range max(c, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, n/max(c, 1)+1)
			errs := map[string]int{}
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || !deadline.IsZero() && time.Now().After(deadline) {
					break
				}
				t0 := time.Now()
				kind := post(client, url, body(int(i)), ok)
				lat = append(lat, time.Since(t0))
				if kind != "" {
					errs[kind]++
				}
			}
			mu.Lock()
			all.Lat = append(all.Lat, lat...)
			for k, v := range errs {
				all.Errors[k] += v
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	all.Took = time.Since(start)
	return all
}

// post sends one body and says what went wrong, "" for an answer.
func post(client *http.Client, url string, body []byte, ok func(int) bool) string {
	resp, err := client.Post(url, "application/yaml", bytes.NewReader(body))
	if err == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err == nil && !ok(resp.StatusCode) {
			return fmt.Sprintf("status %d", resp.StatusCode)
		}
	}
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return "timeout"
		}
		return "transport"
	}
	return ""
}
