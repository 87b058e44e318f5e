package service_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/service"
)

// gauges reads the in-flight and abandoned validation gauges from /metrics.
func gauges(t *testing.T, ts *httptest.Server) (inFlight, abandoned string) {
	t.Helper()
	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	inFlight, abandoned = "absent", "absent"
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "envguard_validations_in_flight "); ok {
			inFlight = v
		}
		if v, ok := strings.CutPrefix(l, "envguard_validations_abandoned "); ok {
			abandoned = v
		}
	}
	return inFlight, abandoned
}

// Slot accounting with the real pipeline (api's TestSlotAccounting does it
// with fakes): 1 MiB bodies that run past a 30 ms deadline (400 ms under -race), clients that
// hang up after 5 ms, shed requests and ordinary ones, all at once; once
// every request has ended, nothing is in flight and nothing is still
// running.
func TestSlotAccountingRealPipeline(t *testing.T) {
	deadline := 30 * time.Millisecond
	if raceEnabled {
		deadline = 400 * time.Millisecond // reading 1 MiB alone takes longer than 30 ms
	}
	ts := httptest.NewServer(api.NewRouter(service.Deps(service.Options{}), api.Config{
		Logger: slog.New(slog.DiscardHandler), MaxConcurrent: 2, QueueWait: 20 * time.Millisecond, RequestTimeout: deadline,
	}))
	t.Cleanup(ts.Close)
	post(t, ts, "/v1/validate", "application/yaml", []byte("dependencies: [numpy]\n")) // load the knowledge base
	heavy := oneMiB("channels: [conda-forge]\ndependencies:\n", "- a\n", "")
	var statuses sync.Map
	var timedOut, gone atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 24; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			body := []byte("channels: [conda-forge]\ndependencies: [numpy]\n")
			switch i % 3 {
			case 0:
				body = heavy
			case 1:
				body = heavy
				ctx, cancel = context.WithTimeout(context.Background(), 5*time.Millisecond)
			}
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/validate", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/yaml")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				gone.Add(1)
				return
			}
			defer resp.Body.Close()
			io.Copy(io.Discard, resp.Body)
			statuses.Store(i, resp.StatusCode)
			switch {
			case resp.StatusCode == 504:
				timedOut.Add(1)
			case resp.StatusCode >= 500 && resp.StatusCode != 503:
				t.Errorf("request %d: %d", i, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	if timedOut.Load() == 0 || gone.Load() == 0 {
		t.Errorf("timed out %d, client gone %d: the mix did not produce both", timedOut.Load(), gone.Load())
	}
	wait := 3 * time.Second
	if raceEnabled {
		wait = 20 * time.Second
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		f, a := gauges(t, ts)
		if f == "0" && a == "0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v after every request ended: in flight %s, abandoned %s", wait, f, a)
		}
	}
	counts := map[int]int{}
	statuses.Range(func(_, v any) bool { counts[v.(int)]++; return true })
	t.Logf("statuses %v, client gone: %d", counts, gone.Load())
}
