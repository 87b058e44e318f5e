package resolver

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestEG211EveryBuildRow: for every extension release × torch the
// knowledge base lists, the file that pairs them as the build row says
// (its exact torch pin, or the wheel tag or index its distribution names)
// gets no EG211, and the same extension beside a torch of another series
// gets it. The wheel tags and index URLs are written in the forms the
// projects use, and only those the extension's own pattern reads are
// used, so the test holds the KB's patterns and rows to each other.
func TestEG211EveryBuildRow(t *testing.T) {
	k := kb.Default()
	pairs, mismatches := 0, 0
	for _, b := range k.ExtensionBuilds {
		ext, ok := k.ExtensionByName(b.Name)
		if !ok || !ext.TorchABI || len(b.Torch) == 0 {
			continue
		}
		for _, bt := range b.Torch {
			torch, cuda, abi, ok := wheelTorchFor(k, bt, b)
			if !ok {
				continue
			}
			lines, ok := extensionLines(ext, b, seriesOf(torch), cuda, abi)
			if !ok {
				continue
			}
			env := envWith(torch, cuda, lines)
			if ds := codes(t, env, "EG211"); len(ds) != 0 {
				t.Errorf("%s %s (%s) with torch %s+cu%s: EG211 on a matching pair:\n%s\n%v", b.Name, b.Version, b.Dist, torch, cuda, env, ds)
			}
			pairs++
			other, ok := otherSeries(k, b.Torch, cuda, abi)
			if !ok {
				continue
			}
			env = envWith(other, cuda, lines)
			if ds := codes(t, env, "EG211"); len(ds) == 0 {
				t.Errorf("%s %s (%s) with torch %s+cu%s: no EG211 for a build made for torch %s:\n%s", b.Name, b.Version, b.Dist, other, cuda, strings.Join(b.Torch, "/"), env)
			}
			mismatches++
		}
	}
	t.Logf("%d matching pairs, %d mismatched", pairs, mismatches)
	if pairs < 100 || mismatches < 100 {
		t.Errorf("only %d matching and %d mismatched pairs were built from the KB's rows", pairs, mismatches)
	}
}

// wheelTorchFor picks a torch wheel release of the row's torch (a release,
// or the newest release of a series), a CUDA variant of the PyTorch index
// of the row's CUDA major, and that build's C++ ABI, which must be one the
// row was built with.
func wheelTorchFor(k *kb.KB, bt string, b kb.ExtensionBuild) (torch, cuda, abi string, ok bool) {
	torch = bt
	if strings.Count(bt, ".") == 1 {
		rs := k.Series(bt)
		if len(rs) == 0 {
			return "", "", "", false
		}
		torch = rs[len(rs)-1].Version
	} else if _, found := k.Release(bt); !found {
		return "", "", "", false
	}
	v, found := k.Variants(seriesOf(torch), kb.DistWheel)
	if !found {
		return "", "", "", false
	}
	for _, c := range v.CUDA {
		if len(b.CUDA) == 0 || cudaFits(b.CUDA, c) {
			cuda = c
			break
		}
	}
	if cuda == "" {
		return "", "", "", false
	}
	row, found := k.TorchABIOf(string(kb.DistWheel), torch, cuda)
	if !found || (len(b.ABI) > 0 && !contains(b.ABI, row.ABI)) {
		return "", "", "", false
	}
	return torch, cuda, row.ABI, true
}

// sameSeries reports a release whose series is one the row names: wheel
// tags carry only the series, so another release of it is no mismatch.
func sameSeries(built []string, r string) bool {
	for _, b := range built {
		if seriesOf(b) == seriesOf(r) {
			return true
		}
	}
	return false
}

func cudaFits(built []string, cuda string) bool {
	for _, c := range built {
		if c == cuda || (!strings.Contains(c, ".") && fmt.Sprint(majorOf(cuda)) == c) {
			return true
		}
	}
	return false
}

// otherSeries is the newest torch release of another series than the
// row's whose wheel index has the CUDA variant, with the same C++ ABI
// (so that only the release differs).
func otherSeries(k *kb.KB, built []string, cuda, abi string) (string, bool) {
	rels := k.TorchReleases()
	for i := len(rels) - 1; i >= 0; i-- {
		r := rels[i]
		if sameSeries(built, r) || majorOf(r) < 2 {
			continue
		}
		v, ok := k.Variants(seriesOf(r), kb.DistWheel)
		if !ok || !contains(v.CUDA, cuda) {
			continue
		}
		if row, ok := k.TorchABIOf(string(kb.DistWheel), r, cuda); ok && row.ABI == abi {
			return r, true
		}
	}
	return "", false
}

// extensionLines writes the pip lines that install the row's build for
// the torch series: an exact pin where the metadata pins torch, else the
// wheel tag or index URL the extension's pattern reads.
func extensionLines(ext *kb.Extension, b kb.ExtensionBuild, series, cuda, abi string) ([]string, bool) {
	if b.TorchPin {
		return []string{b.Name + "==" + b.Version}, true
	}
	digits := strings.ReplaceAll(cuda, ".", "")
	abiWord := "FALSE"
	if abi == kb.ABICXX11 {
		abiWord = "TRUE"
	}
	tags := []string{
		"cu" + digits + "torch" + series + "cxx11abi" + abiWord,
		"cu" + fmt.Sprint(majorOf(cuda)) + "torch" + series + "cxx11abi" + abiWord,
		"pt" + strings.ReplaceAll(series, ".", "") + "cu" + digits,
	}
	if ext.LocalVersion != "" && (b.Dist == "release-asset" || b.Dist == "pyg-index") {
		re := regexp.MustCompile("(?i)" + ext.LocalVersion)
		for _, tag := range tags {
			if re.MatchString(tag) {
				if b.Dist == "pyg-index" && !strings.HasPrefix(tag, "pt") {
					continue
				}
				if b.Dist == "release-asset" && !cudaFits(b.CUDA, cuda) {
					continue
				}
				return []string{b.Name + "==" + b.Version + "+" + tag}, true
			}
		}
	}
	if ext.IndexURL != "" && b.Dist == "flashinfer-index" {
		u := "https://flashinfer.ai/whl/cu" + digits + "/torch" + series
		if regexp.MustCompile(ext.IndexURL).MatchString(u) {
			return []string{"--extra-index-url " + u, b.Name + "==" + b.Version}, true
		}
	}
	return nil, false
}

func envWith(torch, cuda string, lines []string) string {
	var b strings.Builder
	digits := strings.ReplaceAll(cuda, ".", "")
	fmt.Fprintf(&b, "name: x\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - --extra-index-url https://download.pytorch.org/whl/cu%s\n    - torch==%s+cu%s\n", digits, torch, digits)
	for _, l := range lines {
		fmt.Fprintf(&b, "    - %s\n", l)
	}
	return b.String()
}

func codes(t *testing.T, src, code string) []string {
	t.Helper()
	_, _, ds := lintFile(t, "environment.yml", []byte(src))
	var out []string
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d.Message)
		}
	}
	return out
}
