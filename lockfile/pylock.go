package lockfile

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// ReadPylock reads a PEP 751 lock file (pylock.toml, pylock.NAME.toml;
// the pylock.toml specification on packaging.python.org):
//
//	lock-version = "1.0"
//	environments = ["sys_platform == 'linux'"]
//	[[packages]]
//	name = "torch"
//	version = "2.5.1+cu124"
//	index = "https://…/whl/cu124"
//	marker = "sys_platform == 'linux'"
//	wheels = [{ name = "torch-2.5.1+cu124-cp312-cp312-linux_x86_64.whl", url = "…", hashes = { sha256 = "…" } }]
//
// The packages for one conda subdir (Options.Platform, default the
// host's) are those whose marker does not exclude it and that have a wheel
// for it (or an sdist, VCS, archive or directory source). Each package's
// index is its `index` key; a wheel URL under …/whl/cuXXX/ names one too.
func ReadPylock(file string, src []byte, opt Options) (env *envspec.Env) {
	l := newLockEnv(file, envspec.KindPylock, src)
	l.max, l.ctx = opt.MaxItems, opt.Context
	defer recoverInto(l, &env)
	doc, err := parseTOMLContext(l.ctx, file, src)
	if err != nil {
		l.tomlError(err)
		return l.finish()
	}
	plat, _ := choosePlatform(opt.Platform, nil)
	l.env.Platform = plat
	if lv := doc.root.get("lock-version"); lv == nil {
		l.diag(finding.Pos{File: file, Line: 1, Col: 1}, envspec.RuleEG101, "a pylock.toml needs `lock-version = \"1.0\"`",
			"regenerate the lock file (PEP 751)")
	} else if v := lv.text(); !strings.HasPrefix(v, "1.") {
		l.diag(lv.pos, envspec.RuleEG101, fmt.Sprintf("lock-version %q: this reader knows version 1 of PEP 751", envspec.Clip(lv.str, 20)),
			"PEP 751 says installers must refuse a major version they do not know")
	}
	if envs := tomlArr(doc.root.get("environments")); len(envs) > 0 {
		ok := false
		for _, e := range envs {
			if evalPlatformMarker(e.text(), plat) != markerFalse {
				ok = true
			}
		}
		if !ok {
			l.diag(envs[0].pos, envspec.RuleEG101,
				fmt.Sprintf("the lock file's environments exclude %s: nothing in it installs there", plat),
				"validate with --platform set to a platform the lock file was made for")
			return l.finish()
		}
	}
	pk := doc.root.get("packages")
	if pk == nil || pk.kind != tomlArray {
		l.diag(finding.Pos{File: file, Line: 1, Col: 1}, envspec.RuleEG101, "a pylock.toml needs [[packages]] tables",
			"regenerate the lock file (PEP 751)")
		return l.finish()
	}
	seen := map[string]bool{}
	for _, p := range pk.arr {
		if l.stopped() {
			break
		}
		name := p.get("name")
		if !name.isString() || name.str == "" {
			l.diag(p.pos, envspec.RuleEG101, "a [[packages]] entry without a name", "regenerate the lock file (PEP 751)")
			continue
		}
		if m := p.get("marker"); m.isString() && evalPlatformMarker(m.str, plat) == markerFalse {
			continue
		}
		var urls []string
		hashes := map[string]string{} // wheel → its sha256
		for _, w := range tomlArr(p.get("wheels")) {
			u := w.get("url").text()
			if u == "" {
				u = w.get("path").text()
			}
			if u == "" {
				u = w.get("name").text()
			} else if fn := w.get("name").text(); fn != "" && !strings.HasSuffix(u, ".whl") {
				u = fn
			}
			if u != "" {
				urls = append(urls, u)
				hashes[u] = sha256Hex(w.get("hashes").get("sha256").text())
			}
		}
		other := ""
		for _, k := range []string{"sdist", "archive", "vcs", "directory"} {
			if s := p.get(k); s.isTable() {
				for _, f := range []string{"url", "path", "name"} {
					if v := s.get(f).text(); v != "" {
						other = v
						break
					}
				}
				if other == "" {
					other = k
				}
				break
			}
		}
		chosen := ""
		for _, u := range urls {
			for _, t := range wheelPlatforms(u) {
				if wheelFits(t, plat) && chosen == "" {
					chosen = u
				}
			}
		}
		if chosen == "" {
			if len(urls) > 0 && other == "" {
				continue // wheels only, none for this platform
			}
			chosen = other
		}
		key := envspec.NormalizePipName(name.str)
		if seen[key] {
			continue
		}
		seen[key] = true
		ver := p.get("version").text()
		if ver == "" {
			if _, fv, _, ok := distFile(chosen); ok {
				ver = fv
			}
		}
		idx, idxPos := "", name.pos
		if i := p.get("index"); i.isString() {
			idx, idxPos = i.str, i.pos
		}
		d := l.pipLocked(name.str, ver, chosen, idx, name.pos, idxPos)
		d.Installed.SHA256 = hashes[chosen]
	}
	return l.finish()
}
