package service_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestValidatePretty: the report is compact unless ?pretty=1 asks for the
// CLI's indented bytes; both hold the same value.
func TestValidatePretty(t *testing.T) {
	ts := newServer(t)
	env := []byte("name: x\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n  - pytorch-cuda=11.7\n")
	resp, compact := post(t, ts, "/v1/validate", "application/yaml", env)
	if resp.StatusCode != 200 || bytes.Contains(compact, []byte("\n  ")) || !bytes.HasSuffix(compact, []byte("}\n")) {
		t.Fatalf("default: status %d, not compact:\n%s", resp.StatusCode, compact)
	}
	resp, pretty := post(t, ts, "/v1/validate?pretty=1", "application/yaml", env)
	if resp.StatusCode != 200 || !bytes.Contains(pretty, []byte("\n  \"file\": ")) {
		t.Fatalf("?pretty=1: status %d, not indented:\n%s", resp.StatusCode, pretty)
	}
	var a, b any
	if err := json.Unmarshal(compact, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(pretty, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("compact and pretty reports differ:\n%s\n%s", compact, pretty)
	}
	resp, body := post(t, ts, "/v1/validate?pretty=yes", "application/yaml", env)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "pretty") {
		t.Errorf("?pretty=yes: status %d %s", resp.StatusCode, body)
	}
}
