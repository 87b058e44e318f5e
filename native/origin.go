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
