package api

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
)

// observe logs every request with its id and feeds the metrics; it wraps
// the recoverer so that a recovered panic is logged and counted as the 500
// it was answered with.
func (s *server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		// The id goes back to the client so that a report or an error can
		// be matched with the server's log.
		w.Header().Set(requestIDHeader, requestIDOf(r.Context()))
		ww := &statusWriter{ResponseWriter: w}
		defer func() {
			status := ww.status
			if status == 0 {
				status = http.StatusOK
			}
			if r.Context().Err() != nil {
				// The client went away before the answer was flushed (it is
				// sent once the handler returns): it got nothing, or part of
				// it, so this is not logged as what the handler chose.
				status = StatusClientClosed
			}
			route := "unmatched"
			if rc := chi.RouteContext(r.Context()); rc != nil && status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
				if p := rc.RoutePattern(); p != "" {
					route = p
				}
			}
			d := time.Since(start)
			s.m.request(route, methodLabel(r.Method), status, d.Seconds())
			attrs := []slog.Attr{slog.String("request_id", requestIDOf(r.Context()))}
			if c := clientRequestIDOf(r.Context()); c != "" {
				attrs = append(attrs, slog.String("client_request_id", c))
			}
			attrs = append(attrs, slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.String("route", route), slog.Int("status", status),
				slog.Int("bytes", ww.bytes), slog.Duration("duration", d))
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
		}()
		next.ServeHTTP(ww, r)
	})
}

// recoverer turns a panic into a logged stack and a JSON 500, where chi's
// own Recoverer would print to stderr and answer in plain text.
func (s *server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ww, ok := w.(*statusWriter)
		if !ok {
			ww = &statusWriter{ResponseWriter: w}
		}
		defer func() {
			rvr := recover()
			if rvr == nil {
				return
			}
			if rvr == http.ErrAbortHandler {
				// net/http's way to abort a response: let it do so.
				panic(rvr)
			}
			s.m.panics.Inc()
			id := requestIDOf(r.Context())
			stack := debug.Stack()
			if pv, ok := rvr.(*panicValue); ok {
				rvr, stack = pv.value, pv.stack
			}
			s.log.LogAttrs(r.Context(), slog.LevelError, "panic",
				slog.String("request_id", id), slog.String("path", r.URL.Path),
				slog.String("panic", fmt.Sprint(rvr)), slog.String("stack", string(stack)))
			if ww.status != 0 {
				// The status line is gone; nothing sensible can follow.
				return
			}
			e := newError(http.StatusInternalServerError, "internal", "internal error")
			e.RequestID = id
			writeJSON(ww, e.Status, errorBody{Error: e})
		}()
		next.ServeHTTP(ww, r)
	})
}

// getHead answers a HEAD request with the GET route of its path where no
// HEAD route is declared; net/http leaves the body out.
func getHead(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			rctx := chi.RouteContext(r.Context())
			path := rctx.RoutePath
			if path == "" {
				path = r.URL.Path
				if r.URL.RawPath != "" {
					path = r.URL.RawPath
				}
			}
			if !rctx.Routes.Match(chi.NewRouteContext(), http.MethodHead, path) {
				rctx.RouteMethod = http.MethodGet
				rctx.RoutePath = path
			}
		}
		next.ServeHTTP(w, r)
	})
}

// limitBody makes reading more than n bytes of a body fail with
// *http.MaxBytesError (answered 413).
func limitBody(n int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Body = http.MaxBytesReader(w, r.Body, n)
			next.ServeHTTP(w, r)
		})
	}
}

// timeout gives every request a deadline. Handlers map the deadline to a
// JSON 504 themselves; chi's Timeout would write a bare 504 after the
// handler returns, possibly over a response already started.
func timeout(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// requireToken checks Authorization: Bearer TOKEN. Both sides are hashed
// first so the comparison is constant-time whatever the lengths.
func (s *server) requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.authOn {
			next.ServeHTTP(w, r)
			return
		}
		auth := r.Header.Get("Authorization")
		const prefix = "bearer "
		ok := false
		if len(auth) > len(prefix) && strings.EqualFold(auth[:len(prefix)], prefix) && s.tokenErr == nil {
			got := sha256.Sum256([]byte(strings.TrimSpace(auth[len(prefix):])))
			ok = subtle.ConstantTimeCompare(got[:], s.token[:]) == 1
		}
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="envguard"`)
			s.writeError(w, r, newError(http.StatusUnauthorized, "unauthorized", "missing or wrong bearer token (Authorization: Bearer TOKEN)"))
			return
		}
		next.ServeHTTP(w, r)
	})
}
