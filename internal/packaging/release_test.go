package packaging

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// goreleaser is the part of .goreleaser.yaml these tests read. goreleaser
// itself is not available where the tests run; the release workflow runs
// `goreleaser check` and a snapshot build on pull requests that touch it.
type goreleaser struct {
	Version int `yaml:"version"`
	Builds  []struct {
		ID      string   `yaml:"id"`
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Env     []string `yaml:"env"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		IDs             []string `yaml:"ids"`
		NameTemplate    string   `yaml:"name_template"`
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
	SBOMs []struct {
		Artifacts string `yaml:"artifacts"`
	} `yaml:"sboms"`
	Signs []struct {
		Cmd       string   `yaml:"cmd"`
		Args      []string `yaml:"args"`
		Artifacts string   `yaml:"artifacts"`
	} `yaml:"signs"`
}

// TestGoreleaser: every OS and architecture the issue names is built, with
// the version set where `envguard version` reads it, cgo (NVML) exactly on
// linux; the archives, checksums file and names are the ones the Action's
// install script downloads; there is an SBOM and a keyless signature.
func TestGoreleaser(t *testing.T) {
	var g goreleaser
	if err := yaml.Unmarshal(readRoot(t, ".goreleaser.yaml"), &g); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if g.Version != 2 {
		t.Errorf("version %d, want 2 (goreleaser v2's schema)", g.Version)
	}
	mod := modulePath(t)
	var built []string
	for _, b := range g.Builds {
		if b.Main != "./cmd/envguard" || b.Binary != "envguard" {
			t.Errorf("build %s: main %q binary %q", b.ID, b.Main, b.Binary)
		}
		ld := strings.Join(b.Ldflags, " ")
		if !strings.Contains(ld, "-X "+mod+"/cli.Version={{ .Tag }}") {
			t.Errorf("build %s does not set %s/cli.Version: %q", b.ID, mod, ld)
		}
		env := strings.Join(b.Env, "\n")
		for _, os := range b.Goos {
			cgo := "CGO_ENABLED=0"
			if os == "linux" {
				// go-nvml needs cgo; gpucheck/nvml_stub.go covers the rest.
				cgo = "CGO_ENABLED=1"
			}
			if !strings.Contains(env, cgo) {
				t.Errorf("build %s for %s lacks %s", b.ID, os, cgo)
			}
			for _, a := range b.Goarch {
				built = append(built, os+"/"+a)
			}
		}
	}
	sort.Strings(built)
	want := "darwin/amd64 darwin/arm64 linux/amd64 linux/arm64 windows/amd64 windows/arm64"
	if strings.Join(built, " ") != want {
		t.Errorf("built %v, want %s", built, want)
	}
	stub := string(readRoot(t, "gpucheck/nvml_stub.go"))
	if !strings.HasPrefix(stub, "//go:build !(linux && cgo)") {
		t.Errorf("gpucheck/nvml_stub.go's build tag changed; the CGO_ENABLED choices above rest on it")
	}
	install := string(readRoot(t, "action/install.sh"))
	if len(g.Archives) != 1 || g.Archives[0].NameTemplate != "envguard_{{ .Os }}_{{ .Arch }}" ||
		!strings.Contains(install, "asset=envguard_${os}_${arch}.tar.gz") ||
		!strings.Contains(install, "asset=envguard_${os}_${arch}.zip") {
		t.Errorf("archive names and action/install.sh disagree: %+v", g.Archives)
	} else if a := g.Archives[0]; strings.Join(a.Formats, ",") != "tar.gz" || len(a.FormatOverrides) != 1 ||
		a.FormatOverrides[0].Goos != "windows" || strings.Join(a.FormatOverrides[0].Formats, ",") != "zip" {
		t.Errorf("archives: want tar.gz, zip for windows: %+v", a)
	}
	if g.Checksum.NameTemplate != "checksums.txt" || g.Checksum.Algorithm != "sha256" ||
		!strings.Contains(install, "checksums.txt") || !strings.Contains(install, "sha256") {
		t.Errorf("checksum %+v; action/install.sh reads checksums.txt of sha256 sums", g.Checksum)
	}
	if len(g.SBOMs) == 0 {
		t.Errorf("no SBOM")
	}
	if len(g.Signs) != 1 || g.Signs[0].Cmd != "cosign" || g.Signs[0].Artifacts != "checksum" ||
		!strings.Contains(strings.Join(g.Signs[0].Args, " "), "sign-blob") {
		t.Errorf("signs: want cosign sign-blob of the checksums: %+v", g.Signs)
	}
}

// TestReleaseWorkflow: tags v* release with goreleaser and push a signed
// multi-architecture image; the tools the configuration calls (zig for
// the linux cgo builds, cosign, syft) are installed first.
func TestReleaseWorkflow(t *testing.T) {
	var w struct {
		On struct {
			Push struct {
				Tags []string `yaml:"tags"`
			} `yaml:"push"`
		} `yaml:"on"`
		Jobs map[string]struct {
			If    string `yaml:"if"`
			Steps []struct {
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(readRoot(t, ".github/workflows/release.yml"), &w); err != nil {
		t.Fatal(err)
	}
	if strings.Join(w.On.Push.Tags, ",") != "v*" {
		t.Errorf("push tags %v, want v*", w.On.Push.Tags)
	}
	steps := func(job string) string {
		var b strings.Builder
		for _, s := range w.Jobs[job].Steps {
			b.WriteString(s.Uses + " " + s.Run + " " + s.With["args"] + " " + s.With["platforms"] + "\n")
		}
		return b.String()
	}
	rel := steps("release")
	for _, want := range []string{"setup-zig", "cosign-installer", "download-syft", "goreleaser-action", "release --clean"} {
		if !strings.Contains(rel, want) {
			t.Errorf("release job lacks %s:\n%s", want, rel)
		}
	}
	img := steps("image")
	for _, want := range []string{"build-push-action", "linux/amd64,linux/arm64", "cosign sign --yes"} {
		if !strings.Contains(img, want) {
			t.Errorf("image job lacks %s:\n%s", want, img)
		}
	}
	chk := steps("check")
	if !regexp.MustCompile(`goreleaser-action\S* +check`).MatchString(chk) || !strings.Contains(chk, "--snapshot") {
		t.Errorf("check job does not run goreleaser check and a snapshot build:\n%s", chk)
	}
	for job, j := range w.Jobs {
		if job != "check" && !strings.Contains(j.If, "refs/tags/v") {
			t.Errorf("job %s runs on more than tags: if %q", job, j.If)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "Dockerfile")); err != nil {
		t.Errorf("the image job builds the Dockerfile: %v", err)
	}
}
