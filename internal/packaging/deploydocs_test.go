package packaging

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestDeployDocs keeps docs/deploy.md true without Docker or a cluster:
// every shell block says which it needs, and what the commands name (files,
// the image, the token path, the port, resources, services) exists as they
// name it.
func TestDeployDocs(t *testing.T) {
	blocks := docBlocks(t, "docs/deploy.md")
	page := string(readRoot(t, "docs/deploy.md"))
	var shell []block
	for _, b := range blocks {
		if b.lang != "sh" {
			continue
		}
		shell = append(shell, b)
		if !strings.Contains(b.body, "# needs Docker") && !strings.Contains(b.body, "# needs a cluster") {
			t.Errorf("docs/deploy.md:%d: a shell block that neither the tests run nor says it needs Docker or a cluster:\n%s", b.line, b.body)
		}
		if strings.Contains(b.body, "docker ") && !strings.Contains(b.body, "# needs Docker") {
			t.Errorf("docs/deploy.md:%d runs docker without saying it needs Docker", b.line)
		}
	}
	if len(shell) == 0 {
		t.Fatal("docs/deploy.md has no shell blocks")
	}
	all := ""
	for _, b := range shell {
		all += b.body
	}

	// Paths the page names exist.
	for _, m := range regexp.MustCompile("(?:`|@|\\s)((?:deploy/kubernetes|testdata)/[A-Za-z0-9_./-]*[A-Za-z0-9_])").FindAllStringSubmatch(page, -1) {
		if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
			t.Errorf("docs/deploy.md names %s, which does not exist", m[1])
		}
	}

	// The image: the name the build gives is the one the manifests run and
	// the overlay's images: entry replaces.
	built := regexp.MustCompile(`docker build -t (\S+)`).FindStringSubmatch(all)
	if built == nil {
		t.Fatal("docs/deploy.md builds no image")
	}
	name, tag, _ := strings.Cut(built[1], ":")
	gpu := decodeAll(t, kustomizeBuild(t, k8sDir+"/overlays/gpu-cluster"))
	for _, f := range manifestFiles(t) {
		for _, m := range regexp.MustCompile(`(?m)^\s+image: (\S+)$`).FindAllStringSubmatch(string(mustRead(t, f)), -1) {
			if m[1] != built[1] {
				t.Errorf("%s runs image %s; docs/deploy.md builds %s", f, m[1], built[1])
			}
		}
	}
	var images struct {
		Images []struct {
			Name    string `yaml:"name"`
			NewName string `yaml:"newName"`
			NewTag  string `yaml:"newTag"`
		} `yaml:"images"`
	}
	for _, b := range blocks {
		if b.lang == "yaml" && strings.Contains(b.body, "images:") {
			if err := yaml.Unmarshal([]byte(b.body), &images); err != nil {
				t.Fatalf("docs/deploy.md:%d: %v", b.line, err)
			}
		}
	}
	if len(images.Images) != 1 || images.Images[0].Name != name || images.Images[0].NewTag != tag {
		t.Errorf("the overlay's images: entry %+v does not replace %s", images.Images, built[1])
	}

	// docker run mounts the token where the image's CMD reads it, and
	// publishes the port it serves.
	d := readDockerfile(t)
	final := d.stages[len(d.stages)-1]
	cmdLine := commandsCmd(final)
	tokenPath := flagValue(cmdLine, "--token-file")
	_, port, _ := strings.Cut(flagValue(cmdLine, "--addr"), ":")
	for _, run := range regexp.MustCompile(`docker run(?:[^\n\\]|\\\n)*`).FindAllString(all, -1) {
		if !strings.Contains(run, ":"+tokenPath+":ro") {
			t.Errorf("%q does not mount the token at %s", run, tokenPath)
		}
		if !regexp.MustCompile(`-p \d+:` + port + `\b`).MatchString(run) {
			t.Errorf("%q does not publish port %s", run, port)
		}
		if !strings.Contains(run, "--user \"65532:") {
			t.Errorf("%q does not run as the image's user with the caller's group", run)
		}
	}

	// kubectl names resources that the overlay creates.
	have := map[string]bool{}
	for _, o := range gpu {
		have[strings.ToLower(o.Kind)+"/"+o.Metadata.Name] = true
	}
	for _, m := range regexp.MustCompile(`rollout status (\w+/[\w-]+)`).FindAllStringSubmatch(all, -1) {
		if !have[m[1]] {
			t.Errorf("docs/deploy.md waits for %s, which overlays/gpu-cluster does not create", m[1])
		}
	}
	if !strings.Contains(all, "create secret generic envguard-token --from-literal=token=") {
		t.Error("docs/deploy.md does not create the Secret envguard-token with the key token the pods mount")
	}

	// URLs name Services that exist, on their port, and targets that exist.
	services := map[string]int{}
	for _, o := range gpu {
		if o.Kind == "Service" {
			for _, p := range o.Spec.Ports {
				services[o.Metadata.Name+"."+o.Metadata.Namespace] = p.Port
			}
		}
	}
	targets := map[string]bool{"local": true}
	var tf struct {
		Targets []struct {
			Name string `yaml:"name"`
		} `yaml:"targets"`
	}
	if err := yaml.Unmarshal(readRoot(t, k8sDir+"/base/targets.yml"), &tf); err != nil {
		t.Fatal(err)
	}
	for _, tg := range tf.Targets {
		targets[tg.Name] = true
	}
	urls := regexp.MustCompile(`http://([\w-]+\.[\w-]+)\.svc:(\d+)(/[\w/]+)(?:\?target=([\w-]+))?`).FindAllStringSubmatch(all, -1)
	if len(urls) == 0 {
		t.Error("docs/deploy.md shows no in-cluster URL")
	}
	for _, m := range urls {
		if p, _ := strconv.Atoi(m[2]); services[m[1]] != p {
			t.Errorf("%s: no Service %s on port %s", m[0], m[1], m[2])
		}
		if m[4] != "" && !targets[m[4]] {
			t.Errorf("%s: target %s is neither local nor in base/targets.yml", m[0], m[4])
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
