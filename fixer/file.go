package fixer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// FileOptions control how FixFile reads and writes a file.
type FileOptions struct {
	// MaxSize is the largest file read, in bytes.
	MaxSize int64
	// Force writes a file that is read-only or that the user cannot write,
	// and one whose owner, group or mode bits cannot be kept.
	Force bool
	// LockWait bounds the wait for another envguard fix of the same file
	// (0: two minutes).
	LockWait time.Duration
}

// FileResult is what FixFile did.
type FileResult struct {
	*Result
	// Src is the text the fixes were computed from: the file as last read.
	Src []byte
	// Path is the file that was fixed: the name with its links followed.
	Path string
	// Written says the file was changed: some fix was made.
	Written bool
	// InPlace says the new text was written into the file itself (same
	// inode) rather than renamed over it, and why ("" when it was renamed).
	InPlace string
	// Attempts counts the reads: more than 1 when the file changed while
	// it was being fixed and the fixes were made again on the new text.
	Attempts int
	// Notes say what --force gave up (the owner that could not be kept).
	Notes []string
}

// ErrRefused marks the errors of a file FixFile would not write: it is
// read-only, cannot be written by the user, or kept changing while it was
// being fixed. Nothing was written.
var ErrRefused = errors.New("envguard fix refused to write the file")

type refusal struct{ msg string }

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == ErrRefused }

func refusedf(format string, a ...any) error { return &refusal{fmt.Sprintf(format, a...)} }

// maxAttempts bounds how often the fixes are made again on a file that
// changed under them before FixFile gives up.
const maxAttempts = 3

// errChanged says the file is not what the fixes were computed from.
var errChanged = errors.New("the file changed while it was being fixed")

// beforeSwap, when set (by tests), runs after the fixed text is written to
// the temporary file and before the check that the file is unchanged.
var beforeSwap func(path string, attempt int)

// FixFile fixes the file name in place. No fix is ever lost to another
// writer, nor another's change to a fix:
//
//   - envguard fixes of one file take turns: each holds an exclusive
//     flock(2) on the file from its read to its write, and one that waited
//     for a file since replaced opens the new one;
//   - right before the new text replaces the file, the file is stat'ed and
//     hashed (SHA-256) again; if it changed since it was read (a writer
//     that takes no lock), the fixes are made again on the new text, up to
//     maxAttempts times, and then FixFile gives up, writing nothing.
//
// The file keeps its mode (setuid, setgid and sticky too), owner and group:
// the new text is written to a temporary file in the same directory, given
// them, and renamed over the file. A file with more than one link, with an
// access ACL, or whose owner, group or mode the temporary file cannot be
// given, is written in place instead, so that it stays the same inode; the
// temporary file goes first, so the disk space is known to be there, and
// stays as a copy of the fixed text should the write stop half way. A
// symbolic link is followed: the file it names is fixed, the link kept.
//
// A read-only file (no write permission bit) and a file the user cannot
// write are refused unless opt.Force. Refusals wrap ErrRefused.
func FixFile(ctx context.Context, name string, opt Options, fo FileOptions) (*FileResult, error) {
	if fo.LockWait <= 0 {
		fo.LockWait = 2 * time.Minute
	}
	for attempt := 1; ; attempt++ {
		res, err := fixFileOnce(ctx, name, opt, fo, attempt)
		if !errors.Is(err, errChanged) {
			if res != nil {
				res.Attempts = attempt
			}
			return res, err
		}
		if attempt == maxAttempts {
			return nil, refusedf("%s changed while it was being fixed, %d times in a row: nothing written; run envguard fix again once nothing else writes it", name, attempt)
		}
	}
}

func fixFileOnce(ctx context.Context, name string, opt Options, fo FileOptions, attempt int) (*FileResult, error) {
	path, err := filepath.EvalSymlinks(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, refusedf("%s: no such file or directory", name)
		}
		return nil, refusedf("%s: %v", name, err)
	}
	f, st, err := openLocked(name, path, fo.LockWait)
	if err != nil {
		return nil, err
	}
	defer f.Close() // the lock goes with it
	if !fo.Force {
		if err := checkWritable(name, path, st); err != nil {
			return nil, err
		}
	}
	if st.Size() > fo.MaxSize {
		return nil, refusedf("%s is %d bytes, over the limit of %d (--max-size)", name, st.Size(), fo.MaxSize)
	}
	src, err := readAt0(f, fo.MaxSize)
	if err != nil {
		return nil, refusedf("%s: %v", name, err)
	}
	sum := sha256.Sum256(src)
	res, err := Fix(ctx, name, src, opt)
	if err != nil {
		return nil, err
	}
	out := &FileResult{Result: res, Src: src, Path: path}
	if len(res.Applied) == 0 || bytes.Equal(res.Fixed, src) {
		return out, nil
	}

	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".envguard-fix-*")
	if err != nil {
		return nil, fmt.Errorf("%s: writing the fixed file: %w; nothing written", name, err)
	}
	keepTmp := false
	defer func() {
		tmp.Close()
		if !keepTmp {
			os.Remove(tmp.Name()) // gone after a rename; cleans up otherwise
		}
	}()
	if _, err := tmp.Write(res.Fixed); err != nil {
		return nil, fmt.Errorf("%s: writing the fixed file: %w; nothing written", name, err)
	}
	if err := tmp.Sync(); err != nil {
		return nil, fmt.Errorf("%s: writing the fixed file: %w; nothing written", name, err)
	}
	inPlace := inPlaceReason(path, st)
	attrsLost := ""
	if inPlace == "" {
		attrsLost = keepAttrs(tmp, st)
		inPlace = attrsLost
	}
	if beforeSwap != nil {
		beforeSwap(path, attempt)
	}
	if err := unchanged(path, f, st, sum, fo.MaxSize); err != nil {
		return nil, err
	}
	if inPlace != "" {
		err := writeThrough(name, path, st, res.Fixed, src, tmp.Name())
		if err == nil {
			out.Written, out.InPlace = true, inPlace
			return out, nil
		}
		var half *halfWritten
		keepTmp = errors.As(err, &half)
		// --force on a file the user may not open for writing: the rename
		// writes it, as the user's file
		if !fo.Force || attrsLost == "" || !errors.Is(err, fs.ErrPermission) {
			return nil, err
		}
		out.Notes = append(out.Notes, "written with --force: "+attrsLost+", so the file is now yours")
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("%s: writing the fixed file: %w; nothing written", name, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return nil, fmt.Errorf("%s: writing the fixed file: %w; nothing written", name, err)
	}
	syncDir(filepath.Dir(path))
	out.Written = true
	return out, nil
}

// checkWritable refuses a read-only file and one the user cannot write:
// replacing it through its directory would go past the permission its
// owner set.
func checkWritable(name, path string, st fs.FileInfo) error {
	if st.Mode().Perm()&0o222 == 0 {
		return refusedf("%s is read-only (mode %04o): nothing written; make it writable, or use --force to write it anyway", name, st.Mode().Perm())
	}
	if err := canWrite(path); err != nil {
		return refusedf("%s is not writable by you (mode %04o%s): %v: nothing written; use --force to replace it anyway", name, st.Mode().Perm(), ownerText(st), err)
	}
	return nil
}

// readAt0 reads f from its start, at most max bytes.
func readAt0(f *os.File, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(io.NewSectionReader(f, 0, max+1), max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("over the limit of %d bytes (--max-size)", max)
	}
	return b, nil
}

// unchanged says whether path is still the file f was read from, with the
// same size, modification time and SHA-256 as when it was read. It runs
// right before the write: what another writer (one that takes no lock)
// does between this check and the rename is the one change that can still
// be lost.
func unchanged(path string, f *os.File, st fs.FileInfo, sum [32]byte, max int64) error {
	now, err := os.Lstat(path)
	if err != nil || !os.SameFile(now, st) {
		return errChanged
	}
	fst, err := f.Stat()
	if err != nil || fst.Size() != st.Size() || !fst.ModTime().Equal(st.ModTime()) {
		return errChanged
	}
	b, err := readAt0(f, max)
	if err != nil || sha256.Sum256(b) != sum {
		return errChanged
	}
	return nil
}

// halfWritten is an in-place write that failed and whose undo failed too:
// the file holds neither text whole, and the fixed text is kept in Copy.
type halfWritten struct {
	name, copy string
	err        error
}

func (h *halfWritten) Error() string {
	return fmt.Sprintf("%s: writing the fixed file in place: %v, and putting the old text back failed too: the file may be half written; the fixed text is in %s", h.name, h.err, h.copy)
}

func (h *halfWritten) Unwrap() error { return h.err }

// writeThrough writes data into the file itself, so that it stays the same
// inode (every link sees the fix; the owner, group, mode, ACLs and other
// attributes stay the inode's). The space is reserved first where the
// system can; a failed write puts old back, which fits the space the file
// already had.
func writeThrough(name, path string, st fs.FileInfo, data, old []byte, copyName string) error {
	w, err := os.OpenFile(path, os.O_WRONLY|openNoFollow, 0)
	if err != nil {
		return fmt.Errorf("%s: writing the fixed file in place: %w; nothing written", name, err)
	}
	defer w.Close()
	if wst, err := w.Stat(); err != nil || !os.SameFile(wst, st) {
		return errChanged
	}
	if err := reserve(w, int64(len(data))); err != nil {
		return fmt.Errorf("%s: writing the fixed file in place: %w; nothing written", name, err)
	}
	undo := func(err error) error {
		if _, uerr := w.WriteAt(old, 0); uerr != nil {
			return &halfWritten{name, copyName, err}
		}
		if uerr := w.Truncate(int64(len(old))); uerr != nil {
			return &halfWritten{name, copyName, err}
		}
		return fmt.Errorf("%s: writing the fixed file in place: %w; the old text was put back", name, err)
	}
	if _, err := w.WriteAt(data, 0); err != nil {
		return undo(err)
	}
	if err := w.Truncate(int64(len(data))); err != nil {
		return undo(err)
	}
	if err := w.Sync(); err != nil {
		return &halfWritten{name, copyName, err}
	}
	return nil
}

func syncDir(dir string) {
	// the rename is durable once the directory is; a directory that cannot
	// be synced (some network file systems) still has the rename
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
