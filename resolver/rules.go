package resolver

import (
	"context"
	"slices"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// Context is what a rule sees.
type Context struct {
	Env   *envspec.Env
	Stack *Stack
	KB    *kb.KB
	// Getenv reads the process environment (PYTORCH_CUDA_ALLOC_CONF for
	// `envguard check`); nil means the process environment is not consulted.
	Getenv func(string) string

	// rule is the rule running over the Context (see Rule.Run): the rule
	// whose findings finding and diag make.
	rule *Rule

	// The conda and pip items of Env, read once for all the rules that need
	// them (rules run one after another and only read these).
	conda     []condaItem
	pipReqs   []pipItem
	pipOpts   []pipOption
	condaRead bool
	pipRead   bool
	items     []*item // envItems
	itemsRead bool

	// What EG301–EG304 each derive from the lists above, worked out once:
	// three rules pair conda and pip libraries and three look for the conda
	// CUDA stack, and the look-ups behind them dominate the mixing rules.
	pairs     []libPair
	pairsRead bool
	cudaStack []condaItem
	cudaRead  bool
}

// condaList is condaItems(c.Env), read once per Context.
func (c *Context) condaList() []condaItem {
	if !c.condaRead {
		c.conda, c.condaRead = condaItems(c.Env), true
	}
	return c.conda
}

// pipList is pipItems(c.Env), read once per Context.
func (c *Context) pipList() ([]pipItem, []pipOption) {
	if !c.pipRead {
		c.pipReqs, c.pipOpts = pipItems(c.Env)
		c.pipRead = true
	}
	return c.pipReqs, c.pipOpts
}

// libPairs is condaPipPairs(c), worked out once per Context.
func (c *Context) libPairs() []libPair {
	if !c.pairsRead {
		c.pairs, c.pairsRead = condaPipPairs(c), true
	}
	return c.pairs
}

// condaCUDAStack is cudaStackItems(c, c.condaList()), worked out once per
// Context. Callers must not modify the slice.
func (c *Context) condaCUDAStack() []condaItem {
	if !c.cudaRead {
		c.cudaStack, c.cudaRead = cudaStackItems(c, c.condaList()), true
	}
	return c.cudaStack
}

// Rule is a documented check with the function that runs it. Each rule is
// one definition in its own file (rule_egNNN.go): a package variable
// ruleEGNNN holding its documentation and run, listed in rules.
type Rule struct {
	finding.Rule
	// run judges a Context. The findings it makes are those of the rule it
	// runs for, which it reads from the Context (c.rule), so that run need
	// not name its own variable: that would be an initialisation cycle.
	run func(*Context) []finding.Diagnostic
	// failsTargets marks a rule whose error fails every target's verdict
	// though no target raised it (EG211: an extension that cannot load
	// fails on every machine).
	failsTargets bool
}

// FailsTargets reports whether an error of the rule with the code fails
// every target (RULES.md: a target fails when an EG4xx error or EG211
// applies to it).
func FailsTargets(code string) bool {
	for _, r := range rules {
		if r.Code == code {
			return r.failsTargets
		}
	}
	return false
}

// Run runs the rule alone over c.
func (r *Rule) Run(c *Context) []finding.Diagnostic {
	if c == nil {
		return r.run(nil)
	}
	prev := c.rule
	c.rule = r
	out := r.run(c)
	c.rule = prev
	return out
}

// rules is the registry of the resolver's rules, in the order Check runs
// them: the stack rules (EG2xx) and the conventions that read the resolved
// stack (EG501, EG502), then the rules that read which installer provides
// what (EG3xx) and the conventions that read the file itself (EG503–EG505).
// The order is the order of the findings before they are sorted, and
// golden outputs depend on it.
var rules = []*Rule{
	ruleEG201, ruleEG202, ruleEG203, ruleEG204, ruleEG205,
	ruleEG206, ruleEG207, ruleEG208, ruleEG209, ruleEG210, ruleEG211,
	ruleEG501, ruleEG502,
	ruleEG301, ruleEG302, ruleEG303, ruleEG304, ruleEG305,
	ruleEG503, ruleEG504, ruleEG505,
}

// Rules returns every resolver rule (EG2xx, EG3xx, EG5xx), in the order
// Check runs them. The slice is the caller's.
func Rules() []*Rule { return slices.Clone(rules) }

// Check runs every rule over c, in the registry's order, and returns their
// findings in the order the rules made them. It stops before a rule once ctx
// is done, returning ctx's error and no findings.
func Check(ctx context.Context, c *Context) ([]finding.Diagnostic, error) {
	var out []finding.Diagnostic
	for _, r := range rules {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, r.Run(c)...)
	}
	return out, nil
}

// names is k, or where there is none the embedded knowledge base. Which
// packages are what (the CUDA stack, the packages whose version is a CUDA
// version, the CUDA runtime's consumers, a framework's companions) is read
// from the knowledge base with or without one to judge versions by.
func names(k *kb.KB) *kb.KB {
	if k == nil {
		return kb.Default()
	}
	return k
}
