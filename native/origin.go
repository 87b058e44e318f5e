package native

import (
	"path"
	"strings"
)

// ExpandOrigin expands $ORIGIN and ${ORIGIN} in RPATH or RUNPATH entries
// to origin, the directory of the file that holds them, and cleans the
// result, as the dynamic loader does (ld.so(8), "Dynamic string tokens").
// $LIB and $PLATFORM depend on the machine that loads the file, and are
// left as they are; so is an entry that is empty (the loader's working
// directory).
func ExpandOrigin(entries []string, origin string) []string {
	if len(entries) == 0 {
		return nil
	}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		x := strings.ReplaceAll(e, "${ORIGIN}", origin)
		x = replaceToken(x, "$ORIGIN", origin)
		if x != "" && !strings.Contains(x, "$") {
			x = path.Clean(x)
		}
		out = append(out, x)
	}
	return out
}

// replaceToken replaces tok where it is not the start of a longer name
// ($ORIGINAL stays).
func replaceToken(s, tok, with string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, tok)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(tok)
		if end < len(s) && isNameByte(s[end]) {
			b.WriteString(s[:end])
			s = s[end:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(with)
		s = s[end:]
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// ExpandTokens expands every dynamic string token of RPATH or RUNPATH
// entries, as ExpandOrigin does $ORIGIN, and returns each directory the
// loader could search: $LIB and $PLATFORM depend on the machine that loads
// the file, which a check of a prefix for a described target does not
// have, so each expands to every value the loader of that ELF machine uses.
// ld.so(8), "Dynamic string tokens": $LIB "expands to lib or lib64
// depending on the architecture (e.g., on x86-64, it expands to lib64 and
// on x86-32, it expands to lib)", and Debian's multiarch glibc expands it
// to lib/<triplet>; $PLATFORM is AT_PLATFORM ("x86_64", "aarch64"), which
// glibc before 2.37 replaced by "haswell" or "xeon_phi" on CPUs that have
// those features. The union is what a check of "nothing provides it"
// needs: a library is missing only if no expansion finds it. An entry with
// a token this does not know stays as it is (and names no directory).
func ExpandTokens(entries []string, origin, machine string) []string {
	var out []string
	for _, e := range ExpandOrigin(entries, origin) {
		xs := []string{e}
		for _, tok := range []struct {
			names []string
			vals  []string
		}{
			{[]string{"${LIB}", "$LIB"}, libTokenValues(machine)},
			{[]string{"${PLATFORM}", "$PLATFORM"}, platformTokenValues(machine)},
		} {
			var next []string
			for _, x := range xs {
				if !hasToken(x, tok.names) || len(tok.vals) == 0 {
					next = append(next, x)
					continue
				}
				for _, v := range tok.vals {
					y := strings.ReplaceAll(x, tok.names[0], v)
					next = append(next, replaceToken(y, tok.names[1], v))
				}
			}
			xs = next
		}
		for _, x := range xs {
			if x != "" && !strings.Contains(x, "$") {
				x = path.Clean(x)
			}
			out = append(out, x)
		}
	}
	return out
}

func hasToken(s string, names []string) bool {
	if strings.Contains(s, names[0]) {
		return true
	}
	return replaceToken(s, names[1], "\x00") != s
}

// libTokenValues are the values of $LIB for an ELF machine (e_machine as
// debug/elf spells it), see ExpandTokens.
func libTokenValues(machine string) []string {
	switch machine {
	case "EM_X86_64":
		return []string{"lib64", "lib", "lib/x86_64-linux-gnu"}
	case "EM_AARCH64":
		return []string{"lib64", "lib", "lib/aarch64-linux-gnu"}
	case "EM_PPC64":
		return []string{"lib64", "lib", "lib/powerpc64le-linux-gnu"}
	}
	return nil
}

// platformTokenValues are the values of $PLATFORM for an ELF machine.
func platformTokenValues(machine string) []string {
	switch machine {
	case "EM_X86_64":
		return []string{"x86_64", "haswell", "xeon_phi"}
	case "EM_AARCH64":
		return []string{"aarch64"}
	}
	return nil
}
