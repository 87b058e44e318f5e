// Package benchbase is the baseline both benchmarks hold the service against:
// chi and a yaml.v3 decode of the body, the least a YAML service does.
package benchbase

import (
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"
	"gopkg.in/yaml.v3"
)

// Handler answers POST /v1/validate with "{}" once the body decodes as
// YAML, and GET /healthz.
func Handler() http.Handler {
	r := chi.NewRouter()
	r.Post("/v1/validate", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var n yaml.Node
		if err := yaml.Unmarshal(body, &n); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}\n"))
	})
	r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	return r
}
