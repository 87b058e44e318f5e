package service

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/internal/benchbase"
	"github.com/envguard/envguard/internal/testshared"
)

// BenchmarkServiceCorpus is the service row of `go run ./bench` without the
// network: POST /v1/validate of the real-world corpus's files in turn, from
// as many goroutines as the bench's clients, through the whole router
// (request id, logging, metrics, limits, the slot, the pipeline, the JSON)
// against bench's bare chi + yaml.v3 handler (internal/benchbase) in the same
// run. The ratio of their ns/op is what the service costs over a bare decode; a CPU profile
// shows where:
//
//	go test -run '^$' -bench ServiceCorpus -cpuprofile cpu.prof ./service/
func BenchmarkServiceCorpus(b *testing.B) {
	var bodies [][]byte
	for _, p := range testshared.Corpus(b) {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, src)
	}
	// Logs go where a deployment sends them, a file, but one that costs
	// nothing to write.
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	const clients = 32
	// Every request here is one client's (httptest's remote address), as
	// behind a proxy: it may have every slot.
	router := api.NewRouter(Deps(Options{}), api.Config{MaxConcurrent: clients, ClientShare: clients, Logger: slog.New(slog.NewTextHandler(devnull, nil))})
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{
		{"bare", benchbase.Handler()},
		{"service", router},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			// RunParallel starts parallelism × GOMAXPROCS goroutines.
			b.SetParallelism(max(1, clients/runtime.GOMAXPROCS(0)))
			var next atomic.Uint64
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					body := bodies[next.Add(1)%uint64(len(bodies))]
					req := httptest.NewRequest("POST", "/v1/validate", bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/yaml")
					w := httptest.NewRecorder()
					bc.h.ServeHTTP(w, req)
					// The bare handler refuses what yaml.v3 cannot decode;
					// the service answers it 400 bad_yaml.
					if w.Code != 200 && w.Code != 400 {
						b.Fatalf("status %d: %s", w.Code, w.Body)
					}
				}
			})
		})
	}
}
