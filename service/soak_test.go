//go:build soak

package service_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/service"
)

// The soak test (issue 11): mixed good, bad and hostile requests from 64
// clients (each its own loopback address, one request at a time) against
// the real service on a loopback listener, in rounds. After each round,
// once every hostile request's deadline has passed, no validation is in
// flight or abandoned and well-behaved clients are served (never a 503
// left over by earlier hostile requests); at the end the heap and the RSS
// go back under 64 MiB within 30 s of idle, by the service's own doing (the
// test collects nothing). TestSoakFairness (soak_fair_test.go) is the soak
// of one hostile client among honest ones.
//
//	go test -tags soak -run TestSoak -count=1 ./service/                       # 20 s
//	ENVGUARD_SOAK=5m go test -tags soak -run TestSoak -count=1 -timeout 20m -v ./service/
//
// ENVGUARD_SOAK is the duration (default 20s); ENVGUARD_SOAK_REQUESTS, if
// set, ends the test once that many requests were sent.

const (
	soakConcurrency   = 64
	soakRound         = 2 * time.Second
	soakTimeout       = 2 * time.Second // the service's request deadline
	soakBodyTimeout   = time.Second
	soakIdleHeapLimit = 64 << 20
)

type soakKind int

const (
	soakGood soakKind = iota
	soakBad
	soakHostile // a light input of testdata/hostile
	soakHeavy   // a heavy input of testdata/hostile (over 100 KB, or endless)
	soakSlow    // a body sent one byte every 100 ms: 408 at the body timeout
	soakGone    // a heavy input whose client hangs up after 20 ms
	soakKinds
)

var soakKindNames = [soakKinds]string{"good", "bad", "hostile", "heavy", "slow body", "client gone"}

// soakMix: which kind the n-th request of a worker is, out of 64.
func soakMix(n int) soakKind {
	switch n % 64 {
	case 0:
		return soakHeavy
	case 1:
		return soakGone
	case 2:
		return soakSlow
	case 3, 4, 5, 6, 7, 8:
		return soakHostile
	case 9, 10, 11, 12, 13, 14, 15, 16, 17, 18:
		return soakBad
	}
	return soakGood
}

type soakStats struct {
	mu       sync.Mutex
	byKind   [soakKinds]map[string]int // status (or "client error") → count
	goodLat  []time.Duration           // 200s of good requests
	requests atomic.Int64
}

func (s *soakStats) add(k soakKind, status string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKind[k] == nil {
		s.byKind[k] = map[string]int{}
	}
	s.byKind[k][status]++
	if k == soakGood && status == "200" {
		s.goodLat = append(s.goodLat, d)
	}
}

// rss reads this process's resident set and its peak from /proc (0 where
// there is no /proc).
func rss() (now, peak uint64) { return rssFrom("/proc/self/status") }

// rssFrom reads the resident set and its peak from a /proc status file.
func rssFrom(path string) (now, peak uint64) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.ParseUint(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			now = n << 10
		case "VmHWM:":
			peak = n << 10
		}
	}
	return now, peak
}

func metricValue(t *testing.T, c *http.Client, url, name string) string {
	resp, err := c.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, name+" "); ok {
			return v
		}
	}
	return "absent"
}

// soakSlowBody sends, from the loopback address from, the headers of a
// 1000-byte body, then a byte every 100 ms, and returns the status the
// server answers with.
func soakSlowBody(from, addr string) string {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return "client error"
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/yaml\r\nContent-Length: 1000\r\n\r\n")
	got := make(chan string, 1)
	go func() {
		line, err := bufio.NewReader(c).ReadString('\n')
		if f := strings.Fields(line); err == nil && len(f) >= 2 {
			got <- f[1]
			return
		}
		got <- "client error"
	}()
	for i := 0; i < 1000; i++ {
		select {
		case s := <-got:
			return s
		case <-time.After(100 * time.Millisecond):
		}
		if _, err := c.Write([]byte("x")); err != nil {
			break
		}
	}
	select {
	case s := <-got:
		return s
	case <-time.After(5 * time.Second):
		return "no answer"
	}
}

// soakBudget reads ENVGUARD_SOAK (default 20s) and ENVGUARD_SOAK_REQUESTS
// (-1 when unset).
func soakBudget(t *testing.T) (budget time.Duration, maxRequests int64) {
	budget = 20 * time.Second
	if v := os.Getenv("ENVGUARD_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("ENVGUARD_SOAK=%q: %v", v, err)
		}
		budget = d
	}
	maxRequests = -1
	if v := os.Getenv("ENVGUARD_SOAK_REQUESTS"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("ENVGUARD_SOAK_REQUESTS=%q: %v", v, err)
		}
		maxRequests = n
	}
	return budget, maxRequests
}

func TestSoak(t *testing.T) {
	budget, maxRequests := soakBudget(t)

	ins, exp := loadHostile(t)
	var light, heavy []hostileInput
	for _, in := range ins {
		if in.heavy() {
			heavy = append(heavy, in)
		} else {
			light = append(light, in)
		}
	}
	good, err := os.ReadFile("../testdata/demo/environment.yml")
	if err != nil {
		t.Fatal(err)
	}
	bad := [][]byte{
		[]byte("name: x\ndependencies:\n  - [python\n"),
		[]byte("name: base\ndependencies:\n  - python=3.10\n"),
		[]byte("dependencies:\n  - pytorch=2.1\n  - pytorch=2.2\n  - pip:\n      - 'torch==='\n"),
	}

	cfg := api.Config{
		Logger:         slog.New(slog.DiscardHandler),
		RequestTimeout: soakTimeout,
		BodyTimeout:    soakBodyTimeout,
	}
	ts := httptest.NewServer(api.NewRouter(service.Deps(service.Options{}), cfg))
	t.Cleanup(ts.Close)
	addr := ts.Listener.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: soakConcurrency}}
	t.Cleanup(client.CloseIdleConnections)
	workerIP := func(w int) string { return fmt.Sprintf("127.0.1.%d", w+1) }
	workers := make([]*http.Client, soakConcurrency)
	for w := range workers {
		workers[w] = clientFrom(t, workerIP(w), 2)
	}

	sendFrom := func(client *http.Client, ctx context.Context, in hostileInput) (int, []byte, error) {
		var r io.Reader
		if in.endless != nil {
			r = onlyReader{&endlessReader{p: in.endless}}
		} else {
			r = bytes.NewReader(in.body)
		}
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/validate", r)
		req.Header.Set("Content-Type", "application/yaml")
		for k, v := range in.header {
			req.Header[k] = v
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, err
	}
	send := func(ctx context.Context, in hostileInput) (int, []byte, error) { return sendFrom(client, ctx, in) }
	// probe: well-behaved clients, one after another, each must get its
	// report: no slot may still be held by an earlier request.
	probe := func(round int) {
		for i := 0; i < 8; i++ {
			status, b, err := send(context.Background(), hostileInput{body: good})
			if err != nil || status != 200 {
				t.Errorf("round %d: a well-behaved request after the hostile ones' deadlines: %d %v %.200s", round, status, err, b)
			}
		}
	}

	if s, _, err := send(context.Background(), hostileInput{body: good}); err != nil || s != 200 {
		t.Fatalf("first request: %d %v", s, err)
	}
	runtime.GC()
	debug.FreeOSMemory()
	baseRSS, _ := rss()

	var stats soakStats
	var fivexx atomic.Int64
	start := time.Now()
	end := start.Add(budget)
	var heapPeak atomic.Uint64
	stopSampler := make(chan struct{})
	samplerDone := make(chan struct{})
	go func() {
		defer close(samplerDone)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > heapPeak.Load() {
				heapPeak.Store(ms.HeapAlloc)
			}
			select {
			case <-stopSampler:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	// next[w] is worker w's next request number, kept across rounds so that
	// the mix holds; pick[k] rotates through the inputs of kind k.
	var next [soakConcurrency]int
	var pick [soakKinds]atomic.Int64
	rounds := 0
	for round := 1; time.Now().Before(end) && (maxRequests < 0 || stats.requests.Load() < maxRequests); round++ {
		rounds = round
		roundEnd := time.Now().Add(soakRound)
		if roundEnd.After(end) {
			roundEnd = end
		}
		var wg sync.WaitGroup
		for w := 0; w < soakConcurrency; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for ; time.Now().Before(roundEnd) && (maxRequests < 0 || stats.requests.Load() < maxRequests); next[w]++ {
					k := soakMix(w + next[w])
					n := int(pick[k].Add(1))
					stats.requests.Add(1)
					t0 := time.Now()
					var status string
					switch k {
					case soakSlow:
						status = soakSlowBody(workerIP(w), addr)
						if status != "408" && status != "503" && status != "429" {
							t.Errorf("slow body: %s, want 408", status)
						}
					case soakGone:
						ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
						s, _, err := sendFrom(workers[w], ctx, heavy[n%len(heavy)])
						cancel()
						status = strconv.Itoa(s)
						if err != nil {
							status = "client gone"
						}
					default:
						var in hostileInput
						switch k {
						case soakGood:
							in = hostileInput{body: good}
						case soakBad:
							in = hostileInput{body: bad[n%len(bad)]}
						case soakHostile:
							in = light[n%len(light)]
						case soakHeavy:
							in = heavy[n%len(heavy)]
						}
						s, b, err := sendFrom(workers[w], context.Background(), in)
						status = strconv.Itoa(s)
						// 429: the worker's own request of a moment ago (a
						// client gone) may still hold its share.
						if err != nil {
							status = "client error"
							t.Errorf("%s: %v", soakKindNames[k], err)
						} else if e, ok := exp[in.name]; ok && s != e.status && s != 503 && s != 504 && s != 429 {
							t.Errorf("%s: %d, want %d: %.200s", in.name, s, e.status, b)
						}
						if s >= 500 && s != 503 && s != 504 {
							fivexx.Add(1)
							t.Errorf("%s: %d: %.200s", soakKindNames[k], s, b)
						}
					}
					stats.add(k, status, time.Since(t0))
				}
			}(w)
		}
		wg.Wait()
		// Every hostile request of the round has ended on the client's
		// side; the server's side ends by the request deadline at the latest.
		settled := false
		for deadline := time.Now().Add(soakTimeout + time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if metricValue(t, client, ts.URL, "envguard_validations_in_flight") == "0" &&
				metricValue(t, client, ts.URL, "envguard_validations_abandoned") == "0" {
				settled = true
				break
			}
		}
		if !settled {
			t.Errorf("round %d: in flight %s, abandoned %s, a deadline after the round", round,
				metricValue(t, client, ts.URL, "envguard_validations_in_flight"), metricValue(t, client, ts.URL, "envguard_validations_abandoned"))
		}
		probe(round)
	}
	elapsed := time.Since(start)
	close(stopSampler)
	<-samplerDone

	// Idle: the heap and the RSS go back down, by the service's doing.
	_, peakRSS := rss()
	var ms runtime.MemStats
	var idleRSS uint64
	idleStart := time.Now()
	for {
		runtime.ReadMemStats(&ms)
		idleRSS, _ = rss()
		if ms.HeapAlloc <= soakIdleHeapLimit && idleRSS <= soakIdleHeapLimit || time.Since(idleStart) > 30*time.Second {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	idleTook := time.Since(idleStart)
	if f := metricValue(t, client, ts.URL, "envguard_validations_in_flight"); f != "0" {
		t.Errorf("in flight after idle: %s", f)
	}
	if ms.HeapAlloc > soakIdleHeapLimit {
		t.Errorf("heap 30 s after the load: %d MiB, over 64", ms.HeapAlloc>>20)
	}
	if idleRSS > soakIdleHeapLimit {
		t.Errorf("RSS 30 s after the load: %d MiB, over 64", idleRSS>>20)
	}

	total := stats.requests.Load()
	t.Logf("%d requests in %v (%d rounds of up to %v at concurrency %d, GOMAXPROCS %d): %.0f/s",
		total, elapsed.Round(time.Millisecond), rounds, soakRound, soakConcurrency, runtime.GOMAXPROCS(0), float64(total)/elapsed.Seconds())
	for k := soakKind(0); k < soakKinds; k++ {
		var parts []string
		for s, n := range stats.byKind[k] {
			parts = append(parts, fmt.Sprintf("%s: %d", s, n))
		}
		slices.Sort(parts)
		t.Logf("  %-12s %s", soakKindNames[k], strings.Join(parts, ", "))
	}
	if n := len(stats.goodLat); n > 0 {
		slices.Sort(stats.goodLat)
		q := func(p float64) time.Duration { return stats.goodLat[int(p*float64(n-1))].Round(100 * time.Microsecond) }
		t.Logf("  good 200s: p50 %v, p99 %v, max %v", q(.5), q(.99), q(1))
	}
	t.Logf("  heap: peak %.1f MiB (sampled every 50 ms), %.1f MiB after idle; RSS: %.1f MiB before, peak %.1f MiB, %.1f MiB %v after the load",
		float64(heapPeak.Load())/(1<<20), float64(ms.HeapAlloc)/(1<<20), float64(baseRSS)/(1<<20), float64(peakRSS)/(1<<20), float64(idleRSS)/(1<<20),
		idleTook.Round(100*time.Millisecond))
	t.Logf("  5xx other than 503/504: %d; probes after each round: %d, all 200 unless reported above", fivexx.Load(), 8*rounds)
}
