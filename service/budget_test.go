package service_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/internal/timebound"
	"github.com/envguard/envguard/service"
)

// oneMiB builds a body of just under 1 MiB from head, repeated item and tail.
func oneMiB(head, item, tail string) []byte {
	var b strings.Builder
	b.WriteString(head)
	for b.Len()+len(item)+len(tail) < 1<<20-64 {
		b.WriteString(item)
	}
	b.WriteString(tail)
	return []byte(b.String())
}

// Four 1 MiB hostile bodies at once, from four clients (issue 11: four
// such requests reached 1.4 GB and three of them timed out), are each
// answered with a bounded report, and a well-behaved request sent meanwhile
// is served. What is checked is what each gets; the deadline and the queue
// wait are long enough that a slow machine changes no answer (issue 22:
// under -race this took 5.99 s against a bound of 5 s). The time is held to
// 5 s only where .ci/run enforces bounds, without -race.
func TestHostileBodiesAtOnce(t *testing.T) {
	ts := httptest.NewServer(api.NewRouter(service.Deps(service.Options{}), api.Config{
		Logger: slog.New(slog.DiscardHandler), MaxConcurrent: 4, QueueWait: time.Minute, RequestTimeout: 5 * time.Minute,
	}))
	t.Cleanup(ts.Close)
	bodies := [][]byte{
		oneMiB("channels: [conda-forge]\ndependencies:\n", "- a\n", ""),
		oneMiB("channels: [conda-forge]\ndependencies: [", "p, ", "q]\n"),
		oneMiB("channels: [conda-forge]\ndependencies: [numpy]\nvariables: {", "A: 1, ", "B: 2}\n"),
		oneMiB("channels: [conda-forge]\ndependencies: [pip, {pip: [", "'%%', ", "'%']}]\n"),
	}
	post(t, ts, "/v1/validate", "application/yaml", []byte("dependencies: [numpy]\n")) // load the knowledge base
	start := time.Now()
	var wg sync.WaitGroup
	for i, b := range bodies {
		c := clientFrom(t, fmt.Sprintf("127.0.0.%d", i+2), 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := c.Post(ts.URL+"/v1/validate", "application/yaml", bytes.NewReader(b))
			if err != nil {
				t.Errorf("body %d: %v", i, err)
				return
			}
			defer resp.Body.Close()
			out, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || len(out) > 1<<20 || !bytes.Contains(out, []byte("more than 10000 items")) {
				t.Errorf("body %d: %d, %d bytes: %.300s", i, resp.StatusCode, len(out), out)
			}
		}()
	}
	if resp, b := post(t, ts, "/v1/validate", "application/yaml", []byte("channels: [conda-forge]\ndependencies: [numpy]\n")); resp.StatusCode != 200 {
		t.Errorf("well-behaved request among hostile ones: %d %.300s", resp.StatusCode, b)
	}
	wg.Wait()
	timebound.Within(t, "four 1 MiB hostile bodies and one good one", time.Since(start), 5*time.Second)
}

// A file of two YAML documents is refused as conda refuses it, even when
// the second is garbage (issue 11: it got a clean report).
func TestSecondDocumentIsBadYAML(t *testing.T) {
	ts := newServer(t)
	for _, body := range []string{
		"channels: [conda-forge]\ndependencies: [numpy]\n---\n: : [\n",
		"channels: [conda-forge]\ndependencies: [numpy]\n---\nname: other\n",
	} {
		resp, b := post(t, ts, "/v1/validate", "application/yaml", []byte(body))
		if resp.StatusCode != 400 || !bytes.Contains(b, []byte(`"bad_yaml"`)) || !bytes.Contains(b, []byte(`"line":3`)) {
			t.Errorf("%q: %d %s", body, resp.StatusCode, b)
		}
	}
}
