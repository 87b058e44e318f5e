package lockfile

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
)

// TestLockSHA256: each lock format's sha256 of the file it pins is kept on
// the item's Installed (kb learn's builds are found by it); a hash that is
// not 64 hex digits (the fixtures' shortened ones) is none.
func TestLockSHA256(t *testing.T) {
	sum := strings.Repeat("0123456789abcdef", 4)
	upper := strings.ToUpper(sum)
	for _, tc := range []struct {
		file, old, new, pkg string
		before              string // the fixture's own, where it is a whole sha256
	}{
		{"uv.lock", `torch-2.1.2%2Bcu121-cp311-cp311-linux_x86_64.whl", hash = "sha256:0c5a2e1b"`, `torch-2.1.2%2Bcu121-cp311-cp311-linux_x86_64.whl", hash = "sha256:` + upper + `"`, "torch", ""},
		{"pylock.toml", `hashes = { sha256 = "0c5a2e1b" }`, `hashes = { sha256 = "` + sum + `" }`, "torch", ""},
		{"pixi.lock", "  sha256: 1e4b7e3c0e0f9d2a5e3c8d1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f\n", "  sha256: " + sum + "\n", "python", "1e4b7e3c0e0f9d2a5e3c8d1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f"},
		{"conda-lock.yml", "  hash:\n    md5: 27cf681282c11dba7b0b1fd266e8f289\n", "  hash:\n    md5: 27cf681282c11dba7b0b1fd266e8f289\n    sha256: " + sum + "\n", "python", ""},
	} {
		src := string(readLockFile(t, tc.file))
		if !strings.Contains(src, tc.old) {
			t.Fatalf("%s: the fixture no longer holds %q", tc.file, tc.old)
		}
		for _, withHash := range []bool{false, true} {
			text := src
			if withHash {
				text = strings.Replace(src, tc.old, tc.new, 1)
			}
			env := Read(tc.file, []byte(text), Options{Platform: "linux-64"})
			got := ""
			for _, in := range installed(env) {
				if strings.EqualFold(in.Name, tc.pkg) {
					got = in.SHA256
				}
			}
			want := tc.before
			if withHash {
				want = sum
			}
			if got != want {
				t.Errorf("%s (hash set %v): %s's sha256 %q, want %q", tc.file, withHash, tc.pkg, got, want)
			}
		}
	}
	in, err := envspec.ParsePackageURL("https://conda.example/conda-forge/linux-64/x-1.0-0.conda#sha256:" + upper)
	if err != nil || in.SHA256 != sum {
		t.Errorf("an explicit URL's #sha256: %v %+v", err, in)
	}
	in, err = envspec.ParsePackageURL("https://conda.example/conda-forge/linux-64/x-1.0-0.conda#27cf681282c11dba7b0b1fd266e8f289")
	if err != nil || in.SHA256 != "" {
		t.Errorf("an explicit URL's #md5 is no sha256: %v %+v", err, in)
	}
}

func installed(env *envspec.Env) []*envspec.Installed {
	var out []*envspec.Installed
	for _, d := range env.Deps {
		if d.Installed != nil {
			out = append(out, d.Installed)
		}
	}
	for _, d := range env.Pip {
		if d.Installed != nil {
			out = append(out, d.Installed)
		}
	}
	return out
}
