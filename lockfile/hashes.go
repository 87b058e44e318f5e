package lockfile

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// The sha256 of the file a lock entry pins is kept on its Installed
// (envspec.Installed.SHA256): a build learned by `envguard kb learn` is
// found by it.

// lockSHA256 is a YAML scalar holding a sha256 (conda-lock's hash.sha256,
// pixi.lock's sha256), lowercased; "" when n is not 64 hex digits.
func lockSHA256(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return sha256Hex(n.Value)
}

// sha256Hex is s (optionally "sha256:"-prefixed, as uv.lock writes it)
// lowercased when it is 64 hex digits, else "".
func sha256Hex(s string) string {
	s = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "sha256:")))
	if len(s) != 64 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return ""
		}
	}
	return s
}
