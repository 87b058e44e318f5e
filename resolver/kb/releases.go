package kb

// TorchReleases returns every PyTorch release the knowledge base lists, in
// release order whatever the order of its data files.
func (k *KB) TorchReleases() []string {
	out := make([]string, 0, len(k.Torch))
	for _, r := range k.Torch {
		out = append(out, r.Version)
	}
	sortDotted(out)
	return out
}

// sortDotted sorts dotted numeric versions in place, unparsable ones last.
func sortDotted(vs []string) {
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0; j-- {
			c, ok := CompareDotted(vs[j-1], vs[j])
			if ok && c <= 0 {
				break
			}
			if !ok {
				if _, okj := ParseNVIDIA(vs[j]); !okj {
					break
				}
			}
			vs[j-1], vs[j] = vs[j], vs[j-1]
		}
	}
}
