package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
)

// StatusCoder is what an error of the pipeline implements to choose its
// HTTP status and machine-readable code (unknown target → 400
// "unknown_target", unreadable YAML → 400 "bad_yaml"). Errors that do not
// implement it are internal: 500, and their text is logged, not sent.
type StatusCoder interface {
	StatusCode() int
	ErrorCode() string
}

// Liner is implemented by errors that point at a line of the input.
type Liner interface{ Line() int }

// Error is the service's error, and the one JSON shape every error takes:
// {"error": {"status": 400, "code": "bad_yaml", "message": "...", "line": 3}}.
// The pipeline may return it directly.
type Error struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Line is the 1-based line of the input the error is about; 0 = none.
	Line int `json:"line,omitempty"`
	// RequestID lets a client quote the request to an operator (500s).
	RequestID string `json:"request_id,omitempty"`
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return "line " + strconv.Itoa(e.Line) + ": " + e.Message
	}
	return e.Message
}

// StatusCode implements StatusCoder.
func (e *Error) StatusCode() int { return e.Status }

// ErrorCode implements StatusCoder.
func (e *Error) ErrorCode() string { return e.Code }

type errorBody struct {
	Error *Error `json:"error"`
}

// StatusClientClosed is the status logged for a request whose client went
// away before the answer (nginx's 499).
const StatusClientClosed = 499

func newError(status int, code, msg string) *Error {
	return &Error{Status: status, Code: code, Message: msg}
}

// toError maps any error to the one shape. Status codes outside 400–599 are
// a bug of the caller and become 500, so a pipeline error can never turn
// into a success.
func toError(err error) *Error {
	var sc StatusCoder
	switch {
	case errors.As(err, &sc):
		e := &Error{Status: sc.StatusCode(), Code: sc.ErrorCode(), Message: err.Error()}
		if ae, ok := sc.(*Error); ok {
			e.Message = ae.Message
			e.Line = ae.Line
		}
		var l Liner
		if e.Line == 0 && errors.As(err, &l) {
			e.Line = l.Line()
		}
		if e.Status < 400 || e.Status > 599 {
			e.Status = http.StatusInternalServerError
		}
		if e.Code == "" {
			e.Code = codeForStatus(e.Status)
		}
		return e
	case errors.Is(err, context.DeadlineExceeded):
		return newError(http.StatusGatewayTimeout, "timeout", "the request took longer than the server allows")
	case errors.Is(err, context.Canceled):
		// The request's context ends early only when its client went away:
		// nobody reads this answer, but the logs and metrics record 499
		// (nginx's "client closed request"), not a server failure.
		return newError(StatusClientClosed, "client_closed", "the client closed the request before it was answered")
	}
	return newError(http.StatusInternalServerError, "internal", "internal error")
}

func codeForStatus(status int) string {
	switch status {
	case 400:
		return "bad_request"
	case 401:
		return "unauthorized"
	case 404:
		return "not_found"
	case 405:
		return "method_not_allowed"
	case 413:
		return "body_too_large"
	case 415:
		return "unsupported_media_type"
	case 429:
		return "too_many_requests"
	case 501:
		return "not_implemented"
	case 503:
		return "unavailable"
	case 504:
		return "timeout"
	}
	if status >= 500 {
		return "internal"
	}
	return "bad_request"
}

// writeError is the single place errors become responses. 5xx messages from
// errors that did not choose them are replaced, and the original is logged
// with the request id, so internals never leak to clients.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := toError(err)
	if e.Status >= 500 {
		e.RequestID = requestIDOf(r.Context())
		// Load shedding and deadlines are the service protecting itself,
		// not failing: WARN. Only other 5xx are errors.
		level := slog.LevelError
		if e.Status == http.StatusServiceUnavailable || e.Status == http.StatusGatewayTimeout {
			level = slog.LevelWarn
		}
		s.log.LogAttrs(r.Context(), level, "request failed",
			slog.String("request_id", e.RequestID), slog.String("path", r.URL.Path),
			slog.Int("status", e.Status), slog.String("error", err.Error()))
	}
	if e.Status == http.StatusServiceUnavailable || e.Status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, e.Status, errorBody{Error: e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// A value a dependency returned that cannot be marshalled is a
		// server bug; say so in the one shape rather than send half a body.
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{Error: newError(status, "internal", "response could not be encoded")})
	}
	writeRawJSON(w, status, append(b, '\n'))
}

// writeRawJSON sends b unchanged: the report must be byte for byte what the
// CLI prints.
func writeRawJSON(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
