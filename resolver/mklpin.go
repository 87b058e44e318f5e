package resolver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

// mklExcludes says, for a conda-forge pytorch beside an mkl pin, that the
// pin admits no mkl of the major conda-forge's builds of any release the
// file admits run with (conda_forge_torch_mkl): its CUDA builds cannot
// install, and which build conda takes instead (a CPU build without mkl,
// another channel's) is not decided here (review fifty-six F10, corpus
// 034: pytorch=2.0 beside mkl=2021.1.1, whose conda-forge builds need mkl
// 2022). "" where the pin admits one, or the tables do not say.
func mklExcludes(c *Context) string {
	st := c.Stack
	if c.KB == nil || c.Env == nil || st == nil || st.Framework == nil {
		return ""
	}
	fw := st.Framework
	if fw.Name != "pytorch" || fw.From != envspec.ProviderConda || fw.Dist != kb.DistCondaForge || readPlatform(c.Env) != "linux-64" {
		return ""
	}
	if solvedEnv(c.Env) {
		return "" // what it lists is what it holds
	}
	mkl := c.condaNamed("mkl")
	if mkl == nil || strings.TrimSpace(mkl.verText) == "" {
		return ""
	}
	vs, err := envspec.ParseVersionSpec(mkl.verText)
	if err != nil || vs == nil {
		return ""
	}
	avail, ok := c.KB.CondaReleasesOf("mkl", kb.DistCondaForge)
	if !ok {
		return ""
	}
	rels := fw.Candidates
	if v := fw.release(); v != "" {
		rels = []string{v}
	}
	if len(rels) == 0 {
		return ""
	}
	var majors []string
	generic := true
	var judged []string
	for _, v := range rels {
		if !torchPublishedIn(c, kb.DistCondaForge, v) {
			continue // conda-forge skipped it (2.0.1)
		}
		judged = append(judged, v)
		row, ok := c.KB.CondaForgeTorchMKLOf(v)
		if !ok {
			return ""
		}
		for _, a := range avail.Releases {
			major, _, _ := strings.Cut(a, ".")
			if slices.Contains(row.MKL, major) && vs.MatchString(a) {
				return "" // a build of this release may install
			}
		}
		for _, m := range row.MKL {
			if !slices.Contains(majors, m) {
				majors = append(majors, m)
			}
		}
		generic = generic && row.GenericCPU
	}
	if len(judged) == 0 {
		return ""
	}
	what := "pytorch " + judged[0]
	if len(judged) > 1 {
		what = "pytorch " + RangeOf(judged)
	}
	cpu := "its CPU builds too"
	if generic {
		cpu = "its CPU builds without mkl (cpu_generic) do not"
	}
	return fmt.Sprintf("conda-forge's builds of %s run with mkl %s.*, which %s%s excludes: its CUDA builds cannot install beside it, and %s", what, strings.Join(majors, ".* or "), mkl.raw(), at(mkl.pos()), cpu)
}
