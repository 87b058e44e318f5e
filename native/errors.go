package native

import (
	"errors"
	"fmt"
)

// The kinds of failure, for errors.Is. Every error the package returns for
// a bad file is an *Error that wraps one of these (or an I/O error).
var (
	// ErrNotELF: the file does not start with the ELF magic.
	ErrNotELF = errors.New("not an ELF file")
	// ErrFormat: a structure is broken: truncated, a size that runs past
	// what holds it, a bad magic or version.
	ErrFormat = errors.New("malformed")
	// ErrLimit: a count or size is over its bound (Limits).
	ErrLimit = errors.New("over a limit")
	// ErrNotPackage: a file given as a package is none of the formats read.
	ErrNotPackage = errors.New("not a wheel or conda package")
)

// Error says what was wrong, in which file and where.
type Error struct {
	Path   string // the file, "pkg.whl!member" inside a package
	Offset int64  // byte offset in the ELF file (the member), or -1
	What   string // what was wrong, in words
	Err    error  // ErrNotELF, ErrFormat, ErrLimit, ErrNotPackage or an I/O error
}

func (e *Error) Error() string {
	where := e.Path
	if e.Offset >= 0 {
		where += fmt.Sprintf(": offset %#x", e.Offset)
	}
	if e.What == "" {
		return where + ": " + e.Err.Error()
	}
	if e.Err == ErrFormat || e.Err == ErrLimit || e.Err == ErrNotELF || e.Err == ErrNotPackage || e.Err == nil {
		return where + ": " + e.What
	}
	return where + ": " + e.What + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

func formatErr(path string, off int64, format string, a ...any) error {
	return &Error{Path: path, Offset: off, What: fmt.Sprintf(format, a...), Err: ErrFormat}
}

func limitErr(path string, off int64, format string, a ...any) error {
	return &Error{Path: path, Offset: off, What: fmt.Sprintf(format, a...), Err: ErrLimit}
}

func ioErr(path string, off int64, what string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Path: path, Offset: off, What: what, Err: err}
}
