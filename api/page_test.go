package api

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// The response checker decodes bodies by media type; the page's are text.
func init() {
	for _, ct := range []string{"text/html", "text/css", "text/javascript"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
	}
}

func TestPageServedWithItsFiles(t *testing.T) {
	ts := newTestServerWith(t, Deps{}, Config{})
	resp, body := ts.do("GET", "/", "", nil)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / → %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// The page comes as one document: page.css and page.js inline, each
	// admitted by the policy through its hash and nothing else inline.
	csp := resp.Header.Get("Content-Security-Policy")
	hash := func(name string) string {
		sum := sha256.Sum256(webAssets()[name].body)
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	for _, want := range []string{"default-src 'none'", "script-src " + hash("page.js") + ";", "style-src 'self' " + hash("page.css") + ";",
		"connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("Content-Security-Policy allows unsafe sources: %q", csp)
	}
	page := string(body)
	if !strings.Contains(page, "<style>"+string(webAssets()["page.css"].body)+"</style>") ||
		!strings.Contains(page, "<script>"+string(webAssets()["page.js"].body)+"</script>\n</body>") {
		t.Error("the page does not carry page.css in its head and page.js at the end of its body")
	}
	if strings.Contains(page, "/assets/page.") || strings.Count(page, "<script") != 1 || strings.Count(page, "<style") != 1 {
		t.Error("the page still loads its files, or has other inline blocks")
	}
	if etag := resp.Header.Get("ETag"); etag == "" {
		t.Error("the page has no ETag")
	} else if resp, _ := ts.do("GET", "/", "", nil, "If-None-Match", etag); resp.StatusCode != http.StatusNotModified {
		t.Errorf("GET / with If-None-Match %s → %d, want 304", etag, resp.StatusCode)
	}
	for path, ctype := range map[string]string{"/assets/page.css": "text/css", "/assets/page.js": "text/javascript"} {
		resp, b := ts.do("GET", path, "", nil)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), ctype) || len(b) == 0 {
			t.Fatalf("GET %s → %d %q, %d bytes", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(b))
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s lacks the security headers", path)
		}
		etag := resp.Header.Get("ETag")
		if resp, _ := ts.do("GET", path, "", nil, "If-None-Match", etag); resp.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s with If-None-Match %s → %d, want 304", path, etag, resp.StatusCode)
		}
	}
	for _, path := range []string{"/assets/index.html", "/assets/nope.js", "/assets/..%2fpage.go"} {
		if resp, b := ts.do("GET", path, "", nil); resp.StatusCode != 404 || decodeError(t, b).Code != "not_found" {
			t.Errorf("GET %s → %d %s, want a JSON 404", path, resp.StatusCode, b)
		}
	}
}

// The Content-Security-Policy admits only the two blocks the server puts
// inline (by their hashes), so the source page must have no other: a
// handler attribute or a style attribute would silently do nothing in the
// browser.
func TestPageHasNothingInlineOrRemote(t *testing.T) {
	html := string(webAssets()["index.html"].body)
	for _, re := range []string{`<script(?:\s[^>]*)?>\s*[^<\s]`, `\son[a-z]+\s*=`, `\sstyle\s*=`, `<style`} {
		if m := regexp.MustCompile(re).FindString(html); m != "" {
			t.Errorf("index.html has inline code or style: %q", m)
		}
	}
	if n, m := strings.Count(html, "<script"), strings.Count(html, `<script src="/assets/page.js" defer></script>`); n != m || n != 1 {
		t.Errorf("index.html has %d script tags, want exactly the one that loads /assets/page.js", n)
	}
	for _, name := range WebPageFiles {
		b := string(webAssets()[name].body)
		if m := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/`).FindString(b); m != "" {
			t.Errorf("%s refers to another server (%q): the page must load nothing from elsewhere", name, m)
		}
		if strings.Contains(b, "innerHTML") || strings.Contains(b, "insertAdjacentHTML") || strings.Contains(b, "document.write") {
			t.Errorf("%s parses strings as HTML; findings carry user text, so set text only", name)
		}
	}
}

// TestPageWeight: the issue bounds the page, HTML, CSS and JavaScript
// together, to under 50 KiB (the e2e test measures what the browser loads).
func TestPageWeight(t *testing.T) {
	total := 0
	for _, name := range WebPageFiles {
		n := len(webAssets()[name].body)
		disk, err := os.ReadFile(filepath.Join("web", name))
		if err != nil || len(disk) != n {
			t.Fatalf("web/%s: the embedded copy (%d bytes) differs from the file (%v)", name, n, err)
		}
		t.Logf("%-10s %6d bytes", name, n)
		total += n
	}
	t.Logf("total      %6d bytes (%.1f KiB of 50)", total, float64(total)/1024)
	if total >= 50<<10 {
		t.Errorf("the page weighs %d bytes, want under 50 KiB", total)
	}
}

// Behind a token the page and the rules stay reachable (a person must
// reach the page to type the token); the API it calls does not.
func TestPageOpenBehindToken(t *testing.T) {
	tok := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tok, []byte("sekrit"), 0o600); err != nil {
		t.Fatal(err)
	}
	ts := newTestServerWith(t, Deps{RuleDocs: RuleDocFunc(func(code string) (RuleDoc, bool) {
		return RuleDoc{Code: code, Title: "t"}, true
	})}, Config{TokenFile: tok})
	for _, path := range []string{"/", "/assets/page.js", "/assets/page.css", "/rules/EG201"} {
		if resp, _ := ts.do("GET", path, "", nil); resp.StatusCode != 200 {
			t.Errorf("GET %s behind a token → %d, want 200", path, resp.StatusCode)
		}
	}
	if resp, _ := ts.do("GET", "/v1/targets", "", nil); resp.StatusCode != 401 {
		t.Errorf("GET /v1/targets without the token → %d, want 401", resp.StatusCode)
	}
	if resp, _ := ts.do("GET", "/v1/targets", "", nil, "Authorization", "Bearer sekrit"); resp.StatusCode != 200 {
		t.Errorf("GET /v1/targets with the token → %d, want 200", resp.StatusCode)
	}
}

func TestRuleDocPage(t *testing.T) {
	var asked []string
	docs := RuleDocFunc(func(code string) (RuleDoc, bool) {
		asked = append(asked, code)
		if code != "EG201" {
			return RuleDoc{}, false
		}
		return RuleDoc{Code: "EG201", Name: "cuda-version-mismatch", Severity: "error", Title: "two <sources> disagree", Since: "0.1.0",
			Sections: []RuleSection{
				{Heading: "Why it matters", Body: "first <b>para</b>\n\nsecond para"},
				{Heading: "Fires on", Body: "dependencies:\n  - a<script>alert(1)</script>\n", Example: true},
			}}, true
	})
	ts := newTestServerWith(t, Deps{RuleDocs: docs}, Config{})
	resp, b := ts.do("GET", "/rules/eg201", "", nil)
	page := string(b)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /rules/eg201 → %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Error("the rule page lacks the Content-Security-Policy")
	}
	for _, want := range []string{
		"<code>EG201</code> two &lt;sources&gt; disagree",
		"<h2>Why it matters</h2>", "<p>first &lt;b&gt;para&lt;/b&gt;</p>", "<p>second para</p>",
		"<h2>Fires on</h2>", "a&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>",
		"# envguard: ignore EG201 &lt;reason&gt;", `href="/"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the rule page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, "<b>") {
		t.Errorf("the rule page lets markup through:\n%s", page)
	}
	for _, path := range []string{"/rules/EG999", "/rules/nonsense", "/rules/EG201x"} {
		resp, b := ts.do("GET", path, "", nil)
		if resp.StatusCode != 404 || !strings.Contains(string(b), "No rule") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s → %d %q, want the HTML 404 page", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	if strings.Join(asked, ",") != "EG201,EG999" {
		t.Errorf("RuleDocs asked for %v; only well-formed codes, upper-cased, should reach it", asked)
	}
	// The code in the 404 page is escaped too.
	if _, b := ts.do("GET", "/rules/%3Cb%3Ex", "", nil); strings.Contains(string(b), "<b>x") {
		t.Errorf("the 404 page lets markup through: %s", b)
	}
	// Without rule documentation every code is a 404 page.
	ts2 := newTestServerWith(t, Deps{}, Config{})
	if resp, _ := ts2.do("GET", "/rules/EG201", "", nil); resp.StatusCode != 404 {
		t.Errorf("GET /rules/EG201 with no RuleDocs → %d, want 404", resp.StatusCode)
	}
}
