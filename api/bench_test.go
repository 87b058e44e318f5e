package api

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"
	"gopkg.in/yaml.v3"
)

// BenchmarkRouter measures the service's overhead per request without the
// network: the full router with a validator that only parses, against a
// bare chi handler that parses the same body (the baseline, same run).
func BenchmarkRouter(b *testing.B) {
	env := readTestdata(&testing.T{}, "gpu-env.yml")
	parseOnly := ValidatorFuncs{ValidateFunc: func(_ context.Context, req ValidateRequest) ([]byte, error) {
		var n yaml.Node
		if err := yaml.Unmarshal(req.Body, &n); err != nil {
			return nil, err
		}
		return []byte(`{"file":"environment.yml","findings":[]}`), nil
	}}
	bare := chi.NewRouter()
	bare.Post("/v1/validate", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var n yaml.Node
		if err := yaml.Unmarshal(body, &n); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		_, _ = w.Write([]byte("{}"))
	})
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{
		{"bare", bare},
		{"router", NewRouter(Deps{Validator: parseOnly}, Config{Logger: slog.New(slog.DiscardHandler)})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/v1/validate", bytes.NewReader(env))
				req.Header.Set("Content-Type", "application/yaml")
				w := httptest.NewRecorder()
				bc.h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
