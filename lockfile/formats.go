package lockfile

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// Formats names every input envguard reads, for errors and help text.
const Formats = "environment.yml, `conda list --explicit` files, conda-lock.yml, pixi.lock, pixi.toml " +
	"(or [tool.pixi] in pyproject.toml), uv.lock, pylock.toml, pip requirements files (requirements*.txt) " +
	"and the output of python -m torch.utils.collect_env"

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var rePylockName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pylock\.([^.]+\.)?toml$`) })

// SniffFile tells which reader reads a file: by its name where the name
// says (conda-lock.yml, pixi.lock, pixi.toml, pyproject.toml, uv.lock,
// pylock.toml, pylock.NAME.toml, *.txt), else by its content. A name
// that promises a format the content does not hold (a pyproject.toml
// without [tool.pixi], a poetry.lock) is KindUnknown; content that is
// nothing envguard knows is read as environment.yml, whose parser says
// what is wrong with it.
func SniffFile(name string, src []byte) envspec.Kind {
	if Sniff(src) == envspec.KindExplicit {
		return envspec.KindExplicit // `conda list --explicit > spec-file.txt`
	}
	if IsCollectEnv(src) {
		return envspec.KindCollectEnv // pasted from a bug report, whatever its name
	}
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, "\\", "/")))
	switch {
	case base == "conda-lock.yml" || base == "conda-lock.yaml" ||
		strings.HasSuffix(base, ".conda-lock.yml") || strings.HasSuffix(base, ".conda-lock.yaml"):
		return envspec.KindCondaLock
	case base == "pixi.lock":
		return envspec.KindPixiLock
	case base == "pixi.toml":
		return envspec.KindPixiManifest
	case base == "uv.lock":
		return envspec.KindUVLock
	case rePylockName().MatchString(base):
		return envspec.KindPylock
	case base == "pyproject.toml":
		if tomlHeader(src, "tool.pixi") {
			return envspec.KindPixiManifest
		}
		return envspec.KindUnknown
	case strings.HasSuffix(base, ".txt"):
		if sniffContent(src) == envspec.KindEnvFile && bytes.Contains(src, []byte("dependencies:")) {
			return envspec.KindEnvFile
		}
		return envspec.KindRequirements
	case strings.HasSuffix(base, ".lock"), strings.HasSuffix(base, ".toml"):
		if k := sniffContent(src); k != envspec.KindEnvFile && k != envspec.KindRequirements {
			return k
		}
		return envspec.KindUnknown
	}
	yml := strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")
	if yml && !bytes.Contains(src, []byte("metadata:")) && !bytes.Contains(src, []byte("environments:")) {
		// sniffContent would find neither lock file's top-level keys: an
		// environment file, told without reading it line by line.
		return envspec.KindEnvFile
	}
	k := sniffContent(src)
	if yml {
		if k != envspec.KindCondaLock && k != envspec.KindPixiLock {
			return envspec.KindEnvFile
		}
	}
	if k == envspec.KindRequirements && !allPipLines(src) {
		return envspec.KindEnvFile // whose parser says what is wrong
	}
	return k
}

// allPipLines reports whether every line of a text pip reads (after
// joining continuations and dropping comments) is a pip line: the content
// test for a requirements file that comes without a name.
func allPipLines(src []byte) bool {
	n := 0
	for _, ln := range joinRequirementLines(envspec.SplitLines(src)) {
		t := strings.TrimSpace(ln.text[:envspec.PipCommentStart(ln.text)])
		if t == "" {
			continue
		}
		if n++; n > 200 {
			break
		}
		if _, err := envspec.ParsePipLine(t); err != nil {
			return false
		}
	}
	return n > 0
}

// sniffContent tells the formats apart by what the text holds.
func sniffContent(src []byte) envspec.Kind {
	if Sniff(src) == envspec.KindExplicit {
		return envspec.KindExplicit
	}
	top := map[string]bool{}    // YAML keys at column 0
	before := map[string]bool{} // TOML keys before the first [table]
	var headers []string
	sawHeader, yamlish, other := false, false, false
	lines := 0
	for len(src) > 0 && lines < 5000 {
		var line []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			line, src = src, nil
		}
		lines++
		line = bytes.TrimRight(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")), " \t\r")
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if t[0] == '[' {
			sawHeader = true
			headers = append(headers, string(bytes.Trim(t, "[] ")))
			continue
		}
		if bytes.HasPrefix(t, []byte("- ")) || bytes.Equal(t, []byte("-")) {
			yamlish = true
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			if k, rest, ok := bytes.Cut(line, []byte(":")); ok && isKeyWord(k) && (len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t') {
				top[string(k)] = true
				yamlish = true
				continue
			}
			if k, rest, ok := bytes.Cut(line, []byte("=")); ok && isKeyWord(bytes.TrimSpace(k)) && !bytes.HasPrefix(rest, []byte("=")) {
				if !sawHeader {
					before[string(bytes.TrimSpace(k))] = true
				}
				continue
			}
		}
		if bytes.HasSuffix(t, []byte(":")) || bytes.Contains(t, []byte(": ")) {
			yamlish = true
			continue
		}
		other = true
	}
	switch {
	case top["package"] && top["metadata"]:
		return envspec.KindCondaLock
	case top["environments"] && top["packages"]:
		return envspec.KindPixiLock
	case yamlish:
		return envspec.KindEnvFile
	case before["lock-version"]:
		return envspec.KindPylock
	case hasHeader(headers, "package") && before["version"] && !hasHeader(headers, "metadata"):
		return envspec.KindUVLock
	case hasHeader(headers, "tool.pixi") || hasHeader(headers, "workspace") || hasHeader(headers, "feature.") ||
		(hasHeader(headers, "project") && hasHeader(headers, "dependencies")):
		return envspec.KindPixiManifest
	case len(headers) > 0:
		return envspec.KindUnknown
	case other:
		return envspec.KindRequirements
	}
	return envspec.KindEnvFile
}

func isKeyWord(k []byte) bool {
	if len(k) == 0 || k[0] == '-' {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// hasHeader reports a [table] header equal to h, or starting with h where
// h ends in '.'; [[h]] counts.
func hasHeader(headers []string, h string) bool {
	for _, x := range headers {
		if x == h || (strings.HasSuffix(h, ".") && strings.HasPrefix(x, h)) || strings.HasPrefix(x, h+".") {
			return true
		}
	}
	return false
}

func tomlHeader(src []byte, h string) bool {
	for _, line := range bytes.Split(src, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] == '[' {
			x := string(bytes.Trim(t, "[] "))
			if x == h || strings.HasPrefix(x, h+".") {
				return true
			}
		}
	}
	return false
}

// Read reads any input envguard knows, chosen by SniffFile, every reader
// bounded by opt.MaxItems and stopped by opt.Context. A file of no known
// format gives an Env with one EG100 that names the formats. It never
// returns nil.
func Read(file string, src []byte, opt Options) *envspec.Env {
	switch SniffFile(file, src) {
	case envspec.KindExplicit:
		return ReadExplicitWith(file, src, opt)
	case envspec.KindCondaLock:
		return ReadCondaLock(file, src, opt)
	case envspec.KindPixiLock:
		return ReadPixiLock(file, src, opt)
	case envspec.KindPixiManifest:
		return ReadPixiManifest(file, src, opt)
	case envspec.KindUVLock:
		return ReadUVLock(file, src, opt)
	case envspec.KindPylock:
		return ReadPylock(file, src, opt)
	case envspec.KindRequirements:
		return ReadRequirements(file, src, opt)
	case envspec.KindCollectEnv:
		return ReadCollectEnv(file, src, opt)
	case envspec.KindUnknown:
		env := &envspec.Env{File: file, Kind: envspec.KindUnknown, Platform: opt.Platform, Lines: envspec.SplitLines(src)}
		env.Diags = finding.Diagnostics{{Pos: finding.Pos{File: file, Line: 1}, Severity: envspec.RuleEG100.Severity, Code: envspec.RuleEG100.Code,
			Message: fmt.Sprintf("envguard does not read this file: it is none of %s", Formats),
			Hint:    "validate the environment file, lock file or requirements file the project installs from"}}
		return env
	}
	return envspec.Parse(file, src, envspec.ParseOptions{Platform: opt.Platform, MaxItems: opt.MaxItems, Context: opt.Context})
}

// IsInputName reports whether a directory walk should pick a file by its
// name: environment files (environment*.yml, *.environment.yml,
// *.conda.yml), lock files (conda-lock, pixi, uv, pylock, and conda-lock's
// rendered explicit files conda-linux-64.lock), pixi manifests,
// requirements files and `conda list --explicit` files (*explicit*.txt,
// spec-file.txt). Some are picked only once their content says so: see
// NeedsContentToPick, which names every other YAML file too (env*.yml,
// the files of envs/, conda/ and environments/ directories, and any
// .yml or .yaml, each by its own content test: PickByContent).
func IsInputName(name string) bool {
	b := strings.ToLower(path.Base(strings.ReplaceAll(name, "\\", "/")))
	switch {
	case isYAMLName(b) && pickedByYAMLName(b),
		b == "pixi.lock", b == "pixi.toml", b == "pyproject.toml", b == "uv.lock",
		rePylockName().MatchString(b),
		strings.HasSuffix(b, ".txt") && strings.Contains(b, "requirements"):
		return true
	}
	return NeedsContentToPick(name)
}

func isYAMLName(b string) bool { return strings.HasSuffix(b, ".yml") || strings.HasSuffix(b, ".yaml") }

// pickedByYAMLName reports the YAML names that say what the file is
// (b lower case): environment*.yml, *.environment.yml, *.conda.yml and
// conda-lock files. A broken one is reported, not skipped.
func pickedByYAMLName(b string) bool {
	stem := strings.TrimSuffix(strings.TrimSuffix(b, ".yml"), ".yaml")
	return strings.HasPrefix(b, "environment") || strings.HasSuffix(stem, ".environment") ||
		strings.HasSuffix(stem, ".conda") || stem == "conda-lock" || strings.HasSuffix(stem, ".conda-lock")
}

// envNamed reports the YAML files whose name or directory suggests an
// environment without saying so (env*.yml: also envoy.yaml, a dotenv
// env.yml, envs-compose.yml; any YAML file of an envs/, conda/ or
// environments/ directory: also a conda-build recipe's meta.yaml): their
// content need only have a top-level dependencies: key.
func envNamed(name string) bool {
	name = strings.ToLower(strings.ReplaceAll(name, "\\", "/"))
	b := path.Base(name)
	if strings.HasPrefix(b, "env") {
		return true
	}
	switch path.Base(path.Dir(name)) {
	case "envs", "conda", "environments":
		return true
	}
	return false
}

// NeedsContentToPick reports whether a file IsInputName picks is one only
// if PickByContent agrees: a pyproject.toml without [tool.pixi] is not an
// environment, nor is a spec-file.txt or conda-*.lock that is not an
// explicit file, nor a YAML file (other than the names pickedByYAMLName
// knows) whose head is not an environment file's.
func NeedsContentToPick(name string) bool {
	b := strings.ToLower(path.Base(strings.ReplaceAll(name, "\\", "/")))
	return b == "pyproject.toml" ||
		strings.HasSuffix(b, ".txt") && (strings.Contains(b, "explicit") || strings.HasPrefix(b, "spec-file")) ||
		strings.HasPrefix(b, "conda-") && strings.HasSuffix(b, ".lock") ||
		isYAMLName(b) && !pickedByYAMLName(b)
}

// PickHead is how much of a YAML file PickByContent needs: the top-level
// keys of an environment file come first, and a directory search must not
// read every large YAML file of a repository to its end.
const PickHead = 64 << 10

// PickByContent decides the files NeedsContentToPick names. For a YAML
// file src may be its first PickHead bytes: it is an environment file when
// its top level is a mapping with a dependencies: list (of package specs,
// not of mappings like a Helm chart's) and a channels: or name: key; where
// its name suggests one (envNamed), a top-level dependencies: key is
// enough. A dependencies: of another shape (a mapping, a list's items
// unindented) beside a channels: key, or a pip: mapping where the list
// was meant, is a broken environment file, picked so that it is reported. Docker Compose, Envoy, Kubernetes and dotenv-style YAML is not.
func PickByContent(name string, src []byte) bool {
	b := strings.ToLower(path.Base(strings.ReplaceAll(name, "\\", "/")))
	if b == "pyproject.toml" {
		return SniffFile(name, src) == envspec.KindPixiManifest
	}
	if isYAMLName(b) {
		sh := yamlHeadShape(src)
		if envNamed(name) {
			return sh.mapping && sh.deps
		}
		// A dependencies: value of another shape is still an environment
		// file's, broken, beside conda's own channels: key, or where it
		// is pip's subsection as a mapping (a list's dash forgotten).
		return sh.mapping && sh.deps && (sh.channels || sh.name) && (sh.depsList || sh.depsPip || sh.channels)
	}
	return Sniff(src) == envspec.KindExplicit
}

// headShape is what yamlHeadShape saw of a YAML text's first document.
type headShape struct {
	mapping  bool // the top level is a block mapping
	deps     bool // a top-level dependencies: key
	depsList bool // ... whose value is a list of package specs (or empty)
	depsPip  bool // ... or a mapping whose first key is pip:
	channels bool // a top-level channels: key
	name     bool // a top-level name: key
}

// yamlHeadShape reads the top-level keys of a YAML text line by line, so
// that a head cut anywhere, or a file that is not valid YAML, still says
// what it looks like. Only the first document counts.
func yamlHeadShape(src []byte) headShape {
	var sh headShape
	started := false // a content line has been seen
	inDeps := false  // the lines after `dependencies:` with no value
	for len(src) > 0 {
		var line []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			line, src = src, nil
		}
		if !started {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		line = bytes.TrimRight(line, " \t\r")
		t := bytes.TrimLeft(line, " \t")
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if !started && (t[0] == '%' || bytes.Equal(line, []byte("---"))) {
			continue // a directive, the first document's start
		}
		if bytes.Equal(line, []byte("---")) || bytes.Equal(line, []byte("...")) || bytes.HasPrefix(line, []byte("--- ")) {
			break // the next document
		}
		col0 := len(t) == len(line)
		if inDeps {
			inDeps = false
			if t[0] == '-' && (len(t) == 1 || t[1] == ' ' || t[1] == '\t') {
				sh.depsList = specItem(bytes.TrimLeft(t[1:], " \t"))
				continue
			}
			if k, _, ok := topKey(t); ok && !col0 && k == "pip" {
				sh.depsPip = true
				continue
			}
			// `dependencies:` with nothing under it: null, not a list.
		}
		if !col0 {
			continue
		}
		key, rest, ok := topKey(line)
		if !started {
			started = true
			if !ok {
				return sh // a list, a scalar or a flow collection at the top
			}
			sh.mapping = true
		}
		if !ok {
			continue
		}
		switch key {
		case "dependencies":
			sh.deps = true
			rest = stripComment(rest)
			switch {
			case len(rest) == 0:
				inDeps = true
			case rest[0] == '[':
				in := bytes.TrimSpace(rest[1:])
				sh.depsList = len(in) > 0 && (in[0] == ']' || specItem(in))
			}
		case "channels":
			sh.channels = true
		case "name":
			sh.name = true
		}
	}
	return sh
}

// topKey reads `key:` at the start of a top-level line (plain or quoted);
// rest is what follows the colon.
func topKey(line []byte) (key string, rest []byte, ok bool) {
	if len(line) > 0 && (line[0] == '"' || line[0] == '\'') {
		end := bytes.IndexByte(line[1:], line[0])
		if end < 0 {
			return "", nil, false
		}
		after := bytes.TrimLeft(line[end+2:], " \t")
		if len(after) == 0 || after[0] != ':' || (len(after) > 1 && after[1] != ' ' && after[1] != '\t') {
			return "", nil, false
		}
		return string(line[1 : end+1]), bytes.TrimSpace(after[1:]), true
	}
	for i, c := range line {
		if c == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			k := bytes.TrimRight(line[:i], " \t")
			if len(k) == 0 || !isKeyWord(k) {
				return "", nil, false
			}
			return string(k), bytes.TrimSpace(line[i+1:]), true
		}
	}
	return "", nil, false
}

// specItem reports whether a dependencies: list item is a package spec
// (a scalar such as python=3.10 or conda-forge::numpy) or pip's
// subsection, not a mapping such as a Helm chart's `- name: common`.
func specItem(t []byte) bool {
	t = stripComment(t)
	if len(t) == 0 {
		return false
	}
	if t[0] == '{' {
		return bytes.HasPrefix(bytes.TrimLeft(t[1:], " \t"), []byte("pip:"))
	}
	if k, _, ok := topKey(t); ok {
		return k == "pip"
	}
	return true
}

// stripComment drops a trailing ` # comment` outside quotes.
func stripComment(t []byte) []byte {
	var q byte
	for i, c := range t {
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case i == 0 && (c == '"' || c == '\''):
			q = c
		case c == '#' && (i == 0 || t[i-1] == ' ' || t[i-1] == '\t'):
			return bytes.TrimSpace(t[:i])
		}
	}
	return bytes.TrimSpace(t)
}
