package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver"
)

// JSON renders the report as the CLI prints it (and the service with
// ?pretty=1): indented, with a trailing newline, HTML characters left alone.
func (r *Report) JSON() []byte { return r.encodeJSON(true) }

// CompactJSON is JSON without the indentation: the same value in about two
// thirds of the bytes and time, which is what the service sends unless
// asked.
func (r *Report) CompactJSON() []byte { return r.encodeJSON(false) }

func (r *Report) encodeJSON(indent bool) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(r); err != nil {
		// Every field is a plain value; failing to encode is a bug.
		panic(fmt.Sprintf("report: encoding JSON: %v", err))
	}
	return b.Bytes()
}

// WriteText renders findings like a compiler: the position, severity and
// code, the source line, and a caret under the offending part.
func (r *Report) WriteText(w io.Writer) error { return r.WriteTextColor(w, false) }

// ANSI colours for the text format: the severity word and its caret.
var sevColor = map[finding.Severity]string{
	finding.SeverityError:   "\x1b[1;31m",
	finding.SeverityWarning: "\x1b[1;33m",
	finding.SeverityInfo:    "\x1b[1;36m",
}

const colorBold, colorReset = "\x1b[1m", "\x1b[0m"

// WriteTextColor is WriteText, with the severities, carets and positions
// coloured when color is set (a terminal, without NO_COLOR). Everything
// quoted from the input — names, messages, snippets — goes through
// TermEscape first, so the only escape sequences written are these.
func (r *Report) WriteTextColor(w io.Writer, color bool) error {
	paint := func(code, s string) string {
		if !color || s == "" {
			return s
		}
		return code + s + colorReset
	}
	var b strings.Builder
	for _, d := range r.diags {
		fmt.Fprintf(&b, "%s: %s %s %s", paint(colorBold, TermEscape(d.Pos.String())), paint(sevColor[d.Severity], d.Severity.String()), d.Code, TermEscape(d.Message))
		if d.Target != "" {
			fmt.Fprintf(&b, " (target %s)", TermEscape(d.Target))
		}
		b.WriteByte('\n')
		if line, start, cutEnd := r.env.Columns().Window(d.Pos.Line, d.Pos.Col, d.EndCol, envspec.SnippetWidth); line != "" {
			// A long line shows only the part around the finding, so that a
			// one-line file of a megabyte is not printed once per finding.
			col, end := d.Pos.Col-start+1, d.EndCol-start+1
			if start > 1 {
				line, col, end = envspec.Ellipsis+line, col+1, end+1
			}
			if cutEnd {
				line += envspec.Ellipsis
			}
			if d.EndCol == 0 {
				end = 0
			}
			num := fmt.Sprintf("%5d", d.Pos.Line)
			fmt.Fprintf(&b, "%s | %s\n", num, TermEscape(strings.ReplaceAll(line, "\t", " ")))
			if d.Pos.Col > 0 {
				b.WriteString(strings.Repeat(" ", len(num)) + " | " + paint(sevColor[d.Severity], caret(line, col, end)) + "\n")
			}
		}
		if d.Hint != "" {
			fmt.Fprintf(&b, "      = hint: %s\n", TermEscape(d.Hint))
		}
	}
	b.WriteString(TermEscape(r.gpuPackagesLine()))
	if r.env != nil && r.env.Kind == envspec.KindCollectEnv {
		// A pasted bug report leaves facts out more often than a file does;
		// what the judgement could not cover is said where it is read.
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "%s: note: %s\n", TermEscape(r.File), TermEscape(strings.TrimPrefix(n, r.File+": ")))
		}
	}
	b.WriteString(TermEscape(r.summaryLine()))
	_, err := io.WriteString(w, b.String())
	return err
}

// gpuPackagesLine sums up the GPU-code packages beside the framework, in
// one line, where the environment has an extension: what each was built
// for, and which the knowledge base does not know. "" when it has none.
func (r *Report) gpuPackagesLine() string {
	if r.Stack == nil {
		return ""
	}
	var exts, libs, unknown []string
	for _, p := range r.Stack.GPUPackages {
		label := p.Name
		if p.Version != "" {
			label += " " + p.Version
		}
		switch p.Role {
		case resolver.RoleExtension:
			if bf := p.BuiltFor.Summary(); bf != "" {
				label += " (" + bf + ")"
			}
			exts = append(exts, label)
		case resolver.RoleCUDALibrary:
			libs = append(libs, label)
		}
		if !p.Known {
			unknown = append(unknown, p.Name)
		}
	}
	if len(exts) == 0 {
		return ""
	}
	s := fmt.Sprintf("%s: GPU code beside the framework: %s", r.File, strings.Join(exts, ", "))
	if len(libs) > 0 {
		s += "; CUDA libraries: " + strings.Join(libs, ", ")
	}
	if len(unknown) > 0 {
		s += "; not known to envguard: " + strings.Join(unknown, ", ")
	}
	return s + "\n"
}

// TermEscape escapes terminal control characters (C0 but newline and tab,
// DEL, C1) and bytes that are not UTF-8 as \xNN, so that text quoted from
// an input is shown, never obeyed, by the terminal.
func TermEscape(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func (r *Report) summaryLine() string {
	name := r.Name.Canonical
	if name == "" {
		name = "no canonical name"
	}
	var targets, uninstallable []string
	for _, t := range r.Targets {
		state := string(t.Verdict)
		if t.Verdict == gpucheck.VerdictFail {
			state = "FAIL"
		}
		targets = append(targets, t.Name+" "+state)
		if t.Uninstallable != "" && !slices.Contains(uninstallable, t.Uninstallable) {
			uninstallable = append(uninstallable, t.Uninstallable)
		}
	}
	s := fmt.Sprintf("%s: %s; %s, %s, %s", r.File, name,
		plural(r.Summary.Errors, "error"), plural(r.Summary.Warnings, "warning"), fmt.Sprintf("%d info", r.Summary.Info))
	if len(targets) > 0 {
		s += "; targets: " + strings.Join(targets, ", ")
	}
	if len(uninstallable) > 0 {
		// no target finding says why these fail: the file's own does
		s += " (the file cannot be installed as written: " + strings.Join(uninstallable, "; ") + ")"
	}
	return s + "\n"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// caret draws ^~~~ under columns [col, end) of line. Columns count
// characters, as yaml.v3 counts them, not bytes: a line with "ÿ" before the
// finding would otherwise put the caret one place too far right.
func caret(line string, col, end int) string {
	if col < 1 {
		return ""
	}
	n := utf8.RuneCountInString(line)
	if col > n+1 {
		col = n + 1
	}
	width := 1
	if end > col {
		width = min(end, n+1) - col
	}
	if width < 1 {
		width = 1
	}
	return strings.Repeat(" ", col-1) + "^" + strings.Repeat("~", width-1)
}

// WriteGitHub renders findings as GitHub Actions workflow commands, which
// the Actions runner turns into annotations on the pull request.
func (r *Report) WriteGitHub(w io.Writer) error {
	var b strings.Builder
	for _, d := range r.diags {
		level := "notice"
		switch d.Severity {
		case finding.SeverityError:
			level = "error"
		case finding.SeverityWarning:
			level = "warning"
		}
		msg := d.Message
		if d.Target != "" {
			msg += " (target " + d.Target + ")"
		}
		if d.Hint != "" {
			msg += "\nhint: " + d.Hint
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d", level, ghProp(d.Pos.File), d.Pos.Line)
		if d.Pos.Col > 0 {
			fmt.Fprintf(&b, ",col=%d", d.Pos.Col)
			if d.EndCol > d.Pos.Col {
				fmt.Fprintf(&b, ",endColumn=%d", d.EndCol)
			}
		}
		fmt.Fprintf(&b, ",title=%s::%s\n", ghProp(d.Code), ghData(msg))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ghData and ghProp escape as the Actions toolkit's command issuer does.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
