package native

import "github.com/ianlancetaylor/demangle"

// maxDemangledPow bounds a demangled name at 2^16 bytes: a hostile name cannot
// make a message grow without end.
const maxDemangledPow = 16

// Demangle returns the C++ (Itanium ABI) or Rust name a mangled symbol
// stands for, for messages; a name that is not mangled, or that does not
// demangle within the bound, comes back as it is. Library keeps the
// mangled names: they are what the dynamic loader matches.
func Demangle(name string) string {
	return demangle.Filter(name, demangle.MaxLength(maxDemangledPow))
}
