// Command kbbundle builds and signs the knowledge-base bundle that
// `envguard kb update` installs (docs/knowledge-base.md, "Signed bundles").
//
//	go run ./resolver/kb/cmd/kbbundle -genkey -key release.key -key-id eg-2027-1
//	go run ./resolver/kb/cmd/kbbundle -key release.key -key-id eg-2027-1 -serial 2026120101 -out kb-bundle.tar.gz
//
// The key file holds the ed25519 seed in hex; -genkey also prints the
// public key line to add to internal/kbstore/keys.go.
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/envguard/envguard/internal/kbstore"
	"github.com/envguard/envguard/resolver/kb"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "kbbundle:", err)
		os.Exit(2)
	}
}

func run() error {
	genkey := flag.Bool("genkey", false, "write a new private key to -key and print its public half")
	keyFile := flag.String("key", "", "the private key `FILE` (hex ed25519 seed); $KB_SIGNING_KEY holds the seed itself when unset")
	keyID := flag.String("key-id", "", "the key's `ID`, as listed in internal/kbstore/keys.go")
	serial := flag.Uint64("serial", 0, "the bundle's serial: larger than every published one (e.g. YYYYMMDDNN)")
	dir := flag.String("data", "resolver/kb/data", "the data `DIR`")
	out := flag.String("out", "kb-bundle.tar.gz", "the bundle `FILE` to write")
	flag.Parse()
	if *keyID == "" {
		return fmt.Errorf("-key-id is required")
	}
	if *genkey {
		if *keyFile == "" {
			return fmt.Errorf("-genkey needs -key FILE")
		}
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return err
		}
		f, err := os.OpenFile(*keyFile, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintln(f, hex.EncodeToString(priv.Seed())); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		fmt.Printf("%q: mustKey(%q),\n", *keyID, hex.EncodeToString(pub))
		return nil
	}
	seedHex := os.Getenv("KB_SIGNING_KEY")
	if *keyFile != "" {
		b, err := os.ReadFile(*keyFile)
		if err != nil {
			return err
		}
		seedHex = string(b)
	}
	seed, err := hex.DecodeString(strings.TrimSpace(seedHex))
	if err != nil || len(seed) != ed25519.SeedSize {
		return fmt.Errorf("the key is not a hex ed25519 seed of %d bytes", ed25519.SeedSize)
	}
	if *serial == 0 {
		return fmt.Errorf("-serial is required")
	}
	k, err := kb.Load(*dir)
	if err != nil {
		return fmt.Errorf("the data does not validate:\n%v", err)
	}
	names, err := filepath.Glob(filepath.Join(*dir, "*.yaml"))
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return err
		}
		files[filepath.Base(n)] = b
	}
	data, err := kbstore.Build(files, *serial, k.Date, *keyID, ed25519.NewKeyFromSeed(seed))
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d files, dated %s, serial %d, signed by %s\n", *out, len(files), k.Date, *serial, *keyID)
	return nil
}
