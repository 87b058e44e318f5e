package api

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"html/template"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
)

// The web page (GET /) is plain HTML, CSS and JavaScript embedded in the
// binary: no build step, nothing fetched from elsewhere. It calls the same
// /v1 endpoints as any client, with the bearer token the user types in.
//
//go:embed web/index.html web/page.css web/page.js
var webFS embed.FS

// pageCSP lets a page load only its own files and talk only to its own
// server: no inline script or style, no framing, no form posts elsewhere.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; " +
	"connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// The page at / is served as one document: page.css and page.js are put
// inline when the binary starts, because two more requests cost the first
// load more than their bytes (a headless Chromium here spent 35-40 ms of a
// 100 ms budget fetching them from loopback). The policy admits exactly
// those two inline blocks by their SHA-256 and nothing else inline; the
// files stay on /assets/ for the rule pages.
// servedPage is worked out on the first request for it, not at start-up,
// which the CLI shares with the service.
var servedPage = sync.OnceValue(inlinePage)

type inlined struct {
	page      []byte
	csp, etag string
}

func inlinePage() inlined {
	assets := webAssets()
	html := string(assets["index.html"].body)
	css, js := string(assets["page.css"].body), string(assets["page.js"].body)
	const link, script = `<link rel="stylesheet" href="/assets/page.css">`, `<script src="/assets/page.js" defer></script>`
	if strings.Count(html, link) != 1 || strings.Count(html, script) != 1 || strings.Count(html, "</body>") != 1 ||
		strings.Contains(strings.ToLower(css), "</style") || strings.Contains(strings.ToLower(js), "</script") {
		panic("api: web/index.html cannot take page.css and page.js inline") // the embedded files are fixed at build time: TestPageServedWithItsFiles catches it
	}
	// The script moves to the end of the body, where the document it
	// works on is parsed, as defer promised.
	html = strings.Replace(html, link, "<style>"+css+"</style>", 1)
	html = strings.Replace(html, script+"\n", "", 1)
	html = strings.Replace(html, script, "", 1)
	html = strings.Replace(html, "</body>", "<script>"+js+"</script>\n</body>", 1)
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	csp := strings.Replace(pageCSP, "script-src 'self'", "script-src "+hash(js), 1)
	csp = strings.Replace(csp, "style-src 'self'", "style-src 'self' "+hash(css), 1)
	sum := sha256.Sum256([]byte(html))
	return inlined{page: []byte(html), csp: csp, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// webAsset is one embedded file with its content type and ETag, worked
// out once.
type webAsset struct {
	body  []byte
	ctype string
	etag  string
}

// webAssets are read and hashed on first use: the CLI links this package
// too, and a process that never serves the page should not pay for it.
var webAssets = sync.OnceValue(loadWebAssets)

// WebPageFiles are the files of the page, as served: the page's weight is
// their sum (a test keeps it under 50 KiB).
var WebPageFiles = []string{"index.html", "page.css", "page.js"}

func loadWebAssets() map[string]webAsset {
	types := map[string]string{
		"index.html": "text/html; charset=utf-8",
		"page.css":   "text/css; charset=utf-8",
		"page.js":    "text/javascript; charset=utf-8",
	}
	out := map[string]webAsset{}
	for _, name := range WebPageFiles {
		b, err := webFS.ReadFile("web/" + name)
		if err != nil {
			panic("api: embedded web page file missing: " + err.Error()) // caught by every test
		}
		sum := sha256.Sum256(b)
		out[name] = webAsset{body: b, ctype: types[name], etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
	return out
}

// pageHeaders are the security headers of everything the page is made of.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
}

// serveAsset answers with one embedded file. Clients revalidate (no-cache)
// and get a 304 by ETag, so a new binary's page is never mixed with an old
// script.
func serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	a := webAssets()[name]
	pageHeaders(w)
	w.Header().Set("Content-Type", a.ctype)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", a.etag)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(a.body))
}

func (s *server) page(w http.ResponseWriter, r *http.Request) {
	pageHeaders(w)
	h := w.Header()
	p := servedPage()
	h.Set("Content-Security-Policy", p.csp)
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", p.etag)
	http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(p.page))
}

func (s *server) asset(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "file")
	if name != "page.css" && name != "page.js" {
		s.notFound(w, r)
		return
	}
	serveAsset(w, r, name)
}

// ruleDoc answers GET /rules/CODE with the rule's documentation as a page
// of its own, HTML-escaped by html/template. An unknown code is a 404 page
// that links back, since a person followed a link to get here.
func (s *server) ruleDoc(w http.ResponseWriter, r *http.Request) {
	code := strings.ToUpper(chi.URLParam(r, "code"))
	var doc RuleDoc
	found := false
	if isRuleCode(code) && s.deps.RuleDocs != nil {
		doc, found = s.deps.RuleDocs.RuleDoc(code)
	}
	pageHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b bytes.Buffer
	var err error
	if found {
		err = ruleTmpl().ExecuteTemplate(&b, "rule", doc)
	} else {
		err = ruleTmpl().ExecuteTemplate(&b, "missing", chi.URLParam(r, "code"))
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if found {
		w.WriteHeader(http.StatusOK)
	} else {
		w.WriteHeader(http.StatusNotFound)
	}
	_, _ = w.Write(b.Bytes())
}

// paragraphs splits a documentation text at blank lines.
func paragraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(strings.TrimSpace(s), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ruleTmpl is parsed on the first rule page, not when the binary starts.
var ruleTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"paragraphs": paragraphs,
		"lower":      strings.ToLower,
		"trimEnd":    func(s string) string { return strings.TrimRight(s, "\n") },
	}).Parse(`{{define "head"}}<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{{.}} · envguard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/page.css">
</head>
<body class="doc">
<header class="top"><a class="brand" href="/">envguard</a><span class="tagline">rule documentation</span></header>
<main id="main">{{end}}
{{define "foot"}}</main>
</body>
</html>
{{end}}
{{define "rule"}}{{template "head" (printf "%s %s" .Code .Title)}}
<article class="rule" id="rule-{{.Code}}">
<h1><code>{{.Code}}</code> {{.Title}}</h1>
<p class="meta"><code>{{.Name}}</code> · severity <span class="sev sev-{{lower .Severity}}">{{.Severity}}</span> · since {{.Since}}</p>
{{range .Sections}}<section>
<h2>{{.Heading}}</h2>
{{if .Example}}<pre class="example"><code>{{trimEnd .Body}}</code></pre>{{else}}{{range paragraphs .Body}}<p>{{.}}</p>
{{end}}{{end}}</section>
{{end}}<section>
<h2>Silence it</h2>
<p>Add a trailing comment with a reason to the item's line: <code># envguard: ignore {{.Code}} &lt;reason&gt;</code>. Change its severity for a project in <code>.envguard.yml</code>: <code>rules: {{"{"}}{{.Code}}: off{{"}"}}</code>.</p>
</section>
</article>
<p><a href="/">Back to the page</a></p>
{{template "foot"}}{{end}}
{{define "missing"}}{{template "head" "No such rule"}}
<h1>No rule {{.}}</h1>
<p>Rule codes look like <code>EG201</code>; <code>envguard rules</code> lists them.</p>
<p><a href="/">Back to the page</a></p>
{{template "foot"}}{{end}}`))
})
