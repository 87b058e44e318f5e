package builder

import (
	"fmt"
	"sort"

	"github.com/envguard/envguard/resolver/kb"
)

// tensorFlow is the TensorFlow builder: `tensorflow[and-cuda]==X` in the
// file's pip: section, for the releases the knowledge base says have that
// extra (tensorflow_pip_cuda, from 2.14.0). The extra installs NVIDIA's
// CUDA and cuDNN wheels of the release's tested build configuration
// (tensorflow.yaml: CUDA 12.3 and cuDNN 8.9 for 2.16.1), so the CUDA
// variant is the release's own: a TensorFlow release has one.
func tensorFlow(k *kb.KB) *pipFramework {
	fw := &pipFramework{name: "tensorflow", prefix: "tf"}
	rows := append([]kb.TFConfig(nil), k.Facts.TensorFlow...)
	sort.SliceStable(rows, func(i, j int) bool { return isNewer(rows[i].Version, rows[j].Version) })
	cudaOf := map[string]kb.TFConfig{}
	for _, row := range rows {
		extra, ok := k.TensorFlowPipCUDA(row.Version)
		if !ok || row.CUDA == "" {
			continue
		}
		r := pipRelease{version: row.Version, pin: row.Version, pythons: sortedPythons(row.Python)}
		// An extra that pins what the package index never served cannot
		// be installed; the release a source names as the fix can.
		for _, p := range k.ExtraPinsOf("tensorflow", row.Version, extra.Extra) {
			if len(p.Python) > 0 {
				// A pin the index lacks for some Pythons only: those
				// Pythons cannot have the release.
				for _, py := range p.Python {
					if r.blocked == nil {
						r.blocked = map[string]string{}
					}
					r.blocked[py] = fmt.Sprintf("tensorflow[%s]==%s cannot be installed on Python %s: it pins %s, which the package index has no Python %s wheel of", extra.Extra, row.Version, py, p.Pin, py)
				}
				continue
			}
			if p.Fixed != "" {
				r.pin = p.Fixed
				r.pinWhy = fmt.Sprintf("tensorflow[%s]==%s cannot be installed (it pins %s, which the package index never served); %s is the release that drops the pin.", extra.Extra, row.Version, p.Pin, p.Fixed)
			}
		}
		fw.releases = append(fw.releases, r)
		cudaOf[r.version] = row
	}
	first := ""
	if len(k.TFPipCUDA) > 0 {
		first = k.TFPipCUDA[0].From
	}
	fw.refuse = func(v string) string {
		row, ok := k.TensorFlow(v)
		if !ok {
			return ""
		}
		if _, ok := k.TensorFlowPipCUDA(row.Version); ok {
			return ""
		}
		if first == "" {
			return fmt.Sprintf("tensorflow %s: the knowledge base does not say from which release pip's tensorflow[and-cuda] extra installs NVIDIA's CUDA wheels (tensorflow_pip_cuda), so the builder cannot write a TensorFlow build", v)
		}
		return fmt.Sprintf("tensorflow %s predates the and-cuda extra (tensorflow[and-cuda], from %s): its pip wheel takes CUDA and cuDNN from the machine or from conda, which the TensorFlow builder does not write; build %s or newer (envguard build tensorflow=%s)", v, first, seriesOf(first), seriesOf(first))
	}
	fw.variants = func(r pipRelease, cuda string) ([]string, error) {
		built := cudaOf[r.version].CUDA
		switch c := normCUDA(cuda); c {
		case "", "auto", built:
			return []string{built}, nil
		case "cpu":
			return nil, badRequest("--cuda cpu: the TensorFlow builder writes tensorflow[and-cuda] builds only; the knowledge base does not say for which releases a CPU-only package was published")
		default:
			return nil, badRequest("tensorflow %s was built and tested with CUDA %s only (its tested build configuration), not %s", r.pin, built, c)
		}
	}
	fw.requirement = func(r pipRelease, cuda string) string {
		extra, _ := k.TensorFlowPipCUDA(r.version)
		return fmt.Sprintf("tensorflow[%s]==%s", extra.Extra, r.pin)
	}
	fw.accel = func(cuda string) string { return "cu" + noDot(cuda) }
	fw.variantWord = func(cuda string) string { return "CUDA " + cuda }
	fw.explain = func(k *kb.KB, r pipRelease, cuda string, req Request) []string {
		row := cudaOf[r.version]
		extra, _ := k.TensorFlowPipCUDA(r.version)
		lines := []string{fmt.Sprintf("tensorflow[%s] installs NVIDIA's CUDA and cuDNN wheels: TensorFlow built and tested %s with CUDA %s and cuDNN %s; the machine gives only the driver.", extra.Extra, r.version, row.CUDA, row.CuDNN)}
		if f, ok := k.DriverFloor(cuda); ok {
			l := fmt.Sprintf("CUDA %s needs driver >= %s", cuda, f.LinuxMin)
			if m, ok := k.MinorCompatFloor(majorOf(cuda)); ok {
				l += fmt.Sprintf(" (>= %s through minor-version compatibility)", m.LinuxFloor)
			}
			lines = append(lines, l+".")
		}
		lines = append(lines, archLine(k, kb.FrameworkTensorFlow, r.version, cuda))
		return lines
	}
	return fw
}
