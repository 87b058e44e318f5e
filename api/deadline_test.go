package api

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/envguard/envguard/internal/timebound"
)

// metricLine returns the sample line of a metric without labels.
func (ts *testServer) metricLine(name string) string {
	ts.t.Helper()
	_, m := ts.do("GET", "/metrics", "", nil)
	for _, l := range strings.Split(string(m), "\n") {
		if strings.HasPrefix(l, name+" ") {
			return l
		}
	}
	return ""
}

// slowPost opens a raw connection from the loopback address from and sends
// the headers of a POST with a body of n bytes, then one byte every gap
// until stop is closed. It returns the status line the server answers with
// ("" if none).
func slowPost(t *testing.T, from, addr, path string, n int, gap time.Duration, stop <-chan struct{}) string {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		return ""
	}
	defer c.Close()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/yaml\r\nContent-Length: %d\r\n\r\n", path, n)
	status := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(c).ReadString('\n')
		status <- strings.TrimSpace(line)
	}()
	for i := 0; i < n; i++ {
		select {
		case s := <-status:
			return s
		case <-stop:
			return ""
		case <-time.After(gap):
		}
		if _, err := c.Write([]byte("x")); err != nil {
			break
		}
	}
	select {
	case s := <-status:
		return s
	case <-time.After(5 * time.Second):
		return ""
	}
}

// Bodies are read before a slot is taken, within BodyTimeout: clients that
// send a byte every 50 ms hold no slot, well-behaved clients are served
// meanwhile, and the slow ones get 408 at the body timeout (issue 11: four
// such connections starved every validation for 30 s). The slow bodies come
// from four clients: one client's would be its own tickets, of which it has
// two with one slot.
func TestSlowBodiesHoldNoSlot(t *testing.T) {
	ts := newTestServerWith(t, Deps{Validator: &fakeValidator{}}, Config{MaxConcurrent: 1, QueueWait: time.Millisecond, BodyTimeout: 400 * time.Millisecond})
	ts.from("127.0.0.2") // skips where 127.0.0.0/8 is not all loopback
	addr := ts.Listener.Addr().String()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	statuses := make(chan string, 4)
	start := time.Now()
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- slowPost(t, fmt.Sprintf("127.0.0.%d", i+2), addr, "/v1/validate", 1000, 50*time.Millisecond, stop)
		}()
	}
	time.Sleep(100 * time.Millisecond) // the slow bodies are arriving
	for i := 0; i < 5; i++ {
		if resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: ok\n")); resp.StatusCode != 200 {
			t.Errorf("well-behaved client during slow bodies: %d %s", resp.StatusCode, b)
		}
	}
	wg.Wait()
	close(stop)
	close(statuses)
	for s := range statuses {
		if !strings.Contains(s, "408") {
			t.Errorf("slow body answered %q, want 408", s)
		}
	}
	// A body that was not cut off would have taken 50 s and been answered
	// 200: the 408s above are the check; this is the figure.
	timebound.Within(t, "slow bodies cut off with a 400ms body timeout", time.Since(start), 3*time.Second)
	if got := ts.metricLine("envguard_validations_in_flight"); got != "envguard_validations_in_flight 0" {
		t.Errorf("in flight: %q", got)
	}
}

// A client that goes away stops its validation: the pipeline's context is
// cancelled, the slot goes back, and the request is logged as 499.
func TestClientGoneStopsWork(t *testing.T) {
	entered := make(chan struct{}, 1)
	stopped := make(chan error, 1)
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, req ValidateRequest) ([]byte, error) {
		entered <- struct{}{}
		<-ctx.Done() // a validator that honours its context
		stopped <- ctx.Err()
		return nil, ctx.Err()
	}}
	ts := newTestServerWith(t, Deps{Validator: v}, Config{MaxConcurrent: 1, RequestTimeout: 30 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/validate", strings.NewReader("name: x\n"))
	req.Header.Set("Content-Type", "application/yaml")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	cancel()
	<-done
	select {
	case err := <-stopped:
		if err != context.Canceled {
			t.Errorf("validator's context ended with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the validation went on after its client left")
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		if ts.metricLine("envguard_validations_in_flight") == "envguard_validations_in_flight 0" && strings.Contains(ts.logs.String(), `"status":499`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("in flight %q; logs:\n%s", ts.metricLine("envguard_validations_in_flight"), ts.logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Slot accounting: after a mix of requests that finish, time out, are
// abandoned by their clients or are shed, nothing is in flight and nothing
// is left running.
func TestSlotAccounting(t *testing.T) {
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, req ValidateRequest) ([]byte, error) {
		switch {
		case strings.Contains(string(req.Body), "hang"):
			<-ctx.Done()
			return nil, ctx.Err()
		case strings.Contains(string(req.Body), "stubborn"):
			time.Sleep(300 * time.Millisecond) // ignores its context
		}
		return (&fakeValidator{}).Validate(ctx, req)
	}}
	ts := newTestServerWith(t, Deps{Validator: v}, Config{MaxConcurrent: 4, QueueWait: 5 * time.Millisecond, RequestTimeout: 150 * time.Millisecond})
	ts.from("127.0.0.2") // skips where 127.0.0.0/8 is not all loopback
	var wg sync.WaitGroup
	clients := make([]*http.Client, 8) // four requests of each kind, and the shed ones, a client
	for i := range clients {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 4, byte(i+1))}}
		tr := &http.Transport{DialContext: d.DialContext}
		t.Cleanup(tr.CloseIdleConnections)
		clients[i] = &http.Client{Transport: tr}
	}
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body := []string{"name: ok\n", "name: hang\n", "name: stubborn\n", "name: gone\n"}[i%4]
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			if i%4 == 3 {
				body = "name: hang\n"
				ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
			}
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/validate", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/yaml")
			if resp, err := clients[i/8].Do(req); err == nil {
				if resp.StatusCode >= 500 && resp.StatusCode != 503 && resp.StatusCode != 504 {
					t.Errorf("%s: %d", body, resp.StatusCode)
				}
				resp.Body.Close()
			}
		}(i)
	}
	wg.Wait()
	for deadline := time.Now().Add(30 * time.Second); ; {
		f, a := ts.metricLine("envguard_validations_in_flight"), ts.metricLine("envguard_validations_abandoned")
		if f == "envguard_validations_in_flight 0" && a == "envguard_validations_abandoned 0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after every request ended: %q, %q", f, a)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
