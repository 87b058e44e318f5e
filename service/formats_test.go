package service_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/cli"
)

// The one environment of lockfile/testdata/lock/pt21_cu121, in every format,
// through the service: named (?file=), it is what `envguard validate
// --format json` prints byte for byte, with ?format= or without it; sent
// with neither a name nor a format, the content tells, and the stack and
// findings are the same.
func TestFormatsSameAsCLI(t *testing.T) {
	ts := newServer(t)
	dir := filepath.Join("..", "lockfile", "testdata", "lock", "pt21_cu121")
	for _, c := range []struct{ file, format, ctype string }{
		{"environment.yml", "environment", "application/yaml"},
		{"conda-lock.yml", "conda-lock", "application/yaml"},
		{"pixi.lock", "pixi-lock", "application/yaml"},
		{"pixi.toml", "pixi-toml", "application/toml"},
		{"uv.lock", "uv-lock", "application/toml"},
		{"pylock.toml", "pylock", "application/toml"},
		{"requirements.txt", "requirements", "text/plain"},
	} {
		name := filepath.ToSlash(filepath.Join(dir, c.file))
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var cliOut, errOut bytes.Buffer
		cli.Main([]string{"validate", "--format", "json", name}, strings.NewReader(""), &cliOut, &errOut)
		cliReport := oneReport(cliOut.Bytes())
		for _, q := range []string{"?pretty=1&file=" + name, "?pretty=1&file=" + name + "&format=" + c.format} {
			resp, b := post(t, ts, "/v1/validate"+q, c.ctype, src)
			if resp.StatusCode != 200 || !bytes.Equal(b, cliReport) {
				t.Errorf("%s%s: status %d; the report differs from the CLI's:\n%.600s\nCLI:\n%.600s", c.file, q, resp.StatusCode, b, cliReport)
			}
		}
		// Neither a name nor a format: the content tells. The report names
		// the default environment.yml, and judges the same.
		resp, b := post(t, ts, "/v1/validate", c.ctype, src)
		if resp.StatusCode != 200 {
			t.Errorf("%s unnamed: status %d: %.300s", c.file, resp.StatusCode, b)
			continue
		}
		if got, want := judged(t, b), judged(t, cliReport); got != want {
			t.Errorf("%s unnamed: judged\n%s\nCLI:\n%s", c.file, got, want)
		}
		// ?format= alone: the report shows the format's usual name.
		resp, b = post(t, ts, "/v1/validate?format="+c.format, c.ctype, src)
		var r struct{ File string }
		if resp.StatusCode != 200 || json.Unmarshal(b, &r) != nil || r.File != c.file || judged(t, b) != judged(t, cliReport) {
			t.Errorf("%s ?format=%s: status %d file %q: %.300s", c.file, c.format, resp.StatusCode, r.File, b)
		}
	}
}

// judged is a report less its file name: the stack, the name and each
// finding's code and line.
func judged(t *testing.T, b []byte) string {
	t.Helper()
	var r struct {
		Stack    json.RawMessage `json:"stack"`
		Name     json.RawMessage `json:"name"`
		Findings []struct {
			Code string `json:"code"`
			Line int    `json:"line"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%v: %.300s", err, b)
	}
	// The service's report is compact, the CLI's indented: the values are
	// compared, not the spacing.
	var sb bytes.Buffer
	if err := json.Compact(&sb, r.Stack); err != nil {
		t.Fatalf("%v: %.300s", err, b)
	}
	sb.WriteString("\n")
	if err := json.Compact(&sb, r.Name); err != nil {
		t.Fatalf("%v: %.300s", err, b)
	}
	for _, f := range r.Findings {
		sb.WriteString("\n" + f.Code + ":" + itoa(f.Line))
	}
	return sb.String()
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// ?format= decides the reader whatever the name says: a requirements file
// named environment.yml is read as requirements with the format, and as
// YAML (a 400: it is not an environment file) without it. A format the
// content is not gives the reader's own error; a file in no known format is
// a 400 that names the formats.
func TestFormatDecidesTheReader(t *testing.T) {
	ts := newServer(t)
	req := []byte("--extra-index-url https://download.pytorch.org/whl/cu121\ntorch==2.1.2+cu121\n")
	resp, b := post(t, ts, "/v1/validate?file=environment.yml&format=requirements", "text/plain", req)
	if f, cuda := fileAndCUDA(b); resp.StatusCode != 200 || f != "environment.yml" || cuda != "12.1" {
		t.Errorf("format=requirements: status %d file %q cuda %q: %.400s", resp.StatusCode, f, cuda, b)
	}
	resp, b = post(t, ts, "/v1/validate?file=environment.yml", "text/plain", req)
	if _, cuda := fileAndCUDA(b); resp.StatusCode == 200 && cuda != "" {
		t.Errorf("named environment.yml without a format, it was read as requirements: %.400s", b)
	}
	// The same text unnamed: its content says requirements.
	resp, b = post(t, ts, "/v1/validate", "text/plain", req)
	if f, cuda := fileAndCUDA(b); resp.StatusCode != 200 || f != "environment.yml" || cuda != "12.1" {
		t.Errorf("unnamed requirements: status %d: %.400s", resp.StatusCode, b)
	}
	// A format the content is not: the reader says so (EG101 in a 200
	// report). A TOML file of no known format: a 400 naming the formats.
	for _, c := range []struct {
		q, body string
		status  int
		want    string
	}{
		{"?format=conda-lock", "version = 1\n[[package]]\nname = \"torch\"\n", 200, "EG101"},
		{"?format=pyproject", "[project]\nname = \"x\"\n", 200, "[tool.pixi]"},
		{"?file=poetry.lock", "[[package]]\nname = \"torch\"\nversion = \"2.1.2\"\n[metadata]\nlock-version = \"2.0\"\n", 400, "uv.lock"},
		{"", "[[package]]\nname = \"torch\"\nversion = \"2.1.2\"\n[metadata]\nlock-version = \"2.0\"\n", 400, "pylock.toml"},
	} {
		resp, b := post(t, ts, "/v1/validate"+c.q, "application/toml", []byte(c.body))
		if resp.StatusCode != c.status || !bytes.Contains(b, []byte(c.want)) {
			t.Errorf("%s: status %d, want %d with %s: %.400s", c.q, resp.StatusCode, c.status, c.want, b)
		}
		if c.status == 400 {
			var e errorJSON
			if json.Unmarshal(b, &e) != nil || e.Error.Code != "bad_yaml" {
				t.Errorf("%s: %.300s", c.q, b)
			}
		}
	}
}

func fileAndCUDA(b []byte) (string, string) {
	var r struct {
		File  string
		Stack struct {
			CUDA struct{ Version string } `json:"cuda"`
		}
	}
	json.Unmarshal(b, &r)
	return r.File, r.Stack.CUDA.Version
}

// The real files of lockfile/testdata/real (public repositories' lock files
// and requirements files) through the service, sent without a name: with
// ?format= and by content alone, each is judged as `envguard validate`
// judges the file on disk.
func TestRealFilesThroughService(t *testing.T) {
	ts := newServer(t)
	formats := map[string]string{"conda-lock": "conda-lock", "pixi-lock": "pixi-lock", "uv-lock": "uv-lock", "requirements": "requirements"}
	root := filepath.Join("..", "lockfile", "testdata", "real")
	n := 0
	for dir, format := range formats {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*", "*"))
		for _, f := range files {
			if strings.HasSuffix(f, ".out") {
				continue
			}
			n++
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var cliOut, errOut bytes.Buffer
			cli.Main([]string{"validate", "--format", "json", filepath.ToSlash(f)}, strings.NewReader(""), &cliOut, &errOut)
			// The CLI follows `-r torch_common.txt` (not copied here: EG104);
			// the service never opens a file a request names, so it lists the
			// include and says nothing. Every other finding is the same.
			want := judged(t, oneReport(cliOut.Bytes()))
			lines := strings.Split(string(src), "\n")
			for i, ln := range lines {
				if strings.HasPrefix(ln, "-r ") {
					want = strings.Replace(want, "\nEG104:"+itoa(i+1), "", 1)
				}
			}
			for _, q := range []string{"?format=" + format, ""} {
				resp, b := post(t, ts, "/v1/validate"+q, "text/plain", src)
				if resp.StatusCode != 200 {
					t.Errorf("%s %s: status %d: %.300s", f, q, resp.StatusCode, b)
					continue
				}
				if got := judged(t, b); got != want {
					t.Errorf("%s %s: judged\n%s\nCLI:\n%s", f, q, got, want)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("%d real files, want 20", n)
	}
}
