package native

import (
	"errors"
	"os"
	"runtime"
	"sync"
)

// ReadPath reads the path with the zero Options.
func ReadPath(p string) ([]*Library, error) { return Options{}.ReadPath(p) }

// ReadPath reads whatever p is: a directory or prefix (every shared
// library under it, as Walk finds them), a wheel or conda package (by its
// name, see PackageFormat), or one ELF file of any type. It returns the
// libraries read, in path order, and every error met, joined: a library
// that cannot be read is left out and named in the error, and the others
// are still read.
func (o Options) ReadPath(p string) ([]*Library, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, openErr(p, err)
	}
	switch {
	case st.IsDir():
		var found []Found
		werr := Walk(p, func(f Found) error { found = append(found, f); return nil })
		libs, rerr := o.readAll(found)
		return libs, errors.Join(werr, rerr)
	case PackageFormat(p) != "":
		pkg, err := o.ReadPackage(p)
		if pkg == nil {
			return nil, err
		}
		return pkg.Libraries, err
	}
	l, err := o.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return []*Library{l}, nil
}

// readAll reads the found files on a few goroutines (reads are mostly
// waiting on the disk when its cache is cold), keeping their order.
func (o Options) readAll(found []Found) ([]*Library, error) {
	libs := make([]*Library, len(found))
	errs := make([]error, len(found))
	workers := min(runtime.GOMAXPROCS(0), 8, len(found))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				libs[i], errs[i] = o.ReadFile(found[i].Path)
			}
		}()
	}
	for i := range found {
		next <- i
	}
	close(next)
	wg.Wait()
	out := libs[:0]
	for _, l := range libs {
		if l != nil {
			out = append(out, l)
		}
	}
	return out, errors.Join(errs...)
}
