// Package kbstore is the on-disk store of downloaded knowledge-base
// bundles: it reads a signed bundle, checks its manifest's SHA-256 sums and
// its ed25519 signature against keys compiled into the binary, and installs
// it atomically under the user's data directory.
//
// A bundle is a gzip'd tar holding manifest.json, manifest.sig and
// data/*.yaml. The signature covers the manifest's exact bytes; the
// manifest names every data file with its size and SHA-256, so nothing in
// the bundle is trusted before the signature checks.
package kbstore

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"time"
)

// Limits on what a bundle may hold: the embedded data is under 2 MiB, so
// these leave room to grow while bounding what a hostile server can make
// envguard hold in memory.
const (
	MaxBundleBytes = 32 << 20
	maxFileBytes   = 16 << 20
	maxFiles       = 512
	maxMetaBytes   = 1 << 20
	manifestFormat = 1
)

// fileName is the only shape a data file may have: no directories, no
// dot-files, so a manifest cannot name a path outside the bundle.
var fileName = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,99}\.yaml$`)

// Manifest is what the maintainer signs.
type Manifest struct {
	Format int `json:"format"`
	// Serial orders bundles: an update installs only a larger one, so an
	// old (validly signed) bundle cannot be replayed.
	Serial uint64 `json:"serial"`
	// Date is the KB's date (meta.yaml's), YYYY-MM-DD.
	Date  string      `json:"date"`
	Files []FileEntry `json:"files"`
}

// FileEntry is one data file.
type FileEntry struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Signature is manifest.sig.
type Signature struct {
	KeyID string `json:"key_id"`
	Sig   string `json:"sig"` // base64 of the ed25519 signature over manifest.json
}

// ParseManifest reads and checks manifest.json's shape (not its signature).
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) > maxMetaBytes {
		return nil, fmt.Errorf("manifest.json: %d bytes, more than %d", len(data), maxMetaBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("manifest.json: %v", err)
	}
	if dec.More() {
		return nil, errors.New("manifest.json: data after the object")
	}
	if m.Format != manifestFormat {
		return nil, fmt.Errorf("manifest.json: format %d, this envguard reads format %d (a newer envguard may be needed)", m.Format, manifestFormat)
	}
	if m.Serial == 0 {
		return nil, errors.New("manifest.json: serial is missing or 0")
	}
	if _, err := time.Parse(time.DateOnly, m.Date); err != nil {
		return nil, fmt.Errorf("manifest.json: date %q is not YYYY-MM-DD", m.Date)
	}
	if len(m.Files) == 0 || len(m.Files) > maxFiles {
		return nil, fmt.Errorf("manifest.json: %d files (want 1 to %d)", len(m.Files), maxFiles)
	}
	seen := map[string]bool{}
	for _, f := range m.Files {
		if !fileName.MatchString(f.Name) {
			return nil, fmt.Errorf("manifest.json: file name %q is not a plain *.yaml name", f.Name)
		}
		if seen[f.Name] {
			return nil, fmt.Errorf("manifest.json: %s listed twice", f.Name)
		}
		seen[f.Name] = true
		if f.Size < 0 || f.Size > maxFileBytes {
			return nil, fmt.Errorf("manifest.json: %s: size %d out of range", f.Name, f.Size)
		}
		if b, err := hex.DecodeString(f.SHA256); err != nil || len(b) != sha256.Size {
			return nil, fmt.Errorf("manifest.json: %s: sha256 %q is not 64 hex digits", f.Name, f.SHA256)
		}
	}
	return &m, nil
}

// Bundle is a verified bundle: every byte of it is covered by a trusted
// signature.
type Bundle struct {
	Manifest     *Manifest
	KeyID        string
	ManifestJSON []byte
	SigJSON      []byte
	Files        map[string][]byte // data file name → bytes
}

// Keys are the trusted and retired public keys, by key ID.
type Keys struct {
	Trusted map[string]ed25519.PublicKey
	// Retired key IDs are refused by name, so a rotated-out key (or a leaked
	// one) cannot sign a bundle even if it is still listed somewhere.
	Retired map[string]bool
}

// verify checks sig against manifest with keys.
func (k Keys) verify(manifest, sigJSON []byte) (string, error) {
	var s Signature
	dec := json.NewDecoder(bytes.NewReader(sigJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return "", fmt.Errorf("manifest.sig: %v", err)
	}
	if k.Retired[s.KeyID] {
		return "", fmt.Errorf("manifest.sig: signed with retired key %q", s.KeyID)
	}
	pub, ok := k.Trusted[s.KeyID]
	if !ok {
		return "", fmt.Errorf("manifest.sig: key %q is not one this envguard trusts (trusted: %s)", s.KeyID, k.ids())
	}
	sig, err := base64.StdEncoding.DecodeString(s.Sig)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return "", errors.New("manifest.sig: sig is not a base64 ed25519 signature")
	}
	if !ed25519.Verify(pub, manifest, sig) {
		return "", fmt.Errorf("manifest.sig: the signature does not match manifest.json for key %q (the bundle was altered or signed with another key)", s.KeyID)
	}
	return s.KeyID, nil
}

func (k Keys) ids() string {
	if len(k.Trusted) == 0 {
		return "none"
	}
	ids := make([]string, 0, len(k.Trusted))
	for id := range k.Trusted {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return fmt.Sprint(ids)
}

// Read parses and verifies a bundle (the .tar.gz bytes).
func Read(data []byte, keys Keys) (*Bundle, error) {
	if len(data) > MaxBundleBytes {
		return nil, fmt.Errorf("bundle: %d bytes, more than %d", len(data), MaxBundleBytes)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("bundle: not a gzip'd tar: %v", err)
	}
	tr := tar.NewReader(io.LimitReader(zr, MaxBundleBytes+1))
	entries := map[string][]byte{}
	total := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("bundle: %v (truncated or damaged download?)", err)
		}
		if h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("bundle: %s is not a regular file", h.Name)
		}
		if _, dup := entries[h.Name]; dup {
			return nil, fmt.Errorf("bundle: %s twice", h.Name)
		}
		if len(entries) > maxFiles+2 {
			return nil, errors.New("bundle: too many entries")
		}
		b, err := io.ReadAll(io.LimitReader(tr, maxFileBytes+1))
		if err != nil {
			return nil, fmt.Errorf("bundle: %s: %v (truncated or damaged download?)", h.Name, err)
		}
		if len(b) > maxFileBytes {
			return nil, fmt.Errorf("bundle: %s is larger than %d bytes", h.Name, maxFileBytes)
		}
		total += len(b)
		if total > MaxBundleBytes {
			return nil, fmt.Errorf("bundle: more than %d bytes unpacked", MaxBundleBytes)
		}
		entries[h.Name] = b
	}
	if err := zr.Close(); err != nil {
		return nil, fmt.Errorf("bundle: %v (truncated or damaged download?)", err)
	}
	mj, ok := entries["manifest.json"]
	if !ok {
		return nil, errors.New("bundle: no manifest.json")
	}
	sj, ok := entries["manifest.sig"]
	if !ok {
		return nil, errors.New("bundle: no manifest.sig")
	}
	b, err := check(mj, sj, keys, func(name string) ([]byte, bool) {
		d, ok := entries["data/"+name]
		return d, ok
	})
	if err != nil {
		return nil, err
	}
	for name := range entries {
		if name == "manifest.json" || name == "manifest.sig" {
			continue
		}
		if len(name) < 5 || name[:5] != "data/" || b.Files[name[5:]] == nil {
			return nil, fmt.Errorf("bundle: %s is not listed in the manifest", name)
		}
	}
	return b, nil
}

// check verifies the signature first, then every file against the manifest.
func check(mj, sj []byte, keys Keys, file func(string) ([]byte, bool)) (*Bundle, error) {
	keyID, err := keys.verify(mj, sj)
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(mj)
	if err != nil {
		return nil, err
	}
	b := &Bundle{Manifest: m, KeyID: keyID, ManifestJSON: mj, SigJSON: sj, Files: map[string][]byte{}}
	for _, f := range m.Files {
		d, ok := file(f.Name)
		if !ok {
			return nil, fmt.Errorf("bundle: data/%s is in the manifest but missing", f.Name)
		}
		sum := sha256.Sum256(d)
		if int64(len(d)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256 {
			return nil, fmt.Errorf("bundle: data/%s does not match its manifest sha256/size (altered or truncated)", f.Name)
		}
		b.Files[f.Name] = d
	}
	return b, nil
}

// Build makes a signed bundle from data files (name → bytes); the
// maintainer's command and the tests use it.
func Build(files map[string][]byte, serial uint64, date, keyID string, priv ed25519.PrivateKey) ([]byte, error) {
	m := Manifest{Format: manifestFormat, Serial: serial, Date: date}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sum := sha256.Sum256(files[n])
		m.Files = append(m.Files, FileEntry{Name: n, Size: int64(len(files[n])), SHA256: hex.EncodeToString(sum[:])})
	}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if _, err := ParseManifest(mj); err != nil {
		return nil, err
	}
	sj, err := json.Marshal(Signature{KeyID: keyID, Sig: base64.StdEncoding.EncodeToString(ed25519.Sign(priv, mj))})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	add := func(name string, d []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(d)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err := tw.Write(d)
		return err
	}
	if err := add("manifest.json", mj); err != nil {
		return nil, err
	}
	if err := add("manifest.sig", sj); err != nil {
		return nil, err
	}
	for _, n := range names {
		if err := add("data/"+n, files[n]); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
