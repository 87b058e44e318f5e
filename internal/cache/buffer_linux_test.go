package cache

import (
	"testing"
	"unsafe"
)

// A manifest's buffer is exactly its size, and one from bigManifest on
// starts on a huge page, which is what lets the kernel back it with them.
func TestManifestBufferAligned(t *testing.T) {
	for _, n := range []int64{0, 100, bigManifest - 1, bigManifest, 3 << 20, 2 * hugePage} {
		b := manifestBuffer(n)
		if int64(len(b)) != n || int64(cap(b)) != n {
			t.Errorf("manifestBuffer(%d): len %d cap %d", n, len(b), cap(b))
		}
		if n >= bigManifest && uintptr(unsafe.Pointer(&b[0]))%hugePage != 0 {
			t.Errorf("manifestBuffer(%d) starts at %p, not on a %d-byte boundary", n, &b[0], hugePage)
		}
		for i := range b { // every byte writable
			b[i] = 1
		}
	}
}
