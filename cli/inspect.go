package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/native"
)

func inspectCmd(e *env) *cobra.Command {
	var format string
	var symbols bool
	c := &cobra.Command{
		Use:   "inspect PATH...",
		Short: "List the GPU code (SASS, PTX, variants, compression) and the DT_NEEDED of shared libraries, a prefix, a wheel or a conda package",
		Long: "inspect reads what each library says it can run, from its own headers, with no CUDA toolkit:\n" +
			"the SASS and PTX architectures of its fatbin entries, their a/f variants and compression, and\n" +
			"the libraries it needs. A PATH is an ELF file, a directory (every shared library under it), a\n" +
			"wheel (.whl) or a conda package (.conda, .tar.bz2). docs/native.md gives the JSON fields.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErr("--format %q: want text or json", format)
			}
			return e.inspect(args, format, symbols)
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	c.Flags().BoolVar(&symbols, "symbols", false, "also list the dynamic symbols each library exports and imports")
	return c
}

// inspectReport is the JSON of `envguard inspect --format json`;
// docs/native.md documents it and scripts/h200-compare reads it.
type inspectReport struct {
	Libraries []inspectLibrary `json:"libraries"`
	Errors    []inspectError   `json:"errors"`
	Summary   inspectSummary   `json:"summary"`
}

type inspectLibrary struct {
	Path        string                     `json:"path"`
	Member      string                     `json:"member,omitempty"`
	Type        string                     `json:"type"`
	Machine     string                     `json:"machine"`
	SONAME      string                     `json:"soname"`
	Needed      []string                   `json:"needed"`
	RPATH       []string                   `json:"rpath"`
	RUNPATH     []string                   `json:"runpath"`
	SASS        []string                   `json:"sass"`
	PTX         []string                   `json:"ptx"`
	Variants    []string                   `json:"variants"`
	Compression map[native.Compression]int `json:"compression"`
	Containers  int                        `json:"containers"`
	Relocatable int                        `json:"relocatable"` // entries in __nv_relfatbin, in none of the lists above
	Entries     []inspectEntry             `json:"entries"`
	Exports     []native.Symbol            `json:"exports,omitempty"`
	Imports     []native.Symbol            `json:"imports,omitempty"`
}

type inspectEntry struct {
	Name        string             `json:"name"`      // sm_90a, compute_120
	Cuobjdump   string             `json:"cuobjdump"` // how cuobjdump names it: sm_90a, sm_120
	Kind        native.Kind        `json:"kind"`
	RawKind     uint16             `json:"raw_kind"`
	Arch        native.Arch        `json:"arch"`
	Variant     native.Variant     `json:"variant"`
	Compression native.Compression `json:"compression"`
	Flags       string             `json:"flags"`
	Container   int                `json:"container"`
	Section     string             `json:"section"`
	Offset      int64              `json:"offset"`
	Size        int64              `json:"size"`
}

type inspectError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

type inspectSummary struct {
	Libraries      int `json:"libraries"`
	WithDeviceCode int `json:"with_device_code"`
	Entries        int `json:"entries"`
	Errors         int `json:"errors"`
}

func (e *env) inspect(paths []string, format string, symbols bool) error {
	o := native.Options{Symbols: symbols}
	rep := inspectReport{Libraries: []inspectLibrary{}, Errors: []inspectError{}}
	for _, p := range paths {
		libs, err := o.ReadPath(p)
		for _, l := range libs {
			rep.Libraries = append(rep.Libraries, inspectView(l))
			rep.Summary.Libraries++
			rep.Summary.Entries += len(l.Entries)
			if l.HasDeviceCode() {
				rep.Summary.WithDeviceCode++
			}
		}
		for _, err := range splitErrors(err) {
			path := p
			var ne *native.Error
			if errors.As(err, &ne) {
				path = ne.Path
			}
			rep.Errors = append(rep.Errors, inspectError{Path: path, Message: err.Error()})
		}
	}
	rep.Summary.Errors = len(rep.Errors)
	if format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		writeInspectText(e.stdout, rep, symbols)
	}
	for _, er := range rep.Errors {
		fmt.Fprintf(e.stderr, "envguard: %s\n", er.Message)
	}
	if len(rep.Errors) > 0 {
		return &exitError{ExitUsage, errors.New("")}
	}
	return nil
}

// splitErrors undoes errors.Join, all the way down.
func splitErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, splitErrors(e)...)
		}
		return out
	}
	return []error{err}
}

func codeNames(cs []native.Code) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func inspectView(l *native.Library) inspectLibrary {
	v := inspectLibrary{
		Path: l.Path, Member: l.Member, Type: l.Type, Machine: l.Machine, SONAME: l.SONAME,
		Needed: orEmpty(l.Needed), RPATH: orEmpty(l.RPATH), RUNPATH: orEmpty(l.RUNPATH),
		SASS: codeNames(l.SASS()), PTX: codeNames(l.PTX()), Variants: codeNames(l.Variants()),
		Compression: map[native.Compression]int{native.Uncompressed: 0, native.LZ: 0, native.Zstd: 0}, Containers: l.Containers,
		Relocatable: len(l.Entries) - l.Loaded(),
		Entries:     make([]inspectEntry, 0, len(l.Entries)),
		Exports:     l.Exports, Imports: l.Imports,
	}
	for c, n := range l.Compressions() {
		v.Compression[c] = n
	}
	for _, en := range l.Entries {
		v.Entries = append(v.Entries, inspectEntry{
			Name: en.Code().String(), Cuobjdump: en.Code().Cuobjdump(),
			Kind: en.Kind, RawKind: en.RawKind, Arch: en.Arch, Variant: en.Variant,
			Compression: en.Compression, Flags: fmt.Sprintf("%#x", en.Flags),
			Container: en.Container, Section: en.Section, Offset: en.Offset, Size: en.Size,
		})
	}
	return v
}

func writeInspectText(w io.Writer, rep inspectReport, symbols bool) {
	for _, l := range rep.Libraries {
		name := l.Path
		if l.Member != "" {
			name += "!" + l.Member
		}
		fmt.Fprintln(w, name)
		row := func(k, v string) { fmt.Fprintf(w, "  %-12s %s\n", k, v) }
		row("type", l.Type)
		row("soname", dash(l.SONAME))
		if len(l.Entries) == l.Relocatable {
			row("device code", "none")
		} else {
			count := func(kind native.Kind) int {
				n := 0
				for _, en := range l.Entries {
					if en.Kind == kind && en.Section == ".nv_fatbin" {
						n++
					}
				}
				return n
			}
			row("sass", listOf(l.SASS, count(native.SASS)))
			row("ptx", listOf(l.PTX, count(native.PTX)))
			if n := count(native.Other); n > 0 {
				row("other", nouns(n, "entry", "entries")+" of other kinds")
			}
			row("variants", variantText(l.Variants))
			row("compression", compressionText(l.Compression, len(l.Entries)-l.Relocatable))
		}
		if l.Relocatable > 0 {
			row("relocatable", nouns(l.Relocatable, "entry", "entries")+" in __nv_relfatbin: device-link input, not loaded")
		}
		row("needed", dash(strings.Join(l.Needed, " ")))
		if len(l.RUNPATH) > 0 {
			row("runpath", strings.Join(l.RUNPATH, ":"))
		}
		if len(l.RPATH) > 0 {
			row("rpath", strings.Join(l.RPATH, ":"))
		}
		if symbols {
			symbolRows(w, "exports", l.Exports)
			symbolRows(w, "imports", l.Imports)
		}
	}
	s := rep.Summary
	fmt.Fprintf(w, "%s, %d with device code, %s", nouns(s.Libraries, "library", "libraries"),
		s.WithDeviceCode, nouns(s.Entries, "fatbin entry", "fatbin entries"))
	if s.Errors > 0 {
		fmt.Fprintf(w, ", %s", nouns(s.Errors, "error", "errors"))
	}
	fmt.Fprintln(w)
}

func symbolRows(w io.Writer, what string, syms []native.Symbol) {
	fmt.Fprintf(w, "  %-12s %d\n", what, len(syms))
	for _, s := range syms {
		d := native.Demangle(s.Name)
		line := d
		if d != s.Name {
			line += "  [" + s.Name + "]"
		}
		if s.Version != "" {
			line += " @" + s.Version
		}
		if s.Library != "" {
			line += " (" + s.Library + ")"
		}
		fmt.Fprintf(w, "    %s\n", line)
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// nouns is "1 entry", "2 entries".
func nouns(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func listOf(names []string, n int) string {
	if len(names) == 0 {
		return "none"
	}
	return fmt.Sprintf("%s (%s)", strings.Join(names, " "), nouns(n, "entry", "entries"))
}

func variantText(vs []string) string {
	if len(vs) == 0 {
		return "none"
	}
	var parts []string
	for _, v := range vs {
		switch {
		case strings.HasSuffix(v, "a"):
			parts = append(parts, v+" (arch-specific: that exact GPU only)")
		case strings.HasSuffix(v, "f"):
			parts = append(parts, v+" (family-specific: GPUs of that family)")
		default:
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, ", ")
}

func compressionText(m map[native.Compression]int, total int) string {
	var parts []string
	for _, c := range []native.Compression{native.Uncompressed, native.LZ, native.Zstd} {
		if n := m[c]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d of %d", c, n, total))
		}
	}
	return strings.Join(parts, ", ")
}
