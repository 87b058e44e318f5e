package api

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
)

// workerIdle is how long a pipeline worker waits for the next call before
// it ends: long enough to outlast the gaps of a steady load, short enough
// that a burst's workers do not linger.
const workerIdle = 10 * time.Second

// server holds what the handlers share; handlers are its methods.
type server struct {
	deps     Deps
	cfg      Config
	log      *slog.Logger
	m        *metrics
	slots    *fairSlots
	left     *abandoned // calls still running after their request ended
	workers  *pool      // where pipeline calls run
	authOn   bool
	token    [32]byte
	tokenErr error
	mux      *chi.Mux
}

// NewRouter returns the service's handler: every endpoint of DESIGN.md
// behind RequestID, logging and metrics, a JSON recoverer, the request
// deadline, the body limit and, when cfg.TokenFile is set, the bearer token.
// A token file that cannot be read fails closed (every protected request is
// refused); Config.Validate reports it before Serve listens.
func NewRouter(deps Deps, cfg Config) http.Handler {
	return newServer(deps, cfg).mux
}

func newServer(deps Deps, cfg Config) *server {
	cfg = cfg.withDefaults()
	s := &server{
		deps: deps,
		cfg:  cfg,
		log:  cfg.Logger,
		m:    newMetrics(),
	}
	s.slots = newFairSlots(cfg, s.m, processIdle)
	s.workers = newPool(workerIdle)
	s.workers.busy = processIdle
	s.left = &abandoned{limit: cfg.MaxConcurrent, gauge: s.m.abandoned}
	if cfg.TokenFile != "" {
		s.authOn = true
		s.token, s.tokenErr = readToken(cfg.TokenFile)
		if s.tokenErr != nil {
			s.log.Error("bearer token unavailable; refusing protected requests", slog.String("error", s.tokenErr.Error()))
		}
	}

	r := chi.NewRouter()
	s.mux = r
	// chi's own middleware package is not used: it links net/http/pprof and
	// expvar, whose init (and the package's own) every CLI run would pay.
	r.Use(requestID, getHead, s.observe, s.recoverer, timeout(cfg.RequestTimeout), limitBody(cfg.MaxBody))
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed)

	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	r.Get("/openapi.yaml", s.openapi)
	// The page and the rules' documentation are public, as /openapi.yaml
	// is: they hold no data, and a person must reach the page to type the
	// token that its calls to /v1 then carry.
	r.Get("/", s.page)
	r.Get("/assets/{file}", s.asset)
	r.Get("/rules/{code}", s.ruleDoc)
	r.Group(func(r chi.Router) {
		r.Use(s.requireToken)
		r.Method(http.MethodGet, "/metrics", s.m.handler())
		r.Post("/v1/validate", s.validate)
		r.Post("/v1/name", s.name)
		r.Post("/v1/fix", s.fix)
		r.Post("/v1/build", s.build)
		r.Get("/v1/build", s.buildInfo)
		r.Get("/v1/gpu", s.gpu)
		r.Get("/v1/targets", s.targets)
		r.Get("/v1/rules", s.rules)
	})
	return s
}

func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	s.writeError(w, r, newError(http.StatusNotFound, "not_found", "no endpoint "+r.URL.Path+" (see /openapi.yaml)"))
}

var probeMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions}

// methodNotAllowed answers 405 with the Allow header RFC 9110 requires.
// chi keeps the allowed methods private once a custom handler is set, so
// they are found again by asking the router.
func (s *server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range probeMethods {
		if s.mux.Match(chi.NewRouteContext(), m, r.URL.Path) {
			allowed = append(allowed, m)
		}
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	s.writeError(w, r, newError(http.StatusMethodNotAllowed, "method_not_allowed",
		r.Method+" is not allowed on "+r.URL.Path+"; allowed: "+strings.Join(allowed, ", ")))
}
