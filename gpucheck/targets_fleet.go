package gpucheck

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// Labels NVIDIA's GPU feature discovery puts on a Kubernetes GPU node
// (NVIDIA/k8s-device-plugin, docs/gpu-feature-discovery/README.md,
// "Generated Labels"): cuda.driver.* is the NVIDIA driver's version
// (418.30.40), cuda.runtime.* the CUDA version that driver supports.
const (
	labelProduct      = "nvidia.com/gpu.product"
	labelCount        = "nvidia.com/gpu.count"
	labelComputeMajor = "nvidia.com/gpu.compute.major"
	labelComputeMinor = "nvidia.com/gpu.compute.minor"
	labelDriverMajor  = "nvidia.com/cuda.driver.major"
	labelDriverMinor  = "nvidia.com/cuda.driver.minor"
	labelDriverRev    = "nvidia.com/cuda.driver.rev"
	labelCUDAMajor    = "nvidia.com/cuda.runtime.major"
	labelCUDAMinor    = "nvidia.com/cuda.runtime.minor"
)

// poolLabels name a node's pool, first match wins: GKE, EKS managed node
// groups, AKS agent pools, Karpenter v1 node pools, and the cluster
// autoscaler's generic label.
var poolLabels = []string{
	"cloud.google.com/gke-nodepool",
	"eks.amazonaws.com/nodegroup",
	"kubernetes.azure.com/agentpool",
	"karpenter.sh/nodepool",
	"autoscaling.k8s.io/nodegroup",
}

// isKubeNodes reports whether a YAML or JSON document is what `kubectl get
// nodes -o json|yaml` prints: a List (or NodeList) of Nodes, or one Node.
func isKubeNodes(top *yaml.Node) bool {
	k := mapGet(top, "kind")
	if k == nil || k.Kind != yaml.ScalarNode {
		return false
	}
	switch k.Value {
	case "Node":
		return true
	case "List", "NodeList":
		return mapGet(top, "items") != nil
	}
	return false
}

// kubeKey is what makes GPU nodes identical for the checks.
type kubeKey struct{ pool, product, cc, driver, cuda string }

// kubeGroup is one set of identical GPU nodes: one target.
type kubeGroup struct {
	kubeKey
	nodes int
	gpus  int // the most GPUs a node of the group has
	pos   finding.Pos
}

// kubeNodes reads `kubectl get nodes -o json` (or -o yaml): one target per
// node pool, or per group of nodes with the same GPU and driver where a
// pool holds several or no pool label is set, with its node count. Nodes
// without GPU feature discovery labels (CPU nodes) are skipped.
func (p *targetParser) kubeNodes(top *yaml.Node) []Target {
	var items []*yaml.Node
	if k := mapGet(top, "kind"); k.Value == "Node" {
		items = []*yaml.Node{top}
	} else if it := mapGet(top, "items"); it.Kind == yaml.SequenceNode {
		items = it.Content
	} else {
		p.errf(it, "items: must be a list of nodes, got %s", envspec.YAMLKind(it))
		return nil
	}
	var groups []*kubeGroup
	index := map[kubeKey]*kubeGroup{}
	skipped := 0
	for _, item := range items {
		if item.Kind != yaml.MappingNode {
			p.errf(item, "a node must be a mapping, got %s", envspec.YAMLKind(item))
			continue
		}
		labels := mapGet(mapGet(item, "metadata"), "labels")
		name := ""
		if n := mapGet(mapGet(item, "metadata"), "name"); n != nil {
			name = n.Value
		}
		if labels != nil && labels.Kind != yaml.MappingNode {
			p.errf(labels, "node %s: metadata.labels must be a mapping, got %s", name, envspec.YAMLKind(labels))
			continue
		}
		if mapGet(labels, labelProduct) == nil && mapGet(labels, labelComputeMajor) == nil {
			skipped++ // no GPU feature discovery labels: a CPU node
			continue
		}
		get := func(key string) string {
			if v := mapGet(labels, key); v != nil && v.Kind == yaml.ScalarNode {
				return strings.TrimSpace(v.Value)
			}
			return ""
		}
		if n := get(labelCount); n == "0" {
			skipped++
			continue
		}
		g := kubeKey{product: get(labelProduct)}
		for _, l := range poolLabels {
			if v := get(l); v != "" {
				g.pool = v
				break
			}
		}
		ok := true
		if ma, mi := get(labelComputeMajor), get(labelComputeMinor); ma != "" || mi != "" {
			c, good := parseCC(ma + "." + mi)
			if !good || !reCUDA().MatchString(ma+"."+mi) {
				p.errf(labels, "node %s: %s=%q and %s=%q are not a compute capability", name, labelComputeMajor, ma, labelComputeMinor, mi)
				ok = false
			} else {
				g.cc = c.String()
			}
		} else {
			p.errf(labels, "node %s has %s=%q but no %s/%s labels: envguard needs the compute capability GPU feature discovery writes", name, labelProduct, g.product, labelComputeMajor, labelComputeMinor)
			ok = false
		}
		if ma, mi, rev := get(labelDriverMajor), get(labelDriverMinor), get(labelDriverRev); ma != "" {
			d := ma + "." + mi
			if rev != "" {
				d += "." + rev
			}
			if !reDriver().MatchString(d) {
				p.errf(labels, "node %s: driver labels give %q, not a driver version like 550.54.15", name, d)
				ok = false
			}
			g.driver = d
		}
		if ma, mi := get(labelCUDAMajor), get(labelCUDAMinor); ma != "" {
			c := ma + "." + mi
			if !reCUDA().MatchString(c) {
				p.errf(labels, "node %s: %s/%s give %q, not a CUDA version like 12.4", name, labelCUDAMajor, labelCUDAMinor, c)
				ok = false
			}
			g.cuda = c
		}
		if g.driver == "" && g.cuda == "" {
			p.errf(labels, "node %s has GPU labels but neither %s nor %s: its driver is unknown", name, labelDriverMajor, labelCUDAMajor)
			ok = false
		}
		if !ok {
			continue
		}
		count := 1
		if n := get(labelCount); n != "" {
			if v, err := strconv.Atoi(n); err == nil && v > 0 {
				count = v
			}
		}
		if have := index[g]; have != nil {
			have.nodes++
			have.gpus = max(have.gpus, count)
			continue
		}
		gp := &kubeGroup{kubeKey: g, nodes: 1, gpus: count, pos: p.pos(item)}
		index[g] = gp
		groups = append(groups, gp)
	}
	if len(groups) == 0 && len(p.errs) == 0 {
		p.errs = append(p.errs, &TargetError{p.pos(top), fmt.Sprintf("none of the %d nodes carries NVIDIA GPU feature discovery labels (%s, %s): there is no GPU machine to describe", skipped, labelProduct, labelComputeMajor)})
	}
	return kubeTargets(groups)
}

// kubeTargets names the groups: by pool where a pool is one group, else by
// pool (or product) and driver, with a counter where that still repeats.
func kubeTargets(groups []*kubeGroup) []Target {
	perPool := map[string]int{}
	for _, g := range groups {
		perPool[g.pool]++
	}
	seen := map[string]int{}
	var out []Target
	for _, g := range groups {
		name := g.pool
		if name == "" || perPool[g.pool] > 1 {
			parts := []string{}
			if g.pool != "" {
				parts = append(parts, g.pool)
			}
			if g.product != "" {
				parts = append(parts, g.product)
			} else {
				parts = append(parts, "cc"+g.cc)
			}
			if g.driver != "" {
				parts = append(parts, g.driver)
			} else {
				parts = append(parts, "cuda"+g.cuda)
			}
			name = strings.Join(parts, "/")
		}
		seen[name]++
		if seen[name] > 1 {
			name += "#" + strconv.Itoa(seen[name])
		}
		t := Target{Name: name, Driver: g.driver, CUDADriver: g.cuda, Pos: g.pos, Nodes: g.nodes}
		for range g.gpus {
			t.CCs = append(t.CCs, g.cc)
			t.ccNames = append(t.ccNames, strings.ReplaceAll(g.product, "-", " "))
		}
		out = append(out, t)
	}
	return out
}

var reSMIHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*name\s*,\s*driver_version\s*,\s*compute_cap\s*$`)
})

// isSMICSV reports whether src is the output of `nvidia-smi
// --query-gpu=name,driver_version,compute_cap --format=csv`: its header
// line, the columns in that order.
func isSMICSV(src []byte) bool {
	line, _, _ := bytes.Cut(bytes.TrimLeft(src, "\ufeff\r\n\t "), []byte("\n"))
	return reSMIHeader().Match(bytes.TrimRight(line, "\r"))
}

// SMITargets reads `nvidia-smi --query-gpu=name,driver_version,compute_cap
// --format=csv`: one machine, one target named after the file, one GPU a
// line. The driver is the machine's; lines that disagree are an error.
func SMITargets(file string, src []byte) ([]Target, error) {
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if base == "" || base == "." || base == "-" {
		base = "nvidia-smi"
	}
	t := Target{Name: base, Pos: finding.Pos{File: file, Line: 1, Col: 1}}
	var errs TargetErrors
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if line == 1 || s == "" {
			continue
		}
		pos := finding.Pos{File: file, Line: line, Col: 1}
		f := strings.Split(s, ",")
		if len(f) != 3 {
			errs = append(errs, &TargetError{pos, fmt.Sprintf("expected 3 columns (name, driver_version, compute_cap), got %d: %q", len(f), s)})
			continue
		}
		name, drv, cc := strings.TrimSpace(f[0]), strings.TrimSpace(f[1]), strings.TrimSpace(f[2])
		if !reDriver().MatchString(drv) {
			errs = append(errs, &TargetError{pos, fmt.Sprintf("driver_version %q is not a driver version like 550.54.15", drv)})
			continue
		}
		c, ok := parseCC(cc)
		if !ok || !reCUDA().MatchString(cc) {
			errs = append(errs, &TargetError{pos, fmt.Sprintf("compute_cap %q is not a compute capability like 9.0 (nvidia-smi before 510 has no compute_cap column)", cc)})
			continue
		}
		if t.Driver != "" && t.Driver != drv {
			errs = append(errs, &TargetError{pos, fmt.Sprintf("driver_version %s differs from line 2's %s: one machine has one driver; give each machine its own file", drv, t.Driver)})
			continue
		}
		t.Driver = drv
		t.CCs = append(t.CCs, c.String())
		t.ccNames = append(t.ccNames, name)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, &TargetError{finding.Pos{File: file, Line: line + 1, Col: 1}, "reading: " + err.Error()})
	}
	if len(t.CCs) == 0 && len(errs) == 0 {
		errs = append(errs, &TargetError{finding.Pos{File: file, Line: 1, Col: 1}, "no GPU lines after the header: nvidia-smi found no GPU"})
	}
	if len(errs) > 0 {
		if len(t.CCs) == 0 {
			return nil, errs
		}
		return []Target{t}, errs
	}
	return []Target{t}, nil
}
