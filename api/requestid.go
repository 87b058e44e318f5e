package api

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"net/http"
	"sync/atomic"
)

// reqIDPrefix makes generated ids unique across restarts without naming the
// host (chi's own RequestID puts the host name in every id it sends back).
var (
	reqIDPrefix = func() string {
		var b [6]byte
		_, _ = rand.Read(b[:])
		return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])
	}()
	reqIDSeq atomic.Uint64
)

// requestIDHeader carries the service's request id out on every response,
// and a client's own id in.
const requestIDHeader = "X-Request-Id"

// A client's id is kept only when it is 8 to 128 of these characters: short
// ids collide with other clients' and with the service's own, and anything
// else could forge or break a log line.
const (
	minClientIDLen = 8
	maxClientIDLen = 128
)

type requestIDKey struct{}

type requestIDs struct {
	own    string // generated here, always
	client string // the client's X-Request-Id when well formed, else ""
}

// requestIDOf returns the id requestID gave r's context ("" outside it).
func requestIDOf(ctx context.Context) string {
	ids, _ := ctx.Value(requestIDKey{}).(*requestIDs)
	if ids == nil {
		return ""
	}
	return ids.own
}

// clientRequestIDOf returns the client's own, validated request id, or "".
func clientRequestIDOf(ctx context.Context) string {
	ids, _ := ctx.Value(requestIDKey{}).(*requestIDs)
	if ids == nil {
		return ""
	}
	return ids.client
}

// requestID gives every request an id of the service's own, sent back as
// X-Request-Id and logged as request_id (issue 22, N12: a client's
// X-Request-Id of one character was echoed and logged as the request's id,
// so that a client could choose, or collide with, the ids in the logs). A
// client's X-Request-Id is kept beside it, as client_request_id in the
// logs, and only when it is well formed (validClientID); it is never sent
// back.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ids := &requestIDs{own: fmt.Sprintf("%s-%06d", reqIDPrefix, reqIDSeq.Add(1))}
		if c := r.Header.Get(requestIDHeader); validClientID(c) {
			ids.client = c
		}
		ctx := context.WithValue(r.Context(), requestIDKey{}, ids)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// validClientID reports whether id matches [A-Za-z0-9._-]{8,128}.
func validClientID(id string) bool {
	if len(id) < minClientIDLen || len(id) > maxClientIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
