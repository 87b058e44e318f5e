package service_test

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/service"
)

// GET /rules/CODE shows every rule of the catalogue from its definition:
// each section `envguard rules CODE` prints is on the page, in order.
func TestRuleDocPagesCoverTheCatalog(t *testing.T) {
	deps := service.Deps(service.Options{})
	srv := httptest.NewServer(api.NewRouter(deps, api.Config{Logger: slog.New(slog.DiscardHandler)}))
	defer srv.Close()
	for _, r := range report.Catalog() {
		doc, ok := deps.RuleDocs.RuleDoc(r.Code)
		if !ok || doc.Code != r.Code || doc.Title != r.Title || doc.Severity != r.Severity.String() {
			t.Fatalf("RuleDoc(%s) = %+v, %v", r.Code, doc, ok)
		}
		resp, err := srv.Client().Get(srv.URL + "/rules/" + r.Code)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(b)
		if resp.StatusCode != 200 {
			t.Fatalf("GET /rules/%s → %d", r.Code, resp.StatusCode)
		}
		at := 0
		secs := r.Sections()
		if len(secs) == 0 {
			t.Errorf("%s has no documentation sections", r.Code)
		}
		for _, s := range secs {
			i := strings.Index(page[at:], "<h2>"+s.Heading+"</h2>")
			if i < 0 {
				t.Errorf("/rules/%s lacks section %q after byte %d", r.Code, s.Heading, at)
				continue
			}
			at += i
		}
	}
	if _, ok := deps.RuleDocs.RuleDoc("EG999"); ok {
		t.Error("RuleDoc(EG999) found a rule")
	}
}
