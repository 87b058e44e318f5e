package resolver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// LibBreak is a framework build that fails at import because of the
// release of a library the file gets (the knowledge base's lib_breaks: the
// pytorch channel's linux-64 pytorch with MKL 2024.1 or later, which no
// longer exports iJIT_NotifyEvent). gpucheck raises it as EG411 on every
// target: the build needs a library release that neither the environment
// nor the system provides.
type LibBreak struct {
	Pos     finding.Pos   // the framework's line
	Related []finding.Pos // the library's line, where the file has one
	Message string
	Hint    string
}

// libBreaks judges the lib_breaks rows of the file's framework build. The
// library's release is the one a prefix holds or the file pins, else the
// newest the file admits on the channel it comes from, where the
// knowledge base lists that channel's releases.
func libBreaks(c *Context) []LibBreak {
	fw, rows := libBreakRows(c)
	var out []LibBreak
	for _, row := range rows {
		if b, ok := libBreakOf(c, fw, row); ok {
			out = append(out, b)
		}
	}
	return out
}

// libBreakRows are the lib_breaks rows that hold for every release of the
// file's conda framework it can get on the platform it is judged for, with
// that framework; nil where none does.
func libBreakRows(c *Context) (*Framework, []kb.LibBreak) {
	if c == nil || c.KB == nil || c.Env == nil || c.Stack == nil || c.Stack.Framework == nil {
		return nil, nil
	}
	fw := c.Stack.Framework
	if fw.From != envspec.ProviderConda || fw.Dist == "" {
		return nil, nil
	}
	platform := readPlatform(c.Env)
	if platform == "" {
		return nil, nil
	}
	rels := libBreakReleases(c, fw)
	if len(rels) == 0 {
		return nil, nil
	}
	var rows []kb.LibBreak
	for _, row := range c.KB.LibBreaksOf(fw.Name, fw.Dist, platform, rels[0]) {
		if everyReleaseBreaks(c.KB, fw, platform, rels, row.Lib) {
			rows = append(rows, row)
		}
	}
	return fw, rows
}

// condaNamed is the file's first conda item of that package, nil where it
// has none.
func (c *Context) condaNamed(name string) *item {
	for i, d := range c.Env.Deps {
		if it := c.condaItem(i, d); it != nil && it.name == name {
			return it
		}
	}
	return nil
}

// solvedEnv says whether env lists what is installed (a lock file, an
// explicit list, a prefix) rather than what a solver is asked for.
func solvedEnv(env *envspec.Env) bool {
	switch env.Kind {
	case envspec.KindExplicit, envspec.KindPrefix, envspec.KindCondaLock, envspec.KindPixiLock, envspec.KindCollectEnv:
		return true
	}
	return false
}

// readPlatform is the conda subdir the file is judged for: the one it is
// read for (linux-64 where none is given), "" where the file's platforms
// list leaves that one out.
func readPlatform(env *envspec.Env) string {
	p := env.Platform
	if p == "" {
		p = "linux-64"
	}
	if len(env.Platforms) == 0 {
		return p
	}
	for _, q := range env.Platforms {
		if q.Value == p {
			return p
		}
	}
	return ""
}

// libBreakReleases are the releases of the framework the file can get from
// its distribution: the pinned one, else those its spec admits that the
// distribution published, with the variant selector the file pins
// (pytorch-cuda selects the pytorch channel's 1.13 and later).
func libBreakReleases(c *Context, fw *Framework) []string {
	if v := fw.release(); v != "" {
		return []string{v}
	}
	pytorchCUDA := false
	for _, p := range fw.Pins {
		pytorchCUDA = pytorchCUDA || p.Kind == EvidencePytorchCUDA
	}
	var out []string
	for _, v := range fw.Candidates {
		if !torchPublishedIn(c, fw.Dist, v) {
			continue
		}
		if vs, ok := c.KB.Variants(SeriesOf(v), fw.Dist); !ok || (pytorchCUDA && !strings.HasPrefix(vs.Selector, "pytorch-cuda")) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// everyReleaseBreaks says whether each admitted release has a lib_breaks
// row for lib: a verdict on the library holds only where every build the
// file admits takes it the same way.
func everyReleaseBreaks(k *kb.KB, fw *Framework, platform string, rels []string, lib string) bool {
	for _, v := range rels {
		found := false
		for _, r := range k.LibBreaksOf(fw.Name, fw.Dist, platform, v) {
			found = found || r.Lib == lib
		}
		if !found {
			return false
		}
	}
	return true
}

// libBreakOf judges one lib_breaks row against the file: which release of
// the library it gets, and from which channel.
func libBreakOf(c *Context, fw *Framework, row kb.LibBreak) (LibBreak, bool) {
	got, where, lib, ok := libBreakRelease(c, row, "")
	if !ok {
		return LibBreak{}, false
	}
	if c, ok := kb.CompareDotted(got, row.BreaksFrom); !ok || c < 0 {
		return LibBreak{}, false
	}
	b := LibBreak{
		Pos: fw.Pos,
		Message: fmt.Sprintf("%s%s is %s's %s build, which runs with %s but needs %s older than %s: %s, so `import %s` fails on every machine (%s)",
			fw.Item, at(fw.Pos), distWhere(fw.Dist), row.Platform, row.Run, row.Lib, row.BreaksFrom, where, importName(fw.Name), row.Symptom),
		Hint: fmt.Sprintf("pin %s=%s (or any %s before %s) in this file", row.Lib, row.LastGood, row.Lib, row.BreaksFrom),
	}
	if lib != nil {
		b.Hint = fmt.Sprintf("change line %d to %s=%s (or any %s before %s)", lib.pos().Line, row.Lib, row.LastGood, row.Lib, row.BreaksFrom)
		b.Related = append(b.Related, lib.pos())
	}
	return b, true
}

// libBreakRelease is the release of row's library the file gets, said with
// where it comes from, and the file's item for it (nil where it has none):
// a prefix's, else the newest the file's spec admits on the channel it
// comes from (channel, or the file's channel order where ""), where the
// knowledge base lists that channel's releases. ok is false where that is
// not known, or where the file asks for nomkl.
func libBreakRelease(c *Context, row kb.LibBreak, channel string) (got, where string, lib *item, ok bool) {
	if c.condaNamed("no"+row.Lib) != nil {
		// nomkl steers the solver away from mkl builds: what it makes of a
		// build that requires mkl is not judged here
		return "", "", nil, false
	}
	lib = c.condaNamed(row.Lib)
	if lib != nil && lib.conda != nil && lib.conda.Installed != nil {
		return lib.conda.Installed.Version, "the environment holds " + row.Lib + " " + lib.conda.Installed.Version, lib, true
	}
	if solvedEnv(c.Env) {
		// a solved environment installs the release it lists, and none
		// where it lists none: no solver picks one
		if lib == nil || lib.exact == "" {
			return "", "", lib, false
		}
		return lib.exact, "the file installs " + row.Lib + " " + lib.exact, lib, true
	}
	ch, how := channel, "the channel the route leaves it"
	if ch == "" {
		ch, how = libChannel(c.Env, lib, row.Lib), "the first channel of the file that publishes it"
		if lib != nil && lib.channel != "" && !lib.firstChannel {
			how = "as the file writes it"
		}
	}
	if ch == "" || !slices.Contains(row.Channels, ch) {
		return "", "", lib, false // a channel whose releases are not known
	}
	rel, found := c.KB.CondaReleasesOf(row.Lib, distribution(ch))
	if !found {
		return "", "", lib, false
	}
	spec := ""
	if lib != nil {
		spec = lib.verText
	}
	got = newestAdmitted(rel.Releases, spec)
	if got == "" {
		return "", "", lib, false
	}
	where = fmt.Sprintf("%s comes from %s (%s), whose newest release is %s", row.Lib, ch, how, got)
	if spec != "" {
		where = fmt.Sprintf("%s comes from %s (%s), and the newest release there that %s%s admits is %s", row.Lib, ch, how, lib.raw(), at(lib.pos()), got)
	}
	return got, where, lib, true
}

// libBreakRoute is what a route that takes a library from channel (EG108's
// conda-forge alone) must add so that the framework still loads: "" where
// no lib_breaks row applies, or the file already gets that library from
// there.
func libBreakRoute(c *Context, channel string) string {
	fw, rows := libBreakRows(c)
	for _, row := range rows {
		if now := libChannel(c.Env, c.condaNamed(row.Lib), row.Lib); now == channel {
			continue // EG411 says it already
		}
		if !routeTakesFrom(c.Env, row.Lib, channel) {
			continue
		}
		got, _, _, ok := libBreakRelease(c, row, channel)
		if cmp, cok := kb.CompareDotted(got, row.BreaksFrom); !ok || !cok || cmp < 0 {
			continue
		}
		return fmt.Sprintf("; pin %s=%s as well: %s's %s build of %s runs with %s, and %s's newest %s (%s) makes `import %s` fail (%s, EG411)",
			row.Lib, row.LastGood, distWhere(fw.Dist), row.Platform, fw.Item, row.Run, channel, row.Lib, got, importName(fw.Name), row.Symptom)
	}
	return ""
}

// libChannel is the channel a conda package comes from: the one written
// before `::`, else the first of the file's channels that publishes it; ""
// where a channel before that one is not known (it may publish it too).
func libChannel(env *envspec.Env, it *item, name string) string {
	if it != nil && it.channel != "" && !it.firstChannel {
		return it.channel
	}
	for _, n := range channelNames(env) {
		if n == "nodefaults" {
			continue
		}
		pub, known := publishesKnown(n, name)
		if !known {
			return ""
		}
		if pub {
			return n
		}
	}
	return ""
}

// routeTakesFrom says whether, with the defaults channels dropped, a
// package comes from channel: no channel before it is unknown or
// publishes the package.
func routeTakesFrom(env *envspec.Env, name, channel string) bool {
	for _, n := range channelNames(env) {
		if n == "nodefaults" || n == "defaults" {
			continue
		}
		if n == channel {
			return true
		}
		if pub, known := publishesKnown(n, name); pub || !known {
			return false
		}
	}
	return false
}

// newestAdmitted is the newest of rels (oldest first) a conda version spec
// admits, or the newest where spec is empty; "" where it admits none.
func newestAdmitted(rels []string, spec string) string {
	if spec == "" {
		if len(rels) == 0 {
			return ""
		}
		return rels[len(rels)-1]
	}
	vs, err := envspec.ParseVersionSpec(spec)
	if err != nil || vs == nil {
		return ""
	}
	for i := len(rels) - 1; i >= 0; i-- {
		if vs.MatchString(rels[i]) {
			return rels[i]
		}
	}
	return ""
}

func importName(framework string) string {
	if framework == "pytorch" {
		return "torch"
	}
	return framework
}
