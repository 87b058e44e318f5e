package service_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/cli"
	"github.com/envguard/envguard/internal/timebound"
	"github.com/envguard/envguard/service"
)

// hostileDir is the corpus of issue 11: small .yml files as they are, and
// .gen recipes for the large ones (see its README.md).
const hostileDir = "../testdata/hostile"

// A hostileInput is one file of the corpus, generated if it is a recipe.
type hostileInput struct {
	name    string
	body    []byte      // nil when endless
	endless []byte      // repeated for ever: /dev/zero and the like
	header  http.Header // request headers for the service only
	// file is the name the input is read as ("" for environment.yml): the
	// CLI's file is called so, and the service is told it with ?file=, so
	// that a pixi.toml or a requirements.txt reaches its own reader.
	file string
}

// heavy inputs are skipped under the race detector (5-20x slower); .ci/run
// runs them without it.
func (in hostileInput) heavy() bool { return in.endless != nil || len(in.body) > 100_000 }

// parseGen reads a recipe: one directive a line, strings Go-quoted.
//
//	text "S"          append S
//	repeat N "S"      append S N times
//	fill SIZE "S"     append S while the input stays within SIZE bytes
//	endless "S"       the input is S repeated for ever (nothing may follow)
//	header "K" "V"    send header K: V to the service
//	name "F"          read the input as a file named F (pixi.toml, uv.lock, requirements.txt)
func parseGen(src string) (hostileInput, error) {
	var in hostileInput
	var b bytes.Buffer
	sc := bufio.NewScanner(strings.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, rest, _ := strings.Cut(line, " ")
		var num int
		if verb == "repeat" || verb == "fill" {
			ns, r, _ := strings.Cut(rest, " ")
			var err error
			if num, err = strconv.Atoi(ns); err != nil || num < 0 {
				return in, fmt.Errorf("line %d: count %q", n, ns)
			}
			rest = r
		}
		var args []string
		for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return in, fmt.Errorf("line %d: %v", n, err)
			}
			s, _ := strconv.Unquote(q)
			args = append(args, s)
			rest = rest[len(q):]
		}
		want := map[string]int{"text": 1, "repeat": 1, "fill": 1, "endless": 1, "header": 2, "name": 1}[verb]
		if want == 0 || len(args) != want || in.endless != nil {
			return in, fmt.Errorf("line %d: %q", n, line)
		}
		switch verb {
		case "text":
			b.WriteString(args[0])
		case "repeat":
			b.WriteString(strings.Repeat(args[0], num))
		case "fill":
			for len(args[0]) > 0 && b.Len()+len(args[0]) <= num {
				b.WriteString(args[0])
			}
		case "endless":
			if b.Len() > 0 || args[0] == "" {
				return in, fmt.Errorf("line %d: endless must be alone and not empty", n)
			}
			in.endless = []byte(args[0])
		case "header":
			if in.header == nil {
				in.header = http.Header{}
			}
			in.header.Set(args[0], args[1])
		case "name":
			if in.file != "" || args[0] == "" || args[0] != filepath.Base(args[0]) {
				return in, fmt.Errorf("line %d: name must be a plain file name, given once", n)
			}
			in.file = args[0]
		}
	}
	if in.endless == nil {
		in.body = b.Bytes()
	}
	return in, sc.Err()
}

// hostileExpect is a row of expect.tsv: what the service answers (status
// and a substring of the body) and what `envguard validate --format json`
// does (exit code and a substring of stdout and stderr together).
type hostileExpect struct {
	status  int
	apiSays string
	exit    int
	cliSays string
}

func loadHostile(t *testing.T) ([]hostileInput, map[string]hostileExpect) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(hostileDir, "expect.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	exp := map[string]hostileExpect{}
	for i, line := range strings.Split(string(raw), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			t.Fatalf("expect.tsv:%d: %d fields, want 5 (name, status, says, exit, says)", i+1, len(f))
		}
		status, err1 := strconv.Atoi(f[1])
		exit, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || f[2] == "" || f[4] == "" {
			t.Fatalf("expect.tsv:%d: %q", i+1, line)
		}
		exp[f[0]] = hostileExpect{status, f[2], exit, f[4]}
	}
	entries, err := os.ReadDir(hostileDir)
	if err != nil {
		t.Fatal(err)
	}
	var ins []hostileInput
	for _, e := range entries {
		name := e.Name()
		src, err := os.ReadFile(filepath.Join(hostileDir, name))
		if err != nil {
			t.Fatal(err)
		}
		var in hostileInput
		switch filepath.Ext(name) {
		case ".yml":
			in.body = src
		case ".gen":
			if in, err = parseGen(string(src)); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		default:
			continue
		}
		in.name = name
		if _, ok := exp[name]; !ok {
			t.Errorf("%s has no row in expect.tsv", name)
		}
		ins = append(ins, in)
	}
	for name := range exp {
		if _, err := os.Stat(filepath.Join(hostileDir, name)); err != nil {
			t.Errorf("expect.tsv names %s, which is not in the corpus", name)
		}
	}
	return ins, exp
}

// endlessReader repeats its pattern for ever.
type endlessReader struct {
	p []byte
	i int
}

func (r *endlessReader) Read(b []byte) (int, error) {
	for n := range b {
		b[n] = r.p[r.i%len(r.p)]
		r.i++
	}
	return len(b), nil
}

// onlyReader hides everything but Read, so that the client sends the body
// chunked, without a length.
type onlyReader struct{ io.Reader }

// measure runs f and returns how long it took and how far the heap rose
// above the heap before it (after a GC), sampled every 2 ms.
func measure(f func()) (time.Duration, uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	f()
	took := time.Since(start)
	close(stop)
	<-done
	return took, peak - base
}

const (
	hostileTimeLimit = time.Second
	hostileHeapLimit = 64 << 20
	// hostileOutLimit: no report may outgrow the largest input (issue 11:
	// a 1 MB body made a 202 MB response).
	hostileOutLimit = 1 << 20
)

// TestHostileCorpus: every input of testdata/hostile goes through the CLI
// (cli.Main in-process) and the service (the real router over the real
// pipeline) within 1 s and 64 MiB of heap each, without a 5xx and with a
// report of at most 1 MiB, and gets the finding or error expect.tsv names
// (issue 11).
func TestHostileCorpus(t *testing.T) {
	ins, exp := loadHostile(t)
	ts := httptest.NewServer(api.NewRouter(service.Deps(service.Options{}), api.Config{Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(ts.Close)
	post(t, ts, "/v1/validate", "application/yaml", []byte("dependencies: [numpy]\n")) // load the knowledge base
	var warm bytes.Buffer
	cli.Main([]string{"validate", "--format", "json", "-"}, strings.NewReader("dependencies: [numpy]\n"), &warm, &warm)
	limit := hostileTimeLimit
	if raceEnabled {
		limit = 10 * time.Second
	}
	for _, in := range ins {
		e := exp[in.name]
		t.Run(in.name, func(t *testing.T) {
			if raceEnabled && in.heavy() {
				t.Skip("heavy input: run without -race (.ci/run does)")
			}
			// The service.
			var status int
			var body []byte
			took, heap := measure(func() {
				var r io.Reader
				if in.endless != nil {
					r = onlyReader{&endlessReader{p: in.endless}}
				} else {
					r = bytes.NewReader(in.body)
				}
				target := ts.URL + "/v1/validate"
				if in.file != "" {
					target += "?file=" + url.QueryEscape(in.file)
				}
				req, _ := http.NewRequest("POST", target, r)
				req.Header.Set("Content-Type", "application/yaml")
				for k, v := range in.header {
					req.Header[k] = v
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Errorf("service: %v", err)
					return
				}
				defer resp.Body.Close()
				status = resp.StatusCode
				body, _ = io.ReadAll(resp.Body)
			})
			t.Logf("service: %d, %d bytes, %v, heap +%.1f MiB", status, len(body), took.Round(time.Millisecond), float64(heap)/(1<<20))
			if status >= 500 {
				t.Errorf("service: status %d: %.300s", status, body)
			}
			if status != e.status || !bytes.Contains(body, []byte(e.apiSays)) {
				t.Errorf("service: status %d, body %.300q; want %d and %q", status, body, e.status, e.apiSays)
			}
			if len(body) > hostileOutLimit {
				t.Errorf("service: a report of %d bytes, over %d", len(body), hostileOutLimit)
			}
			timebound.Within(t, "service", took, limit)
			if heap > hostileHeapLimit {
				t.Errorf("service: heap rose by %d MiB, over 64", heap>>20)
			}

			// The CLI.
			args := []string{"validate", "--format", "json"}
			var stdin io.Reader = strings.NewReader("")
			if in.endless != nil {
				args = append(args, "-")
				stdin = &endlessReader{p: in.endless}
			} else {
				p := filepath.Join(t.TempDir(), strings.TrimSuffix(in.name, filepath.Ext(in.name))+".yml")
				if in.file != "" {
					p = filepath.Join(t.TempDir(), in.file)
				}
				if err := os.WriteFile(p, in.body, 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, p)
			}
			var out bytes.Buffer
			var code int
			took, heap = measure(func() { code = cli.Main(args, stdin, &out, &out) })
			t.Logf("cli: exit %d, %d bytes, %v, heap +%.1f MiB", code, out.Len(), took.Round(time.Millisecond), float64(heap)/(1<<20))
			if code != e.exit || !bytes.Contains(out.Bytes(), []byte(e.cliSays)) {
				t.Errorf("cli: exit %d, output %.300q; want %d and %q", code, out.Bytes(), e.exit, e.cliSays)
			}
			if code == 3 {
				t.Errorf("cli: internal error")
			}
			if out.Len() > hostileOutLimit {
				t.Errorf("cli: %d bytes of output, over %d", out.Len(), hostileOutLimit)
			}
			timebound.Within(t, "cli", took, limit)
			if heap > hostileHeapLimit {
				t.Errorf("cli: heap rose by %d MiB, over 64", heap>>20)
			}
		})
	}
}

// The recipe language says what it means.
func TestParseGen(t *testing.T) {
	in, err := parseGen("# c\ntext \"a\\n\"\nrepeat 3 \"b\"\nfill 10 \"cd\"\nheader \"X-A\" \"1\"\nname \"pixi.toml\"\n")
	if err != nil || string(in.body) != "a\nbbbcdcd" || in.header.Get("X-A") != "1" || in.file != "pixi.toml" {
		t.Errorf("%q %v %q %v", in.body, in.header, in.file, err)
	}
	in, err = parseGen("endless \"\\x00\"\n")
	if err != nil || in.body != nil || string(in.endless) != "\x00" {
		t.Errorf("%q %q %v", in.body, in.endless, err)
	}
	for _, bad := range []string{"text a\n", "repeat x \"a\"\n", "nope \"a\"\n", "endless \"a\"\ntext \"b\"\n", "text \"a\"\nendless \"b\"\n", "header \"a\"\n",
		"name \"../x.toml\"\n", "name \"a\"\nname \"b\"\n", "name \"\"\n"} {
		if _, err := parseGen(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
