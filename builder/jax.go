package builder

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envguard/envguard/resolver/kb"
)

// jaxBuilder is the JAX builder: `jax[cudaNN]==X` in the file's pip:
// section, for the releases of the plugin era (jax_releases, from 0.4.30:
// jaxlib is CPU-only and CUDA comes from the jax-cudaNN plugins, which the
// extra installs with NVIDIA's CUDA wheels). A release's variants are the
// CUDA majors its jaxlib row serves that have a plugin flavour (jax.yaml),
// newest first, and the CPU build (`jax==X`, --cuda cpu). Its Python
// range is the jaxlib rows' python_min to python_max.
func jaxBuilder(k *kb.KB) *pipFramework {
	fw := &pipFramework{name: "jax", prefix: "jax", cpuHint: "cpu"}
	type facts struct {
		st     kb.JAXLibState
		majors []int // CUDA majors with a plugin flavour, newest first
	}
	of := map[string]facts{}
	rels := k.JAXReleaseList()
	yanked := map[string]bool{}
	for i := len(rels) - 1; i >= 0; i-- {
		rel := rels[i]
		if rel.Yanked {
			yanked[rel.Version] = true
			continue
		}
		st, _ := k.JAXLibAt(rel.Version)
		var majors []int
		for _, c := range st.CUDA {
			m := majorOf(strings.TrimPrefix(c, ">="))
			if _, ok := k.JAXByMajor(m); ok {
				majors = append([]int{m}, majors...)
			}
		}
		fw.releases = append(fw.releases, pipRelease{version: rel.Version, pin: rel.Version, pythons: pythonRange(st.PythonMin, st.PythonMax)})
		of[rel.Version] = facts{st, majors}
	}
	oldest := ""
	if len(rels) > 0 {
		oldest = rels[0].Version
	}
	fw.refuse = func(v string) string {
		if yanked[v] {
			next := ""
			for _, r := range rels {
				if !r.Yanked && isNewer(r.Version, v) {
					next = r.Version
					break
				}
			}
			return fmt.Sprintf("jax %s was yanked from the package index (JAX's changelog); build %s instead", v, next)
		}
		// A release before the oldest listed, or a series before its series.
		older := strings.Count(v, ".") == 2 && isNewer(oldest, v) || strings.Count(v, ".") == 1 && minorLess(v, seriesOf(oldest))
		if oldest != "" && older {
			return fmt.Sprintf("jax %s predates the CUDA plugins (jax[cuda12], from %s): its CUDA builds are monolithic jaxlib wheels from a find-links page, whose file names per release the knowledge base does not carry, so the builder cannot write one; build %s or newer", v, oldest, oldest)
		}
		return ""
	}
	fw.variants = func(r pipRelease, cuda string) ([]string, error) {
		f := of[r.version]
		var all []string
		for _, m := range f.majors {
			all = append(all, strconv.Itoa(m))
		}
		c := strings.ToLower(strings.TrimSpace(cuda))
		switch {
		case c == "" || c == "auto":
			if len(all) == 0 {
				return nil, badRequest("the knowledge base names no CUDA plugin flavour (jax.yaml) for the CUDA versions jax %s serves (%s)", r.pin, strings.Join(f.st.CUDA, ", "))
			}
			return all, nil
		case c == "cpu":
			return []string{""}, nil
		}
		want := strings.TrimPrefix(strings.TrimPrefix(c, "cuda"), "cu")
		if i := strings.IndexByte(want, '.'); i >= 0 {
			want = want[:i]
		} else if len(want) > 2 {
			want = want[:2] // cu124 → 12
		}
		for _, m := range all {
			if m == want {
				return []string{m}, nil
			}
		}
		return nil, badRequest("jax %s has CUDA plugins for CUDA %s (the knowledge base's jaxlib rows), not --cuda %s", r.pin, strings.Join(all, ", "), cuda)
	}
	fw.requirement = func(r pipRelease, cuda string) string {
		if cuda == "" {
			return "jax==" + r.pin
		}
		m, _ := strconv.Atoi(cuda)
		j, _ := k.JAXByMajor(m)
		return fmt.Sprintf("jax[%s]==%s", j.Extra, r.pin)
	}
	fw.accel = func(cuda string) string {
		if cuda == "" {
			return "cpu"
		}
		// JAX's CUDA wheels name the major only: jax04_cu12 (as the
		// report names such a file).
		return "cu" + cuda
	}
	fw.variantWord = func(cuda string) string {
		if cuda == "" {
			return "CPU only"
		}
		return "CUDA " + cuda
	}
	fw.explain = func(k *kb.KB, r pipRelease, cuda string, req Request) []string {
		if cuda == "" {
			return []string{fmt.Sprintf("jax %s without an extra is the CPU-only build (--cuda cpu): jaxlib has no CUDA variants since the plugin switch.", r.pin)}
		}
		m, _ := strconv.Atoi(cuda)
		j, _ := k.JAXByMajor(m)
		st := of[r.version].st
		serves := ""
		for _, c := range st.CUDA {
			if majorOf(strings.TrimPrefix(c, ">=")) == m {
				serves = c
			}
		}
		l := fmt.Sprintf("jax[%s] installs %s and NVIDIA's CUDA %d wheels, whichever %d.x pip resolves (the plugins serve CUDA %s", j.Extra, strings.Join(j.Packages, " and "), m, m, serves)
		if st.CuDNNMin != "" {
			l += ", cuDNN >= " + st.CuDNNMin
		}
		lines := []string{l + "); the machine gives only the driver."}
		if f, ok := k.MinorCompatFloor(m); ok {
			lines = append(lines, fmt.Sprintf("A CUDA %d runtime needs driver >= %s (through minor-version compatibility).", m, f.LinuxFloor))
		}
		return append(lines, archLine(k, kb.FrameworkJAX, r.version, cuda))
	}
	return fw
}
