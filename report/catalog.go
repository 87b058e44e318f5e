package report

import (
	"sort"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver"
)

// Catalog lists every rule envguard raises, sorted by code: the file rules
// (envspec), the stack, pip/conda and convention rules (resolver), and the
// machine rules (gpucheck). `envguard rules`, GET /v1/rules and docs/rules.md
// are all generated from it.
func Catalog() []*finding.Rule {
	var all []*finding.Rule
	all = append(all, envspec.SyntaxRules...)
	for _, r := range resolver.Rules() {
		all = append(all, &r.Rule)
	}
	all = append(all, gpucheck.Rules...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Code < all[j].Code })
	return all
}

// Lookup returns the rule with a code, or nil.
func Lookup(code string) *finding.Rule {
	for _, r := range Catalog() {
		if r.Code == code {
			return r
		}
	}
	return nil
}
