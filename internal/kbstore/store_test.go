package kbstore

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

func testKeys(t testing.TB) (Keys, ed25519.PrivateKey, ed25519.PrivateKey) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, other, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return Keys{Trusted: map[string]ed25519.PublicKey{"k1": pub}, Retired: map[string]bool{"old": true}}, priv, other
}

func files(v string) map[string][]byte {
	return map[string][]byte{"meta.yaml": []byte("date: \"" + v + "\"\n"), "torch.yaml": []byte("torch: []\n")}
}

// okValidate stands in for the KB's validation: it refuses data holding
// the word "invalid".
func okValidate(dir string) error {
	d, err := os.ReadFile(filepath.Join(dir, "torch.yaml"))
	if err != nil {
		return err
	}
	if bytes.Contains(d, []byte("invalid")) {
		return errors.New("torch.yaml:1: invalid row")
	}
	return nil
}

// snapshot is every file under root with its bytes and every link's target.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out = append(out, rel+" -> "+l)
		case d.Type().IsRegular() && d.Name() != ".lock":
			b, _ := os.ReadFile(p)
			out = append(out, fmt.Sprintf("%s %q", rel, b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func install(t *testing.T, s Store, keys Keys, data []byte) error {
	t.Helper()
	b, err := Read(data, keys)
	if err != nil {
		return err
	}
	return s.Install(b, keys, okValidate)
}

func TestInstallAndRefusals(t *testing.T) {
	keys, priv, other := testKeys(t)
	s := Store{Root: t.TempDir()}
	good, err := Build(files("2026-12-01"), 2, "2026-12-01", "k1", priv)
	if err != nil {
		t.Fatal(err)
	}
	if err := install(t, s, keys, good); err != nil {
		t.Fatal(err)
	}
	b, dir, err := s.Installed(keys)
	if err != nil || b.Manifest.Serial != 2 || !strings.HasSuffix(dir, "bundle-2/data") {
		t.Fatalf("installed: %v %v %v", b, dir, err)
	}
	before := snapshot(t, s.Root)

	older, _ := Build(files("2026-11-01"), 1, "2026-11-01", "k1", priv)
	wrongKey, _ := Build(files("2026-12-02"), 3, "2026-12-02", "k1", other)
	retired, _ := Build(files("2026-12-02"), 3, "2026-12-02", "old", priv)
	unknownKey, _ := Build(files("2026-12-02"), 3, "2026-12-02", "k9", priv)
	bad := files("2026-12-02")
	bad["torch.yaml"] = []byte("invalid\n")
	invalid, _ := Build(bad, 3, "2026-12-02", "k1", priv)
	newer, _ := Build(files("2026-12-02"), 3, "2026-12-02", "k1", priv)
	tampered := tamper(t, newer)

	for name, tc := range map[string]struct {
		data []byte
		want string
	}{
		"older replayed": {older, "not newer than the installed 2"},
		"same replayed":  {good, "not newer than the installed 2"},
		"wrong key":      {wrongKey, "signature does not match"},
		"retired key":    {retired, "retired key"},
		"unknown key":    {unknownKey, "not one this envguard trusts"},
		"invalid data":   {invalid, "does not validate"},
		"truncated":      {newer[:len(newer)*2/3], "truncated"},
		"tampered":       {tampered, "does not match its manifest"},
		"not a bundle":   {[]byte("<html>"), "not a gzip'd tar"},
	} {
		err := install(t, s, keys, tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
		if after := snapshot(t, s.Root); after != before {
			t.Errorf("%s: the installed KB changed:\n%s\nwas\n%s", name, after, before)
		}
	}
	if err := install(t, s, keys, newer); err != nil {
		t.Fatal(err)
	}
	if b, _, err := s.Installed(keys); err != nil || b.Manifest.Serial != 3 {
		t.Fatalf("after the newer bundle: %v %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(s.Root, "bundle-2")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the previous bundle was kept after the switch: %v", err)
	}
}

// tamper rebuilds a bundle whose torch.yaml differs from its signed manifest.
func tamper(t *testing.T, data []byte) []byte {
	t.Helper()
	b, err := readUnverified(data)
	if err != nil {
		t.Fatal(err)
	}
	b["data/torch.yaml"] = []byte("torch: [x]\n")
	out, err := pack(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDamagedInstall: a file changed on disk after install makes Installed
// fail (the CLI warns and ignores the layer), and a good bundle replaces it.
func TestDamagedInstall(t *testing.T) {
	keys, priv, _ := testKeys(t)
	s := Store{Root: t.TempDir()}
	good, _ := Build(files("2026-12-01"), 2, "2026-12-01", "k1", priv)
	if err := install(t, s, keys, good); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Root, "bundle-2", "data", "torch.yaml"), []byte("torch: [y]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Installed(keys); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("damaged: %v", err)
	}
	newer, _ := Build(files("2026-12-02"), 3, "2026-12-02", "k1", priv)
	if err := install(t, s, keys, newer); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Installed(keys); err != nil {
		t.Fatal(err)
	}
	if _, _, err := (Store{Root: t.TempDir()}).Installed(keys); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("empty store: %v", err)
	}
}

// TestConcurrentInstall: updates racing each other leave one whole bundle,
// the newest, installed.
func TestConcurrentInstall(t *testing.T) {
	keys, priv, _ := testKeys(t)
	s := Store{Root: t.TempDir()}
	var wg sync.WaitGroup
	for i := 1; i <= 8; i++ {
		d := fmt.Sprintf("2026-12-%02d", i)
		data, err := Build(files(d), uint64(i), d, "k1", priv)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := install(t, s, keys, data)
			var r *RefusedError
			if err != nil && !errors.As(err, &r) {
				t.Errorf("install: %v", err)
			}
		}()
	}
	wg.Wait()
	b, _, err := s.Installed(keys)
	if err != nil || b.Manifest.Serial != 8 {
		t.Fatalf("after the race: %v %v", b, err)
	}
	ents, _ := os.ReadDir(s.Root)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if fmt.Sprint(names) != "[.lock bundle-8 current]" {
		t.Errorf("left behind: %v", names)
	}
}

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := Dir(env(map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"})); got != "/x/envguard/kb" {
		t.Error(got)
	}
	if got := Dir(env(map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/h"})); got != "/h/.local/share/envguard/kb" {
		t.Error(got)
	}
	if got := Dir(env(nil)); got != "" {
		t.Error(got)
	}
}
