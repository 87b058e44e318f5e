package resolver

import (
	"slices"

	"github.com/envguard/envguard/resolver/kb"
)

// distPython is what the knowledge base says about the Python minors of one
// framework release's builds on the framework's own distribution
// (torch_python_builds): the row, and whether it names only some of the
// CUDA variants the distribution publishes for the series. A partial row
// means other variants of the release may exist for the Python the row
// lacks, which makes the miss a variant that does not exist (EG205), not a
// Python the release does not support (EG204).
type distPython struct {
	row     *kb.TorchPythonBuilds
	partial bool
}

// pythonBuildsFor looks up the row for release v of the stack's pytorch.
// The CUDA variant is the stack's only for a CUDA build; a CPU build or an
// undecided variant is answered only by a row for every build.
func pythonBuildsFor(c *Context, st *Stack, v string) (distPython, bool) {
	f := st.Framework
	if c.KB == nil || f == nil || f.Name != "pytorch" || f.Dist == "" {
		return distPython{}, false
	}
	cuda := ""
	if f.Variant == "cuda" && st.CUDA != nil {
		cuda = st.CUDA.Version
	}
	row, ok := c.KB.PythonBuilds(v, f.Dist, cuda)
	if !ok {
		return distPython{}, false
	}
	dp := distPython{row: row}
	if len(row.CUDA) > 0 {
		if vs, ok := c.KB.Variants(v, f.Dist); ok {
			for _, cu := range vs.CUDA {
				if !slices.Contains(row.CUDA, majorMinor(cu)) {
					dp.partial = true
				}
			}
		}
	}
	return dp, true
}

// DistWhere names a distribution as the findings do.
func DistWhere(d kb.Distribution) string { return distWhere(d) }

func distWhere(d kb.Distribution) string {
	switch d {
	case kb.DistPytorchConda:
		return "the pytorch channel"
	case kb.DistCondaForge:
		return "conda-forge"
	case kb.DistDefaults:
		return "the defaults channel"
	case kb.DistWheel:
		return "the PyTorch wheel index"
	case kb.DistPyPI:
		return "PyPI"
	}
	return string(d)
}
