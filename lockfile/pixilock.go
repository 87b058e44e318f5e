package lockfile

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/envspec"
)

// ReadPixiLock reads pixi.lock (format versions 4 to 7, as pixi writes
// them; see prefix-dev/pixi examples/pytorch/pixi.lock, and format 7's
// named platforms in tests/data/non-satisfiability):
//
//	version: 6
//	environments:
//	  default:
//	    channels: [{url: https://conda.anaconda.org/conda-forge/}]
//	    indexes: [https://…/simple]
//	    packages:
//	      linux-64:
//	      - conda: https://…/conda-forge/linux-64/pytorch-2.4.0-cuda120_py312h26b3cf7_301.conda
//	      - pypi: https://…/whl/cu124/torch-2.5.1%2Bcu124-cp312-cp312-linux_x86_64.whl
//	packages:
//	- conda: …            # version 6 (version 4/5: kind: conda, name:, url: …)
//	- pypi: …
//	  name: torch
//	  version: 2.5.1+cu124
//
// One environment (Options.Environment, default "default") and one
// platform are read. Each package is read from its URL: a conda package's
// channel, subdir, name, version and build from its file name, a PyPI
// package's name and version from its wheel or sdist file name (and its
// index from a …/whl/cuXXX/ directory). Where the URL is no package file
// (a source checkout, a git URL), the `packages:` entry with that URL gives
// the name and version. It never returns nil and never panics.
func ReadPixiLock(file string, src []byte, opt Options) (env *envspec.Env) {
	l := newLockEnv(file, envspec.KindPixiLock, src)
	l.max, l.ctx = opt.MaxItems, opt.Context
	defer recoverInto(l, &env)
	root := l.yamlRoot(src)
	if root == nil {
		return l.finish()
	}
	envs := yamlGet(root, "environments")
	if envs == nil || envs.Kind != yaml.MappingNode || len(envs.Content) == 0 {
		l.diag(l.ypos(root), envspec.RuleEG101,
			"a pixi.lock needs an `environments:` mapping (pixi.lock format 4 or later)",
			"regenerate the lock with a current pixi (`pixi lock`)")
		return l.finish()
	}
	name, e := pixiPickEnv(envs, opt.Environment)
	if e == nil {
		l.diag(l.ypos(envs), envspec.RuleEG101,
			fmt.Sprintf("the lock file has no environment %q (it has %s)", opt.Environment, yamlKeys(envs)),
			"name one of the locked environments")
		return l.finish()
	}
	_ = name
	for _, c := range yamlSeq(yamlGet(e, "channels")) {
		switch {
		case c.Kind == yaml.MappingNode && yamlGet(c, "url") != nil:
			u := yamlGet(c, "url")
			l.env.Channels = append(l.env.Channels, envspec.String{Value: u.Value, Pos: l.ypos(u)})
		case c.Kind == yaml.ScalarNode:
			l.env.Channels = append(l.env.Channels, envspec.String{Value: c.Value, Pos: l.ypos(c)})
		}
	}
	pk := yamlGet(e, "packages")
	if pk == nil || pk.Kind != yaml.MappingNode {
		l.diag(l.ypos(e), envspec.RuleEG101, "the environment has no `packages:` mapping of platform to packages",
			"regenerate the lock with `pixi lock`")
		return l.finish()
	}
	// Format 7 names platforms (`- name: linux-64-cuda`, `subdir: linux-64`);
	// earlier formats key packages by subdir.
	subdirOf := map[string]string{}
	for _, p := range yamlSeq(yamlGet(root, "platforms")) {
		if n := yamlValue(p, "name"); n != "" {
			subdirOf[n] = n
			if sd := yamlValue(p, "subdir"); sd != "" {
				subdirOf[n] = sd
			}
		}
	}
	var platforms, subdirs []string
	for i := 0; i+1 < len(pk.Content); i += 2 {
		n := pk.Content[i].Value
		platforms = append(platforms, n)
		if sd, ok := subdirOf[n]; ok {
			n = sd
		}
		subdirs = append(subdirs, n)
	}
	key := ""
	for i, n := range platforms {
		if opt.Platform != "" && n == opt.Platform {
			key = n // a platform named as asked
			_ = i
			break
		}
	}
	plat, ok := choosePlatform(opt.Platform, subdirs)
	if ok && key == "" {
		for i, sd := range subdirs {
			if sd == plat {
				key = platforms[i]
				break
			}
		}
	} else if key != "" {
		plat, ok = subdirOf[key], true
		if plat == "" {
			plat = key
		}
	}
	if !ok {
		l.diag(l.ypos(pk), envspec.RuleEG101,
			fmt.Sprintf("the lock file has no packages for %s in this environment (it locks %s)", opt.Platform, platformList(platforms)),
			"validate with --platform set to one of the locked platforms")
		return l.finish()
	}
	l.env.Platform = plat
	byURL := l.pixiPackages(yamlGet(root, "packages"))
	for _, item := range yamlSeq(yamlGet(pk, key)) {
		if l.stopped() {
			break
		}
		if item.Kind != yaml.MappingNode || len(item.Content) < 2 {
			l.diag(l.ypos(item), envspec.RuleEG101, "a locked package must be `conda: URL` or `pypi: URL`, not "+envspec.YAMLKind(item), "")
			continue
		}
		k, v := item.Content[0], item.Content[1]
		ps := l.ypos(v)
		meta := byURL[v.Value]
		switch k.Value {
		case "conda":
			if in, err := envspec.ParsePackageURL(v.Value); err == nil {
				in.Path = file
				if h := lockSHA256(yamlGet(meta, "sha256")); h != "" {
					in.SHA256 = h
				}
				l.conda(in, ps)
				continue
			}
			n, ver, build := yamlValue(meta, "name"), yamlValue(meta, "version"), yamlValue(meta, "build")
			if n == "" {
				l.diag(ps, envspec.RuleEG103, fmt.Sprintf("locked conda package %q: not a package URL and no `packages:` entry names it", envspec.Clip(v.Value, 80)),
					"regenerate the lock with `pixi lock`")
				continue
			}
			l.conda(&envspec.Installed{Name: n, Version: ver, Build: build, Subdir: yamlValue(meta, "subdir"), Path: file, SHA256: lockSHA256(yamlGet(meta, "sha256"))}, ps)
		case "pypi":
			n, ver := yamlValue(meta, "name"), yamlValue(meta, "version")
			if fn, fv, _, ok := distFile(v.Value); ok {
				if n == "" {
					n = fn
				}
				if ver == "" {
					ver = fv
				}
			}
			if n == "" {
				l.diag(ps, envspec.RuleEG104, fmt.Sprintf("locked PyPI package %q: not a wheel or sdist URL and no `packages:` entry names it", envspec.Clip(v.Value, 80)),
					"regenerate the lock with `pixi lock`")
				continue
			}
			d := l.pipLocked(n, ver, v.Value, "", ps, ps)
			d.Installed.SHA256 = lockSHA256(yamlGet(meta, "sha256"))
		case "conda_source":
			// Format 7: `name[hash] @ path`, a package pixi builds from
			// source; its version is its own.
			n := v.Value
			if i := strings.IndexAny(n, "[ @"); i > 0 {
				n = n[:i]
			}
			d := &envspec.CondaDep{Raw: envspec.String{Value: n, Pos: ps}}
			if ms, err := envspec.ParseMatchSpec(n); err == nil {
				ms.NameSpan = envspec.Span{}
				d.Spec = ms
			}
			l.addConda(d)
		default:
			l.diag(l.ypos(k), envspec.RuleEG101, fmt.Sprintf("unknown package kind %q (pixi writes conda, conda_source or pypi)", envspec.Clip(k.Value, 30)), "")
		}
	}
	return l.finish()
}

// pixiPickEnv chooses the environment to read.
func pixiPickEnv(envs *yaml.Node, want string) (string, *yaml.Node) {
	if want != "" {
		return want, yamlGet(envs, want)
	}
	if e := yamlGet(envs, "default"); e != nil {
		return "default", e
	}
	return envs.Content[0].Value, envs.Content[1]
}

// pixiPackages indexes the lock's `packages:` list by URL (the value of
// conda:/pypi:/conda_source: in formats 6 and 7, of url: or path: in
// formats 4 and 5).
func (l *lockEnv) pixiPackages(list *yaml.Node) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	for _, e := range yamlSeq(list) {
		if l.stopped() {
			break
		}
		for _, k := range []string{"conda", "pypi", "conda_source", "url", "path"} {
			if v := yamlGet(e, k); v != nil && v.Kind == yaml.ScalarNode {
				if _, seen := out[v.Value]; !seen {
					out[v.Value] = e
				}
				break
			}
		}
	}
	return out
}
