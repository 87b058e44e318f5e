package kb

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// gpuKey is one normalised spelling of a GPU model.
type gpuKey struct {
	tokens []string
	gpu    int // index into GPUs
}

// vendorWords are dropped wherever they appear: NVML and people add or omit
// them freely ("Tesla V100-SXM2-16GB", "NVIDIA GeForce RTX 4090"). "gpu" goes
// too, so "RTX 3060 Laptop GPU" and "RTX 3060 Laptop" are one name.
// "Quadro" is not among them: NVIDIA reused model numbers across generations
// ("Quadro RTX 6000" is Turing, "RTX 6000 Ada" is Ada), so where a row's name
// has it, it is part of the model; elsewhere it may be left over (suffixRe).
var vendorWords = map[string]bool{"nvidia": true, "tesla": true, "geforce": true, "gpu": true}

// synonyms are spellings of one word: TechPowerUp and people say "Mobile"
// where NVML says "Laptop GPU".
var synonyms = map[string]string{"mobile": "laptop"}

// memoryRe matches a memory size (80gb, 16g, 144g). Memory never tells two
// models apart, so sizes are dropped wherever they stand: "RTX A3000 12GB
// Laptop GPU" is the A3000 laptop part, "RTX 3080 12GB" the RTX 3080.
// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var memoryRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+gb?$`) })

// suffixRe matches words that name form factor, packaging or edition, never
// the model: sxm4, pcie, hbm3e, nvl, fhhl, dgxs, gddr6x, mig slices (1g.10gb).
// They may be left over around a model name. "laptop" is not among them: a
// laptop part never passes for the desktop part of the same number, and has a
// row of its own where a source gives its compute capability.
var suffixRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(sxm\d*|pcie|hbm\d*e?|nvl|fhhl|dgxs|gddr\d+x?|mig|\d+g\.\d+gb|\d+c\.\d+g\.\d+gb|generation|edition|server|workstation|tensor|core|max|q|quadro)$`)
})

var splitRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\s\-_/(),]+`) })

// gpuTokens normalises a GPU name to its model tokens.
func gpuTokens(name string) []string {
	var out []string
	for _, t := range splitRe().Split(strings.ToLower(name), -1) {
		if t == "" || vendorWords[t] || memoryRe().MatchString(t) {
			continue
		}
		if s, ok := synonyms[t]; ok {
			t = s
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
// gpuIndex builds the GPU keys once, whichever goroutine asks first.
type gpuIndex struct {
	once  sync.Once
	keys  []gpuKey
	built bool // keys were generated with the tables
}

func (k *KB) index() {
	k.gpuKeys = &gpuIndex{}
	k.latestTorch = k.scanLatestTorch()
}

// GPUByName finds a GPU by name as people and NVML write it ("H100",
// "NVIDIA H100 80GB HBM3", "a100-sxm4-40gb", "NVIDIA GeForce RTX 3060 Laptop
// GPU"). The longest known model name that occurs as whole words wins; every
// word left over must be a form-factor, packaging or edition word, so "RTX
// 3090 Ti" does not pass for a "RTX 3090", a laptop part never passes for the
// desktop part, a number NVIDIA reused ("RTX 6000") matches only with the
// word that tells the generations apart, and a name that matches nothing
// returns false.
func (k *KB) GPUByName(name string) (*GPU, bool) {
	in := gpuTokens(name)
	if len(in) == 0 {
		return nil, false
	}
	var keys []gpuKey
	if x := k.gpuKeys; x != nil {
		x.once.Do(func() {
			if !x.built {
				x.keys = k.buildGPUKeys()
			}
		})
		keys = x.keys
	} else {
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
		if !suffixRe().MatchString(w) {
			return false
		}
	}
	return true
}

// GPUCandidates lists the rows a name that GPUByName cannot decide could
// mean: those with a name or alias that holds every word of it, in table
// order. "RTX 6000" gives Quadro RTX 6000 (7.5), RTX 6000 Ada (8.9) and RTX
// PRO 6000 Blackwell (12.0), so an error can name the choices. A name that
// GPUByName resolves, or one without model words, gives nil.
func (k *KB) GPUCandidates(name string) []GPU {
	in := gpuTokens(name)
	if len(in) == 0 {
		return nil
	}
	if _, ok := k.GPUByName(name); ok {
		return nil
	}
	var out []GPU
	for _, g := range k.GPUs {
		for _, n := range append([]string{g.Name}, g.Aliases...) {
			if containsAll(gpuTokens(n), in) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

func containsAll(have, want []string) bool {
	set := make(map[string]bool, len(have))
	for _, h := range have {
		set[h] = true
	}
	for _, w := range want {
		if !set[w] {
			return false
		}
	}
	return true
}
