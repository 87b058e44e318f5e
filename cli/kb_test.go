package cli

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/envguard/envguard/internal/kbstore"
	"github.com/envguard/envguard/resolver/kb"
)

type kbFixture struct {
	t    *testing.T
	data string // XDG_DATA_HOME
	keys kbstore.Keys
	priv ed25519.PrivateKey
	now  time.Time
}

func newKBFixture(t *testing.T) *kbFixture {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	now, _ := time.Parse(time.DateOnly, "2026-12-10")
	return &kbFixture{t: t, data: t.TempDir(), priv: priv, now: now,
		keys: kbstore.Keys{Trusted: map[string]ed25519.PublicKey{"test-1": pub}}}
}

func (f *kbFixture) run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	vars := map[string]string{"XDG_DATA_HOME": f.data}
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv:    func(k string) string { return vars[k] },
		lookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		now:       func() time.Time { return f.now }, keys: &f.keys}
	code := run(args, e)
	return code, out.String(), errb.String()
}

// bundle signs the embedded data files with date (in meta.yaml too) and
// serial; edit may change the files first.
func (f *kbFixture) bundle(serial uint64, date string, edit func(map[string][]byte)) string {
	t := f.t
	names, err := filepath.Glob("../resolver/kb/data/*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatal(names, err)
	}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = b
	}
	meta := string(files["meta.yaml"])
	old := `date: "` + kb.Default().Date + `"`
	if !strings.Contains(meta, old) {
		t.Fatalf("meta.yaml has no %s", old)
	}
	files["meta.yaml"] = []byte(strings.Replace(meta, old, `date: "`+date+`"`, 1))
	if edit != nil {
		edit(files)
	}
	data, err := kbstore.Build(files, serial, date, "test-1", f.priv)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "kb-bundle.tar.gz")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *kbFixture) tree() string {
	var b strings.Builder
	filepath.Walk(f.data, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.Name() == ".lock" {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			l, _ := os.Readlink(p)
			b.WriteString(p + " -> " + l + "\n")
		} else if fi.Mode().IsRegular() {
			d, _ := os.ReadFile(p)
			b.WriteString(p + " " + string(d) + "\n")
		}
		return nil
	})
	return b.String()
}

func TestKBUpdateAndStatus(t *testing.T) {
	f := newKBFixture(t)
	code, out, errs := f.run("kb", "status", "--json")
	if code != 0 {
		t.Fatalf("status: %d %s", code, errs)
	}
	var st struct {
		Layers []kbLayer
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Layers) != 1 || st.Layers[0].Name != "embedded" || !st.Layers[0].InUse || st.Layers[0].Counts["torch"] == 0 {
		t.Fatalf("before update: %s", out)
	}

	p := f.bundle(5, "2026-12-05", nil)
	if code, out, errs := f.run("kb", "update", "--from", p); code != 0 || !strings.Contains(out, "serial 5") {
		t.Fatalf("update: %d %s %s", code, out, errs)
	}
	code, out, _ = f.run("kb", "status")
	if code != 0 || !strings.Contains(out, "downloaded (whole): dated 2026-12-05, 5 days old") || !strings.Contains(out, "embedded (replaced by a whole knowledge base above it)") || strings.Contains(out, "warning") {
		t.Fatalf("status after update:\n%s", out)
	}
	installed := f.tree()

	// Every refusal exits 2 and leaves the installed KB byte for byte.
	other := newKBFixture(t)
	trunc := filepath.Join(t.TempDir(), "trunc.tar.gz")
	whole, _ := os.ReadFile(f.bundle(7, "2026-12-07", nil))
	os.WriteFile(trunc, whole[:len(whole)/2], 0o644)
	for name, tc := range map[string]struct{ from, want string }{
		"replayed":  {p, "not newer than the installed 5"},
		"older":     {f.bundle(4, "2026-12-04", nil), "not newer"},
		"wrong key": {other.bundle(9, "2026-12-09", nil), "signature does not match"},
		"truncated": {trunc, "truncated"},
		"invalid": {f.bundle(8, "2026-12-08", func(m map[string][]byte) {
			m["torch.yaml"] = append(m["torch.yaml"], []byte("\nnot_a_table: 1\n")...)
		}), "does not validate"},
		"older than embedded": {f.bundle(10, "2020-01-01", nil), "older than the knowledge base built into"},
		"missing":             {filepath.Join(t.TempDir(), "none.tar.gz"), "no such file"},
	} {
		code, _, errs := f.run("kb", "update", "--from", tc.from)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", name, code, errs, tc.want)
		}
		if f.tree() != installed {
			t.Errorf("%s: the installed KB changed", name)
		}
	}

	// Over HTTP, and the stale warning from the injected clock.
	newer, _ := os.ReadFile(f.bundle(6, "2026-12-06", nil))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/404" {
			http.NotFound(w, r)
			return
		}
		w.Write(newer)
	}))
	defer srv.Close()
	if code, _, errs := f.run("kb", "update", "--from", srv.URL+"/404"); code != ExitUsage || !strings.Contains(errs, "404") {
		t.Errorf("404: %d %s", code, errs)
	}
	if code, _, errs := f.run("kb", "update", "--from", srv.URL+"/kb-bundle.tar.gz"); code != 0 {
		t.Fatalf("http update: %s", errs)
	}
	f.now = f.now.AddDate(0, 0, 90)
	if _, out, _ := f.run("kb", "status"); !strings.Contains(out, "warning: the knowledge base in use is 94 days old (newest layer: downloaded, dated 2026-12-06, more than 60)") {
		t.Errorf("stale:\n%s", out)
	}

	// A damaged install is warned about and the embedded KB is used.
	os.WriteFile(filepath.Join(f.data, "envguard", "kb", "bundle-6", "data", "torch.yaml"), []byte("torch: []\n"), 0o644)
	code, out, errs = f.run("kb", "status", "--json")
	if code != 0 || !strings.Contains(errs, "warning: ignoring the downloaded knowledge base") || strings.Contains(out, `"downloaded"`) {
		t.Errorf("damaged: %d %s %s", code, out, errs)
	}
}

// syncBuffer is a log sink the refresher's goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestKBRefresher: serve --kb-refresh's loop swaps in a newer bundle, keeps
// the last good KB (and logs why) when the server fails or serves a bad
// bundle, and says so when nothing is newer.
func TestKBRefresher(t *testing.T) {
	f := newKBFixture(t)
	var mu sync.Mutex
	var body []byte
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.WriteHeader(status)
		w.Write(body)
	}))
	defer srv.Close()
	serve := func(code int, path string) {
		mu.Lock()
		defer mu.Unlock()
		status, body = code, nil
		if path != "" {
			body, _ = os.ReadFile(path)
		}
	}
	vars := map[string]string{"XDG_DATA_HOME": f.data}
	e := &env{stderr: io.Discard, getenv: func(k string) string { return vars[k] }, keys: &f.keys}
	var cur atomic.Pointer[kb.KB]
	cur.Store(kb.Default())
	var logs syncBuffer
	tick := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		e.kbRefresher(ctx, tick, srv.URL, &cur, slog.New(slog.NewTextHandler(&logs, nil)))
		close(done)
	}()
	// A tick is taken only when the previous round is over, so after the
	// second send of step the first round's result is in cur (the second
	// round may see the server's next answer: the checks allow for it).
	step := func() { tick <- time.Time{}; tick <- time.Time{} }

	serve(http.StatusOK, f.bundle(3, "2026-12-03", nil))
	step()
	if got := cur.Load().Date; got != "2026-12-03" {
		t.Fatalf("after a newer bundle: %s\n%s", got, logs.String())
	}
	if !strings.Contains(logs.String(), "knowledge base refreshed") {
		t.Errorf("logs:\n%s", logs.String())
	}
	good := cur.Load()
	// The same bundle again is no change and no error.
	if k, err := e.refreshKB(context.Background(), srv.URL); k != nil || err != nil {
		t.Errorf("the same bundle again: %v %v", k, err)
	}
	serve(http.StatusInternalServerError, "")
	step()
	other := newKBFixture(t)
	serve(http.StatusOK, other.bundle(4, "2026-12-04", nil))
	step()
	if cur.Load() != good {
		t.Errorf("a failed refresh changed the KB to %s", cur.Load().Date)
	}
	if l := logs.String(); !strings.Contains(l, "refresh failed; keeping the last good one") || !strings.Contains(l, "500") || !strings.Contains(l, "signature does not match") {
		t.Errorf("logs:\n%s", l)
	}
	cancel()
	<-done
}
