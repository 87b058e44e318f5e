package resolver

import (
	"context"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// The defaults channel never published pytorch 2.4.x (Anaconda's recipe
// went 2.3.1 → 2.5.1; torch-defaults-releases.yaml). A pin of it that
// comes from defaults only because defaults is listed first is taken from
// the next listed channel the knowledge base says built it, so its
// variant hint is that channel's (review #852: corpus 117 was told
// pytorch=*=gpu_cuda*, defaults' build strings, which solve to nothing on
// conda-forge). A release the table does not cover, or one defaults did
// publish, stays defaults'.
func TestPytorchPastDefaults(t *testing.T) {
	for _, tt := range []struct {
		src, channel, why string
		dist              kb.Distribution
		notPublished      bool
	}{
		// corpus 117
		{"channels:\n  - defaults\n  - conda-forge\ndependencies:\n  - python=3.9\n  - pytorch=2.4.1\n", "conda-forge", "defaults never published pytorch 2.4.1", kb.DistCondaForge, false},
		{"channels: [defaults, conda-forge]\ndependencies:\n  - pytorch=2.4.0\n", "conda-forge", "defaults never published pytorch 2.4.0", kb.DistCondaForge, false},
		// the pytorch channel built 2.4.1 too
		{"channels: [defaults, pytorch]\ndependencies:\n  - pytorch=2.4.1\n", "pytorch", "defaults never published pytorch 2.4.1", kb.DistPytorchConda, false},
		// nvidia publishes no pytorch: the next one that does is taken
		{"channels: [defaults, nvidia, conda-forge]\ndependencies:\n  - pytorch=2.4.1\n", "conda-forge", "defaults never published pytorch 2.4.1", kb.DistCondaForge, false},
		// no other channel: which build comes (.condarc's channels) is not known
		{"channels: [defaults]\ndependencies:\n  - pytorch=2.4.1\n", "", "and no other channel the file lists publishes it: list conda-forge, which built it, or pin a release defaults has (2.3.1 or 2.5.1)", "", false},
		// a channel the knowledge base does not know may have it
		{"channels: [defaults, mychannel]\ndependencies:\n  - pytorch=2.4.1\n", "", "no other channel the file lists is known to publish it", "", false},
		// releases defaults published stay its own
		{"channels: [defaults, conda-forge]\ndependencies:\n  - pytorch=2.3.1\n", "defaults", "", kb.DistDefaults, false},
		{"channels: [defaults, conda-forge]\ndependencies:\n  - pytorch=2.5.1\n", "defaults", "", kb.DistDefaults, false},
		// 1.11 is outside the table's complete span: not known, not moved
		{"channels: [defaults, conda-forge]\ndependencies:\n  - pytorch=1.11.0\n", "defaults", "", kb.DistDefaults, false},
		// written defaults:: is the user's choice: never moved, and no build exists (EG205)
		{"channels: [defaults, conda-forge]\ndependencies:\n  - defaults::pytorch=2.4.1\n", "defaults", "", kb.DistDefaults, true},
		// conda-forge never built 2.1.1 and defaults never published it: not defaults'
		{"channels: [conda-forge, defaults]\ndependencies:\n  - pytorch=2.1.1\n", "", "conda-forge never built pytorch 2.1.1, and defaults never published it either", "", false},
	} {
		f := resolveSrc(t, tt.src).Framework
		if f == nil {
			t.Fatalf("%q: no framework", tt.src)
		}
		if f.Channel != tt.channel || f.Dist != tt.dist || !strings.Contains(f.ChannelMoved, tt.why) || (tt.why == "") != (f.ChannelMoved == "") {
			t.Errorf("%q: channel %q dist %q moved %q, want %q %q containing %q", tt.src, f.Channel, f.Dist, f.ChannelMoved, tt.channel, tt.dist, tt.why)
		}
		if (f.NotPublished != "") != tt.notPublished {
			t.Errorf("%q: NotPublished %q, want set %v", tt.src, f.NotPublished, tt.notPublished)
		}
	}
}

// Corpus 117's EG207 names conda-forge's build strings, says why the
// build is conda-forge's, and no longer the defaults channel's gpu_cuda*.
func TestPytorchPastDefaultsHint(t *testing.T) {
	src := "channels:\n  - defaults\n  - conda-forge\ndependencies:\n  - python=3.9\n  - pytorch=2.4.1\n"
	env := envspec.Parse("e.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
	k := kb.Default()
	st := Resolve(env, k)
	ds, err := Check(context.Background(), &Context{Env: env, Stack: st, KB: k})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, d := range ds {
		if d.Code != "EG207" {
			continue
		}
		n++
		if !strings.Contains(d.Message, "defaults never published pytorch 2.4.1, so it comes from conda-forge") {
			t.Errorf("EG207 message %q does not say where the build comes from", d.Message)
		}
		if strings.Contains(d.Hint, "gpu_cuda") || !strings.Contains(d.Hint, "pytorch=*=cuda*") {
			t.Errorf("EG207 hint %q is not conda-forge's build strings", d.Hint)
		}
	}
	if n != 1 {
		t.Fatalf("%d EG207 findings, want 1: %v", n, ds)
	}
}

// torchPublishedIn answers from the defaults table where it covers the
// release, and keeps today's answer (true) where it does not.
func TestTorchPublishedInDefaults(t *testing.T) {
	c := &Context{KB: kb.Default()}
	for v, want := range map[string]bool{"2.4.1": false, "2.4.0": false, "2.1.2": false, "2.3.1": true, "2.5.1": true, "1.11.0": true, "2.13.0": true} {
		if got := torchPublishedIn(c, kb.DistDefaults, v); got != want {
			t.Errorf("torchPublishedIn(defaults, %s) = %v, want %v", v, got, want)
		}
	}
}

// An explicit defaults:: pin of a release defaults never published is
// EG205, naming the releases it has nearest to it.
func TestEG205Defaults(t *testing.T) {
	src := "channels: [defaults]\ndependencies:\n  - python=3.10\n  - defaults::pytorch=2.4.1\n"
	env := envspec.Parse("e.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
	k := kb.Default()
	st := Resolve(env, k)
	ds, err := Check(context.Background(), &Context{Env: env, Stack: st, KB: k})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Code == "EG205" {
			if !strings.Contains(d.Message, "never published (its releases nearest to it are 2.3.1 and 2.5.1)") ||
				!strings.Contains(d.Hint, "pin a release defaults has (2.3.1 or 2.5.1), or take pytorch 2.4.1 from conda-forge") {
				t.Errorf("EG205 %q / %q", d.Message, d.Hint)
			}
			return
		}
	}
	t.Fatalf("no EG205: %v", ds)
}
