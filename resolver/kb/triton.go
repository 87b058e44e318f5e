package kb

// TritonFor returns the triton release the torch wheel of an exact release
// requires ("2.5.1" or "2.5.1+cu121"), false where the knowledge base does
// not know it.
func (k *KB) TritonFor(torch string) (*TorchTriton, bool) {
	if k == nil {
		return nil, false
	}
	v := stripLocal(torch)
	for i := range k.TorchTriton {
		if k.TorchTriton[i].Torch == v {
			return &k.TorchTriton[i], true
		}
	}
	return nil, false
}
