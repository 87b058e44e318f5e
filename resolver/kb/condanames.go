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

func (v *validator) condaAbsentNames(keys map[string]bool) {
	for i, r := range v.k.CondaAbsentNames {
		v.source("conda_absent_names", i, r.Source, keys)
		if r.Name == "" || r.Conda == "" || r.Name == r.Conda || len(r.Channels) == 0 {
			v.errf("conda_absent_names", i, "name, conda (another name) and channels are required")
		}
	}
}
