//go:build unix

package cache

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// otherUID is a user the tests do not run as, for files chowned to it
// (possible only as root).
const otherUID = 4242

// noPrivateGroups makes no group a private one (privateGroup), so that a
// group-writable directory is unsafe whatever group the test's files get.
func noPrivateGroups(t *testing.T) {
	t.Helper()
	was, wasGroup := etcPasswd, etcGroup
	etcPasswd, etcGroup = filepath.Join(t.TempDir(), "none"), filepath.Join(t.TempDir(), "none")
	t.Cleanup(func() { etcPasswd, etcGroup = was, wasGroup })
}

func asRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("chown to another user needs root")
	}
}

// unsafeReason is Open's refusal, or "" when it opened dir.
func unsafeReason(t *testing.T, dir string) string {
	t.Helper()
	_, err := Open(dir)
	if err == nil {
		return ""
	}
	var u *UnsafeError
	if !errors.As(err, &u) {
		t.Fatalf("Open(%s): %v, not an UnsafeError", dir, err)
	}
	if u.Dir != dir || !strings.HasPrefix(err.Error(), "not using cache "+dir+": ") {
		t.Errorf("the refusal does not name the directory: %v", err)
	}
	return u.Reason
}

// TestOpenRefusesUnsafeDirs: as ssh does with ~/.ssh, a cache directory
// that another user owns or that group or others can write is not used,
// nor one under a parent that others can write (unless sticky, as /tmp
// is) or own, nor one whose key file others can read (issue 22, N6).
func TestOpenRefusesUnsafeDirs(t *testing.T) {
	noPrivateGroups(t)
	t.Run("safe", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "a", "envguard")
		if why := unsafeReason(t, dir); why != "" {
			t.Fatalf("a fresh directory refused: %s", why)
		}
		for _, p := range []string{dir, filepath.Join(dir, keyName)} {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if m := st.Mode().Perm(); m&0o077 != 0 {
				t.Errorf("%s made with mode %v, want no access for group or others", p, m)
			}
		}
		// An old cache of mode 0755 is still the user's alone to write.
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if why := unsafeReason(t, dir); why != "" {
			t.Errorf("a 0755 cache refused: %s", why)
		}
	})
	t.Run("writable by others", func(t *testing.T) {
		for _, mode := range []os.FileMode{0o770, 0o702, 0o777} {
			dir := filepath.Join(t.TempDir(), "envguard")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, mode); err != nil {
				t.Fatal(err)
			}
			if why := unsafeReason(t, dir); why != "writable by group or others" {
				t.Errorf("mode %v: %q", mode, why)
			}
		}
	})
	t.Run("owned by another user", func(t *testing.T) {
		asRoot(t)
		dir := filepath.Join(t.TempDir(), "envguard")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, otherUID, otherUID); err != nil {
			t.Fatal(err)
		}
		if why := unsafeReason(t, dir); why != "owned by uid 4242" {
			t.Errorf("%q", why)
		}
	})
	t.Run("parent writable by others", func(t *testing.T) {
		parent := filepath.Join(t.TempDir(), "shared")
		dir := filepath.Join(parent, "envguard")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(parent, 0o777); err != nil {
			t.Fatal(err)
		}
		if why := unsafeReason(t, dir); why != parent+" is writable by group or others" {
			t.Errorf("%q", why)
		}
		// Sticky, as /tmp: no one else can rename the cache away.
		if err := os.Chmod(parent, 0o777|os.ModeSticky); err != nil {
			t.Fatal(err)
		}
		if why := unsafeReason(t, dir); why != "" {
			t.Errorf("under a sticky parent: %q", why)
		}
	})
	t.Run("parent owned by another user", func(t *testing.T) {
		asRoot(t)
		parent := filepath.Join(t.TempDir(), "theirs")
		dir := filepath.Join(parent, "envguard")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(parent, otherUID, otherUID); err != nil {
			t.Fatal(err)
		}
		if why := unsafeReason(t, dir); why != parent+" is owned by uid 4242" {
			t.Errorf("%q", why)
		}
	})
	t.Run("through a link into an unsafe parent", func(t *testing.T) {
		base := t.TempDir()
		shared := filepath.Join(base, "shared")
		if err := os.MkdirAll(filepath.Join(shared, "envguard"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(shared, 0o777); err != nil {
			t.Fatal(err)
		}
		home := filepath.Join(base, "home")
		if err := os.Mkdir(home, 0o700); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(home, "envguard")
		if err := os.Symlink(filepath.Join(shared, "envguard"), link); err != nil {
			t.Fatal(err)
		}
		if why := unsafeReason(t, link); !strings.Contains(why, "shared is writable by group or others") {
			t.Errorf("%q", why)
		}
	})
	t.Run("key file readable by others", func(t *testing.T) {
		dir := open(t).Dir()
		key := filepath.Join(dir, keyName)
		if err := os.Chmod(key, 0o644); err != nil {
			t.Fatal(err)
		}
		if why := unsafeReason(t, dir); why != "key file "+key+" is readable by group or others" {
			t.Errorf("%q", why)
		}
		if err := os.Chmod(key, 0o622); err != nil {
			t.Fatal(err)
		}
		if why := unsafeReason(t, dir); why != "key file "+key+" is writable by group or others" {
			t.Errorf("%q", why)
		}
	})
	t.Run("key file owned by another user", func(t *testing.T) {
		asRoot(t)
		dir := open(t).Dir()
		key := filepath.Join(dir, keyName)
		if err := os.Chown(key, otherUID, otherUID); err != nil {
			t.Fatal(err)
		}
		if why := unsafeReason(t, dir); why != "key file "+key+" is owned by uid 4242" {
			t.Errorf("%q", why)
		}
	})
}

// TestKeyFile: the key is made once and kept; concurrent first runs agree
// on one; a damaged key file is replaced (its manifests then miss), and a
// FIFO or a link in its place is refused without blocking.
func TestKeyFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "envguard")
	var wg sync.WaitGroup
	caches := make([]*Cache, 8)
	for i := range caches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Open(dir)
			if err != nil {
				t.Error(err)
				return
			}
			caches[i] = c
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, c := range caches[1:] {
		if !bytes.Equal(c.key, caches[0].key) {
			t.Fatal("two runs opening a new cache at once took different keys")
		}
	}
	k := NewKey().AddString("run").Key()
	if err := caches[0].Save(k, records(), nil); err != nil {
		t.Fatal(err)
	}
	if again, err := Open(dir); err != nil || !bytes.Equal(again.key, caches[0].key) {
		t.Fatalf("reopened: %v, same key %v", err, err == nil && bytes.Equal(again.key, caches[0].key))
	}
	keyPath := filepath.Join(dir, keyName)
	if err := os.WriteFile(keyPath, []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Open(dir)
	if err != nil {
		t.Fatalf("a damaged key file is not replaced: %v", err)
	}
	if st, err := os.Stat(keyPath); err != nil || st.Size() != keySize || st.Mode().Perm() != 0o600 {
		t.Fatalf("the new key file: %v, %v", st, err)
	}
	if m, err := c.Load(k); err == nil || m.Len() != 0 {
		t.Errorf("a manifest signed under the old key: %d entries, %v", m.Len(), err)
	}
	for _, plant := range []func() error{
		func() error { return syscall.Mkfifo(keyPath, 0o600) },
		func() error { return os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), keyPath) },
	} {
		os.Remove(keyPath)
		if err := plant(); err != nil {
			t.Fatal(err)
		}
		if _, err := guard(t, func() error { _, err := Open(dir); return err }); err == nil {
			t.Error("a key file that is not a regular file was used")
		}
	}
}

// guard runs f, failing the test if it has not returned after a minute: a
// guard against a read that blocks forever, not a bound on its speed.
func guard(t *testing.T, f func() error) (time.Duration, error) {
	t.Helper()
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- f() }()
	select {
	case err := <-done:
		return time.Since(start), err
	case <-time.After(time.Minute):
		t.Fatal("blocked for a minute")
	}
	return 0, nil
}

// TestForgedManifest: a manifest changed to say something else, its
// checksum recomputed as a forger without the key can (CRC-32, as v3 had,
// or SHA-256), or signed under another cache's key, is not read (issue
// 22, N6: such a manifest turned exit 1 into exit 0).
func TestForgedManifest(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("run").Key()
	if err := c.Save(k, records(), nil); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(c.manifestPath(k))
	if err != nil {
		t.Fatal(err)
	}
	// The forger's edit: a's result "0report a" says something else.
	i := bytes.Index(good, []byte("0report a\n"))
	if i < 0 {
		t.Fatal("the value is not in the manifest")
	}
	body := bytes.Clone(good[:len(good)-macSize])
	copy(body[i:], "0planted!\n")
	sum := sha256.Sum256(body)
	other := hmac.New(sha256.New, bytes.Repeat([]byte{7}, keySize))
	other.Write(body)
	forged := map[string][]byte{
		"sha256 recomputed":   append(bytes.Clone(body), sum[:]...),
		"crc32 recomputed":    binary.BigEndian.AppendUint32(bytes.Clone(body), crc32.ChecksumIEEE(body)),
		"another cache's key": other.Sum(bytes.Clone(body)),
		"old hmac kept":       append(bytes.Clone(body), good[len(good)-macSize:]...),
	}
	for name, b := range forged {
		if err := os.WriteFile(c.manifestPath(k), b, 0o600); err != nil {
			t.Fatal(err)
		}
		m, err := c.Load(k)
		if err == nil || m.Len() != 0 {
			t.Errorf("%s: Load = %d entries, %v; want none", name, m.Len(), err)
		}
	}
	// Another cache's manifest, copied in whole, is not this cache's.
	c2 := open(t)
	if err := c2.Save(k, records(), nil); err != nil {
		t.Fatal(err)
	}
	theirs, _ := os.ReadFile(c2.manifestPath(k))
	if err := os.WriteFile(c.manifestPath(k), theirs, 0o600); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Load(k); err == nil || m.Len() != 0 {
		t.Errorf("another cache's manifest: %d entries, %v", m.Len(), err)
	}
}

// TestManifestNotAFile: a FIFO in a manifest's place is refused at once
// (issue 22, N7: validate hung on it forever), and so are a link to a
// sound manifest, a directory, and a manifest others can write or
// another user owns.
func TestManifestNotAFile(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("run").Key()
	p := c.manifestPath(k)
	load := func(what string) {
		t.Helper()
		var m *Manifest
		_, err := guard(t, func() error { var err error; m, err = c.Load(k); return err })
		if err == nil || m.Len() != 0 {
			t.Errorf("%s: Load = %d entries, %v; want none and a reason", what, m.Len(), err)
		}
		// Save puts a manifest back in its place.
		os.RemoveAll(p)
		if err := c.Save(k, records(), nil); err != nil {
			t.Fatal(err)
		}
		if m, err := c.Load(k); err != nil || m.Len() != 3 {
			t.Fatalf("after %s, Save and Load: %d entries, %v", what, m.Len(), err)
		}
	}
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	load("a FIFO")

	if err := c.Save(k, records(), nil); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(c.Dir(), "real")
	if err := os.Rename(p, real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, p); err != nil {
		t.Fatal(err)
	}
	load("a link to a sound manifest")

	os.Remove(p)
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	load("a directory")

	if err := os.Chmod(p, 0o622); err != nil {
		t.Fatal(err)
	}
	load("writable by others")

	if os.Geteuid() == 0 {
		if err := os.Chown(p, otherUID, otherUID); err != nil {
			t.Fatal(err)
		}
		load("owned by another user")
	}
}

// TestSparseManifest: a sparse manifest of 3 GB is refused by its size
// before any of it is read (issue 22, N7: it cost 3.1 GB of memory, and
// 40 GB ran out of it).
func TestSparseManifest(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("run").Key()
	p := c.manifestPath(k)
	if err := c.Save(k, records(), nil); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 3<<30); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	var before, after runtime.MemStats
	var ruBefore, ruAfter syscall.Rusage
	runtime.GC()
	runtime.ReadMemStats(&before)
	syscall.Getrusage(syscall.RUSAGE_SELF, &ruBefore)
	var m *Manifest
	_, err := guard(t, func() error { var err error; m, err = c.Load(k); return err })
	runtime.ReadMemStats(&after)
	syscall.Getrusage(syscall.RUSAGE_SELF, &ruAfter)
	if err == nil || m.Len() != 0 || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("Load = %d entries, %v; want none, over the limit", m.Len(), err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("refusing a 3 GB manifest allocated %d bytes", grew)
	}
	// The peak resident size (KiB on Linux) catches memory mapped outside
	// the Go heap, as big manifests are.
	if runtime.GOOS == "linux" {
		if grew := ruAfter.Maxrss - ruBefore.Maxrss; grew > 64<<10 {
			t.Errorf("refusing a 3 GB manifest raised the peak resident size by %d KiB", grew)
		}
	}
}

// TestManifestLimit: a manifest over MaxManifest is neither read nor
// written.
func TestManifestLimit(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("run").Key()
	if err := c.Save(k, records(), nil); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(c.manifestPath(k))
	if err != nil {
		t.Fatal(err)
	}
	defer func(was int64) { MaxManifest = was }(MaxManifest)
	MaxManifest = st.Size() - 1
	if m, err := c.Load(k); err == nil || m.Len() != 0 {
		t.Errorf("a manifest a byte over the limit: %d entries, %v", m.Len(), err)
	}
	if err := c.Save(k, records(), nil); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("Save of a manifest over the limit: %v", err)
	}
	MaxManifest = st.Size()
	if m, err := c.Load(k); err != nil || m.Len() != 3 {
		t.Errorf("a manifest at the limit: %d entries, %v", m.Len(), err)
	}
}

// TestPrivateGroupWritable: a directory writable by its group is safe
// where that group is the owner's private one (Debian and Ubuntu give
// users umask 002, so a ~/.cache other tools made is 0775), and not where
// anyone else is in the group, or the account files do not say.
func TestPrivateGroupWritable(t *testing.T) {
	asRoot(t)
	etc := t.TempDir()
	defer func(p, g string) { etcPasswd, etcGroup = p, g }(etcPasswd, etcGroup)
	etcPasswd, etcGroup = filepath.Join(etc, "passwd"), filepath.Join(etc, "group")
	const gid = 4343
	for _, tt := range []struct {
		name, passwd, group string
		safe                bool
	}{
		{"private: primary group, no one listed", "root:x:0:4343::/root:/bin/sh\n", "me:x:4343:\n", true},
		{"private: listed alone", "root:x:0:0::/root:/bin/sh\n", "me:x:4343:root\n", true},
		{"another member listed", "root:x:0:4343::/root:/bin/sh\n", "us:x:4343:root,alice\n", false},
		{"another user's primary group too", "root:x:0:4343::/root:/bin/sh\nalice:x:1000:4343::/home/alice:/bin/sh\n", "us:x:4343:\n", false},
		{"no members", "root:x:0:0::/root:/bin/sh\n", "empty:x:4343:\n", false},
		{"group unknown", "root:x:0:4343::/root:/bin/sh\n", "other:x:1:\n", false},
		{"no account files", "", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(etcPasswd)
			os.Remove(etcGroup)
			if tt.passwd != "" {
				if err := os.WriteFile(etcPasswd, []byte(tt.passwd), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(etcGroup, []byte(tt.group), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			parent := filepath.Join(t.TempDir(), "cache-home")
			dir := filepath.Join(parent, "envguard")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{dir, parent} {
				if err := os.Chown(p, 0, gid); err != nil {
					t.Fatal(err)
				}
			}
			// The parent group-writable (a ~/.cache made under umask 002).
			if err := os.Chmod(parent, 0o775); err != nil {
				t.Fatal(err)
			}
			want := ""
			if !tt.safe {
				want = parent + " is writable by group or others"
			}
			if why := unsafeReason(t, dir); why != want {
				t.Errorf("parent 0775: %q, want %q", why, want)
			}
			if err := os.Chmod(parent, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, 0o770); err != nil {
				t.Fatal(err)
			}
			if want != "" {
				want = "writable by group or others"
			}
			if why := unsafeReason(t, dir); why != want {
				t.Errorf("cache 0770: %q, want %q", why, want)
			}
		})
	}
}
