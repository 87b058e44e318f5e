package kb

import (
	"regexp"
	"sort"
	"strings"
)

// gpuKey is one normalised spelling of a GPU model.
type gpuKey struct {
	tokens []string
	gpu    int // index into GPUs
}

// vendorWords are dropped wherever they appear: NVML and people add or omit
// them freely ("Tesla V100-SXM2-16GB", "NVIDIA GeForce RTX 4090").
var vendorWords = map[string]bool{"nvidia": true, "tesla": true, "geforce": true, "quadro": true}

// suffixRe matches words that name memory size, form factor or packaging,
// never the model: 80gb, 16g, sxm4, pcie, hbm3e, nvl, mig slices (1g.10gb).
var suffixRe = regexp.MustCompile(`^(\d+gb?|sxm\d*|pcie|hbm\d*e?|nvl|mig|\d+g\.\d+gb|\d+c\.\d+g\.\d+gb|generation|edition|server|workstation|tensor|core|gpu|max|q)$`)

var splitRe = regexp.MustCompile(`[\s\-_/(),]+`)

// gpuTokens normalises a GPU name to its model tokens.
func gpuTokens(name string) []string {
	var out []string
	for _, t := range splitRe.Split(strings.ToLower(name), -1) {
		if t == "" || vendorWords[t] {
			continue
		}
		out = append(out, t)
	}
	return out
}

func (k *KB) buildGPUKeys() []gpuKey {
	var keys []gpuKey
	for i, g := range k.GPUs {
		for _, n := range append([]string{g.Name}, g.Aliases...) {
			if t := gpuTokens(n); len(t) > 0 {
				keys = append(keys, gpuKey{tokens: t, gpu: i})
			}
		}
	}
	// Longest first, so "RTX 4070 Ti" is tried before "RTX 4070".
	sort.SliceStable(keys, func(i, j int) bool { return len(keys[i].tokens) > len(keys[j].tokens) })
	return keys
}

// index builds lookup tables once after loading.
func (k *KB) index() {
	k.gpuKeys = k.buildGPUKeys()
}

// GPUByName finds a GPU by name as people and NVML write it ("H100",
// "NVIDIA H100 80GB HBM3", "a100-sxm4-40gb"). The longest known model name
// that occurs as whole words wins; every word left over must be a memory,
// form-factor or packaging word, so "RTX 3090 Ti" does not pass for a
// "RTX 3090" and a name that matches nothing returns false.
func (k *KB) GPUByName(name string) (*GPU, bool) {
	in := gpuTokens(name)
	if len(in) == 0 {
		return nil, false
	}
	keys := k.gpuKeys
	if keys == nil {
		keys = k.buildGPUKeys()
	}
	for _, key := range keys {
		at := indexTokens(in, key.tokens)
		if at < 0 {
			continue
		}
		rest := append(append([]string{}, in[:at]...), in[at+len(key.tokens):]...)
		if allSuffixWords(rest) {
			g := k.GPUs[key.gpu]
			return &g, true
		}
	}
	return nil, false
}

func indexTokens(hay, needle []string) int {
outer:
	for i := 0; i+len(needle) <= len(hay); i++ {
		for j := range needle {
			if hay[i+j] != needle[j] {
				continue outer
			}
		}
		return i
	}
	return -1
}

func allSuffixWords(ws []string) bool {
	for _, w := range ws {
		if !suffixRe.MatchString(w) {
			return false
		}
	}
	return true
}
