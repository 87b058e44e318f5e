package service

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/resolver/kb"
)

// TestKnowledgeSwap: with Options.Knowledge each request asks for the KB
// when it starts, so a KB stored by serve --kb-refresh is used by the next
// request and readiness follows it.
func TestKnowledgeSwap(t *testing.T) {
	var cur atomic.Pointer[kb.KB]
	cur.Store(&kb.KB{}) // an empty KB: not ready
	d := Deps(Options{Knowledge: cur.Load})
	if err := d.Readiness.Ready(); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Fatalf("empty KB: %v", err)
	}
	cur.Store(kb.Default())
	if err := d.Readiness.Ready(); err != nil {
		t.Fatalf("after the swap: %v", err)
	}
	b, err := d.Validator.Validate(context.Background(), api.ValidateRequest{File: "environment.yml", Body: []byte("dependencies:\n  - pytorch=2.3.0\n")})
	if err != nil || !strings.Contains(string(b), "pytorch") {
		t.Fatalf("validate: %v %s", err, b)
	}
}
