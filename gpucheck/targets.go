package gpucheck

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/resolver/kb"
)

// Target is a described machine: a driver (or the CUDA version its driver
// supports) and GPU models (or compute capabilities).
type Target struct {
	Name       string   `json:"name"`
	Driver     string   `json:"driver,omitempty"`
	CUDADriver string   `json:"cuda_driver,omitempty"`
	GPUs       []string `json:"gpus,omitempty"`
	CCs        []string `json:"compute_capabilities,omitempty"`
	// DriverRange and CUDARange keep a range as written (">=535.54, <560");
	// Driver and CUDADriver are then its oldest member, the worst case.
	DriverRange string      `json:"driver_range,omitempty"`
	CUDARange   string      `json:"cuda_driver_range,omitempty"`
	Pos         finding.Pos `json:"-"` // the list item
	// NoDriver marks a machine with no NVIDIA driver, described on purpose:
	// `driver: none` (or `cuda_driver: none`) in a targets file, or a
	// conda-lock subdir without __cuda.
	NoDriver bool `json:"no_driver,omitempty"`
	// Nodes is how many identical machines the target stands for (a
	// Kubernetes node pool); 0 when the source does not say.
	Nodes int `json:"nodes,omitempty"`
	// ccNames names the GPUs given by compute capability, where the source
	// also names the model (nvidia-smi, GPU feature discovery).
	ccNames []string
	// noDriverKey is the key that said none, for the Host's reason.
	noDriverKey string

	gpuPos []finding.Pos
}

// TargetError is a problem in a targets file, at a position.
type TargetError struct {
	Pos finding.Pos
	Msg string
}

func (e *TargetError) Error() string { return e.Pos.String() + ": " + e.Msg }

// TargetErrors is every problem found in one file, in file order.
type TargetErrors []*TargetError

func (es TargetErrors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var (
	reDriver  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+(\.[0-9]+){1,2}$`) })
	reCUDA    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+\.[0-9]+$`) })
	reYAMLErr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })
)

var targetKeys = []string{"compute_capabilities", "cuda_driver", "driver", "gpus", "name"}

// ParseTargets reads a targets file (a `targets:` list, also the `targets:`
// key of .envguard.yml), a conda-lock virtual-packages.yml or a pixi
// manifest's system requirements (a .toml file, see PixiTargets). Every problem
// is reported with file:line:col; the targets that were read whole come
// back even when others were not.
func ParseTargets(file string, src []byte) ([]Target, error) {
	if strings.HasSuffix(strings.ToLower(file), ".toml") {
		return PixiTargets(file, src)
	}
	if isSMICSV(src) {
		return SMITargets(file, src)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		p := finding.Pos{File: file}
		msg := err.Error()
		if m := reYAMLErr().FindStringSubmatch(msg); m != nil {
			p.Line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		return nil, TargetErrors{{p, "invalid YAML: " + msg}}
	}
	pr := &targetParser{file: file}
	if len(doc.Content) == 0 {
		return nil, TargetErrors{{finding.Pos{File: file, Line: 1, Col: 1}, "empty file: expected a targets: list"}}
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, TargetErrors{{pr.pos(top), "expected a mapping with a targets: list, got " + envspec.YAMLKind(top)}}
	}
	var targets []Target
	if v := mapGet(top, "targets"); v != nil {
		targets = pr.targets(v)
	} else if v := mapGet(top, "subdirs"); v != nil {
		targets = pr.virtualPackages(v)
	} else if isKubeNodes(top) {
		targets = pr.kubeNodes(top)
	} else {
		pr.errf(top, "no targets: key (nor a conda-lock subdirs: key, nor the nodes `kubectl get nodes -o json` prints)")
	}
	if len(pr.errs) > 0 {
		sort.SliceStable(pr.errs, func(i, j int) bool {
			a, b := pr.errs[i].Pos, pr.errs[j].Pos
			return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col)
		})
		return targets, pr.errs
	}
	return targets, nil
}

type targetParser struct {
	file string
	errs TargetErrors
}

func (p *targetParser) pos(n *yaml.Node) finding.Pos {
	return finding.Pos{File: p.file, Line: n.Line, Col: n.Column}
}

func (p *targetParser) errf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &TargetError{p.pos(n), fmt.Sprintf(format, args...)})
}

func (p *targetParser) targets(list *yaml.Node) []Target {
	if list.Kind != yaml.SequenceNode {
		p.errf(list, "targets: must be a list, got %s", envspec.YAMLKind(list))
		return nil
	}
	var out []Target
	seen := map[string]finding.Pos{}
	for _, item := range list.Content {
		t, ok := p.target(item)
		if !ok {
			continue
		}
		if prev, dup := seen[t.Name]; dup {
			p.errf(mapGet(item, "name"), "target %q is already defined at line %d", t.Name, prev.Line)
			continue
		}
		seen[t.Name] = t.Pos
		out = append(out, t)
	}
	return out
}

func (p *targetParser) target(item *yaml.Node) (Target, bool) {
	t := Target{Pos: p.pos(item)}
	if item.Kind != yaml.MappingNode {
		p.errf(item, "a target must be a mapping with name, driver or cuda_driver, gpus or compute_capabilities; got %s", envspec.YAMLKind(item))
		return t, false
	}
	before := len(p.errs)
	unknown := false
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, v := item.Content[i], item.Content[i+1]
		switch k.Value {
		case "name":
			t.Name = p.scalar(v, "name")
			if t.Name == "" && v.Kind == yaml.ScalarNode {
				p.errf(v, "name must not be empty")
			}
		case "driver":
			t.Driver = p.scalar(v, "driver")
			if p.none(v, "driver", t.Driver, &t) {
				t.Driver = ""
				continue
			}
			if kb.IsRange(t.Driver) {
				r, err := kb.ParseRange(t.Driver)
				if err != nil {
					p.errf(v, "driver %v", err)
				} else {
					t.DriverRange, t.Driver = r.Text, r.Floor
				}
			}
			if t.Driver != "" && !reDriver().MatchString(t.Driver) && t.DriverRange == "" && !kb.IsRange(t.Driver) {
				p.errf(v, "driver %q is not a driver version like 550.54.15, or a range like \">=535.54, <560\"", t.Driver)
			}
		case "cuda_driver":
			t.CUDADriver = p.scalar(v, "cuda_driver")
			if p.none(v, "cuda_driver", t.CUDADriver, &t) {
				t.CUDADriver = ""
				continue
			}
			if kb.IsRange(t.CUDADriver) {
				r, err := kb.ParseRange(t.CUDADriver)
				if err != nil {
					p.errf(v, "cuda_driver %v", err)
				} else {
					t.CUDARange, t.CUDADriver = r.Text, r.Floor
				}
			}
			if t.CUDADriver != "" && !reCUDA().MatchString(t.CUDADriver) && t.CUDARange == "" && !kb.IsRange(t.CUDADriver) {
				p.errf(v, "cuda_driver %q is not a CUDA version like 12.4, or a range like \">=12.2\"", t.CUDADriver)
			} else if t.CUDARange != "" && !reCUDA().MatchString(t.CUDADriver) {
				p.errf(v, "cuda_driver %q: its oldest version %q is not major.minor like 12.2", t.CUDARange, t.CUDADriver)
			}
		case "gpus":
			for _, g := range p.strings(v, "gpus") {
				if strings.TrimSpace(g.Value) == "" {
					p.errf(v, "empty GPU model name")
					continue
				}
				t.GPUs = append(t.GPUs, g.Value)
				t.gpuPos = append(t.gpuPos, g.Pos)
			}
		case "compute_capabilities":
			for _, c := range p.strings(v, "compute_capabilities") {
				cv, ok := parseCC(c.Value)
				if !ok || cv.Suffix != "" {
					p.errs = append(p.errs, &TargetError{c.Pos, fmt.Sprintf("compute capability %q is not major.minor like 9.0", c.Value)})
					continue
				}
				t.CCs = append(t.CCs, cv.String())
			}
		default:
			unknown = true
			p.errf(k, "unknown key %q in a target (expected one of: %s)", k.Value, strings.Join(targetKeys, ", "))
		}
	}
	if mapGet(item, "name") == nil {
		p.errf(item, "target has no name")
	}
	if t.NoDriver && (t.Driver != "" || t.CUDADriver != "" || t.DriverRange != "" || t.CUDARange != "") {
		p.errf(item, "target %q says %s: none (no NVIDIA driver) and also gives a driver version; keep one", t.Name, t.noDriverKey)
	}
	// A misspelled key is most likely the driver itself: one error is enough.
	if !unknown && t.Driver == "" && t.CUDADriver == "" && mapGet(item, "driver") == nil && mapGet(item, "cuda_driver") == nil {
		p.errf(item, "target %q needs driver (e.g. \"550.54.15\", or none for a machine with no NVIDIA driver) or cuda_driver (e.g. \"12.4\")", t.Name)
	}
	return t, len(p.errs) == before
}

// none reports whether a driver or cuda_driver value says the machine has no
// NVIDIA driver: `none` (any case). An empty value is an error with its
// position rather than a silent "no driver": it is more often a value left
// out than a machine described on purpose.
func (p *targetParser) none(v *yaml.Node, key, val string, t *Target) bool {
	if v.Kind != yaml.ScalarNode {
		return false
	}
	if strings.EqualFold(val, "none") {
		t.NoDriver = true
		t.noDriverKey = key
		return true
	}
	if val == "" {
		p.errf(v, "%s is empty: give a version, or none for a machine with no NVIDIA driver", key)
		return true
	}
	return false
}

// scalar reads a scalar's source text: `driver: 550.54` stays "550.54"
// rather than becoming a float, and `cuda_driver: 12.10` stays 12.10.
func (p *targetParser) scalar(v *yaml.Node, key string) string {
	if v.Kind != yaml.ScalarNode {
		p.errf(v, "%s must be a string, got %s", key, envspec.YAMLKind(v))
		return ""
	}
	return strings.TrimSpace(v.Value)
}

func (p *targetParser) strings(v *yaml.Node, key string) []envspec.String {
	if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
		// One model written without brackets: gpus: H100.
		return []envspec.String{{Value: strings.TrimSpace(v.Value), Pos: p.pos(v)}}
	}
	if v.Kind != yaml.SequenceNode {
		p.errf(v, "%s must be a list of strings, got %s", key, envspec.YAMLKind(v))
		return nil
	}
	var out []envspec.String
	for _, e := range v.Content {
		if e.Kind != yaml.ScalarNode {
			p.errf(e, "%s entries must be strings, got %s", key, envspec.YAMLKind(e))
			continue
		}
		out = append(out, envspec.String{Value: strings.TrimSpace(e.Value), Pos: p.pos(e)})
	}
	return out
}

// virtualPackages reads conda-lock's virtual-packages.yml:
//
//	subdirs:
//	  linux-64:
//	    packages:
//	      __cuda: "12.4"
//	      __glibc: "2.17"
//
// One target per subdir, named after the file (with the subdir appended
// when there are several). __cuda_arch, where given, is the GPUs' lowest
// compute capability (CEP 46).
func (p *targetParser) virtualPackages(subdirs *yaml.Node) []Target {
	if subdirs.Kind != yaml.MappingNode {
		p.errf(subdirs, "subdirs: must be a mapping of subdir to packages, got %s", envspec.YAMLKind(subdirs))
		return nil
	}
	base := strings.TrimSuffix(filepath.Base(p.file), filepath.Ext(p.file))
	if base == "" || base == "." || base == "-" {
		base = "virtual-packages"
	}
	n := len(subdirs.Content) / 2
	var out []Target
	for i := 0; i+1 < len(subdirs.Content); i += 2 {
		k, v := subdirs.Content[i], subdirs.Content[i+1]
		t := Target{Name: base, Pos: p.pos(k)}
		if n > 1 {
			t.Name = base + "/" + k.Value
		}
		if v.Kind != yaml.MappingNode {
			p.errf(v, "subdir %s must be a mapping with packages:, got %s", k.Value, envspec.YAMLKind(v))
			continue
		}
		pk := mapGet(v, "packages")
		if pk == nil {
			p.errf(v, "subdir %s has no packages:", k.Value)
			continue
		}
		if pk.Kind != yaml.MappingNode {
			p.errf(pk, "packages: must be a mapping of virtual package to version, got %s", envspec.YAMLKind(pk))
			continue
		}
		ok := true
		if c := mapGet(pk, "__cuda"); c != nil {
			// conda-lock writes __cuda as the full CUDA version; 12 alone
			// is taken as 12.0.
			v := p.scalar(c, "__cuda")
			if cuda, good := cudaOfVersion(v); good {
				t.CUDADriver = cuda
			} else {
				p.errf(c, "__cuda %q is not a CUDA version like 12.4", v)
				ok = false
			}
		} else {
			t.NoDriver = true
		}
		if a := mapGet(pk, "__cuda_arch"); a != nil {
			s := p.scalar(a, "__cuda_arch")
			if c, good := parseCC(s); good && c.Suffix == "" && reCUDA().MatchString(s) {
				t.CCs = []string{c.String()}
			} else {
				p.errf(a, "__cuda_arch %q is not a compute capability like 9.0", s)
				ok = false
			}
		}
		if ok {
			out = append(out, t)
		}
	}
	return out
}

// Host turns a target into the Host the checks read: GPU models become
// compute capabilities through the knowledge base, and a driver its CUDA
// version. cuda_driver alone means "a driver that supports at most that
// CUDA": the lowest driver released for it stands in as the driver.
func (t Target) Host(k *kb.KB) (*Host, error) { return t.host(k) }

func (t Target) host(k knowledge) (*Host, error) {
	h := &Host{Name: t.Name, Source: SourceTarget, GPUs: []GPU{}, Driver: t.Driver, CUDADriver: t.CUDADriver, DriverRange: t.DriverRange, Nodes: t.Nodes}
	if t.CUDARange != "" {
		h.DriverRange = t.CUDARange
	}
	if t.NoDriver {
		h.NoDriver = true
		h.Reason = "described without __cuda: no NVIDIA driver"
		if t.noDriverKey != "" {
			h.Reason = "it has no NVIDIA driver (" + t.noDriverKey + ": none)"
		}
		return h, nil
	}
	var errs []error
	if t.Driver != "" && t.CUDADriver == "" {
		h.CUDADriver = k.DriverCUDA(t.Driver)
		if h.CUDADriver == "" {
			// Older than every floor is still a driver: the checks say what
			// it cannot run (EG401) rather than refusing the target.
			if f, ok := k.OldestDriverFloor(); ok {
				h.DriverBelowKB, h.DriverBelowFloor = f.CUDA, f.LinuxMin
			} else {
				errs = append(errs, fmt.Errorf("%s: target %s: the knowledge base lists no CUDA driver floors; give cuda_driver instead", t.Pos, t.Name))
			}
		}
	}
	if t.Driver == "" && t.CUDADriver != "" {
		if f, ok := k.DriverFloor(t.CUDADriver); ok && f.LinuxMin != "" {
			h.Driver, h.DriverAssumed = f.LinuxMin, true
		}
	}
	for i, name := range t.GPUs {
		g, ok := k.GPUByName(name)
		if !ok {
			p := t.Pos
			if i < len(t.gpuPos) {
				p = t.gpuPos[i]
			}
			msg := fmt.Sprintf("%s: target %s: unknown GPU model %q; name it as NVIDIA does (\"H100\", \"A100\", \"L4\") or give its compute capability: compute_capabilities: [\"9.0\"]", p, t.Name, name)
			if cands := k.GPUCandidates(name); len(cands) > 0 {
				var s []string
				for _, c := range cands {
					s = append(s, fmt.Sprintf("%q (%s)", c.Name, c.CC))
				}
				msg = fmt.Sprintf("%s: target %s: GPU model %q is ambiguous: it could be %s; name one of them, or give its compute capability: compute_capabilities: [\"%s\"]", p, t.Name, name, strings.Join(s, ", "), cands[0].CC)
			}
			errs = append(errs, errors.New(msg))
			continue
		}
		h.GPUs = append(h.GPUs, GPU{Index: len(h.GPUs), Name: g.Name, CC: g.CC})
	}
	for i, c := range t.CCs {
		name := "compute capability " + c
		if i < len(t.ccNames) && t.ccNames[i] != "" {
			name = t.ccNames[i]
		}
		h.GPUs = append(h.GPUs, GPU{Index: len(h.GPUs), Name: name, CC: c})
	}
	h.Available = h.CUDADriver != "" || h.DriverBelowKB != ""
	if !h.Available && h.Reason == "" {
		h.Reason = "driver unknown"
	}
	return h, errors.Join(errs...)
}

func mapGet(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// PixiTargets reads what a pixi manifest (pixi.toml, or [tool.pixi] in a
// pyproject.toml) demands of a machine: each environment's
// `[system-requirements] cuda = "12"` is a target whose driver supports
// that CUDA and no more, the oldest machine pixi would install the
// environment on (pixi reads it as the __cuda virtual package, as
// conda-lock's virtual-packages.yml does). Targets are named after the file
// ("pixi"), with "/ENVIRONMENT" appended when several environments have
// one. GPUs are not described, so architecture checks stay undecided.
func PixiTargets(file string, src []byte) ([]Target, error) {
	reqs, err := lockfile.PixiSystemRequirements(file, src)
	if err != nil {
		var te *lockfile.TOMLError
		if errors.As(err, &te) {
			return nil, TargetErrors{{te.Pos, te.Msg}}
		}
		return nil, TargetErrors{{finding.Pos{File: file, Line: 1, Col: 1}, err.Error()}}
	}
	plats, err := lockfile.PixiRichPlatforms(file, src)
	if err != nil {
		var te *lockfile.TOMLError
		if errors.As(err, &te) {
			return nil, TargetErrors{{te.Pos, te.Msg}}
		}
		return nil, TargetErrors{{finding.Pos{File: file, Line: 1, Col: 1}, err.Error()}}
	}
	if len(reqs) == 0 && len(plats) == 0 {
		return nil, TargetErrors{{finding.Pos{File: file, Line: 1, Col: 1},
			"no platform of this pixi manifest declares cuda ([workspace] platforms = [{ platform = \"linux-64\", cuda = \"12.0\" }]) and no environment has [system-requirements] cuda: there is no machine to describe"}}
	}
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	var out []Target
	var errs TargetErrors
	for _, p := range plats {
		t := Target{Name: base + "/" + p.Name, Pos: p.Pos}
		cuda, ok := cudaOfVersion(p.CUDA)
		if !ok {
			errs = append(errs, &TargetError{p.Pos, fmt.Sprintf("platform %s: cuda %q is not a CUDA version like 12 or 12.4", p.Name, p.CUDA)})
			continue
		}
		t.CUDADriver = cuda
		if p.Arch != "" {
			if c, good := parseCC(p.Arch); good && c.Suffix == "" && reCUDA().MatchString(p.Arch) {
				t.CCs = []string{c.String()}
			} else {
				errs = append(errs, &TargetError{p.ArchPos, fmt.Sprintf("platform %s: arch %q is not a compute capability like 8.6", p.Name, p.Arch)})
				continue
			}
		}
		out = append(out, t)
	}
	for _, r := range reqs {
		t := Target{Name: base, Pos: r.Pos}
		if len(reqs) > 1 || len(plats) > 0 {
			t.Name = base + "/" + r.Environment
		}
		cuda, ok := cudaOfVersion(r.CUDA)
		if !ok {
			errs = append(errs, &TargetError{r.Pos, fmt.Sprintf("system-requirements cuda %q is not a CUDA version like 12 or 12.4", r.CUDA)})
			continue
		}
		t.CUDADriver = cuda
		out = append(out, t)
	}
	if len(errs) > 0 {
		return out, errs
	}
	return out, nil
}

// cudaOfVersion reads a virtual package's CUDA version (conda-lock's
// __cuda, pixi's cuda) as the CUDA its driver supports: "12" is 12.0,
// "12.4.1" is 12.4.
func cudaOfVersion(v string) (string, bool) {
	switch {
	case reCUDA().MatchString(v):
		return v, true
	case reDriver().MatchString(v):
		parts := strings.SplitN(v, ".", 3)
		return parts[0] + "." + parts[1], true
	}
	if _, err := strconv.Atoi(v); err == nil {
		return v + ".0", true
	}
	return "", false
}
