package service_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/envguard/envguard/api"
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

// Four 1 MiB hostile bodies at once (issue 11: four such requests reached
// 1.4 GB and three of them timed out) are each answered with a bounded
// report well inside the deadline, and a well-behaved request sent
// meanwhile is served.
func TestHostileBodiesAtOnce(t *testing.T) {
	ts := httptest.NewServer(api.NewRouter(service.Deps(service.Options{}), api.Config{
		Logger: slog.New(slog.DiscardHandler), MaxConcurrent: 4, QueueWait: 5 * time.Second,
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, out := post(t, ts, "/v1/validate", "application/yaml", b)
			if resp.StatusCode != 200 || len(out) > 1<<20 || !bytes.Contains(out, []byte("more than 10000 items")) {
				t.Errorf("body %d: %d, %d bytes: %.300s", i, resp.StatusCode, len(out), out)
			}
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/v1/validate", strings.NewReader("channels: [conda-forge]\ndependencies: [numpy]\n"))
	req.Header.Set("Content-Type", "application/yaml")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("well-behaved request among hostile ones: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	wg.Wait()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("four 1 MiB hostile bodies took %v", d)
	} else {
		t.Logf("four 1 MiB hostile bodies and one good one: %v", d.Round(time.Millisecond))
	}
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
