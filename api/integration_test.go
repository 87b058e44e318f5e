// The service with the real pipeline (package service): every response is
// checked against openapi.yaml by the test client, so the report schema is
// proven on real reports, not only on the fakes of package api's own tests.
package api_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/internal/testshared"
	"github.com/envguard/envguard/service"
)

// TestIntegrationHostileInputs: the YAML alias and depth bounds are the
// parser's; this proves them through HTTP.
func TestIntegrationHostileInputs(t *testing.T) {
	api.RunHostileInputs(t, service.Deps(service.Options{}).Validator)
}

// TestIntegrationCorpus posts every real-world file: each is a 200 report
// (or a 4xx), never a 5xx, and byte for byte what the Validator returns
// when called directly — so the HTTP layer adds and loses nothing.
func TestIntegrationCorpus(t *testing.T) {
	files := testshared.Corpus(t)
	v := service.Deps(service.Options{}).Validator
	ts := api.NewTestServer(t, v)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		resp, body := ts.Do("POST", "/v1/validate?file="+name, "application/yaml", src)
		if resp.StatusCode >= 500 {
			t.Errorf("%s: %d %.300s", name, resp.StatusCode, body)
			continue
		}
		if resp.StatusCode != 200 {
			continue
		}
		want, err := v.Validate(context.Background(), api.ValidateRequest{File: name, Body: src})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(body, want) {
			t.Errorf("%s: the response differs from the Validator's report", name)
		}
	}
}
