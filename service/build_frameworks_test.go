package service_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/envguard/envguard/builder"
)

// TestBuildEndpointFrameworks: POST /v1/build builds every framework the
// builder lists, TensorFlow and JAX as pip builds, and answers a request
// the knowledge base cannot serve with 400 and the builder's reason.
func TestBuildEndpointFrameworks(t *testing.T) {
	ts := newServer(t)
	want := map[string]string{"pytorch": "name: pt", "tensorflow": "    - tensorflow[and-cuda]==", "jax": "    - jax[cuda"}
	for _, fw := range builder.Frameworks() {
		w, ok := want[fw]
		if !ok {
			t.Errorf("builder.Frameworks() lists %q, which this test does not know", fw)
			continue
		}
		resp, b := post(t, ts, "/v1/build", "application/json", []byte(`{"framework":"`+fw+`"}`))
		if resp.StatusCode != 200 || !bytes.Contains(b, []byte(w)) {
			t.Errorf("%s: status %d: %.500s", fw, resp.StatusCode, b)
		}
	}
	resp, b := post(t, ts, "/v1/build", "application/json", []byte(`{"framework":"tensorflow","version":"2.16","python":"3.10"}`))
	if resp.StatusCode != 200 || !bytes.Contains(b, []byte("name: tf216_cu123")) || !bytes.Contains(b, []byte("python=3.10")) {
		t.Errorf("tensorflow 2.16: status %d: %.500s", resp.StatusCode, b)
	}
	// "local" has no driver here: no CUDA jax runs on it.
	resp, b = post(t, ts, "/v1/build", "application/json", []byte(`{"framework":"jax","version":"0.6.0","targets":["local"]}`))
	if resp.StatusCode != 422 || !bytes.Contains(b, []byte("no_fit")) || !bytes.Contains(b, []byte("--cuda cpu")) {
		t.Errorf("jax on a machine with no driver: status %d: %.500s", resp.StatusCode, b)
	}
	resp, b = post(t, ts, "/v1/build", "application/json", []byte(`{"framework":"jax","version":"0.4.26"}`))
	var e errorJSON
	if resp.StatusCode != 400 || json.Unmarshal(b, &e) != nil || !strings.Contains(e.Error.Message, "predates the CUDA plugins") {
		t.Errorf("jax 0.4.26: status %d: %.300s", resp.StatusCode, b)
	}
}
