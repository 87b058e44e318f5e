package kb

import "slices"

// CondaAbsent is the row saying that none of the channels it lists
// publishes a conda package called name (a PyPI name such as torch).
func (k *KB) CondaAbsent(name string) (*CondaAbsentName, bool) {
	for i := range k.CondaAbsentNames {
		if k.CondaAbsentNames[i].Name == name {
			return &k.CondaAbsentNames[i], true
		}
	}
	return nil, false
}

// Covers says whether the row speaks for channel (a channel name as
// envspec.ChannelName gives it).
func (r *CondaAbsentName) Covers(channel string) bool {
	return slices.Contains(r.Channels, channel)
}

// DefaultsOnlyPackageOf is the row saying that only the defaults channel
// publishes the conda package name.
func (k *KB) DefaultsOnlyPackageOf(name string) (*DefaultsOnlyPackage, bool) {
	for i := range k.DefaultsOnly {
		if k.DefaultsOnly[i].Name == name {
			return &k.DefaultsOnly[i], true
		}
	}
	return nil, false
}

func (v *validator) condaAbsentNames(keys map[string]bool) {
	v.pypiCompanionCUDA(keys)
	for i, r := range v.k.DefaultsOnly {
		v.source("defaults_only", i, r.Source, keys)
		if r.Name == "" || r.What == "" {
			v.errf("defaults_only", i, "name and what are required")
		}
	}
	for i, r := range v.k.CondaAbsentNames {
		v.source("conda_absent_names", i, r.Source, keys)
		if r.Name == "" || r.Conda == "" || r.Name == r.Conda || len(r.Channels) == 0 {
			v.errf("conda_absent_names", i, "name, conda (another name) and channels are required")
		}
	}
}

// PyPICompanionFollowsTorch says whether the package index's wheels of a
// torch companion are built for the CUDA of the package index's torch.
func (k *KB) PyPICompanionFollowsTorch(name string) bool {
	for _, r := range k.PyPICompanionCUDA {
		if r.Name == name {
			return true
		}
	}
	return false
}

func (v *validator) pypiCompanionCUDA(keys map[string]bool) {
	for i, r := range v.k.PyPICompanionCUDA {
		v.source("pypi_companion_cuda", i, r.Source, keys)
		if r.Name != "torchvision" && r.Name != "torchaudio" {
			v.errf("pypi_companion_cuda", i, "name must be torchvision or torchaudio")
		}
	}
}
