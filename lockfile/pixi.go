package lockfile

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// ReadPixiManifest reads a pixi manifest: pixi.toml, or the [tool.pixi]
// tables of a pyproject.toml (pixi's manifest reference,
// pixi.sh/latest/reference/pixi_manifest; prefix-dev/pixi
// examples/pytorch/pixi.toml):
//
//	[workspace]                      # [project] in older manifests
//	channels = ["conda-forge"]
//	platforms = ["linux-64", "osx-arm64"]
//	[dependencies]
//	pytorch = { version = ">=2.4", build = "cuda*" }
//	[pypi-dependencies]
//	torch = { version = "==2.5.1", index = "https://…/whl/cu124" }
//	[system-requirements]
//	cuda = "12"
//	[feature.gpu.dependencies]
//	[target.linux-64.dependencies]
//	[environments]
//	gpu = ["gpu"]                    # or { features = [...], no-default-feature = true }
//
// One environment is read (Options.Environment, default "default"):
// the default feature (unless no-default-feature) and the environment's
// features, each with its `target.<platform>` tables for the platform read.
// In a pyproject.toml, [project] dependencies are the default feature's
// PyPI dependencies, as pixi reads them. `[system-requirements]` are not
// dependencies; PixiSystemRequirements reads them as what the environment
// demands of a machine. It never returns nil and never panics.
func ReadPixiManifest(file string, src []byte, opt Options) (env *envspec.Env) {
	l := newLockEnv(file, envspec.KindPixiManifest, src)
	l.max, l.ctx = opt.MaxItems, opt.Context
	defer recoverInto(l, &env)
	doc, err := parseTOMLContext(l.ctx, file, src)
	if err != nil {
		l.tomlError(err)
		return l.finish()
	}
	m := pixiRoot(doc)
	if m.pixi == nil {
		l.diag(finding.Pos{File: file, Line: 1, Col: 1}, envspec.RuleEG101,
			"no pixi manifest here: a pyproject.toml is read for its [tool.pixi] tables, and this one has none",
			"validate the lock file (uv.lock, pixi.lock, pylock.toml) or the requirements file the project installs from")
		return l.finish()
	}
	ws := m.pixi.get("workspace")
	if ws == nil {
		ws = m.pixi.get("project")
	}
	features, ok := m.features(opt.Environment)
	if !ok {
		l.diag(finding.Pos{File: file, Line: 1, Col: 1}, envspec.RuleEG101,
			fmt.Sprintf("the manifest defines no environment %q (it has %s)", opt.Environment, strings.Join(m.envNames(), ", ")),
			"name an environment of [environments]")
		return l.finish()
	}
	// Platforms: the workspace's, narrowed by any feature that lists its own.
	var plats []envspec.String
	for _, p := range tomlArr(ws.get("platforms")) {
		if p.isString() {
			plats = append(plats, envspec.String{Value: p.str, Pos: p.pos})
		}
	}
	for _, f := range features {
		if fp := tomlArr(f.t.get("platforms")); f.name != "" && len(fp) > 0 {
			plats = plats[:0]
			for _, p := range fp {
				if p.isString() {
					plats = append(plats, envspec.String{Value: p.str, Pos: p.pos})
				}
			}
		}
	}
	var have []string
	for _, p := range plats {
		have = append(have, p.Value)
	}
	plat, ok := choosePlatform(opt.Platform, have)
	if !ok {
		l.diag(plats[0].Pos, envspec.RuleEG101,
			fmt.Sprintf("the environment is not defined for %s (its platforms are %s)", opt.Platform, platformList(have)),
			"validate with --platform set to one of the workspace's platforms")
		return l.finish()
	}
	l.env.Platform = plat
	l.env.Platforms = plats
	// Only the features of the environment read: a cuda requirement on a
	// feature this environment does not include says nothing about it.
	for _, f := range features {
		if c := f.t.path("system-requirements", "cuda"); c != nil && c.isString() {
			if l.env.SystemCUDA == nil || versionAbove(c.str, l.env.SystemCUDA.Value) {
				l.env.SystemCUDA = &envspec.String{Value: c.str, Pos: c.pos}
			}
		}
	}
	l.channels(ws.get("channels"))
	for _, f := range features {
		if f.name != "" {
			l.channels(f.t.get("channels"))
		}
	}
	for _, f := range features {
		tables := []*tomlNode{f.t}
		if tg := f.t.get("target"); tg.isTable() {
			for _, sel := range tg.keys {
				if pixiTargetMatches(sel, plat) {
					tables = append(tables, tg.m[sel])
				}
			}
		}
		for _, t := range tables {
			l.pixiConda(t.get("dependencies"))
			l.pixiPypi(t.get("pypi-dependencies"))
			l.pixiPypiOptions(t.get("pypi-options"))
		}
		if f.name == "" && m.project != nil {
			// pyproject.toml: [project] dependencies are PyPI dependencies.
			for _, d := range tomlArr(m.project.get("dependencies")) {
				if l.stopped() {
					return l.finish()
				}
				if d.isString() {
					l.pypiLine(d.str, d.pos, true)
				}
			}
		}
		if f.name != "" && m.project != nil {
			for _, d := range tomlArr(m.project.path("optional-dependencies", f.name)) {
				if l.stopped() {
					return l.finish()
				}
				if d.isString() {
					l.pypiLine(d.str, d.pos, true)
				}
			}
		}
	}
	if m.name != nil {
		_ = m.name // the workspace name names the project, not an environment: no EG501
	}
	return l.finish()
}

type pixiFeature struct {
	name string // "" for the default feature
	t    *tomlNode
}

type pixiManifest struct {
	pixi    *tomlNode // the pixi tables: the document, or [tool.pixi]
	project *tomlNode // pyproject.toml's [project], nil in pixi.toml
	name    *tomlNode
}

func pixiRoot(doc *tomlDoc) *pixiManifest {
	if tp := doc.root.path("tool", "pixi"); tp.isTable() {
		return &pixiManifest{pixi: tp, project: doc.root.get("project")}
	}
	if strings.EqualFold(path.Base(strings.ReplaceAll(doc.file, "\\", "/")), "pyproject.toml") {
		return &pixiManifest{} // a pyproject.toml without [tool.pixi]
	}
	// pixi.toml: the document is the manifest (a pixi-build [package]
	// manifest without [workspace] reads as an environment with nothing).
	return &pixiManifest{pixi: doc.root}
}

func (m *pixiManifest) envNames() []string {
	names := []string{"default"}
	if e := m.pixi.get("environments"); e.isTable() {
		for _, k := range e.keys {
			if k != "default" {
				names = append(names, k)
			}
		}
	}
	sort.Strings(names[1:])
	return names
}

// features lists the features environment name is made of, the default
// feature first.
func (m *pixiManifest) features(name string) ([]pixiFeature, bool) {
	if name == "" {
		name = "default"
	}
	var list []string
	noDefault := false
	def := m.pixi.path("environments", name)
	switch {
	case def == nil && name == "default":
	case def == nil:
		return nil, false
	case def.kind == tomlArray:
		for _, f := range def.arr {
			list = append(list, f.text())
		}
	case def.isTable():
		for _, f := range tomlArr(def.get("features")) {
			list = append(list, f.text())
		}
		noDefault = def.get("no-default-feature") != nil && def.get("no-default-feature").str == "true"
	}
	var out []pixiFeature
	if !noDefault {
		out = append(out, pixiFeature{t: m.pixi})
	}
	for _, f := range list {
		if t := m.pixi.path("feature", f); t.isTable() {
			out = append(out, pixiFeature{name: f, t: t})
		} else if m.project != nil && m.project.path("optional-dependencies", f) != nil {
			out = append(out, pixiFeature{name: f, t: &tomlNode{kind: tomlTable, m: map[string]*tomlNode{}}})
		}
	}
	return out, true
}

// pixiTargetMatches reports whether a [target.SEL] table applies to a
// platform: SEL is a platform (linux-64) or a family (linux, osx, win,
// unix).
func pixiTargetMatches(sel, plat string) bool {
	if sel == plat {
		return true
	}
	os, _, _ := strings.Cut(plat, "-")
	switch sel {
	case "linux", "osx", "win":
		return sel == os
	case "unix":
		return os == "linux" || os == "osx"
	}
	return false
}

func (l *lockEnv) channels(n *tomlNode) {
	for _, c := range tomlArr(n) {
		switch {
		case c.isString():
			l.env.Channels = append(l.env.Channels, envspec.String{Value: c.str, Pos: c.pos})
		case c.isTable() && c.get("channel").isString():
			ch := c.get("channel")
			l.env.Channels = append(l.env.Channels, envspec.String{Value: ch.str, Pos: ch.pos})
		}
	}
}

// pixiConda reads a dependencies table: `name = "spec"` or
// `name = { version = "…", build = "…", channel = "…" }`.
func (l *lockEnv) pixiConda(t *tomlNode) {
	if !t.isTable() {
		return
	}
	for _, name := range t.keys {
		if l.stopped() {
			return
		}
		v := t.m[name]
		ver, build, channel := "", "", ""
		switch {
		case v.isString():
			ver = v.str
		case v.isTable():
			ver, build, channel = v.get("version").text(), v.get("build").text(), v.get("channel").text()
			if v.get("path") != nil || v.get("git") != nil || v.get("url") != nil {
				// a source dependency pixi builds: its version is its own
				l.addConda(&envspec.CondaDep{Raw: envspec.String{Value: name, Pos: v.key}})
				continue
			}
		default:
			l.diag(v.key, envspec.RuleEG101, fmt.Sprintf("dependency %q must be a version string or a table, not %s", name, v.kindName()),
				"write `name = \">=1.0\"` or `name = { version = \">=1.0\", build = \"…\" }`")
			continue
		}
		raw := name
		ver = strings.ReplaceAll(ver, " ", "")
		if ver == "" && build != "" {
			ver = "*"
		}
		if ver != "" && !(ver == "*" && build == "") {
			raw += " " + ver
		}
		if build != "" {
			raw += " " + build
		}
		if channel != "" {
			raw = channel + "::" + raw
		}
		d := &envspec.CondaDep{Raw: envspec.String{Value: raw, Pos: v.key}}
		ms, err := envspec.ParseMatchSpec(raw)
		if err != nil {
			l.diag(v.pos, envspec.RuleEG103, fmt.Sprintf("dependency %s: %q is not a valid conda spec: %v", name, envspec.Clip(raw, 80), specErrMsg(err)),
				"write a conda version spec such as \">=2.1,<3\" or \"2.1.*\"")
		} else {
			ms.NameSpan, ms.VersionSpan, ms.BuildSpan, ms.ChannelSpan = envspec.Span{}, envspec.Span{}, envspec.Span{}, envspec.Span{}
			d.Spec = ms
		}
		l.addConda(d)
	}
}

func specErrMsg(err error) string {
	if se, ok := err.(*envspec.SpecError); ok {
		return se.Msg
	}
	return err.Error()
}

// pixiPypi reads a pypi-dependencies table.
func (l *lockEnv) pixiPypi(t *tomlNode) {
	if !t.isTable() {
		return
	}
	for _, name := range t.keys {
		if l.stopped() {
			return
		}
		v := t.m[name]
		line := name
		switch {
		case v.isString():
			if s := strings.TrimSpace(v.str); s != "*" && s != "" {
				line += s
			}
		case v.isTable():
			var ex []string
			for _, e := range tomlArr(v.get("extras")) {
				ex = append(ex, e.text())
			}
			if len(ex) > 0 {
				line += "[" + strings.Join(ex, ",") + "]"
			}
			switch {
			case v.get("git").isString():
				line += " @ git+" + v.get("git").str
				for _, k := range []string{"rev", "tag", "branch"} {
					if r := v.get(k).text(); r != "" {
						line += "@" + r
						break
					}
				}
			case v.get("url").isString():
				line += " @ " + v.get("url").str
			case v.get("path").isString():
				line = v.get("path").str
				if !strings.HasPrefix(line, ".") && !strings.HasPrefix(line, "/") {
					line = "./" + line
				}
			default:
				if s := strings.TrimSpace(v.get("version").text()); s != "*" {
					line += s
				}
			}
			if idx := v.get("index"); idx.isString() {
				l.pinnedIndex(idx.str, idx.pos)
			}
		default:
			l.diag(v.key, envspec.RuleEG101, fmt.Sprintf("PyPI dependency %q must be a version string or a table, not %s", name, v.kindName()),
				"write `name = \">=1.0\"` or `name = { version = \"==1.0\", index = \"…\" }`")
			continue
		}
		l.pypiLine(line, v.key, false)
	}
}

// pypiLine adds one PEP 508 requirement read from a manifest. where marks
// a string written as such (its offsets are columns); otherwise the line
// was put together from a table and points at the key.
func (l *lockEnv) pypiLine(text string, ps finding.Pos, written bool) {
	d := &envspec.PipDep{Raw: envspec.String{Value: text, Pos: ps}}
	line, err := envspec.ParsePipLine(text)
	if err != nil {
		at := ps
		if pe, ok := err.(*envspec.PipError); ok && written && pe.Offset <= len(text) {
			at = ps.Shift(len([]rune(text[:pe.Offset])))
		}
		l.diag(at, envspec.RuleEG104, fmt.Sprintf("invalid PyPI requirement %q: %s", envspec.Clip(text, 80), pipErrMsg(err)),
			"write a PEP 508 requirement such as \"torch==2.5.1\"")
	} else {
		if !written && line.Req != nil {
			line.Req.NameSpan, line.Req.SpecSpan, line.Req.URLSpan, line.Req.MarkerSpan = envspec.Span{}, envspec.Span{}, envspec.Span{}, envspec.Span{}
		}
		d.Line = line
	}
	l.addPip(d)
}

func pipErrMsg(err error) string {
	if pe, ok := err.(*envspec.PipError); ok {
		return pe.Msg
	}
	return err.Error()
}

// pixiPypiOptions reads [pypi-options]: index-url, extra-index-urls and
// find-links become the pip option lines they stand for.
func (l *lockEnv) pixiPypiOptions(t *tomlNode) {
	if !t.isTable() {
		return
	}
	add := func(name string, v *tomlNode) {
		if !v.isString() {
			return
		}
		opt := envspec.PipOption{Name: name, Value: v.str, InRequirementsFile: true}
		line := &envspec.PipLine{Raw: name + " " + v.str, Option: &opt, Options: []envspec.PipOption{opt}}
		l.addPip(&envspec.PipDep{Raw: envspec.String{Value: v.str, Pos: v.pos}, Line: line})
	}
	add("--index-url", t.get("index-url"))
	for _, u := range tomlArr(t.get("extra-index-urls")) {
		add("--extra-index-url", u)
	}
	for _, f := range tomlArr(t.get("find-links")) {
		if f.isTable() {
			if u := f.get("url"); u != nil {
				add("--find-links", u)
			} else {
				add("--find-links", f.get("path"))
			}
		}
	}
}

// PixiSystemRequirement is what one pixi environment demands of a machine
// through `[system-requirements]`: `cuda = "12"` means a driver that
// supports CUDA 12 at least (pixi's __cuda virtual package).
type PixiSystemRequirement struct {
	Environment string
	CUDA        string      // as written: "12", "12.1"
	Pos         finding.Pos // the cuda value that decided it
}

// PixiSystemRequirements reads the CUDA system requirement of every
// environment of a pixi manifest (the default one, then [environments] in
// file order). An environment's requirement is the highest of its
// features'. Environments without one are left out.
func PixiSystemRequirements(file string, src []byte) ([]PixiSystemRequirement, error) {
	doc, err := parseTOML(file, src)
	if err != nil {
		return nil, err
	}
	m := pixiRoot(doc)
	if m.pixi == nil {
		return nil, &TOMLError{Pos: finding.Pos{File: file, Line: 1, Col: 1}, Msg: "not a pixi manifest (no [workspace], [project] or [tool.pixi] tables)"}
	}
	names := []string{"default"}
	if e := m.pixi.get("environments"); e.isTable() {
		for _, k := range e.keys {
			if k != "default" {
				names = append(names, k)
			}
		}
	}
	var out []PixiSystemRequirement
	for _, n := range names {
		fs, _ := m.features(n)
		var best *tomlNode
		for _, f := range fs {
			c := f.t.path("system-requirements", "cuda")
			if c == nil {
				continue
			}
			if best == nil || versionAbove(c.str, best.str) {
				best = c
			}
		}
		if best != nil {
			out = append(out, PixiSystemRequirement{Environment: n, CUDA: best.str, Pos: best.pos})
		}
	}
	return out, nil
}

// versionAbove compares two conda versions; one that does not parse is
// never above.
func versionAbove(a, b string) bool {
	va, err := envspec.ParseVersion(a)
	if err != nil {
		return false
	}
	vb, err := envspec.ParseVersion(b)
	if err != nil {
		return true
	}
	return va.Compare(vb) > 0
}

// PixiPlatform is one rich platform of a pixi manifest that declares a
// CUDA driver (pixi 0.71 on): `[workspace] platforms = [{ platform =
// "linux-64", cuda = "12.0" }]`, with `cuda = { driver = "12.0", arch =
// "8.6" }` for CEP 46's __cuda_arch, or the raw `__cuda`/`__cuda_arch`
// keys. Bare-string platforms and inline tables without a CUDA key declare
// no machine and are left out.
type PixiPlatform struct {
	Name     string // the entry's name, else its platform
	Platform string // the conda subdir
	CUDA     string // as written
	Arch     string // __cuda_arch as written, "" when not declared
	Pos      finding.Pos
	ArchPos  finding.Pos
}

// PixiRichPlatforms reads the rich platforms of a pixi manifest's
// [workspace] (or [project]) that declare CUDA, in file order.
func PixiRichPlatforms(file string, src []byte) ([]PixiPlatform, error) {
	doc, err := parseTOML(file, src)
	if err != nil {
		return nil, err
	}
	m := pixiRoot(doc)
	if m.pixi == nil {
		return nil, nil
	}
	ws := m.pixi.get("workspace")
	if ws == nil {
		ws = m.pixi.get("project")
	}
	pl := ws.get("platforms")
	if pl == nil || pl.kind != tomlArray {
		return nil, nil
	}
	var out []PixiPlatform
	for _, it := range pl.arr {
		if !it.isTable() {
			continue
		}
		p := PixiPlatform{Platform: it.get("platform").text(), Name: it.get("name").text()}
		if p.Name == "" {
			p.Name = p.Platform
		}
		if p.Platform == "" {
			p.Platform = p.Name // { name = "osx-arm64" } names its subdir
		}
		c := it.get("cuda")
		if c == nil {
			c = it.get("__cuda")
		}
		switch {
		case c == nil:
			continue
		case c.isTable():
			d := c.get("driver")
			if !d.isString() {
				return nil, &TOMLError{Pos: c.pos, Msg: fmt.Sprintf("platform %s: cuda = { … } needs driver = \"12.0\"", p.Name)}
			}
			p.CUDA, p.Pos = d.str, d.pos
			if a := c.get("arch"); a != nil {
				p.Arch, p.ArchPos = a.text(), a.pos
			}
		case c.isString():
			p.CUDA, p.Pos = c.str, c.pos
		default:
			return nil, &TOMLError{Pos: c.pos, Msg: fmt.Sprintf("platform %s: cuda must be a string (\"12.0\") or { driver, arch }, got %s", p.Name, c.kindName())}
		}
		if a := it.get("__cuda_arch"); a != nil && p.Arch == "" {
			p.Arch, p.ArchPos = a.text(), a.pos
		}
		out = append(out, p)
	}
	return out, nil
}
