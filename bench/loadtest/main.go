// Command loadtest measures POST /v1/validate of the real router against a
// bare chi handler that only reads the body and decodes it into a yaml.Node,
// in one run, on loopback: the ratio is what envguard's pipeline and the
// service's middleware cost over parsing alone.
//
//	go run ./bench/loadtest -d 10s -c 32
//
// The Validator comes from newValidator (validator.go): the real pipeline,
// wired exactly as `envguard serve` wires it.
package main

import (
	"bytes"
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/internal/benchbase"
	"github.com/envguard/envguard/service"
)

//go:embed environment.yml
var environment []byte

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type result struct {
	name     string
	requests int
	errors   map[string]int
	elapsed  time.Duration
	lat      []time.Duration
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	d := fs.Duration("d", 10*time.Second, "how long to load each server")
	c := fs.Int("c", 32, "concurrent clients")
	maxReq := fs.Int("n", 2_000_000, "stop a run after this many requests even before -d")
	slots := fs.Int("slots", 0, "the service's MaxConcurrent (default: -c, so that no request is refused)")
	rounds := fs.Int("rounds", 2, "alternate the servers this many times (each gets -d in all), so that drift in a shared machine's load hits both alike")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to `FILE`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// Bounds keep the run finite and the machine usable.
	if *d <= 0 || *d > 10*time.Minute || *c < 1 || *c > 1024 || *maxReq < 1 || *rounds < 1 || *rounds > 100 {
		fmt.Fprintln(stderr, "loadtest: want 0 < -d <= 10m, 1 <= -c <= 1024, -n >= 1, 1 <= -rounds <= 100")
		return 2
	}
	if *slots <= 0 {
		*slots = *c
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "loadtest: %v\n", err)
			return 2
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "loadtest: %v\n", err)
			return 2
		}
		defer pprof.StopCPUProfile()
	}

	// The GC settings of `envguard serve`; both servers share the process.
	service.TuneGC(os.Getenv)
	cfg := api.Config{
		MaxConcurrent: *slots,
		// Every client here is 127.0.0.1: one client, as behind a proxy,
		// which may have every slot.
		ClientShare:    *slots,
		QueueWait:      time.Second,
		RequestTimeout: 30 * time.Second,
		Logger:         slog.New(slog.DiscardHandler),
	}
	servers := []struct {
		name string
		h    http.Handler
	}{
		{"bare", benchbase.Handler()},
		{"validate", api.NewRouter(api.Deps{Validator: newValidator()}, cfg)},
	}

	fmt.Fprintf(stdout, "loadtest: validator %s; %d-byte environment, %d clients, %v per server in %d rounds, GOMAXPROCS %d, %s\n",
		validatorKind, len(environment), *c, *d, *rounds, runtime.GOMAXPROCS(0), runtime.Version())
	targets := make([]*target, len(servers))
	for i, s := range servers {
		t, err := start(s.name, s.h, *c)
		if err != nil {
			fmt.Fprintf(stderr, "loadtest: %s: %v\n", s.name, err)
			return 1
		}
		defer t.stop()
		targets[i] = t
	}
	results := make([]result, len(targets))
	for i, t := range targets {
		results[i] = result{name: t.name, errors: map[string]int{}}
		phase(t, *c, min(time.Second, *d/10), *maxReq) // warm-up, not measured
	}
	for range *rounds {
		for i, t := range targets {
			results[i].add(phase(t, *c, *d/time.Duration(*rounds), *maxReq / *rounds))
		}
	}
	for i := range results {
		slices.Sort(results[i].lat)
	}

	fmt.Fprintf(stdout, "%-9s %10s %10s %10s %10s %8s\n", "server", "requests", "req/s", "p50", "p99", "errors")
	for _, r := range results {
		fmt.Fprintf(stdout, "%-9s %10d %10.0f %10v %10v %8d %s\n", r.name, r.requests, r.rate(),
			r.quantile(0.50), r.quantile(0.99), r.errorCount(), r.errorText())
	}
	if bare := results[0].rate(); bare > 0 {
		fmt.Fprintf(stdout, "ratio validate/bare: %.3f (throughput)\n", results[1].rate()/bare)
	}
	fmt.Fprintf(stdout, "RSS after the run: %s (peak %s)\n", procStatus("VmRSS"), procStatus("VmHWM"))
	for _, r := range results {
		if r.errorCount() > 0 {
			return 1
		}
	}
	return 0
}

// target is one server on 127.0.0.1:0 with its client.
type target struct {
	name   string
	url    string
	client *http.Client
	srv    *http.Server
	tr     *http.Transport
}

// start serves h on 127.0.0.1:0 and checks that it answers 200.
func start(name string, h http.Handler, c int) (*target, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	tr := &http.Transport{
		Proxy:               nil, // loopback only: never through a proxy
		MaxIdleConns:        c,
		MaxIdleConnsPerHost: c,
		DisableCompression:  true,
	}
	t := &target{name: name, url: "http://" + ln.Addr().String() + "/v1/validate", srv: srv, tr: tr,
		client: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
	// A server that does not answer 200 is a setup error, not a result.
	if status, _, err := post(t.client, t.url); err != nil || status != http.StatusOK {
		t.stop()
		return nil, fmt.Errorf("first request: status %d, %v", status, err)
	}
	return t, nil
}

func (t *target) stop() {
	t.tr.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = t.srv.Shutdown(ctx)
}

func (r *result) add(o result) {
	r.requests += o.requests
	r.elapsed += o.elapsed
	r.lat = append(r.lat, o.lat...)
	for k, v := range o.errors {
		r.errors[k] += v
	}
}

// phase has c clients POST the environment for d or maxReq requests.
func phase(t *target, c int, d time.Duration, maxReq int) result {
	l := benchbase.Hammer(t.client, t.url, c, max(1, maxReq/c)*c, time.Now().Add(d),
		func(int) []byte { return environment }, func(status int) bool { return status == http.StatusOK })
	return result{requests: l.Requests(), elapsed: l.Took, lat: l.Lat, errors: l.Errors}
}

func post(client *http.Client, url string) (int, int, error) {
	resp, err := client.Post(url, "application/yaml", bytes.NewReader(environment))
	if err != nil {
		return 0, 0, err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, int(n), err
}

func (r result) rate() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.requests) / r.elapsed.Seconds()
}

func (r result) quantile(q float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	return r.lat[min(len(r.lat)-1, int(q*float64(len(r.lat))))].Round(time.Microsecond)
}

func (r result) errorCount() int {
	n := 0
	for _, v := range r.errors {
		n += v
	}
	return n
}

func (r result) errorText() string {
	var parts []string
	for k, v := range r.errors {
		parts = append(parts, fmt.Sprintf("%s×%d", k, v))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// procStatus reads one field of /proc/self/status ("123456 kB"); "n/a"
// where there is no /proc.
func procStatus(field string) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "n/a"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "n/a"
}
