package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
	"github.com/envguard/envguard/service"
)

// fleetFile is the fleet the page picks from, README's demo fleet: a
// machine the seed environment runs on (a100-pool), and one whose driver
// is too old for its CUDA 11.6 runtime (old-k80).
const fleetFile = "../testdata/demo/fleet.yml"

// newServer serves the real router over the real pipeline, as `envguard
// serve --targets fleet.yml` does (with no GPU probe: local is not offered).
func newServer(t *testing.T, cfg api.Config) *httptest.Server {
	return newServerGPU(t, cfg, false)
}

// newServerGPU is newServer whose GPU probe, when gpu is set, reports a
// driver, so that the page offers local.
func newServerGPU(t *testing.T, cfg api.Config, gpu bool) *httptest.Server {
	t.Helper()
	fleet, err := os.ReadFile(fleetFile)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := gpucheck.ParseTargets(fleetFile, fleet)
	if err != nil {
		t.Fatal(err)
	}
	return serveTargets(t, cfg, gpu, ts)
}

// serveTargets serves the real router over the real pipeline with the
// machines ts (none: a server started without --targets).
func serveTargets(t *testing.T, cfg api.Config, gpu bool, ts []gpucheck.Target) *httptest.Server {
	t.Helper()
	k := kb.Default()
	deps := service.Deps(service.Options{KB: k, Machines: &report.Machines{KB: k, Targets: ts}})
	if gpu {
		deps.GPU = api.GPUProbeFunc(func(context.Context) (any, error) {
			return map[string]any{"available": true, "driver": "580.95.05", "gpus": []any{}}, nil
		})
	}
	cfg.Logger = slog.New(slog.DiscardHandler)
	srv := httptest.NewServer(api.NewRouter(deps, cfg))
	t.Cleanup(srv.Close)
	return srv
}

// chromium finds the browser, or skips (fails where CI requires it).
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ENVGUARD_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium on PATH (install it with .ci/install-chromium, or set ENVGUARD_CHROMIUM): the web page's end-to-end test did not run"
	if os.Getenv("ENVGUARD_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// browser starts a headless Chromium for one test.
func browser(t *testing.T, flags ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.WindowSize(1360, 1000),
		chromedp.Flag("force-color-profile", "srgb"),
	)
	opts = append(opts, flags...)
	if os.Geteuid() == 0 {
		// Chromium refuses to start its sandbox as root (CI runs as root).
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelCtx(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", chromium(t), err)
	}
	return ctx
}

// artifacts is where screenshots go.
func artifacts(t *testing.T) string {
	dir := os.Getenv("ENVGUARD_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

type action = chromedp.Action[chromedp.Void]

func run(t *testing.T, ctx context.Context, what string, actions ...action) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// waitFor polls a JavaScript expression until it is truthy. A navigation
// (a followed link) destroys the page's JavaScript context under the poll;
// it then polls the new page.
func waitFor(expr string) action {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		deadline := time.Now().Add(30 * time.Second)
		for {
			_, err := chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(time.Until(deadline)))(ctx, t)
			// A poll that runs while the page navigates loses its
			// document: "execution context was destroyed", or "Inspected
			// target navigated or closed" (-32000) when the navigation
			// wins the race. Both mean "ask the new document again".
			navigating := err != nil && (strings.Contains(err.Error(), "context") || strings.Contains(err.Error(), "navigated or closed"))
			if !navigating || time.Now().After(deadline) || ctx.Err() != nil {
				return err
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// clickToNavigate clicks a link. The click's own last protocol call can
// lose the race with the navigation it starts ("Inspected target navigated
// or closed", -32000): the click then did what it was for, and the waitFor
// after it checks where the page went.
func clickToNavigate(sel string) action {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Click(chromedp.CSS(sel))(ctx, t)
		if err != nil && strings.Contains(err.Error(), "navigated or closed") {
			return nil
		}
		return err
	})
}

// send is an action that sends one protocol command.
func send[P, R any](c cdp.Command[P, R], params P) action {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, c, params)
		return err
	})
}

func insertText(s string) action { return send(input.InsertText, input.InsertTextParams{Text: s}) }

func colorScheme(s string) action {
	return send(emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}}})
}

func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	// Right after a navigation the new document may not be laid out yet,
	// and a screenshot of it then fails on a width of 0 (seen once in
	// .ci/run's race run, after following a rule link): wait for layout.
	run(t, ctx, "lay out "+name, waitFor(`document.readyState === 'complete' && document.documentElement.scrollWidth > 0`))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", p, len(png))
}

// TestPage drives the page as a person would: paste the seed environment,
// press Validate, read the finding on its line and the name, pick machines,
// reopen the link, follow a rule link, build an environment.
func TestPage(t *testing.T) {
	ctx := browser(t)
	srv := newServer(t, api.Config{})
	dir := artifacts(t)
	seed, err := os.ReadFile("../testdata/demo/environment.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(seed), "cudatoolkit=11.3") {
		t.Fatal("the seed environment no longer pins cudatoolkit=11.3")
	}

	run(t, ctx, "open the page",
		chromedp.Navigate(srv.URL+"/"),
		waitFor(`document.querySelector('#targets input[value="old-k80"]')`),
		// Validate by the button, not as-you-type, so the button is what is tested.
		chromedp.Click(chromedp.CSS(`#live`)),
		chromedp.Focus(chromedp.CSS(`#env`)),
		insertText(string(seed)),
	)
	if n := js[int](t, ctx, `document.querySelectorAll('#findings li').length`); n != 0 {
		t.Fatalf("%d findings shown before Validate was pressed", n)
	}
	run(t, ctx, "press Validate",
		chromedp.Click(chromedp.CSS(`#validate`)),
		waitFor(`document.querySelector('#findings li[data-code="EG201"]')`),
	)
	if line := js[string](t, ctx, `document.querySelector('#findings li[data-code="EG201"]').dataset.line`); line != "8" {
		t.Errorf("EG201 is listed on line %q, want 8", line)
	}
	if got := js[string](t, ctx, `document.querySelector('#findings li[data-code="EG201"] button.goto').textContent`); got != "line 8:24" {
		t.Errorf("EG201's position reads %q, want line 8:24", got)
	}
	// On the line itself: the gutter mark and the underlined span.
	gutter := js[map[string]string](t, ctx, `(() => { const g = document.querySelector('#gutter .ln[data-line="8"]');
		return {cls: g.className, codes: g.dataset.codes || '', mark: g.querySelector('.mark') ? g.querySelector('.mark').textContent : ''}; })()`)
	if !strings.Contains(gutter["cls"], "sev-error") || !strings.Contains(gutter["codes"], "EG201") || gutter["mark"] == "" {
		t.Errorf("gutter of line 8 = %v, want an error mark for EG201", gutter)
	}
	if u := js[string](t, ctx, `[...document.querySelectorAll('#backdrop .bl[data-line="8"] .u.sev-error')].map(e => e.textContent).join('|')`); u != "=11.3" {
		t.Errorf("underlined on line 8: %q, want =11.3 (columns 24-28)", u)
	}
	if name := js[string](t, ctx, `document.getElementById('canonical').textContent`); name != "pt113_cu116" {
		t.Errorf("canonical name shown: %q, want pt113_cu116", name)
	}
	if stack := js[string](t, ctx, `document.getElementById('stack').textContent`); !strings.Contains(stack, "pytorch 1.13.1") || !strings.Contains(stack, "11.6") || !strings.Contains(stack, "cupy-cuda12x") {
		t.Errorf("resolved stack shown: %q, want pytorch 1.13.1, CUDA 11.6 and cupy-cuda12x", stack)
	}

	// Pick machines: each gets its verdict, with the reason.
	run(t, ctx, "pick the machines",
		chromedp.Click(chromedp.CSS(`#targets input[value="old-k80"]`)),
		waitFor(`document.querySelector('#verdicts li[data-target="old-k80"]')`),
		chromedp.Click(chromedp.CSS(`#targets input[value="a100-pool"]`)),
		waitFor(`document.querySelector('#verdicts li[data-target="a100-pool"]')`),
	)
	verdicts := js[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('#verdicts li[data-target]')].map(l => [l.dataset.target, l.dataset.verdict + ': ' + l.textContent]))`)
	if v := verdicts["old-k80"]; !strings.HasPrefix(v, "fail: ") || !strings.Contains(v, "EG401") || !strings.Contains(v, "418.87.01") {
		t.Errorf("verdict of old-k80: %q, want fail with EG401 naming driver 418.87.01", v)
	}
	// The framework runs on the A100, but the demo's cupy-cuda12x is
	// unpinned: no GPU extension the knowledge base cannot vouch for is ok.
	if v := verdicts["a100-pool"]; !strings.HasPrefix(v, "unknown: ") || !strings.Contains(v, "EG409") || !strings.Contains(v, "cupy-cuda12x") {
		t.Errorf("verdict of a100-pool: %q, want unknown with the EG409 naming cupy-cuda12x", v)
	}
	screenshot(t, ctx, dir, "page-light.png")
	// What a person sees first: README's docs/web-page.png, which
	// ENVGUARD_UPDATE_SCREENSHOT=1 writes (issue 27, point 6).
	if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err != nil {
		t.Fatalf("screenshot: %v", err)
	} else if err := os.WriteFile(filepath.Join(dir, "page-viewport.png"), png, 0o644); err != nil {
		t.Fatal(err)
	} else if os.Getenv("ENVGUARD_UPDATE_SCREENSHOT") == "1" {
		if err := os.WriteFile("../docs/web-page.png", png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote ../docs/web-page.png (%d bytes)", len(png))
	}

	// The link carries the file and the machines: a fresh load of it shows
	// the same result.
	link := js[string](t, ctx, `location.href`)
	if !strings.Contains(link, "target=old-k80") || !strings.Contains(link, "env=") {
		t.Fatalf("the link does not carry the state: %s", link)
	}
	run(t, ctx, "reopen the link",
		chromedp.Navigate("about:blank"),
		chromedp.Navigate(link),
		waitFor(`document.querySelector('#verdicts li[data-target="old-k80"][data-verdict="fail"]') && document.querySelector('#findings li[data-code="EG201"][data-line="8"]')`),
	)
	if env := js[string](t, ctx, `document.getElementById('env').value`); env != string(seed) {
		t.Errorf("the link restored a different file:\n%s", env)
	}

	// Dark mode follows the system; both schemes meet WCAG AA.
	checkContrast(t, ctx, "light")
	run(t, ctx, "dark mode", colorScheme("dark"))
	checkContrast(t, ctx, "dark")
	screenshot(t, ctx, dir, "page-dark.png")
	run(t, ctx, "light mode", colorScheme("light"))

	// On a phone's width nothing runs off the side.
	run(t, ctx, "narrow window", chromedp.EmulateViewport(400, 900), waitFor(`innerWidth === 400`))
	if w := js[int](t, ctx, `document.documentElement.scrollWidth`); w > 400 {
		t.Errorf("at 400 px wide the page is %d px wide", w)
	}
	run(t, ctx, "wide window", chromedp.ResetViewport())

	// Keyboard: the line button of a finding puts the caret on that line.
	run(t, ctx, "go to line 8 by keyboard",
		chromedp.Focus(chromedp.CSS(`#findings li[data-code="EG201"] button.goto`)),
		chromedp.KeyEvent("\r"),
	)
	if line := js[int](t, ctx, `(() => { const e = document.getElementById('env'); return document.activeElement === e ? e.value.slice(0, e.selectionStart).split('\n').length : -1; })()`); line != 8 {
		t.Errorf("after the line button the caret is on line %d of the editor, want 8", line)
	}

	// A rule link opens that rule's documentation.
	run(t, ctx, "follow the EG201 link",
		clickToNavigate(`#findings li[data-code="EG201"] a.code`),
		waitFor(`location.pathname === '/rules/EG201' && document.querySelector('h1')`),
	)
	h1 := js[string](t, ctx, `document.querySelector('h1').textContent`)
	if !strings.Contains(h1, "EG201") || !strings.Contains(h1, "CUDA") {
		t.Errorf("rule page heading: %q", h1)
	}
	screenshot(t, ctx, dir, "rule-EG201.png")

	// Build: the form calls /v1/build and shows the environment.
	run(t, ctx, "build an environment",
		chromedp.Navigate(srv.URL+"/"),
		waitFor(`document.querySelector('#b-target option[value="a100-pool"]')`),
		chromedp.SetValue(chromedp.CSS(`#b-version`), "2.1"),
		chromedp.SetValue(chromedp.CSS(`#b-target`), "a100-pool"),
		chromedp.Click(chromedp.CSS(`#build-form button[type=submit]`)),
		waitFor(`!document.getElementById('build-out').hidden || document.getElementById('build-status').classList.contains('bad')`),
	)
	built := js[string](t, ctx, `document.getElementById('built').textContent || document.getElementById('build-status').textContent`)
	if !strings.Contains(built, "dependencies:") || !strings.Contains(built, "2.1") {
		t.Fatalf("built environment: %q", built)
	}
	run(t, ctx, "validate the built environment",
		chromedp.Click(chromedp.CSS(`#use-built`)),
		waitFor(`document.getElementById('canonical') && document.getElementById('canonical').textContent.startsWith('pt21_')`),
	)
	if errs := js[int](t, ctx, `document.querySelectorAll('#findings li.sev-error').length`); errs != 0 {
		t.Errorf("the built environment shows %d errors", errs)
	}
}

// checkContrast measures the text of the page's main elements against
// their effective background: WCAG AA asks 4.5:1 for normal text.
func checkContrast(t *testing.T, ctx context.Context, scheme string) {
	t.Helper()
	const expr = `(() => {
	  const rgb = (s) => { const m = s.match(/[\d.]+/g); return m ? m.map(Number) : null; };
	  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
	    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
	  const bg = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c && (c.length < 4 || c[3] === 1)) return c; }
	    return rgb(getComputedStyle(document.documentElement).backgroundColor) || [255, 255, 255]; };
	  const sel = ['body', '.tagline', '.muted', 'label', 'legend', 'h2', '.gutter .ln', '#env', '.sev', 'a', '.finding .msg', '.hint',
	    '.badge', '.vname', '.host', 'dl.stack dt', 'dl.stack dd', 'th', 'td', 'button', 'button.primary', '#status'];
	  const bad = [];
	  let n = 0;
	  for (const s of sel) for (const e of document.querySelectorAll(s)) {
	    if (!e.offsetParent && e !== document.body) continue;
	    const fg = rgb(getComputedStyle(e).color), b = bg(e);
	    const l1 = lum(fg), l2 = lum(b), r = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
	    n++;
	    if (r < 4.5) bad.push(s + ' "' + (e.textContent || '').trim().slice(0, 30) + '" ' + r.toFixed(2) + ':1 (' + getComputedStyle(e).color + ' on rgb(' + b.join(',') + '))');
	  }
	  return {n, bad};
	})()`
	res := js[struct {
		N   int      `json:"n"`
		Bad []string `json:"bad"`
	}](t, ctx, expr)
	if res.N < 30 {
		t.Errorf("%s: only %d elements measured for contrast", scheme, res.N)
	}
	for _, b := range res.Bad {
		t.Errorf("%s mode: contrast below 4.5:1: %s", scheme, b)
	}
	t.Logf("%s mode: %d elements measured, all at 4.5:1 or more", scheme, res.N-len(res.Bad))
}

// TestPageToken: off loopback the service needs its token; the page asks
// for it once, keeps it for the tab, and its calls then succeed.
func TestPageToken(t *testing.T) {
	ctx := browser(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := newServerGPU(t, api.Config{TokenFile: tokenFile}, true)
	run(t, ctx, "open the page behind a token",
		chromedp.Navigate(srv.URL+"/"),
		waitFor(`document.getElementById('token-dialog').open`),
		chromedp.Focus(chromedp.CSS(`#token`)),
		insertText("s3cret-token"),
		chromedp.Click(chromedp.CSS(`#token-dialog button[value=ok]`)),
		waitFor(`document.querySelector('#targets input[value="a100-pool"]')`),
	)
	if !js[bool](t, ctx, `!!document.querySelector('#targets input[value="local"]')`) {
		t.Error("the server reads a driver, but local is not offered")
	}
	if tok := js[string](t, ctx, `sessionStorage.getItem('envguard.token')`); tok != "s3cret-token" {
		t.Errorf("session storage holds %q", tok)
	}
	run(t, ctx, "validate with the token",
		chromedp.Focus(chromedp.CSS(`#env`)),
		insertText("name: x\nchannels: [pytorch]\ndependencies:\n  - pytorch=2.1.2=py3.11_cuda12.1_cudnn8.9.2_0\n  - pytorch-cuda=11.8\n"),
		chromedp.Click(chromedp.CSS(`#validate`)),
		waitFor(`document.querySelector('#findings li[data-code="EG201"]')`),
	)
	if open := js[bool](t, ctx, `document.getElementById('token-dialog').open`); open {
		t.Error("the token dialog came back after the token was given")
	}
}

// TestPageLoad measures what the issue bounds: the page (HTML, CSS and
// JavaScript) weighs under 50 KiB and loads from a local server in under
// 100 ms, cache disabled, median of 11 loads after one not counted.
//
// Chromium runs as one process here. Its usual split hands each navigation
// from the browser process to a renderer, and on this 2-core machine that
// hand-over alone took 45-70 ms for an empty page (median 72 ms from
// navigation start to load, against 27 ms in one process): the browser's
// plumbing, not the page, would fill most of the budget.
func TestPageLoad(t *testing.T) {
	if raceEnabled {
		// Under the race detector the server and the test crawl, and once
		// (1 in 5 .ci/run runs) the browser listed a second resource for
		// the page; the run without it (.ci/run runs it alone, with
		// ENVGUARD_PAGE_LOAD=1) holds every check of this test.
		t.Skip("race detector on: the page's files, weight and load time are checked in a run without it")
	}
	ctx := browser(t, chromedp.Flag("single-process", true))
	srv := newServer(t, api.Config{})
	run(t, ctx, "disable the cache", send(network.Enable, network.EnableParams{}), send(network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}))
	var loads []float64
	var weight int
	// One load first, not counted: it starts the renderer and reads the
	// fonts, as a person's browser has done before they open the page.
	run(t, ctx, "load the page once", chromedp.Navigate(srv.URL+"/"),
		waitFor(`performance.getEntriesByType('navigation')[0].loadEventEnd > 0`))
	for i := 0; i < 11; i++ {
		run(t, ctx, "load the page",
			chromedp.Navigate(srv.URL+"/"),
			waitFor(`performance.getEntriesByType('navigation')[0].loadEventEnd > 0`))
		m := js[struct {
			Load   float64 `json:"load"`
			Weight int     `json:"weight"`
			Files  int     `json:"files"`
			Parts  string  `json:"parts"`
			Names  string  `json:"names"`
		}](t, ctx, `(() => { const n = performance.getEntriesByType('navigation')[0];
			  const more = performance.getEntriesByType('resource').filter(r => r.initiatorType !== 'fetch' && r.initiatorType !== 'xmlhttprequest');
			  return {names: more.map(r => r.initiatorType + ' ' + r.name).join(', '), parts: 'first byte ' + n.responseStart.toFixed(1) + ', html ' + n.responseEnd.toFixed(1) + ', DOM ready ' + n.domContentLoadedEventEnd.toFixed(1) + ', load ' + n.loadEventEnd.toFixed(1), load: n.loadEventEnd - n.startTime, weight: n.decodedBodySize + more.reduce((a, r) => a + r.decodedBodySize, 0), files: 1 + more.length}; })()`)
		if m.Files != 1 {
			// the server puts page.css and page.js inline (api/page.go)
			t.Fatalf("the page loaded %d files, want its one document: %s", m.Files, m.Names)
		}
		t.Logf("load %d: %s ms", i+1, m.Parts)
		loads = append(loads, m.Load)
		weight = m.Weight
	}
	sort.Float64s(loads)
	median := loads[len(loads)/2]
	t.Logf("page weight %d bytes (%.1f KiB); load times %s ms, median %.1f ms", weight, float64(weight)/1024, fmtMs(loads), median)
	if weight >= 50<<10 {
		t.Errorf("the page weighs %d bytes, want under 50 KiB", weight)
	}
	// The bound is held in a run of its own on a quiet machine (.ci/run
	// sets ENVGUARD_PAGE_LOAD=1 for it): beside other test packages on two
	// cores the same page measured 114 ms, which says nothing of the page.
	if os.Getenv("ENVGUARD_PAGE_LOAD") != "1" {
		t.Logf("the 100 ms bound is held with ENVGUARD_PAGE_LOAD=1, in a run of this test alone")
		return
	}
	if median >= 100 {
		t.Errorf("median load %.1f ms, want under 100 ms", median)
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func fmtMs(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%.1f", x)
	}
	return strings.Join(s, " ")
}

// TestPageInput: a file opened from disk, checking as you type, and a
// file that is not YAML at all.
func TestPageInput(t *testing.T) {
	ctx := browser(t)
	srv := newServer(t, api.Config{})
	seed, err := filepath.Abs("../testdata/demo/environment.yml")
	if err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "open a file",
		chromedp.Navigate(srv.URL+"/"),
		waitFor(`document.querySelector('#targets input[value="old-k80"]')`),
		chromedp.SetUploadFiles(chromedp.CSS(`#file`), []string{seed}),
		waitFor(`document.querySelector('#findings li[data-code="EG201"][data-line="8"]')`),
	)
	if js[bool](t, ctx, `!!document.querySelector('#targets input[value="local"]')`) {
		t.Error("local is offered by a server with no driver")
	}
	if name := js[string](t, ctx, `document.getElementById('fname').textContent`); name != "(environment.yml)" {
		t.Errorf("the opened file is shown as %q", name)
	}

	// Typing the fix (11.3 → 11.6 on line 8) is checked without a button.
	run(t, ctx, "type the fix",
		chromedp.Evaluate[chromedp.Void](`(() => { const e = document.getElementById('env'); const i = e.value.indexOf('cudatoolkit=11.3') + 'cudatoolkit=11.'.length; e.focus(); e.setSelectionRange(i, i + 1); })()`),
		insertText("6"),
		waitFor(`document.querySelector('#findings li') && !document.querySelector('#findings li[data-code="EG201"]')`),
	)
	if g := js[string](t, ctx, `document.querySelector('#gutter .ln[data-line="8"]').className`); strings.Contains(g, "sev-") {
		t.Errorf("line 8 is still marked after the fix: %q", g)
	}

	// Not YAML at all: the service's 400 names the line, and the page marks it.
	run(t, ctx, "paste a broken file",
		chromedp.Evaluate[chromedp.Void](`(() => { const e = document.getElementById('env'); e.focus(); e.select(); })()`),
		insertText("name: x\ndependencies:\n  - [python\n"),
		waitFor(`document.getElementById('status').classList.contains('bad') && document.querySelector('#gutter .ln.sev-error')`),
	)
	status := js[string](t, ctx, `document.getElementById('status').textContent`)
	line := js[string](t, ctx, `document.querySelector('#gutter .ln.sev-error').dataset.line`)
	if !strings.HasPrefix(status, "Line "+line+": ") {
		t.Errorf("status %q, gutter marks line %s", status, line)
	}
}

// TestPageBigFileLink: a file too big for an address stays out of the
// link, and the page says so rather than making a link that is cut.
func TestPageBigFileLink(t *testing.T) {
	ctx := browser(t)
	srv := newServer(t, api.Config{})
	big := strings.Repeat("# a comment that makes this file too big for a link\n", 1400) + "name: big\ndependencies:\n  - python=3.11\n"
	run(t, ctx, "paste a big file",
		chromedp.Navigate(srv.URL+"/#target=a100-pool"),
		waitFor(`document.querySelector('#targets input[value="a100-pool"]:checked')`),
		// As a paste does: the whole text in one input event.
		chromedp.Evaluate[chromedp.Void]("(() => { const e = document.getElementById('env'); e.value = "+jsString(big)+"; e.dispatchEvent(new Event('input')); })()"),
		waitFor(`!document.getElementById('link-note').hidden && document.querySelector('#verdicts li[data-target="a100-pool"]')`),
	)
	if h := js[string](t, ctx, `location.hash`); h != "#target=a100-pool" {
		t.Errorf("the link of a %d-byte file is %q, want the machines only", len(big), h)
	}
}
