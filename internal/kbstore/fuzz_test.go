package kbstore

import (
	"crypto/ed25519"
	"testing"
)

// FuzzRead: no bundle or manifest bytes make Read or ParseManifest panic,
// and nothing is accepted without the trusted key's signature.
func FuzzRead(f *testing.F) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	keys := Keys{Trusted: map[string]ed25519.PublicKey{"k1": priv.Public().(ed25519.PublicKey)}}
	good, err := Build(files("2026-12-01"), 1, "2026-12-01", "k1", priv)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"format":1,"serial":1,"date":"2026-12-01","files":[{"name":"a.yaml","size":0,"sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}]}`))
	f.Add([]byte(`{"format":1,"serial":1,"date":"2026-12-01","files":[{"name":"../x.yaml"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseManifest(data)
		b, err := Read(data, keys)
		if err == nil && string(b.ManifestJSON) == "" {
			t.Fatal("accepted a bundle without a manifest")
		}
	})
}
