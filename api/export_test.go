package api

import (
	"net/http"
	"testing"
)

// Exported for the external tests of this directory (integration_test.go),
// which import the real pipeline and so cannot live in package api.

// TestServer is the router behind httptest with an OpenAPI-checking client.
type TestServer = testServer

// NewTestServer serves the real router with v as the Validator.
func NewTestServer(t *testing.T, v Validator) *TestServer { return newTestServer(t, v) }

// Do sends a request; every response is checked against openapi.yaml.
func (ts *testServer) Do(method, path, contentType string, body []byte, header ...string) (*http.Response, []byte) {
	return ts.do(method, path, contentType, body, header...)
}

// RunHostileInputs sends the hostile bodies to v through the router.
func RunHostileInputs(t *testing.T, v Validator) { runHostileInputs(t, v) }
