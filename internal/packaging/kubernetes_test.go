package packaging

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yannh/kubeconform/pkg/validator"
	"gopkg.in/yaml.v3"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

const k8sDir = "deploy/kubernetes"

// kubeValidator is kubeconform's validator over the schemas kept in
// testdata/schemas (README.md there says where each comes from), offline:
// the Kubernetes definitions, made strict as kubeconform's
// openapi2jsonschema.py --strict makes them (every object with properties
// admits no others, so a misspelt field fails), one small file per kind
// pointing into them, and the ServiceMonitor CRD's schema in the
// CRDs-catalog layout.
func kubeValidator(t *testing.T) validator.Validator {
	t.Helper()
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join("testdata", "schemas", "kubernetes", "_definitions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var defs struct {
		Definitions map[string]any `json:"definitions"`
	}
	if err := json.Unmarshal(b, &defs); err != nil {
		t.Fatal(err)
	}
	denyAdditional(defs.Definitions)
	out, err := json.Marshal(defs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "_definitions.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, d := range defs.Definitions {
		gvks, _ := d.(map[string]any)["x-kubernetes-group-version-kind"].([]any)
		for _, g := range gvks {
			gvk := g.(map[string]any)
			apiVersion := gvk["version"].(string)
			if group := gvk["group"].(string); group != "" {
				apiVersion = group + "/" + apiVersion
			}
			ref := fmt.Sprintf(`{"$ref": "_definitions.json#/definitions/%s"}`, name)
			file := filepath.Join(dir, strings.ToLower(gvk["kind"].(string))+kindSuffix(apiVersion)+".json")
			if err := os.WriteFile(file, []byte(ref), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	crds, err := filepath.Abs(filepath.Join("testdata", "schemas", "crds"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := validator.New([]string{
		dir + "/{{ .ResourceKind }}{{ .KindSuffix }}.json",
		crds + "/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json",
	}, validator.Opts{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// kindSuffix names a schema file as kubeconform's registry does:
// apps/v1 → -apps-v1, networking.k8s.io/v1 → -networking-v1, v1 → -v1.
func kindSuffix(apiVersion string) string {
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return "-" + strings.ToLower(apiVersion)
	}
	first, _, _ := strings.Cut(group, ".")
	return "-" + strings.ToLower(first) + "-" + strings.ToLower(version)
}

// denyAdditional adds additionalProperties: false to every object schema
// that lists its properties and says nothing of others, as
// openapi2jsonschema.py's additional_properties does.
func denyAdditional(v any) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["properties"].(map[string]any); ok {
			if _, set := v["additionalProperties"]; !set {
				v["additionalProperties"] = false
			}
		}
		for _, x := range v {
			denyAdditional(x)
		}
	case []any:
		for _, x := range v {
			denyAdditional(x)
		}
	}
}

// validateManifests validates every resource in src and returns the kinds
// it holds; each must be valid against its schema (a kind with no schema
// is an error, never skipped).
func validateManifests(t *testing.T, v validator.Validator, name string, src []byte) []string {
	t.Helper()
	var kinds []string
	for _, r := range v.Validate(name, io.NopCloser(bytes.NewReader(src))) {
		sig, _ := r.Resource.Signature()
		what := name
		if sig != nil {
			what = fmt.Sprintf("%s: %s %s", name, sig.Kind, sig.Name)
			kinds = append(kinds, sig.Kind)
		}
		switch r.Status {
		case validator.Valid:
		case validator.Empty:
		case validator.Invalid:
			var msgs []string
			for _, e := range r.ValidationErrors {
				msgs = append(msgs, e.Path+": "+e.Msg)
			}
			t.Errorf("%s is invalid:\n  %s", what, strings.Join(msgs, "\n  "))
		default:
			t.Errorf("%s: not validated (status %d): %v", what, r.Status, r.Err)
		}
	}
	return kinds
}

// manifestFiles lists the Kubernetes manifests under deploy/kubernetes
// (every YAML file but the kustomization files).
func manifestFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(root, k8sDir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".yaml") && d.Name() != "kustomization.yaml" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestKubernetesManifestsValid(t *testing.T) {
	v := kubeValidator(t)
	var kinds []string
	for _, f := range manifestFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		kinds = append(kinds, validateManifests(t, v, rel, src)...)
	}
	for _, want := range []string{"DaemonSet", "Deployment", "Service", "HorizontalPodAutoscaler", "ServiceMonitor", "NetworkPolicy", "Namespace", "ServiceAccount"} {
		if !slices.Contains(kinds, want) {
			t.Errorf("no %s in %s", want, k8sDir)
		}
	}
}

// TestKubernetesSchemasBite: the validation above means something only if
// it fails on what a cluster would refuse.
func TestKubernetesSchemasBite(t *testing.T) {
	v := kubeValidator(t)
	ds := string(readRoot(t, k8sDir+"/components/gpu-nodes/daemonset.yaml"))
	sm := string(readRoot(t, k8sDir+"/components/monitoring/servicemonitor.yaml"))
	hpa := string(readRoot(t, k8sDir+"/base/hpa.yaml"))
	broken := map[string]string{
		"misspelt probe":          strings.Replace(ds, "readinessProbe:", "readinesProbe:", 1),
		"replicas on a DaemonSet": strings.Replace(ds, "  updateStrategy:", "  replicas: 2\n  updateStrategy:", 1),
		"port as a word":          strings.Replace(ds, "containerPort: 8080", "containerPort: eight", 1),
		"ServiceMonitor field":    strings.Replace(sm, "      interval: 30s", "      intervall: 30s", 1),
		"HPA v1 field in v2":      strings.Replace(hpa, "  maxReplicas: 10", "  maxReplicas: 10\n  targetCPUUtilizationPercentage: 70", 1),
		"unknown kind":            "apiVersion: envguard.example/v1\nkind: Nothing\nmetadata:\n  name: x\n",
	}
	for name, src := range broken {
		// A resource the schemas judge is Invalid; one no schema knows is an
		// Error (missing schemas are never skipped).
		want := validator.Invalid
		if name == "unknown kind" {
			want = validator.Error
		}
		rs := v.Validate(name, io.NopCloser(strings.NewReader(src)))
		if len(rs) != 1 || rs[0].Status != want {
			for _, r := range rs {
				t.Errorf("%s: status %d (want %d): %v %v", name, r.Status, want, r.Err, r.ValidationErrors)
			}
		}
	}
}

// kustomizeBuild builds an overlay with the kustomize library (what
// `kubectl apply -k` runs) and returns its YAML.
func kustomizeBuild(t *testing.T, dir string) []byte {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), filepath.Join(root, dir))
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	b, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestKubernetesOverlays(t *testing.T) {
	v := kubeValidator(t)
	overlays := map[string][]string{
		"overlays/ci":          {"Namespace", "ServiceAccount", "ConfigMap", "Service", "Deployment", "HorizontalPodAutoscaler", "NetworkPolicy"},
		"overlays/gpu-cluster": {"Namespace", "ServiceAccount", "ConfigMap", "Service", "Service", "Deployment", "DaemonSet", "HorizontalPodAutoscaler", "NetworkPolicy", "ServiceMonitor"},
	}
	entries, err := os.ReadDir(filepath.Join(root, k8sDir, "overlays"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(overlays) {
		t.Errorf("%d overlays, the test knows %d", len(entries), len(overlays))
	}
	for dir, want := range overlays {
		out := kustomizeBuild(t, k8sDir+"/"+dir)
		kinds := validateManifests(t, v, dir, out)
		slices.Sort(kinds)
		slices.Sort(want)
		if !slices.Equal(kinds, want) {
			t.Errorf("%s builds %v, want %v", dir, kinds, want)
		}
		for _, o := range decodeAll(t, out) {
			ns := o.Metadata.Namespace
			if o.Kind == "Namespace" {
				ns = o.Metadata.Name
			}
			if ns != "envguard" {
				t.Errorf("%s: %s %s is in namespace %q", dir, o.Kind, o.Metadata.Name, ns)
			}
		}
	}
}

// object is what the consistency checks read of a resource.
type object struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name      string            `yaml:"name"`
		Namespace string            `yaml:"namespace"`
		Labels    map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Data map[string]string `yaml:"data"`
	Spec struct {
		Selector yaml.Node `yaml:"selector"`
		Template struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
		ScaleTargetRef struct {
			Kind string `yaml:"kind"`
			Name string `yaml:"name"`
		} `yaml:"scaleTargetRef"`
		Ports []struct {
			Name       string `yaml:"name"`
			Port       int    `yaml:"port"`
			TargetPort string `yaml:"targetPort"`
		} `yaml:"ports"`
		Endpoints []struct {
			Port string `yaml:"port"`
			Path string `yaml:"path"`
		} `yaml:"endpoints"`
		Ingress []struct {
			Ports []struct {
				Port int `yaml:"port"`
			} `yaml:"ports"`
		} `yaml:"ingress"`
	} `yaml:"spec"`
}

type podSpec struct {
	RuntimeClassName string            `yaml:"runtimeClassName"`
	NodeSelector     map[string]string `yaml:"nodeSelector"`
	SecurityContext  struct {
		RunAsNonRoot bool `yaml:"runAsNonRoot"`
		RunAsUser    int  `yaml:"runAsUser"`
	} `yaml:"securityContext"`
	Containers []struct {
		Args  []string `yaml:"args"`
		Ports []struct {
			Name          string `yaml:"name"`
			ContainerPort int    `yaml:"containerPort"`
		} `yaml:"ports"`
		Env []struct {
			Name  string `yaml:"name"`
			Value string `yaml:"value"`
		} `yaml:"env"`
		ReadinessProbe probe `yaml:"readinessProbe"`
		LivenessProbe  probe `yaml:"livenessProbe"`
		Resources      struct {
			Requests map[string]string `yaml:"requests"`
			Limits   map[string]string `yaml:"limits"`
		} `yaml:"resources"`
		VolumeMounts []struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	} `yaml:"containers"`
	Volumes []struct {
		Name      string `yaml:"name"`
		ConfigMap struct {
			Name string `yaml:"name"`
		} `yaml:"configMap"`
		Secret struct {
			SecretName string `yaml:"secretName"`
			Items      []struct {
				Key  string `yaml:"key"`
				Path string `yaml:"path"`
			} `yaml:"items"`
		} `yaml:"secret"`
	} `yaml:"volumes"`
}

type probe struct {
	HTTPGet struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	} `yaml:"httpGet"`
}

func decodeAll(t *testing.T, src []byte) []object {
	t.Helper()
	var out []object
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var o object
		err := dec.Decode(&o)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
}

// TestKubernetesWiring checks what no schema can: that the pieces of the
// gpu-cluster overlay fit. Services select the pods, probes and the
// ServiceMonitor use ports that exist, the token file is the Secret's
// mounted key, the HPA scales the Deployment, the DaemonSet runs on NVIDIA
// GPU nodes with the nvidia runtime and takes no GPU, and each workload's
// args start a real envguard serve whose probes answer.
func TestKubernetesWiring(t *testing.T) {
	objs := decodeAll(t, kustomizeBuild(t, k8sDir+"/overlays/gpu-cluster"))
	byKind := map[string][]object{}
	for _, o := range objs {
		byKind[o.Kind] = append(byKind[o.Kind], o)
	}
	workloads := append(append([]object{}, byKind["Deployment"]...), byKind["DaemonSet"]...)
	if len(workloads) != 2 {
		t.Fatalf("%d workloads, want a Deployment and a DaemonSet", len(workloads))
	}

	for _, svc := range byKind["Service"] {
		var sel map[string]string
		if err := svc.Spec.Selector.Decode(&sel); err != nil {
			t.Fatal(err)
		}
		matched := 0
		for _, w := range workloads {
			if subset(sel, w.Spec.Template.Metadata.Labels) {
				matched++
				for _, p := range svc.Spec.Ports {
					if !slices.ContainsFunc(w.Spec.Template.Spec.Containers[0].Ports, func(cp struct {
						Name          string `yaml:"name"`
						ContainerPort int    `yaml:"containerPort"`
					}) bool {
						return cp.Name == p.TargetPort
					}) {
						t.Errorf("Service %s targets port %q, which %s %s does not name", svc.Metadata.Name, p.TargetPort, w.Kind, w.Metadata.Name)
					}
				}
			}
		}
		if matched != 1 {
			t.Errorf("Service %s selects %d workloads, want 1", svc.Metadata.Name, matched)
		}
	}

	for _, hpa := range byKind["HorizontalPodAutoscaler"] {
		if hpa.Spec.ScaleTargetRef.Kind != "Deployment" || hpa.Spec.ScaleTargetRef.Name != byKind["Deployment"][0].Metadata.Name {
			t.Errorf("the HPA scales %s %s, not the Deployment", hpa.Spec.ScaleTargetRef.Kind, hpa.Spec.ScaleTargetRef.Name)
		}
	}

	for _, sm := range byKind["ServiceMonitor"] {
		var sel struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		}
		if err := sm.Spec.Selector.Decode(&sel); err != nil {
			t.Fatal(err)
		}
		for _, svc := range byKind["Service"] {
			if !subset(sel.MatchLabels, svc.Metadata.Labels) {
				t.Errorf("the ServiceMonitor misses Service %s", svc.Metadata.Name)
			}
			for _, ep := range sm.Spec.Endpoints {
				if ep.Path != "/metrics" || !slices.ContainsFunc(svc.Spec.Ports, func(p struct {
					Name       string `yaml:"name"`
					Port       int    `yaml:"port"`
					TargetPort string `yaml:"targetPort"`
				}) bool {
					return p.Name == ep.Port
				}) {
					t.Errorf("ServiceMonitor endpoint %s%s: no such port on Service %s, or not /metrics", ep.Port, ep.Path, svc.Metadata.Name)
				}
			}
		}
	}

	ds := byKind["DaemonSet"][0].Spec.Template.Spec
	if ds.RuntimeClassName != "nvidia" || ds.NodeSelector["nvidia.com/gpu.present"] != "true" {
		t.Errorf("the DaemonSet runs with runtime class %q on nodes %v; want nvidia on nvidia.com/gpu.present=true", ds.RuntimeClassName, ds.NodeSelector)
	}
	env := map[string]string{}
	for _, e := range ds.Containers[0].Env {
		env[e.Name] = e.Value
	}
	if env["NVIDIA_VISIBLE_DEVICES"] != "all" || env["NVIDIA_DRIVER_CAPABILITIES"] != "utility" {
		t.Errorf("the DaemonSet's NVIDIA environment is %v; want all GPUs, the utility capability", env)
	}
	if _, ok := ds.Containers[0].Resources.Limits["nvidia.com/gpu"]; ok {
		t.Error("the DaemonSet takes a GPU from the jobs")
	}

	for _, np := range byKind["NetworkPolicy"] {
		for _, in := range np.Spec.Ingress {
			for _, p := range in.Ports {
				if p.Port != 8080 {
					t.Errorf("the NetworkPolicy opens port %d, envguard listens on 8080", p.Port)
				}
			}
		}
	}

	uid := dockerfileUID(t)
	for _, w := range workloads {
		ps := w.Spec.Template.Spec
		if !ps.SecurityContext.RunAsNonRoot || ps.SecurityContext.RunAsUser != uid {
			t.Errorf("%s %s runs as %d (runAsNonRoot %v); the image's user is %d", w.Kind, w.Metadata.Name, ps.SecurityContext.RunAsUser, ps.SecurityContext.RunAsNonRoot, uid)
		}
		c := ps.Containers[0]
		if c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.LivenessProbe.HTTPGet.Path != "/healthz" {
			t.Errorf("%s: readiness %q, liveness %q; want /readyz and /healthz", w.Metadata.Name, c.ReadinessProbe.HTTPGet.Path, c.LivenessProbe.HTTPGet.Path)
		}
		tokenFile := flagValue(c.Args, "--token-file")
		if !tokenFromSecret(ps, tokenFile) {
			t.Errorf("%s: --token-file %s is not the envguard-token Secret's key token, mounted", w.Metadata.Name, tokenFile)
		}
		args := c.Args
		target := "local" // the DaemonSet answers for its node's GPUs
		if w.Kind == "Deployment" {
			// The CI service reads the targets ConfigMap built from
			// base/targets.yml; the test gives it that file.
			targets := flagValue(c.Args, "--targets")
			src := configMapFile(t, ps, byKind["ConfigMap"], targets)
			f := filepath.Join(t.TempDir(), "targets.yml")
			if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			args = replaceFlag(args, "--targets", f)
			target = firstTarget(t, src)
		}
		serveAndProbe(t, w.Metadata.Name, args, target, c.ReadinessProbe.HTTPGet.Path, c.LivenessProbe.HTTPGet.Path)
	}
}

// configMapFile returns the content of the file at path in a pod: a key of
// a ConfigMap volume mounted above it.
func configMapFile(t *testing.T, ps podSpec, cms []object, path string) string {
	t.Helper()
	for _, m := range ps.Containers[0].VolumeMounts {
		key, err := filepath.Rel(m.MountPath, path)
		if err != nil || strings.HasPrefix(key, "..") {
			continue
		}
		for _, vol := range ps.Volumes {
			if vol.Name != m.Name || vol.ConfigMap.Name == "" {
				continue
			}
			for _, cm := range cms {
				if cm.Metadata.Name == vol.ConfigMap.Name {
					if src, ok := cm.Data[key]; ok {
						return src
					}
				}
			}
		}
	}
	t.Fatalf("--targets %s is no key of a mounted ConfigMap", path)
	return ""
}

func firstTarget(t *testing.T, src string) string {
	t.Helper()
	var f struct {
		Targets []struct {
			Name string `yaml:"name"`
		} `yaml:"targets"`
	}
	if err := yaml.Unmarshal([]byte(src), &f); err != nil || len(f.Targets) == 0 {
		t.Fatalf("the targets ConfigMap names no target (%v)", err)
	}
	return f.Targets[0].Name
}

func subset(sel, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func tokenFromSecret(ps podSpec, tokenFile string) bool {
	for _, m := range ps.Containers[0].VolumeMounts {
		for _, vol := range ps.Volumes {
			if vol.Name != m.Name || vol.Secret.SecretName != "envguard-token" {
				continue
			}
			for _, it := range vol.Secret.Items {
				if it.Key == "token" && filepath.Join(m.MountPath, it.Path) == tokenFile {
					return true
				}
			}
		}
	}
	return false
}

func dockerfileUID(t *testing.T) int {
	t.Helper()
	d := readDockerfile(t)
	var uid int
	users := commandsOf(d)
	if _, err := fmt.Sscanf(users, "%d", &uid); err != nil {
		t.Fatalf("Dockerfile USER %q: %v", users, err)
	}
	return uid
}

// serveAndProbe starts the test's envguard with a workload's args (the
// address moved to a free loopback port, the token file to a temporary
// one), checks that its readiness and liveness paths answer 200, and that
// it validates an environment against target with the bearer token.
func serveAndProbe(t *testing.T, name string, args []string, target string, paths ...string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("k8s-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := commandOnPath("envguard", replaceFlag(replaceFlag(args, "--addr", addr), "--token-file", token)...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	for _, p := range paths {
		deadline := time.Now().Add(60 * time.Second) // a guard against a hang, not a speed bound
		for {
			resp, err := http.Get("http://" + addr + p)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) {
				t.Errorf("%s: GET %s never answered 200 (%v)\n%s", name, p, err, log.String())
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/validate?target="+target, strings.NewReader(cleanEnv))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/yaml")
	req.Header.Set("Authorization", "Bearer k8s-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer resp.Body.Close()
	var rep struct {
		Targets []struct {
			Name string `json:"name"`
		} `json:"targets"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil || resp.StatusCode != http.StatusOK ||
		len(rep.Targets) != 1 || rep.Targets[0].Name != target {
		t.Errorf("%s: POST /v1/validate?target=%s: %s, %v, %+v\n%s", name, target, resp.Status, err, rep, log.String())
	}
}
