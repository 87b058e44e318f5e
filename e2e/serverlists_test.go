package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/builder"
)

// The build form offers what the server's builder builds, as GET /v1/build
// lists it, and nothing else (issue 27, point 6: it offered TensorFlow and
// JAX, which always answered 400).
func TestPageBuildFormOffersWhatIsBuilt(t *testing.T) {
	ctx := browser(t)
	srv := newServer(t, api.Config{})
	run(t, ctx, "open the page",
		chromedp.Navigate(srv.URL+"/"),
		waitFor(`document.querySelectorAll('#b-framework option').length > 0`),
	)
	got := js[string](t, ctx, `[...document.querySelectorAll('#b-framework option')].map(o => o.value).join(',')`)
	if want := strings.Join(builder.Frameworks(), ","); got != want {
		t.Errorf("the form offers %q, the builder builds %q", got, want)
	}
	if js[bool](t, ctx, `document.getElementById('build-go').disabled`) {
		t.Error("the Build button is disabled on a server that builds")
	}
}

// A server that knows no machines says how to give it a fleet, and asks
// nobody to pick one (issue 27, point 6).
func TestPageNoMachines(t *testing.T) {
	ctx := browser(t)
	srv := serveTargets(t, api.Config{}, false, nil)
	run(t, ctx, "open the page of a server without targets",
		chromedp.Navigate(srv.URL+"/"),
		waitFor(`document.querySelector('#targets .no-machines')`),
		chromedp.Focus(chromedp.CSS(`#env`)),
		insertText("name: x\nchannels: [pytorch]\ndependencies:\n  - pytorch=2.1.2\n"),
		waitFor(`document.querySelector('#findings li')`),
	)
	targets := js[string](t, ctx, `document.getElementById('targets').textContent`)
	if !strings.Contains(targets, "envguard serve --targets fleet.yml") || !strings.Contains(targets, ".envguard.yml") {
		t.Errorf("the machines box says %q, want how to give the server a fleet", targets)
	}
	page := js[string](t, ctx, `document.body.innerText`)
	if strings.Contains(page, "Pick a machine") {
		t.Errorf("a server without machines asks to pick one:\n%s", js[string](t, ctx, `document.getElementById('verdicts').textContent`))
	}
	if v := js[string](t, ctx, `document.getElementById('verdicts').textContent`); !strings.Contains(v, "knows none") {
		t.Errorf("the verdicts say %q, want that the server knows no machine", v)
	}
}
