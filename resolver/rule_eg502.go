package resolver

import (
	"fmt"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// ruleEG502 reports a framework version not pinned to one release: an open
// spec, a series (`=2.0`, `2.0.*`) or none at all.
var ruleEG502 = &Rule{
	Rule: finding.Rule{
		Code:     "EG502",
		Name:     "framework-not-pinned",
		Severity: finding.SeverityWarning,
		Title:    "the framework version is not pinned to a release",
		Why: "An open framework version gives a different environment each time it is built, and there is no " +
			"canonical name for it: the run that worked last month cannot be rebuilt.",
		Fix:    "Pin one release (pytorch=2.0.1, torch==2.0.1+cu118).",
		Before: "dependencies:\n  - pytorch>=2.0\n",
		After:  "dependencies:\n  - pytorch=2.0.1\n",
		Since:  "0.1.0",
	},
	run: runEG502,
}

func runEG502(c *Context) []finding.Diagnostic {
	st := c.Stack
	if st == nil || st.Framework == nil || st.Framework.Version != "" || st.Framework.Installed != "" {
		// An installed pre-release is one build, read as its series
		// only for the knowledge base: nothing is left open.
		return nil
	}
	f := st.Framework
	// the releases the spec admits that the distribution published (the
	// pytorch channel has none after 2.5): the range and the example
	// name only what the file can install
	cands := f.Candidates
	var across *channelReleases
	if f.Name == "pytorch" && c.KB != nil {
		var pub []string
		for _, v := range f.Candidates {
			if torchPublishedIn(c, f.Dist, v) {
				pub = append(pub, v)
			}
		}
		if len(pub) > 0 {
			cands = pub
		}
		// a conda item without a channel of its own may come from any
		// channel the file lists (flexible priority, conda's default):
		// the range counts each one the knowledge base lists releases of,
		// and names those it does not (review 4 #310: soumith beside
		// conda-forge)
		if across = torchAcrossChannels(c, f); across != nil && len(across.union) > 0 {
			cands = across.union
		}
	}
	admits := ""
	switch {
	case across != nil && len(f.Candidates) > 0:
		admits = " (admits " + across.String(cands) + ")"
	case len(cands) > 0 && f.Name == "tensorflow":
		// The tested-builds table lists one release per series (2.11.0),
		// not the patch releases (2.11.1): name the series the spec
		// admits, not releases it would seem to stop at (review
		// seventeen F38).
		admits = " (admits the " + seriesRange(cands) + " releases)"
	case len(cands) > 0:
		admits = " (admits " + RangeOf(cands) + ")"
	}
	// A spec reaching below the oldest release the tables list
	// (pytorch>=0.2.0: the tables start at 1.0.0) admits releases they do
	// not name, so the range is only what they list, and no newest listed
	// release is offered as the example (review 8 #975: 2.5.1 for a
	// cuda90-era file).
	older := ""
	if oldest := oldestListed(c.KB, f.Name); oldest != "" && len(cands) > 0 && admitsBelow(f.Spec, oldest) {
		older = oldest
		admits = strings.TrimSuffix(admits, ")") + "; it also admits releases before " + oldest + ", which the knowledge base does not list)"
	}
	// the package as the file writes it, channel included
	// (pytorch::pytorch), and never renamed: on defaults tensorflow-gpu is
	// the GPU build and tensorflow the mkl one (review 3 #377)
	pkg := f.Package
	if pkg == "" {
		pkg = f.Name
		if f.From == envspec.ProviderPip {
			pkg = pipName(f.Name)
		}
	}
	name := pkg
	if i := strings.Index(f.Item, "::"); i >= 0 && f.From != envspec.ProviderPip {
		name = f.Item[:i+2] + pkg
	}
	pin := func(v string) string {
		if f.From == envspec.ProviderPip {
			return pkg + "==" + v
		}
		return name + "=" + v
	}
	hint := fmt.Sprintf("pin the exact release you run on line %d, with all three parts (%s): conda reads =X.Y as every X.Y.x release", f.Pos.Line, pin("X.Y.Z"))
	if f.From == envspec.ProviderPip {
		hint = fmt.Sprintf("pin the exact release you run on line %d (%s)", f.Pos.Line, pin("X.Y.Z"))
	}
	ex := ""
	switch {
	case older != "":
	case len(cands) > 0:
		ex = newestFitting(c, f, packageReleases(c, f, cands))
	case f.Spec == "" && c.KB != nil:
		ex = newestFitting(c, f, packageReleases(c, f, knownReleases(c.KB, f.Name)))
	}
	if ex != "" {
		hint = fmt.Sprintf("pin the exact release you run on line %d, e.g. %s", f.Pos.Line, pin(ex))
	}
	if sel := pytorchChannelSelector(c, f); sel != nil && older == "" && f.From == envspec.ProviderConda && !strings.Contains(f.Item, "::") {
		// the file's pytorch-cuda or cpuonly selects the pytorch channel's
		// builds only: an example from the channel pytorch comes from
		// would not honour it (review forty-four F31, corpus 164:
		// pytorch=2.12.0 beside pytorch-cuda=11.8)
		one := *f
		one.Dist = kb.DistPytorchConda
		vs := cands
		if len(vs) == 0 && f.Spec == "" && c.KB != nil {
			vs = knownReleases(c.KB, f.Name)
		}
		if ex := newestFitting(c, &one, vs); ex != "" {
			hint = fmt.Sprintf("pin the exact release you run on line %d, e.g. pytorch::pytorch=%s, a release the pytorch channel built for %s (line %d), which selects that channel's builds only", f.Pos.Line, ex, sel.Dep.Raw.Value, sel.Dep.Raw.Pos.Line)
		}
	}
	if f.NotPublished != "" {
		// no release the line admits exists where it asks (EG205): a pin
		// within what it admits would not install either (review
		// fifty-one F21, corpus 096)
		hint = fmt.Sprintf("no release this line admits exists there (EG205): pin a release that does, with all three parts, e.g. %s=%s from the pytorch channel (its last), or take pytorch from conda-forge or pip", name, lastOnChannelRelease(c.KB))
	}
	canonical, nameErr := st.Canonical()
	var msg string
	if len(cands) == 1 && f.Name == "pytorch" {
		// =1.6 where the 1.6 series has one release (review 3 #822): the
		// spec installs that release today; what it leaves open is a
		// later release of the series, not the canonical name. Only the
		// torch tables list every release; TensorFlow's lists one tested
		// configuration per series (2.12.0, not 2.12.1).
		where := ""
		if across != nil {
			where = across.where()
		} else if len(cands) < len(f.Candidates) {
			// conda-forge skipped 2.0.1: the spec admits it, the channel has it not
			where = " for " + distWhere(f.Dist)
		}
		msg = fmt.Sprintf("%s%s is not pinned to a release: of the releases the knowledge base lists%s it admits only %s, which it installs today, but a %s.x published later would be installed instead",
			f.Item, at(f.Pos), where, cands[0], seriesOf(cands[0]))
		if nameErr == nil && canonical != "" {
			msg += " (its canonical name " + canonical + " does not depend on it)"
		}
	} else {
		tail := "the environment is not reproducible and has no canonical name"
		switch {
		case nameErr == nil && canonical != "":
			tail = "the environment is not reproducible (its canonical name " + canonical + " holds only major and minor, so it is still known)"
		case oneSeries(f.Candidates) != "":
			// the name needs only the series, which the spec fixes: a
			// missing name has another cause, which its own finding gives
			tail = "the environment is not reproducible"
		}
		msg = fmt.Sprintf("%s%s is not pinned to a release%s: %s", f.Item, at(f.Pos), admits, tail)
	}
	return []finding.Diagnostic{newFinding(c.rule, f.VersionPos, f.VersionEnd, msg, hint)}
}

func pipName(fw string) string {
	if fw == "pytorch" {
		return "torch"
	}
	return fw
}

// newestFitting is the newest of vs (oldest first) that can be the
// example of a pin: a release the knowledge base shows published under the
// item's package on its distribution, for the file's Python and with the
// CUDA variant the file's own pins select (exampleFits); "" when none is.
// An example the file cannot install is no fix (issue 26: TF 2.21 beside
// Python 3.5 in corpus 062, pytorch 2.5.1 beside pytorch-cuda=11.7 in 182).
func newestFitting(c *Context, f *Framework, vs []string) string {
	if c.KB == nil {
		return ""
	}
	for i := len(vs) - 1; i >= 0; i-- {
		if exampleFits(c, f, vs[i]) {
			return vs[i]
		}
	}
	return ""
}

// exampleFits reports whether release v can stand in the file in place
// of the framework's open item (see newestFitting).
func exampleFits(c *Context, f *Framework, v string) bool {
	switch f.Name {
	case "pytorch":
		if f.Dist == kb.DistDefaults {
			// an example must be a release the list shows defaults
			// published, not one it does not settle (review twelve #829:
			// pytorch=2.14.0 offered where defaults' list ends at 2.12.0)
			if pub, known := c.KB.CondaPublished("pytorch", kb.DistDefaults, v); !known || !pub {
				return false
			}
		}
		return torchPublishedIn(c, f.Dist, v) && runsPython(c, f, v) && fitsCUDAPins(c, f, v)
	case "tensorflow":
		return tfPublishedAs(c, f, v) && runsPython(c, f, v)
	}
	return false
}

// knownReleases lists the releases of a framework the knowledge base
// knows, oldest first: the torch tables, or TensorFlow's tested
// configurations and conda-forge's builds. Worked out once per knowledge
// base and framework, not once per file.
func knownReleases(k *kb.KB, framework string) []string {
	key := releasesKey{k, framework}
	if v, ok := releasesCache.Load(key); ok {
		return v.([]string)
	}
	seen := map[string]bool{}
	var out []string
	add := func(v string) {
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	switch framework {
	case "pytorch":
		for _, r := range k.Facts.Torch {
			add(r.Version)
		}
	case "tensorflow":
		for _, t := range k.Facts.TensorFlow {
			add(t.Version)
		}
		for _, r := range k.TFCondaForge {
			add(r.Version)
		}
	}
	sortVersions(out)
	releasesCache.Store(key, out)
	return out
}

// releasesKey is what knownReleases' answer depends on.
type releasesKey struct {
	kb        *kb.KB
	framework string
}

var releasesCache sync.Map // releasesKey → []string

// tfPublishedAs reports whether the knowledge base shows TensorFlow
// release v published under the framework item's package where the file
// installs it: pip's tensorflow for every release of the tested
// configurations (TF_SOURCE), pip's tensorflow-gpu where that table names
// it the GPU package (up to 2.0); conda-forge's tensorflow for each release
// its feedstock built (tensorflow_conda_forge), whose Python lists the
// knowledge base does not carry, so only for a file that pins no Python.
// Nothing else: the defaults channel's tensorflow-gpu releases and their
// Python builds, and tensorflow-cpu's releases, are not in it.
func tfPublishedAs(c *Context, f *Framework, v string) bool {
	if f.From == envspec.ProviderPip {
		for _, t := range c.KB.Facts.TensorFlow {
			if t.Version == v {
				return f.Package == "tensorflow" || (f.Package == "tensorflow-gpu" && t.Package == "tensorflow-gpu")
			}
		}
		return false
	}
	if f.Dist != kb.DistCondaForge || f.Package != "tensorflow" || c.Stack.Python != "" {
		return false
	}
	for _, r := range c.KB.TFCondaForge {
		if r.Version == v {
			return true
		}
	}
	return false
}

// fitsCUDAPins reports whether torch release v has the CUDA variant the
// file's own CUDA pins select on its distribution, where the knowledge
// base lists the variants of v's series there. On the pytorch channel a
// series is selected by pytorch-cuda=X.Y (1.13–2.5) or cudatoolkit=X.Y (up
// to 1.12): a pin of the series' selector must name one of its variants,
// and a file whose only CUDA pins are of the other selector asks for a
// CUDA that series' builds ignore. On conda-forge cuda-version or
// cudatoolkit must be served by one of the series' builds (a build for X.Y
// serves newer X.x from CUDA 11 on).
func fitsCUDAPins(c *Context, f *Framework, v string) bool {
	st := c.Stack
	if st.CUDA == nil || (f.Dist != kb.DistPytorchConda && f.Dist != kb.DistCondaForge) {
		return true
	}
	vs, ok := c.KB.Variants(seriesOf(v), f.Dist)
	sel := ""
	if ok {
		sel, _, _ = strings.Cut(vs.Selector, "=")
	}
	ownSel, otherSel := false, false
	for _, e := range st.CUDA.Evidence {
		if !hasMinor(e.Says) {
			continue
		}
		switch {
		case f.Dist == kb.DistPytorchConda && (e.Kind == EvidencePytorchCUDA || e.Kind == EvidenceCudatoolkit):
			if !ok || e.Kind != sel {
				otherSel = true
				continue
			}
			ownSel = true
			if !servedBy(vs.CUDA, e.Says, true) {
				return false
			}
		case f.Dist == kb.DistCondaForge && (e.Kind == EvidenceCUDAVersion || e.Kind == EvidenceCudatoolkit):
			if !ok || !servedBy(vs.CUDA, e.Says, false) {
				return false
			}
		}
	}
	return ownSel || !otherSel
}

// servedBy reports whether one of the CUDA variants cudas serves CUDA
// want: the same major.minor, or (exact false) a conda-forge build for an
// older minor of the same major from CUDA 11 on (cfServes).
func servedBy(cudas []string, want string, exact bool) bool {
	for _, cu := range cudas {
		if cfServes(majorMinor(cu), want, exact) {
			return true
		}
	}
	return false
}

// torchPublishedIn reports whether a distribution published a torch
// release, as far as the knowledge base knows: the pytorch channel not after
// 2.5, conda-forge only the releases its series row lists. A distribution
// whose series the knowledge base has no row for (pip, defaults) is not
// narrowed, except the pytorch channel, whose rows are complete. The
// defaults channel answers from its list of releases (conda_releases)
// where that covers the release: 2.4.1 it never published.
func torchPublishedIn(c *Context, dist kb.Distribution, version string) bool {
	if dist == kb.DistDefaults {
		if pub, known := c.KB.CondaPublished("pytorch", dist, version); known {
			return pub
		}
	}
	v, ok := c.KB.Variants(seriesOf(version), dist)
	if !ok {
		return dist != kb.DistPytorchConda && dist != kb.DistCondaForge
	}
	if v.NotPublished {
		return false
	}
	if len(v.Releases) == 0 {
		return true
	}
	for _, r := range v.Releases {
		if r == version {
			return true
		}
	}
	return false
}

// runsPython reports whether a torch or TensorFlow release supports the
// file's Python (the distribution's builds of a torch release where the
// knowledge base lists them, else torch's supported or experimental list;
// TensorFlow's tested list); true when either is not known. An example the file's
// Python cannot install is no fix (issue 26: corpus 062 was told to pin
// TensorFlow 2.21 beside Python 3.5).
func runsPython(c *Context, f *Framework, version string) bool {
	if c.Stack == nil || c.KB == nil {
		return true
	}
	if c.Stack.Python == "" {
		// a range (python>=3.7,<3.9): the release must install with one
		// of the minors it admits (review fifty-five F8, corpus 030:
		// pytorch=2.5.1 needs Python 3.9)
		minors := pythonMinorsOf(c.Stack.PythonSpec)
		if minors == nil {
			return true
		}
		for _, py := range minors {
			if runsPythonMinor(c, f, version, py) {
				return true
			}
		}
		return false
	}
	return runsPythonMinor(c, f, version, c.Stack.Python)
}

// PythonFor is the Python a release of the stack's framework installs
// with, for a builder asked to build it: the file's minor where it pins
// one, else the newest minor its range admits that the release supports,
// "" where the file leaves Python open. ok is false where no Python the
// file admits installs the release (pytorch 2.5.1 beside
// python>=3.7,<3.9).
func PythonFor(k *kb.KB, st *Stack, version string) (py string, ok bool) {
	if st == nil || st.Framework == nil || k == nil {
		return "", true
	}
	c := &Context{KB: k, Stack: st}
	if st.Python != "" {
		return st.Python, runsPython(c, st.Framework, version)
	}
	minors := pythonMinorsOf(st.PythonSpec)
	if minors == nil {
		return "", true
	}
	for i := len(minors) - 1; i >= 0; i-- {
		if runsPythonMinor(c, st.Framework, version, minors[i]) {
			return minors[i], true
		}
	}
	return "", false
}

// pythonMinorsOf lists the Python minors (2.7, 3.0 … 3.19) a conda version
// spec admits, nil where there is no spec or it does not parse.
func pythonMinorsOf(spec string) []string {
	if spec == "" {
		return nil
	}
	vs, err := envspec.ParseVersionSpec(spec)
	if err != nil || vs == nil {
		return nil
	}
	out := []string{}
	for _, m := range append([]string{"2.7"}, pythonThreeMinors()...) {
		for _, v := range []string{m, m + ".0", m + ".99"} {
			if pv, err := envspec.ParseVersion(v); err == nil && vs.Match(pv) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

func pythonThreeMinors() []string {
	out := make([]string, 0, 20)
	for y := 0; y < 20; y++ {
		out = append(out, fmt.Sprintf("3.%d", y))
	}
	return out
}

// runsPythonMinor says whether the release installs with Python py.
func runsPythonMinor(c *Context, f *Framework, version, py string) bool {
	if f.Name == "tensorflow" {
		t, ok := c.KB.TensorFlow(version)
		return !ok || len(t.Python) == 0 || pyIn(t.Python, py)
	}
	if f.Name != "pytorch" {
		return true
	}
	r, ok := c.KB.Release(version)
	if !ok || len(r.Python) == 0 {
		return true
	}
	if dp, ok := pythonBuildsFor(c, c.Stack, version); ok {
		// the distribution's own builds of the release (EG204 reads them too)
		return dp.row.Supports(py, r.Python, r.PythonExperimental)
	}
	return pyIn(r.Python, py) || pyIn(r.PythonExperimental, py)
}

// channelReleases is what the knowledge base says of the releases an
// open conda spec admits on each channel the file lists.
type channelReleases struct {
	union   []string // oldest first, over the channels it lists releases of
	known   []string // those channels, in the file's order
	ranges  []string // rangeOf each one's releases, as known
	notes   []string // what qualifies each range ("" for none)
	unknown []string // channels that may publish the package but whose releases it does not list
}

// torchAcrossChannels works out channelReleases for an open conda pytorch
// item written without a channel of its own: a channel the knowledge base
// has torch_variants rows for (the pytorch channel, conda-forge) counts
// with the admitted releases it built; one that publishes no torch
// (nvidia) is left out; any other (defaults, whose releases the knowledge
// base does not list, and channels it does not know) is unknown, never
// guessed. nil where that says nothing the first channel's releases do
// not: a single channel with releases and no unknown one.
func torchAcrossChannels(c *Context, f *Framework) *channelReleases {
	if c.Env == nil || f.From != envspec.ProviderConda || strings.Contains(f.Item, "::") || len(f.Candidates) == 0 {
		return nil
	}
	out := &channelReleases{}
	seen := map[string]bool{}
	inUnion := map[string]bool{}
	for _, n := range channelNames(c.Env) {
		if n == "" || n == "nodefaults" || seen[n] {
			continue
		}
		seen[n] = true
		d := distribution(n)
		if d == kb.DistDefaults {
			// defaults has no torch_variants rows, but its conda_releases
			// list the releases it published (review eleven #513: 'the
			// knowledge base lists no pytorch releases for defaults' was
			// false); a release the list does not settle either way keeps
			// the channel's range open
			var pub []string
			open := false
			for _, v := range f.Candidates {
				p, known := c.KB.CondaPublished("pytorch", d, v)
				switch {
				case known && p:
					pub = append(pub, v)
					if !inUnion[v] {
						inUnion[v] = true
						out.union = append(out.union, v)
					}
				case !known:
					open = true
				}
			}
			if len(pub) > 0 {
				note := ""
				if open {
					note = " as far as the knowledge base's list of its releases settles them"
				}
				out.known = append(out.known, n)
				out.ranges = append(out.ranges, RangeOf(pub))
				out.notes = append(out.notes, note)
				continue
			}
		}
		if d == "" || !c.KB.HasTorchVariants(d) {
			if pub, known := publishesKnown(n, pkgOf(f)); known && !pub {
				continue
			}
			out.unknown = append(out.unknown, n)
			continue
		}
		var pub []string
		for _, v := range f.Candidates {
			if torchPublishedIn(c, d, v) {
				pub = append(pub, v)
				if !inUnion[v] {
					inUnion[v] = true
					out.union = append(out.union, v)
				}
			}
		}
		if len(pub) > 0 {
			out.known = append(out.known, n)
			out.ranges = append(out.ranges, RangeOf(pub))
			out.notes = append(out.notes, "")
		}
	}
	if len(out.unknown) == 0 && len(out.known) < 2 {
		return nil
	}
	sortVersions(out.union)
	return out
}

// String says what the spec admits, per channel: "1.8.1 … 2.5.1 on
// pytorch, 1.9.0 … 2.9.1 on conda-forge; the knowledge base lists no
// pytorch releases for soumith, so which it adds is unknown". all are the
// releases the spec admits, said where no channel's releases are listed.
func (cr *channelReleases) String(all []string) string {
	var per []string
	for i, n := range cr.known {
		per = append(per, cr.ranges[i]+" on "+n+cr.notes[i])
	}
	s := strings.Join(per, ", ")
	if len(cr.unknown) == 0 {
		return s
	}
	they, adds, has := "it", "adds", "has"
	if len(cr.unknown) > 1 {
		they, adds, has = "they", "add", "have"
	}
	names := joinAnd(cr.unknown)
	if len(per) == 0 {
		return fmt.Sprintf("%s of pytorch's releases; the knowledge base lists none for %s, so which of them %s %s is unknown",
			RangeOf(all), names, they, has)
	}
	return fmt.Sprintf("%s; the knowledge base lists no pytorch releases for %s, so which %s %s is unknown", s, names, they, adds)
}

// where names the channels for "of the releases the knowledge base lists…".
func (cr *channelReleases) where() string {
	s := ""
	if len(cr.known) > 0 {
		s = " on " + joinAnd(cr.known)
	}
	switch {
	case len(cr.unknown) > 0 && len(cr.known) > 0:
		s += " (none for " + joinAnd(cr.unknown) + ")"
	case len(cr.unknown) > 0:
		s = " (it lists no releases of " + joinAnd(cr.unknown) + ")"
	}
	return s
}

// oldestListed is the oldest release of framework fw the knowledge base's
// release table lists, "" for none.
func oldestListed(k *kb.KB, fw string) string {
	if k == nil {
		return ""
	}
	var all []string
	switch fw {
	case "pytorch":
		for _, t := range k.Facts.Torch {
			all = append(all, t.Version)
		}
	case "tensorflow":
		for _, t := range k.Facts.TensorFlow {
			all = append(all, t.Version)
		}
	}
	if len(all) == 0 {
		return ""
	}
	sortVersions(all)
	return all[0]
}

// admitsBelow reports whether a conda-syntax version spec admits some
// version of a series older than oldest's: each X.Y and X.Y.Z with X from
// 0 to oldest's major and Y, Z below 20 is tried, which covers how
// framework releases before a table's first have been numbered. Versions
// of oldest's own series are not counted: tensorflow-gpu=1.13 admits a
// 1.13.0 that was never released, not a release the table lacks.
func admitsBelow(spec, oldest string) bool {
	vs, err := envspec.ParseVersionSpec(spec)
	if err != nil || vs == nil {
		return false
	}
	top, err := envspec.ParseVersion(oldest)
	if err != nil {
		return false
	}
	major := 0
	fmt.Sscanf(oldest, "%d", &major)
	for x := 0; x <= major; x++ {
		for y := 0; y < 20; y++ {
			for z := -1; z < 20; z++ {
				v := fmt.Sprintf("%d.%d", x, y)
				if z >= 0 {
					v += fmt.Sprintf(".%d", z)
				}
				pv, err := envspec.ParseVersion(v)
				if err != nil || pv.Compare(top) >= 0 || seriesOf(v) == seriesOf(oldest) {
					continue
				}
				if vs.Match(pv) {
					return true
				}
			}
		}
	}
	return false
}

// seriesRange names the series of a sorted candidate list: "2.11.x", or
// "2.10.x … 2.12.x".
func seriesRange(cands []string) string {
	first, last := SeriesOf(cands[0]), SeriesOf(cands[len(cands)-1])
	if first == last {
		return first + ".x"
	}
	return first + ".x … " + last + ".x"
}

// packageReleases keeps, for a framework the file installs under the name
// its CPU build once had (the pytorch channel's pytorch-cpu, before 1.2),
// the releases published under that name: an example pin of another
// release names a package version that does not exist (review nineteen
// F29: pytorch-cpu=1.5.1). Other packages keep every release.
func packageReleases(c *Context, f *Framework, vs []string) []string {
	if c.KB == nil || f.Name != "pytorch" || f.Package == "" || f.Package == "pytorch" || f.Package == "torch" {
		return vs
	}
	var out []string
	for _, v := range vs {
		if tv, ok := c.KB.Variants(SeriesOf(v), f.Dist); ok && tv.CPUPackage == f.Package {
			out = append(out, v)
		}
	}
	if len(out) == 0 && f.Package != "pytorch-cpu" {
		return vs // pytorch-gpu and the like: the package follows pytorch's releases
	}
	return out
}

// lastOnChannelRelease is the newest release the pytorch channel
// published ("2.5.1"), or its series where no release row says more.
func lastOnChannelRelease(k *kb.KB) string {
	series := lastOnChannel(k)
	last := ""
	for _, r := range k.Facts.Torch {
		if seriesOf(r.Version) == series && (last == "" || compareVersions(r.Version, last) > 0) {
			last = r.Version
		}
	}
	if last == "" {
		return series
	}
	return last
}
