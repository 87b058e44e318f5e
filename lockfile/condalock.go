package lockfile

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/envspec"
)

// ReadCondaLock reads conda-lock's unified lock file (conda-lock.yml,
// `version: 1`, as conda-lock writes it since 1.0; see
// conda/conda-lock tests/test-install-with-pip-deps/conda-lock.yml):
//
//	metadata:
//	  channels: [{url: conda-forge, used_env_vars: []}]
//	  platforms: [linux-64, osx-arm64]
//	package:
//	- name: pytorch
//	  version: 2.1.2
//	  manager: conda            # or pip
//	  platform: linux-64
//	  url: https://…/pytorch/linux-64/pytorch-2.1.2-py3.11_cuda12.1_cudnn8.9.2_0.tar.bz2
//	  hash: {md5: …, sha256: …}
//	  category: main
//	  optional: false
//
// The packages of one platform are read (Options.Platform). A conda
// package's channel, subdir and build come from its URL's file name; a pip
// package's URL is its wheel, whose directory names a PyTorch wheel index
// (…/whl/cu121/) where it lies in one. Entries marked `optional: true`
// (the dev category and extras) are left out: conda-lock installs them
// only on request (`--dev-dependencies`, `-e CATEGORY`, as the header of
// the files conda-lock 3 writes says; tests/test-v2-to-v3-upgrade in
// conda/conda-lock). It never returns nil and never panics.
func ReadCondaLock(file string, src []byte, opt Options) (env *envspec.Env) {
	l := newLockEnv(file, envspec.KindCondaLock, src)
	l.max, l.ctx = opt.MaxItems, opt.Context
	defer recoverInto(l, &env)
	root := l.yamlRoot(src)
	if root == nil {
		return l.finish()
	}
	meta := yamlGet(root, "metadata")
	var platforms []string
	if meta != nil && meta.Kind == yaml.MappingNode {
		if ch := yamlGet(meta, "channels"); ch != nil && ch.Kind == yaml.SequenceNode {
			for _, c := range ch.Content {
				switch {
				case c.Kind == yaml.MappingNode && yamlGet(c, "url") != nil:
					u := yamlGet(c, "url")
					l.env.Channels = append(l.env.Channels, envspec.String{Value: u.Value, Pos: l.ypos(u)})
				case c.Kind == yaml.ScalarNode:
					l.env.Channels = append(l.env.Channels, envspec.String{Value: c.Value, Pos: l.ypos(c)})
				}
			}
		}
		if ps := yamlGet(meta, "platforms"); ps != nil && ps.Kind == yaml.SequenceNode {
			for _, p := range ps.Content {
				if p.Kind == yaml.ScalarNode {
					platforms = append(platforms, p.Value)
				}
			}
		}
	}
	pk := yamlGet(root, "package")
	if pk == nil || pk.Kind != yaml.SequenceNode {
		l.diag(l.ypos(root), envspec.RuleEG101, "a conda-lock file needs a `package:` list of locked packages",
			"regenerate the lock with `conda-lock lock`")
		return l.finish()
	}
	if len(platforms) == 0 {
		seen := map[string]bool{}
		for _, e := range pk.Content {
			if l.stopped() {
				return l.finish()
			}
			if p := yamlGet(e, "platform"); p != nil && !seen[p.Value] {
				seen[p.Value] = true
				platforms = append(platforms, p.Value)
			}
		}
	}
	plat, ok := choosePlatform(opt.Platform, platforms)
	if !ok {
		l.diag(l.ypos(root), envspec.RuleEG101,
			fmt.Sprintf("the lock file has no packages for %s (it locks %s)", opt.Platform, platformList(platforms)),
			"validate with --platform set to one of the locked platforms, or add the platform with `conda-lock -p`")
		return l.finish()
	}
	l.env.Platform = plat
	for _, e := range pk.Content {
		if l.stopped() {
			break
		}
		if e.Kind != yaml.MappingNode {
			l.diag(l.ypos(e), envspec.RuleEG101, "a `package:` entry must be a mapping, not "+envspec.YAMLKind(e),
				"each entry has name, version, manager, platform and url")
			continue
		}
		name, version, url := yamlGet(e, "name"), yamlGet(e, "version"), yamlGet(e, "url")
		if p := yamlGet(e, "platform"); p != nil && p.Value != plat {
			continue
		}
		if o := yamlGet(e, "optional"); o != nil && o.Value == "true" {
			continue // dev and extra categories: installed only on request
		}
		if name == nil || name.Kind != yaml.ScalarNode || name.Value == "" {
			l.diag(l.ypos(e), envspec.RuleEG101, "a locked package without a `name:`",
				"regenerate the lock with `conda-lock lock`")
			continue
		}
		ps := l.ypos(name)
		ver := ""
		if version != nil && version.Kind == yaml.ScalarNode {
			ver = version.Value
		}
		u := ""
		if url != nil && url.Kind == yaml.ScalarNode {
			u = url.Value
		}
		manager := "conda"
		if m := yamlGet(e, "manager"); m != nil {
			manager = m.Value
		}
		switch manager {
		case "pip":
			d := l.pipLocked(name.Value, ver, u, "", ps, ps)
			d.Installed.SHA256 = lockSHA256(yamlGet(yamlGet(e, "hash"), "sha256"))
		case "conda":
			if in, err := envspec.ParsePackageURL(u); err == nil {
				in.Path = file
				if h := lockSHA256(yamlGet(yamlGet(e, "hash"), "sha256")); h != "" {
					in.SHA256 = h
				}
				l.conda(in, ps)
				continue
			}
			if u == "" {
				l.diag(ps, envspec.RuleEG101, fmt.Sprintf("locked conda package %q has no `url:`", name.Value),
					"regenerate the lock with `conda-lock lock`")
			}
			// A URL conda-lock wrote but this reader cannot split (a local
			// channel path): the entry's own name and version still pin it.
			l.conda(&envspec.Installed{Name: name.Value, Version: ver, Subdir: plat, Path: file}, ps)
		default:
			l.diag(l.ypos(yamlGet(e, "manager")), envspec.RuleEG101,
				fmt.Sprintf("unknown manager %q (conda-lock writes conda or pip)", envspec.Clip(manager, 30)), "")
		}
	}
	return l.finish()
}
