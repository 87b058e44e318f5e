package cache

import (
	"syscall"
	"unsafe"
)

// bigManifest is the size from which a manifest is read into memory of
// its own, in huge pages, rather than the Go heap.
const bigManifest = 1 << 20

// hugePage is the size of a transparent huge page on amd64 and arm64
// (4 KiB base pages).
const hugePage = 2 << 20

// manifestBuffer returns n bytes to read a manifest into. A warm run over
// 10,000 files reads 13 MB; on the KVM development machine, reading that
// into fresh heap memory took 55–65 ms and checksumming it afterwards 26–46
// ms (a fault and a TLB miss for every 4 KiB page), against 10 ms and 6 ms
// in memory given transparent huge pages (madvise), where the kernel
// allows them. The mapping is aligned to a huge page: the kernel backs
// only whole aligned 2 MiB ranges with one, so an unaligned 3 MB mapping
// (check's manifest of an 850-library venv) got none and took 15–20 ms
// to read. The memory is not returned: a process reads one manifest,
// and the results it prints are slices of it. Where the mapping fails the
// heap serves.
func manifestBuffer(n int64) []byte {
	if n < bigManifest {
		return make([]byte, n)
	}
	size := (int(n) + hugePage - 1) &^ (hugePage - 1)
	b, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]byte, n)
	}
	off := 0
	if r := int(uintptr(unsafe.Pointer(&b[0])) & (hugePage - 1)); r != 0 {
		off = hugePage - r
	}
	b = b[off : off+size]
	// Refused where transparent huge pages are off: plain pages then.
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	return b[:n:n]
}
