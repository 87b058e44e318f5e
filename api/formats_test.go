package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// ?format= (or "format" in a JSON body) says which reader reads the body;
// its aliases are envspec's Kind names; the file a report shows defaults to
// the format's usual name; application/toml is a raw body.
func TestFormatParameter(t *testing.T) {
	fv := &fakeValidator{}
	ts := newTestServer(t, fv)
	body := []byte("torch==2.1.2\n")
	cases := []struct {
		name, path, ctype string
		body              []byte
		format, file      string
		named             bool
	}{
		{"none", "/v1/validate", "text/plain", body, "", "environment.yml", false},
		{"requirements", "/v1/validate?format=requirements", "text/plain", body, "requirements", "requirements.txt", false},
		{"alias and case", "/v1/validate?format=UV.lock", "application/toml", []byte("version = 1\n"), "uv-lock", "uv.lock", false},
		{"kind name", "/v1/validate?format=pixi.lock", "application/yaml", []byte("version: 6\n"), "pixi-lock", "pixi.lock", false},
		{"toml type", "/v1/validate?file=uv.lock", "application/toml", []byte("version = 1\n"), "", "uv.lock", true},
		{"toml type with charset", "/v1/validate", "application/toml; charset=utf-8", []byte("lock-version = \"1.0\"\n"), "", "environment.yml", false},
		{"file named with format", "/v1/validate?format=conda-lock&file=locks/gpu.yml", "application/yaml", []byte("version: 1\n"), "conda-lock", "locks/gpu.yml", true},
		{"json", "/v1/validate", "application/json", []byte(`{"environment":"version = 1\n","format":"pylock"}`), "pylock", "pylock.toml", false},
		{"json and query agree", "/v1/validate?format=pylock", "application/json", []byte(`{"environment":"version = 1\n","format":"pylock"}`), "pylock", "pylock.toml", false},
		{"json file", "/v1/validate", "application/json", []byte(`{"environment":"x\n","format":"pyproject","file":"sub/pyproject.toml"}`), "pyproject", "sub/pyproject.toml", true},
		{"name endpoint", "/v1/name?format=pixi-toml", "application/toml", []byte("a = 1\n"), "pixi-toml", "pixi.toml", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, b := ts.do("POST", c.path, c.ctype, c.body)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, b)
			}
			if strings.HasPrefix(c.path, "/v1/name") {
				return // the fake's Name does not record; the parse is shared
			}
			req, _ := fv.lastRequest()
			if req.Format != c.format || req.File != c.file || req.FileNamed != c.named {
				t.Errorf("format %q file %q named %v; want %q %q %v", req.Format, req.File, req.FileNamed, c.format, c.file, c.named)
			}
		})
	}
}

// An unknown format, or a query and a body that disagree, is a JSON 400 that
// names what envguard reads; nothing reaches the pipeline.
func TestUnknownFormat(t *testing.T) {
	fv := &fakeValidator{}
	ts := newTestServer(t, fv)
	for _, c := range []struct {
		path, ctype, body, code string
	}{
		{"/v1/validate?format=poetry-lock", "text/plain", "x\n", "unknown_format"},
		{"/v1/validate?format=", "text/plain", "x\n", ""}, // empty means none
		{"/v1/name?format=Pipfile.lock", "application/json", `{"environment":"x"}`, "unknown_format"},
		{"/v1/validate", "application/json", `{"environment":"x","format":"setup.py"}`, "unknown_format"},
		{"/v1/validate?format=uv-lock", "application/json", `{"environment":"x","format":"pylock"}`, "bad_request"},
		{"/v1/validate?format=uv-lock", "application/xml", "x", "unsupported_media_type"},
	} {
		resp, b := ts.do("POST", c.path, c.ctype, []byte(c.body))
		if c.code == "" {
			if resp.StatusCode != 200 {
				t.Errorf("%s: status %d: %s", c.path, resp.StatusCode, b)
			}
			continue
		}
		var e struct {
			Error struct {
				Status  int    `json:"status"`
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &e); err != nil || e.Error.Code != c.code || resp.StatusCode != e.Error.Status {
			t.Errorf("%s %s: status %d %s; want %s", c.path, c.body, resp.StatusCode, b, c.code)
			continue
		}
		if c.code == "unknown_format" {
			for _, f := range Formats() {
				if !strings.Contains(e.Error.Message, f) {
					t.Errorf("%s: the message does not name %s: %s", c.path, f, e.Error.Message)
				}
			}
			if resp.StatusCode != 400 {
				t.Errorf("%s: status %d, want 400", c.path, resp.StatusCode)
			}
		}
	}
}

// Every format has a default file name, and the names are unique.
func TestFormatsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range inputFormats {
		if FormatFile(f.name) == "" || seen[f.name] {
			t.Errorf("%s: no file name, or named twice", f.name)
		}
		seen[f.name] = true
		for _, a := range f.aliases {
			if seen[a] {
				t.Errorf("alias %s is used twice", a)
			}
			seen[a] = true
			if g, err := lookupFormat(strings.ToUpper(a)); err != nil || g.name != f.name {
				t.Errorf("alias %s: %v %v", a, g.name, err)
			}
		}
	}
	if len(Formats()) != 10 {
		t.Errorf("Formats() = %v", Formats())
	}
	if FormatFile("nope") != "" {
		t.Error("FormatFile of an unknown name")
	}
}
