package api

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"net/http"
	"sync/atomic"
)

// maxRequestIDLen bounds a client's X-Request-Id: it is logged and sent
// back on every response.
const maxRequestIDLen = 64

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

// requestIDHeader carries a client's request id in and every id back out.
const requestIDHeader = "X-Request-Id"

type requestIDKey struct{}

// requestIDOf returns the id requestID gave r's context ("" outside it).
func requestIDOf(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// requestID puts the request id where requestIDOf finds it: the
// client's X-Request-Id when it is well formed (1 to 64 characters of
// letters, digits and . _ : -), else a generated one. A malformed id is
// replaced, never echoed: it would go into logs and headers as sent.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(requestIDHeader)
		if !validRequestID(id) {
			id = fmt.Sprintf("%s-%06d", reqIDPrefix, reqIDSeq.Add(1))
		}
		ctx := context.WithValue(r.Context(), requestIDKey{}, id)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}
