package kbstore

import (
	"crypto/ed25519"
	"encoding/hex"
)

// ReleaseKeys are the public keys whose signatures `envguard kb update`
// accepts, by key ID; docs/knowledge-base.md says who holds the private
// halves and how a key is rotated (add the new ID here, release, sign with
// it, then move the old ID to Retired).
//
// The list is empty until the maintainers generate the release key
// (go run ./resolver/kb/cmd/kbbundle -genkey) and add its public half: until
// then every bundle is refused with a message naming the trusted keys.
var ReleaseKeys = Keys{
	Trusted: map[string]ed25519.PublicKey{},
	Retired: map[string]bool{},
}

// mustKey decodes a public key written in hex (as kbbundle -genkey prints).
func mustKey(h string) ed25519.PublicKey {
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != ed25519.PublicKeySize {
		panic("kbstore: bad compiled-in public key " + h)
	}
	return b
}

var _ = mustKey // used once the release key is listed
