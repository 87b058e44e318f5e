package envspec

import "github.com/envguard/envguard/finding"

// Kind says what an Env was read from.
type Kind string

const (
	KindEnvFile  Kind = "environment.yml" // CEP 24 file (also `conda env export` output)
	KindExplicit Kind = "explicit"        // `conda list --explicit` (@EXPLICIT and URLs)
	KindPrefix   Kind = "prefix"          // an installed conda prefix or venv
)

// The kinds of file besides environment.yml, explicit lists and prefixes.
const (
	KindCondaLock    Kind = "conda-lock"       // conda-lock.yml, the unified format (version 1)
	KindPixiLock     Kind = "pixi.lock"        // pixi's lock file
	KindPixiManifest Kind = "pixi.toml"        // pixi.toml, or [tool.pixi] in pyproject.toml
	KindUVLock       Kind = "uv.lock"          // uv's lock file
	KindPylock       Kind = "pylock.toml"      // PEP 751
	KindRequirements Kind = "requirements.txt" // a pip requirements file
	// KindCollectEnv is the output of `python -m torch.utils.collect_env`:
	// what one installed environment holds, and the machine it ran on.
	KindCollectEnv Kind = "collect_env"
	// KindUnknown is a file none of the readers recognises.
	KindUnknown Kind = "unknown"
)

// IsInstalled reports whether the Env describes an installed environment
// (a live prefix, or collect_env's account of one) rather than a file
// that says what to install: rules about what an installer would pick
// do not apply to it, and fixes are reinstalls, not edits.
func (e *Env) IsInstalled() bool { return e.Kind == KindPrefix || e.Kind == KindCollectEnv }

// Editable reports whether fixes may edit the text e was read from: an
// environment.yml or a pip requirements file, whose items sit where their
// positions say (the other formats are written by tools).
func (e *Env) Editable() bool {
	return e != nil && (e.Kind == KindEnvFile || e.Kind == KindRequirements)
}

// Provider says which installer provides a package.
type Provider string

const (
	ProviderConda Provider = "conda"
	ProviderPip   Provider = "pip"
)

// Env is an environment description with a position on every item.
// Every reader (environment file, explicit file, installed prefix) gives this
// same shape so the resolver has one input.
type Env struct {
	File string
	Kind Kind
	// Platform is the conda subdir selectors were evaluated for (linux-64).
	Platform string

	Name      *String
	Channels  []String
	Deps      []*CondaDep
	PipKey    *finding.Pos // where `- pip:` sits; nil when there is no pip subsection
	Pip       []*PipDep
	Variables []Variable
	Prefix    *String
	Platforms []String
	Category  *String
	// SystemCUDA is the CUDA a pixi manifest's environment declares through
	// `[system-requirements] cuda = "12"` (the highest of its features'):
	// pixi sets the __cuda virtual package to it while solving, which
	// makes conda-forge's CUDA builds installable. Nil for other files.
	SystemCUDA *String

	// Prefix-only facts.
	PythonVersion string     // from pyvenv.cfg or conda-meta python
	Torch         *TorchInfo // from site-packages/torch/version.py

	// Lines holds the source text by line (1-based through Line) for
	// snippets under findings.
	Lines []string
	// FinalNewline says whether the last of Lines ended with a line end in
	// the source (fixes that delete the last line need to know).
	FinalNewline bool
	// Ignores are the `# envguard: ignore CODE reason` comments found.
	Ignores []*Ignore
	// Diags are the syntax findings (EG1xx) raised while reading.
	Diags finding.Diagnostics
	// Notes say what could not be read and was left out (an unreadable
	// record of an installed prefix), so that nothing is skipped silently.
	Notes []string
	// BaseSites are the base interpreter's site directories a venv with
	// include-system-site-packages = true also imports from, after its
	// own, in sys.path order (absolute paths); the shared libraries there
	// are the environment's too.
	BaseSites []string

	cols *Columns // column answers about Lines, built on first use
}

// Columns answers column questions (where an item ends, the snippet of a
// line) about the source, indexing each long line once. Like the rest of an
// Env it is meant for one goroutine at a time.
func (e *Env) Columns() *Columns {
	if e.cols == nil || !sameLines(e.cols.lines, e.Lines) {
		e.cols = NewColumns(e.Lines)
	}
	return e.cols
}

func sameLines(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// TokenEnd is Columns().TokenEnd: the column just past the item that
// starts at column col of line n.
func (e *Env) TokenEnd(n, col int) int { return e.Columns().TokenEnd(n, col) }

// Line returns source line n (1-based), or "" when out of range.
func (e *Env) Line(n int) string {
	if n < 1 || n > len(e.Lines) {
		return ""
	}
	return e.Lines[n-1]
}

// CondaDep is one conda dependency.
type CondaDep struct {
	Raw     String     // the item as written, selector removed
	Spec    *MatchSpec // nil when Raw is not a valid MatchSpec (EG103 raised)
	Comment string     // the trailing comment, without '#'
	// Installed is set for items read from a prefix or an explicit file.
	Installed *Installed
}

// PipDep is one line of a pip subsection, or one installed distribution.
type PipDep struct {
	Raw       String
	Line      *PipLine // nil when Raw is neither a requirement nor an option (EG104 raised)
	Comment   string
	Installed *Installed
}

// Installed describes a package as it lies in a prefix.
type Installed struct {
	Name      string
	Version   string
	Build     string // conda build string; "" for pip
	Channel   string // conda channel (URL or name); "" for pip
	Subdir    string
	Installer string // INSTALLER of a dist-info: pip, uv, conda...
	Path      string // the file it was read from
	// DirectURL is direct_url.json's url, when present (pip install from a URL or -e).
	DirectURL string
	// SHA256 is the sha256 (lowercase hex) of the package file a lock
	// file pins, where it gives one: the file installed is that one.
	SHA256 string
	// System names the system's package manager that installed it
	// ("debian": an INSTALLER of debian, or none in a Debian dist-packages
	// outside /usr/local); "" when it is not one.
	System string
}

// Variable is one entry of `variables:`.
type Variable struct {
	Key   String
	Value String
}

// TorchInfo is what torch/version.py says of the installed torch.
type TorchInfo struct {
	Version string // __version__, e.g. 2.11.0+cu130
	CUDA    string // cuda, e.g. "13.0"; "" for a CPU build (None)
	Path    string
	// System names the system's package manager that installed it, as
	// for Installed.System.
	System string
}

// Ignore is a `# envguard: ignore CODE[,CODE] reason` comment.
type Ignore struct {
	Pos    finding.Pos
	Codes  []string
	Reason string
	// Used is set by whoever applies suppressions, so that ignores that
	// silenced nothing can be reported.
	Used bool
}
