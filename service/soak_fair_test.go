//go:build soak

package service_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/internal/testshared"
	"github.com/envguard/envguard/service"
)

// soakHonestEvery is how often each honest client sends a request.
const soakHonestEvery = 10 * time.Millisecond

// The fairness soak (issue 22, N13): honest clients, each from its own
// loopback address and each with one request at a time, send the files of
// the real-world corpus (../shared) in turn, one every soakHonestEvery
// (together about 40% of the 2-core machine's CPU when they are alone). In
// every other round one more client, from one address of its own, sends
// the heavy inputs of testdata/hostile from many connections at once, at
// random times (a Poisson process) that make them 10% of all requests sent
// in the round on average: far more than its share of the slots can
// serve. Quiet and
// mixed rounds alternate, quiet first, so that a burst of load on the
// shared machine hits both alike.
//
// It requires: every honest request answered 200 (no 503, no 429) in both
// kinds of round; the honest p99 of the mixed rounds within 2× that of the
// quiet ones, in one of up to three sets of rounds (fairTries); the hostile client's requests answered as expect.tsv says, or
// 429/503/504; and, without the test collecting or freeing anything, the
// process's RSS (VmRSS) back to 64 MiB or less within 30 s of idle.
//
//	ENVGUARD_SOAK=20s go test -tags soak -run TestSoakFairness -count=1 -v ./service/
//
// The service runs in a process of its own (startSoakServer), with
// `envguard serve`'s GC settings (service.TuneGC) and its default slots
// and queue wait; the deadline and body timeout are the other soak's.
func TestSoakFairness(t *testing.T) {
	budget, _ := soakBudget(t)

	ins, exp := loadHostile(t)
	var heavy []hostileInput
	for _, in := range ins {
		if in.heavy() && in.endless == nil {
			heavy = append(heavy, in)
		}
	}
	var corpus [][]byte
	for _, p := range testshared.Corpus(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		corpus = append(corpus, b)
	}

	slots := 2 * runtime.GOMAXPROCS(0) // the default MaxConcurrent
	honestClients := slots
	hostileConns := 4 * slots
	srvURL, srvPID := startSoakServer(t)
	var mu sync.Mutex
	honest := make([]*http.Client, honestClients)
	for i := range honest {
		honest[i] = clientFrom(t, fmt.Sprintf("127.0.2.%d", i+1), 1)
	}
	hostile := clientFrom(t, "127.0.3.1", hostileConns)
	local := &http.Client{}

	send := func(c *http.Client, in hostileInput) (int, []byte, error) {
		req, _ := http.NewRequest("POST", srvURL+"/v1/validate", bytes.NewReader(in.body))
		req.Header.Set("Content-Type", "application/yaml")
		for k, v := range in.header {
			req.Header[k] = v
		}
		resp, err := c.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, err
	}

	// The honest clients send the real-world files that get a report (a
	// few are not YAML at all: a 400 says nothing about fairness).
	var good [][]byte
	for _, b := range corpus {
		if s, _, err := send(honest[0], hostileInput{body: b}); err == nil && s == 200 {
			good = append(good, b)
		}
	}
	if len(good) < len(corpus)/2 {
		t.Fatalf("only %d of the %d real-world files got a report", len(good), len(corpus))
	}
	baseRSS, _ := rssOf(srvPID)

	type phase struct {
		name     string
		statuses map[string]int // honest
		hostile  map[string]int
		lat      []time.Duration
		sent     int64
		heavy    int64
	}
	rounds := max(2, int(budget/soakRound))
	rounds += rounds % 2
	// measure runs one set of rounds, quiet and mixed in turn, and returns
	// both kinds and each round's honest p99.
	measure := func() (phases [2]*phase, roundP99 []time.Duration) {
		phases = [2]*phase{
			{name: "quiet", statuses: map[string]int{}, hostile: map[string]int{}},
			{name: "mixed", statuses: map[string]int{}, hostile: map[string]int{}},
		}
		for round := 0; round < rounds; round++ {
			ph := phases[round%2]
			mixed := round%2 == 1
			roundStart := time.Now()
			roundEnd := roundStart.Add(soakRound)
			var honestSent, hostileSent atomic.Int64
			hostileGo := make(chan struct{}, hostileConns)
			roundOver := make(chan struct{})
			endTimer := time.AfterFunc(time.Until(roundEnd), func() { close(roundOver) })
			var roundLat []time.Duration
			var wg sync.WaitGroup
			for i, c := range honest {
				wg.Add(1)
				go func() {
					n := i * len(good) / len(honest)
					defer wg.Done()
					next := roundStart
					for time.Now().Before(roundEnd) {
						// A request every soakHonestEvery, as CI jobs come,
						// whatever the answers: a client that falls behind
						// does not make up for it in a burst.
						time.Sleep(time.Until(next))
						if next = next.Add(soakHonestEvery); next.Before(time.Now()) {
							next = time.Now()
						}
						honestSent.Add(1)
						t0 := time.Now()
						n++
						s, b, err := send(c, hostileInput{body: good[n%len(good)]})
						d := time.Since(t0)
						status := strconv.Itoa(s)
						if err != nil {
							status = "client error"
						}
						mu.Lock()
						ph.statuses[status]++
						if s == 200 {
							ph.lat = append(ph.lat, d)
							roundLat = append(roundLat, d)
						}
						mu.Unlock()
						if s != 200 {
							t.Errorf("%s round %d: an honest request got %s %v: %.200s", ph.name, round, status, err, b)
						}
					}
				}()
			}
			if mixed {
				// The hostile client's turns come at random (a Poisson
				// process), one for every nine honest requests on
				// average, independent of the honest clients' timing as
				// another client's would be; turns that find every
				// connection busy wait for one.
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(uint64(round), 20261207))
					mean := float64(soakHonestEvery) * 9 / float64(len(honest))
					for next := roundStart; ; {
						// on a schedule of its own: a late wake-up does not
						// put off the turns after it
						next = next.Add(time.Duration(rng.ExpFloat64() * mean))
						select {
						case <-time.After(time.Until(next)):
						case <-roundOver:
							return
						}
						select {
						case hostileGo <- struct{}{}:
						case <-roundOver:
							return
						}
					}
				}()
				for w := 0; w < hostileConns; w++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							// The hostile client waits for its turn on a
							// channel: polling a counter from 16 goroutines
							// every millisecond cost this process's two
							// processors more than the service's own work.
							select {
							case <-hostileGo:
							case <-roundOver:
								return
							}
							n := hostileSent.Add(1) - 1
							in := heavy[int(n)%len(heavy)]
							s, b, err := send(hostile, in)
							status := strconv.Itoa(s)
							if err != nil {
								status = "client error"
							}
							mu.Lock()
							ph.hostile[status]++
							mu.Unlock()
							switch e, ok := exp[in.name]; {
							case err != nil:
								t.Errorf("hostile %s: %v", in.name, err)
							case s == 429 || s == 503 || s == 504:
							case ok && s != e.status:
								t.Errorf("hostile %s: %d, want %d: %.200s", in.name, s, e.status, b)
							case s >= 500:
								t.Errorf("hostile %s: %d: %.200s", in.name, s, b)
							}
						}
					}()
				}
			}
			wg.Wait()
			endTimer.Stop()
			slices.Sort(roundLat)
			if len(roundLat) == 0 {
				t.Fatalf("round %d: no honest request answered", round)
			}
			roundP99 = append(roundP99, roundLat[min(len(roundLat)-1, len(roundLat)*99/100)])
			mu.Lock()
			ph.sent += honestSent.Load()
			ph.heavy += hostileSent.Load()
			mu.Unlock()
			// The next round starts with nothing left of this one.
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if metricValue(t, local, srvURL, "envguard_validations_in_flight") == "0" &&
					metricValue(t, local, srvURL, "envguard_validations_abandoned") == "0" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("round %d: work still running 30 s after the round", round)
				}
			}
		}
		return phases, roundP99
	}

	// pct is the q-th percentile of a phase's latencies, which are
	// sorted once, as soon as measure returns them.
	pct := func(ph *phase, q int) time.Duration {
		if len(ph.lat) == 0 {
			return 0
		}
		return ph.lat[min(len(ph.lat)-1, len(ph.lat)*q/100)]
	}
	p99 := func(ph *phase) time.Duration { return pct(ph, 99) }
	p50 := func(ph *phase) time.Duration { return pct(ph, 50) }
	// A set of rounds is fair when the honest p99 of its mixed rounds is
	// within 2x of its quiet ones' by either measure below. A burst of load
	// on the shared machine that lands on mixed rounds only can put one set
	// over (2.11x pooled and 2.35x by adjacent rounds in one CI run, where
	// the same tree measured 1.4-1.9x alone), so the set is measured again,
	// up to fairTries times, as timebound.Check does for its ratios. A
	// service that lets one client starve the others (5.44x before issue
	// 22) is over 2x in every set.
	const fairTries = 3
	var hostileServed int
	var failure string
	for try := 1; try <= fairTries; try++ {
		start := time.Now()
		phases, roundP99 := measure()
		for _, ph := range phases {
			slices.Sort(ph.lat)
		}
		t.Logf("try %d: %d rounds of %v in %v; %d slots, %d honest clients, 1 hostile client on %d connections, GOMAXPROCS %d",
			try, rounds, soakRound, time.Since(start).Round(time.Millisecond), slots, honestClients, hostileConns, runtime.GOMAXPROCS(0))
		for _, ph := range phases {
			var parts, hparts []string
			for s, n := range ph.statuses {
				parts = append(parts, fmt.Sprintf("%s: %d", s, n))
			}
			for s, n := range ph.hostile {
				hparts = append(hparts, fmt.Sprintf("%s: %d", s, n))
			}
			slices.Sort(parts)
			slices.Sort(hparts)
			total := 0
			for _, n := range ph.statuses {
				total += n
			}
			t.Logf("  %s: honest %s (%.1f%% 503); p50 %v, p99 %v", ph.name, strings.Join(parts, ", "),
				100*float64(ph.statuses["503"])/float64(max(total, 1)),
				p50(ph).Round(100*time.Microsecond), p99(ph).Round(100*time.Microsecond))
			if ph.heavy > 0 {
				t.Logf("  %s: hostile %d requests (%.1f%% of all): %s", ph.name, ph.heavy,
					100*float64(ph.heavy)/float64(ph.heavy+ph.sent), strings.Join(hparts, ", "))
			}
		}
		hostileServed += phases[1].hostile["200"] + phases[1].hostile["400"] + phases[1].hostile["413"]
		// The p99 of all mixed rounds against that of all quiet ones: a
		// round's own p99 is its 8th slowest request or so, which one pause
		// of the shared machine sets; the rounds' p99s are logged for the
		// record.
		quiet, mixed := p99(phases[0]), p99(phases[1])
		ratio := float64(mixed) / float64(max(quiet, time.Microsecond))
		var byRound []string
		for i, d := range roundP99 {
			byRound = append(byRound, fmt.Sprintf("%s %v", phases[i%2].name, d.Round(100*time.Microsecond)))
		}
		t.Logf("  honest p99 mixed/quiet: %.2f; by round: %s", ratio, strings.Join(byRound, ", "))
		// A machine shared with other work (another test run, as .ci/run's
		// neighbours may be) drifts between rounds, and all rounds' p99
		// then mixes two conditions. Each mixed round is also held against
		// the quiet round just before it, which ran under the same load;
		// the median of those ratios decides where the pooled figure is
		// over 2x.
		var pairs []float64
		for i := 1; i < len(roundP99); i += 2 {
			pairs = append(pairs, float64(roundP99[i])/float64(max(roundP99[i-1], time.Microsecond)))
		}
		slices.Sort(pairs)
		pairRatio := pairs[len(pairs)/2]
		t.Logf("  honest p99 mixed/quiet by adjacent rounds: median %.2f (%.2f)", pairRatio, pairs)
		if ratio <= 2 || pairRatio <= 2 {
			failure = ""
			break
		}
		failure += fmt.Sprintf("; try %d: honest p99 %v in the mixed rounds, %.2fx the quiet rounds' %v, and %.2fx the round before in the median",
			try, mixed, ratio, quiet, pairRatio)
	}
	if failure != "" {
		t.Errorf("over 2x in all %d tries%s", fairTries, failure)
	}
	if hostileServed == 0 {
		t.Errorf("no hostile request was served: the mixed rounds tested nothing")
	}

	// Idle: the service, not the test, gives the memory back.
	_, peakRSS := rssOf(srvPID)
	idleStart := time.Now()
	var idleRSS uint64
	for {
		idleRSS, _ = rssOf(srvPID)
		if idleRSS <= soakIdleHeapLimit || time.Since(idleStart) > 30*time.Second {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("RSS: %.1f MiB before, peak %.1f MiB, %.1f MiB %v after the load ended",
		float64(baseRSS)/(1<<20), float64(peakRSS)/(1<<20), float64(idleRSS)/(1<<20), time.Since(idleStart).Round(100*time.Millisecond))
	if idleRSS > soakIdleHeapLimit {
		t.Errorf("RSS %d MiB 30 s after the load ended, over 64", idleRSS>>20)
	}
}

// startSoakServer runs the service in a process of its own, as `envguard
// serve` runs, and returns its URL and process id. In the test's process
// the service's goroutines shared the Go runtime's two processors with the
// clients' (the hostile one writing 1 MiB bodies from 16 connections), and
// the honest p99 measured the clients' work with the service's: 2.3-3.4x
// that of a quiet run in process, 1.5-2.9x out of it, on one tree and one
// quiet 2-core machine (issue 18).
func startSoakServer(t *testing.T) (url string, pid int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSoakFairServer$")
	cmd.Env = append(os.Environ(), "ENVGUARD_SOAK_SERVER=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the server process ends when its stdin does
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the service process: %v", err)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Errorf("the service process did not end 30 s after its stdin closed")
		}
	})
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "ENVGUARD_SOAK_URL="); ok {
			go io.Copy(io.Discard, stdout)
			return u, cmd.Process.Pid
		}
	}
	t.Fatalf("the service process ended before it listened: %v", lines.Err())
	return "", 0
}

// TestSoakFairServer is TestSoakFairness's service process: with `envguard
// serve`'s GC settings and the soak's deadlines, it serves on a loopback
// port, prints its URL, and ends when its stdin closes.
func TestSoakFairServer(t *testing.T) {
	if os.Getenv("ENVGUARD_SOAK_SERVER") != "1" {
		t.Skip("the service process of TestSoakFairness, run by it")
	}
	service.TuneGC(os.Getenv)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: api.NewRouter(service.Deps(service.Options{}), api.Config{
		Logger: slog.New(slog.DiscardHandler), RequestTimeout: soakTimeout, BodyTimeout: soakBodyTimeout,
	})}
	go srv.Serve(ln)
	fmt.Printf("ENVGUARD_SOAK_URL=http://%s\n", ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
}

// rssOf reads process pid's resident set and its peak from /proc (0 where
// there is no /proc).
func rssOf(pid int) (now, peak uint64) {
	return rssFrom(fmt.Sprintf("/proc/%d/status", pid))
}
