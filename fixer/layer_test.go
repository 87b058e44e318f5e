package fixer

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The fixer sits after report/ in DESIGN.md's layers: it may use finding,
// envspec, lockfile and report (and the diff library), never the faces
// (api, service, cli) or the builder, so that every face can call it (a
// face passes the builder's pick in, Options.Pin).
func TestLayer(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{
		"github.com/envguard/envguard/envspec": true,
		"github.com/envguard/envguard/finding": true,
		// below report: the targets an edit is validated against, the
		// stack a pin reads and the knowledge base's distributions it names
		"github.com/envguard/envguard/gpucheck":    true,
		"github.com/envguard/envguard/resolver":    true,
		"github.com/envguard/envguard/resolver/kb": true,
		// a leaf that names file kinds in messages, importing nothing of envguard
		"github.com/envguard/envguard/internal/filekind": true,
		"github.com/envguard/envguard/lockfile":          true,
		"github.com/envguard/envguard/report":            true,
		"github.com/pmezard/go-difflib/difflib":          true,
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			if strings.Contains(p, ".") && !allowed[p] {
				t.Errorf("%s imports %s: the fixer may import only %v", f, p, allowed)
			}
		}
	}
}
