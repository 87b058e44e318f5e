package api

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// validate answers POST /v1/validate with the report, byte for byte as the
// Validator made it. Findings are a 200: only input that cannot be judged
// at all is an HTTP error.
func (s *server) validate(w http.ResponseWriter, r *http.Request) {
	if s.deps.Validator == nil {
		s.writeError(w, r, newError(http.StatusNotImplemented, "not_implemented", "validation is not available on this server"))
		return
	}
	req, release, heavy, err := s.validateRequest(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// A Validator that also says which codes it found spares the metrics a
	// second decode of the report.
	counter, counts := s.deps.Validator.(FindingCounter)
	var codes []string
	rep, err := runBounded(r.Context(), s.workers, s.left, release, heavy, func(ctx context.Context) ([]byte, error) {
		if counts {
			b, c, err := counter.ValidateCounting(ctx, req)
			codes = c
			return b, err
		}
		return s.deps.Validator.Validate(ctx, req)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(rep) == 0 {
		s.writeError(w, r, errEmptyReport)
		return
	}
	if counts {
		s.m.ObserveFindings(codes)
	} else {
		s.m.observeReport(rep)
	}
	writeRawJSON(w, http.StatusOK, rep)
}

var errEmptyReport = &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "the validator returned an empty report"}

// name answers POST /v1/name.
func (s *server) name(w http.ResponseWriter, r *http.Request) {
	if s.deps.Validator == nil {
		s.writeError(w, r, newError(http.StatusNotImplemented, "not_implemented", "naming is not available on this server"))
		return
	}
	req, release, heavy, err := s.validateRequest(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := runBounded(r.Context(), s.workers, s.left, release, heavy, func(ctx context.Context) (NameResult, error) {
		return s.deps.Validator.Name(ctx, req)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if res.File == "" {
		res.File = req.File
	}
	writeJSON(w, http.StatusOK, res)
}

// validateRequest checks the media type (a wrong type costs nothing), takes
// the client's ticket (429 at once for a client with too many requests in
// progress), reads and parses the body — bounded by MaxBody and by
// BodyTimeout — and only then takes a validation slot: a client that sends
// its body slowly holds a connection and one of its own tickets, never a
// slot. Memory held by bodies is at most MaxBody per connection reading
// one, each for at most BodyTimeout, and per client at most its tickets'.
func (s *server) validateRequest(w http.ResponseWriter, r *http.Request) (req ValidateRequest, release func(), heavy func() bool, err error) {
	kind, err := bodyKindOf(r, true)
	if err != nil {
		return ValidateRequest{}, nil, nil, err
	}
	t, err := s.enter(w, r)
	if err != nil {
		return ValidateRequest{}, nil, nil, err
	}
	body, err := s.readBody(w, r)
	if err != nil {
		t.leave()
		return ValidateRequest{}, nil, nil, err
	}
	req, err = parseValidateRequest(kind, body, r)
	if err != nil {
		t.leave()
		return ValidateRequest{}, nil, nil, err
	}
	release, err = t.acquire(r.Context(), len(body))
	if err != nil {
		return ValidateRequest{}, nil, nil, err
	}
	return req, release, t.heavyAmongOthers, nil
}

// enter takes r's client's ticket. A client refused here is refused before
// its body is read, and the connection is closed after the answer: net/http
// would otherwise read up to 256 KiB of the unread body first, to keep the
// connection.
func (s *server) enter(w http.ResponseWriter, r *http.Request) (*ticket, error) {
	t, err := s.slots.enter(clientKey(r))
	if err != nil {
		w.Header().Set("Connection", "close")
	}
	return t, err
}

// build answers POST /v1/build with the environment file.
func (s *server) build(w http.ResponseWriter, r *http.Request) {
	if s.deps.Builder == nil {
		s.writeError(w, r, newError(http.StatusNotImplemented, "not_implemented", "building environments is not available on this server yet"))
		return
	}
	if _, err := bodyKindOf(r, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	t, err := s.enter(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer t.leave() // after release, or where the request is refused
	body, err := s.readBody(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req BuildRequest
	if err := decodeJSON(body, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Framework == "" {
		s.writeError(w, r, newError(http.StatusBadRequest, "bad_request", `"framework" is required (pytorch, tensorflow or jax)`))
		return
	}
	for _, f := range []struct{ name, v string }{{"framework", req.Framework}, {"version", req.Version}, {"python", req.Python}, {"cuda", req.CUDA}, {"via", req.Via}} {
		if err := checkField(f.name, f.v, maxNameLen); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	if len(req.Targets) > maxTargets {
		s.writeError(w, r, newError(http.StatusBadRequest, "bad_request", "too many targets"))
		return
	}
	for _, t := range req.Targets {
		if err := checkField("target", t, maxNameLen); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	release, err := t.acquire(r.Context(), len(body))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := runBounded(r.Context(), s.workers, s.left, release, t.heavyAmongOthers, func(ctx context.Context) ([]byte, error) {
		return s.deps.Builder.Build(ctx, req)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/yaml")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}

// buildInfo answers GET /v1/build with what POST /v1/build builds: the
// frameworks, none where the server has no builder or its builder does not
// say.
func (s *server) buildInfo(w http.ResponseWriter, r *http.Request) {
	fws := []string{}
	if l, ok := s.deps.Builder.(FrameworkLister); ok {
		fws = append(fws, l.Frameworks()...)
	}
	writeJSON(w, http.StatusOK, map[string]any{"frameworks": fws})
}

type gpuUnavailable struct {
	Available bool   `json:"available"`
	Reason    string `json:"reason"`
}

// gpu answers GET /v1/gpu. No driver is a normal answer (200, available
// false); an NVML failure is counted and reported the same way, since the
// caller's question — can this node run GPU work? — has the same answer.
func (s *server) gpu(w http.ResponseWriter, r *http.Request) {
	v, err := s.probe(r.Context())
	if err != nil {
		if _, ok := err.(StatusCoder); ok {
			s.writeError(w, r, err)
			return
		}
		v = gpuUnavailable{Reason: "NVML: " + err.Error()}
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *server) probe(ctx context.Context) (any, error) {
	if s.deps.GPU == nil {
		return gpuUnavailable{Reason: "GPU probing is not enabled on this server"}, nil
	}
	v, err := s.deps.GPU.GPU(ctx)
	if err != nil {
		s.m.nvmlErrs.Inc()
		return nil, err
	}
	if v == nil {
		return gpuUnavailable{Reason: "the GPU probe returned nothing"}, nil
	}
	return v, nil
}

func (s *server) targets(w http.ResponseWriter, r *http.Request) {
	var v any = []any{}
	if s.deps.Targets != nil {
		if l := s.deps.Targets.List(); l != nil {
			v = l
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"targets": v})
}

func (s *server) rules(w http.ResponseWriter, r *http.Request) {
	var v any = []any{}
	if s.deps.Rules != nil {
		if l := s.deps.Rules.List(); l != nil {
			v = l
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"rules": v})
}

func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz is ready when the knowledge base is loaded. The GPU state is
// reported, not required: a CI instance without GPUs is ready too.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	if s.deps.Readiness != nil {
		if err := s.deps.Readiness.Ready(); err != nil {
			s.writeError(w, r, newError(http.StatusServiceUnavailable, "not_ready", err.Error()))
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	var gpu struct {
		Available bool   `json:"available"`
		Reason    string `json:"reason,omitempty"`
	}
	v, err := s.probe(ctx)
	if err != nil {
		gpu.Reason = "NVML: " + err.Error()
	} else if b, err := json.Marshal(v); err == nil {
		_ = json.Unmarshal(b, &gpu)
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ready", "gpu": gpu})
}

func (s *server) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(OpenAPI)
}
