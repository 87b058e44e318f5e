//go:build !linux

package cache

// manifestBuffer returns n bytes to read a manifest into (see
// buffer_linux.go for why Linux differs).
func manifestBuffer(n int64) []byte { return make([]byte, n) }
