//go:build !linux

package native

import "os"

// lstatEntry lstats p into an entryStat (lstat_linux.go does it without
// a FileInfo).
func lstatEntry(p string) (entryStat, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return entryStat{}, err
	}
	return entryStat{key: KeyOf(p, fi), dir: fi.IsDir(), regular: fi.Mode().IsRegular()}, nil
}
