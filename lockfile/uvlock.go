package lockfile

import (
	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// ReadUVLock reads uv's lock file (uv.lock, `version = 1`; see the uv
// documentation's "Locking and syncing" and astral-sh/uv's own uv.lock):
//
//	[[package]]
//	name = "torch"
//	version = "2.5.1+cu124"
//	source = { registry = "https://…/whl/cu124" }
//	resolution-markers = ["sys_platform == 'linux'"]
//	wheels = [
//	    { url = "https://…/whl/cu124/torch-2.5.1%2Bcu124-cp312-cp312-linux_x86_64.whl", hash = "sha256:…" },
//	]
//
// A uv.lock is universal: one file for every platform. The packages for
// one conda subdir (Options.Platform, default the host's) are those
// whose resolution markers do not exclude it (only sys_platform,
// platform_system, platform_machine and os_name are decided) and that have
// a wheel for it or an sdist to build. Where a package still appears twice
// (forks on python_version or on conflicting extras, which a platform does
// not decide) the one whose markers hold is kept, else the first. Each
// package's index is its `source.registry`.
func ReadUVLock(file string, src []byte, opt Options) (env *envspec.Env) {
	l := newLockEnv(file, envspec.KindUVLock, src)
	l.max, l.ctx = opt.MaxItems, opt.Context
	defer recoverInto(l, &env)
	doc, err := parseTOMLContext(l.ctx, file, src)
	if err != nil {
		l.tomlError(err)
		return l.finish()
	}
	plat, _ := choosePlatform(opt.Platform, nil)
	l.env.Platform = plat
	pk := doc.root.get("package")
	if pk == nil || pk.kind != tomlArray {
		l.diag(finding.Pos{File: file, Line: 1, Col: 1}, envspec.RuleEG101, "a uv.lock needs [[package]] tables",
			"regenerate the lock with `uv lock`")
		return l.finish()
	}
	type cand struct {
		n      *tomlNode
		score  int
		wheel  string
		sha256 string // the chosen wheel's, "" for an sdist or source
		source string // source.registry, or ""
		srcPos finding.Pos
	}
	var order []string
	best := map[string]*cand{}
	for _, p := range pk.arr {
		if l.stopped() {
			return l.finish()
		}
		name := p.get("name")
		if !name.isString() || name.str == "" {
			l.diag(p.pos, envspec.RuleEG101, "a [[package]] without a name", "regenerate the lock with `uv lock`")
			continue
		}
		src := p.get("source")
		if src.get("virtual") != nil {
			continue // the workspace root itself: nothing is installed
		}
		m := markerTrue
		if rm := p.get("resolution-markers"); rm != nil && rm.kind == tomlArray && len(rm.arr) > 0 {
			m = markerFalse
			for _, x := range rm.arr {
				if v := evalPlatformMarker(x.text(), plat); v > m {
					m = v
				}
			}
		}
		if m == markerFalse {
			continue
		}
		var urls []string
		hashes := map[string]string{} // wheel URL → its sha256
		for _, w := range tomlArr(p.get("wheels")) {
			u := w.get("url").text()
			if u == "" {
				u = w.get("filename").text()
			}
			if u != "" {
				urls = append(urls, u)
				hashes[u] = sha256Hex(w.get("hash").text())
			}
		}
		fits := len(urls) == 0 || anyWheelFits(urls, plat)
		sdist := p.get("sdist")
		if !fits && sdist == nil {
			continue
		}
		c := &cand{n: p, score: int(m) * 2}
		if fits {
			c.score++
		}
		for _, u := range urls {
			for _, t := range wheelPlatforms(u) {
				if wheelFits(t, plat) && c.wheel == "" {
					c.wheel = u
				}
			}
		}
		c.sha256 = hashes[c.wheel]
		if c.wheel == "" {
			c.wheel = sdist.get("url").text()
		}
		if c.wheel == "" {
			for _, k := range []string{"git", "url", "path", "directory", "editable"} {
				if s := src.get(k).text(); s != "" {
					c.wheel = s
					break
				}
			}
		}
		if r := src.get("registry"); r.isString() {
			c.source, c.srcPos = r.str, r.pos
		}
		key := envspec.NormalizePipName(name.str)
		old, seen := best[key]
		if !seen {
			order = append(order, key)
		}
		if !seen || c.score > old.score {
			best[key] = c
		}
	}
	for _, key := range order {
		if l.stopped() {
			break
		}
		c := best[key]
		name := c.n.get("name")
		d := l.pipLocked(name.str, c.n.get("version").text(), c.wheel, c.source, name.pos, c.srcPos)
		d.Installed.SHA256 = c.sha256
	}
	return l.finish()
}
