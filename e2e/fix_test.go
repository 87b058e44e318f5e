package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/envguard/envguard/api"
)

// TestPageFix presses Fix on the seed environment: the diff shows the CUDA
// pin changed and nothing else, EG302 and EG501 are listed as not fixed
// (unsafe: a rename breaks every `conda activate train`), and "Use the fixed
// file" puts the fixed text in the editor, which then validates without
// EG201. With "also the unsafe ones" the name and EG302 go too.
func TestPageFix(t *testing.T) {
	ctx := browser(t)
	srv := newServer(t, api.Config{})
	seed, err := os.ReadFile("../testdata/demo/environment.yml")
	if err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "open the page and paste the seed",
		chromedp.Navigate(srv.URL+"/"),
		waitFor(`document.querySelector('#targets input[value="old-k80"]')`),
		chromedp.Click(chromedp.CSS(`#live`)),
		chromedp.Focus(chromedp.CSS(`#env`)),
		insertText(string(seed)),
		chromedp.Click(chromedp.CSS(`#fix`)),
		waitFor(`!document.getElementById('fix-out').hidden`),
	)
	diff := js[string](t, ctx, `document.getElementById('fix-diff').textContent`)
	for _, want := range []string{"-  - nvidia::cudatoolkit=11.3", "+  - nvidia::cudatoolkit=11.6"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the diff shown lacks %q:\n%s", want, diff)
		}
	}
	if strings.Contains(diff, "name:") {
		t.Errorf("the safe fix renamed the environment:\n%s", diff)
	}
	if n := js[int](t, ctx, `document.querySelectorAll('#fix-diff .add').length`); n != 1 {
		t.Errorf("%d added lines marked in the diff, want 1", n)
	}
	if s := js[string](t, ctx, `document.getElementById('fix-skipped').textContent`); !strings.Contains(s, "EG302") || !strings.Contains(s, "EG501") || !strings.Contains(s, "unsafe") {
		t.Errorf("skipped fixes shown: %q, want EG302 and EG501 as unsafe", s)
	}
	if s := js[string](t, ctx, `document.getElementById('fix-status').textContent`); !strings.Contains(s, "1 fix (EG201)") || !strings.Contains(s, "1 finding") {
		t.Errorf("fix status: %q", s)
	}
	if v := js[string](t, ctx, `document.getElementById('env').value`); v != string(seed) {
		t.Errorf("the editor changed before Use the fixed file was pressed")
	}
	run(t, ctx, "use the fixed file",
		chromedp.Click(chromedp.CSS(`#fix-use`)),
		waitFor(`document.getElementById('env').value.includes('nvidia::cudatoolkit=11.6') && document.querySelector('#findings li[data-code="EG302"]')`),
	)
	if n := js[int](t, ctx, `document.querySelectorAll('#findings li[data-code="EG201"]').length`); n != 0 {
		t.Errorf("after using the fixed file, %d EG201 findings are still shown", n)
	}
	screenshot(t, ctx, artifacts(t), "page-fix.png")

	run(t, ctx, "fix again with the unsafe fixes",
		chromedp.Click(chromedp.CSS(`#fix-unsafe`)),
		chromedp.Click(chromedp.CSS(`#fix`)),
		waitFor(`!document.getElementById('fix-out').hidden && document.getElementById('fix-diff').textContent.includes('+  - conda-forge::cupy')`),
	)
	if d := js[string](t, ctx, `document.getElementById('fix-diff').textContent`); !strings.Contains(d, "-name: train") || !strings.Contains(d, "+name: pt113_cu116") {
		t.Errorf("the unsafe fix did not rename the environment:\n%s", d)
	}
	if s := js[string](t, ctx, `document.getElementById('fix-status').textContent`); !strings.Contains(s, "nothing left") {
		t.Errorf("unsafe fix status: %q", s)
	}
}
