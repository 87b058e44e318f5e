package resolver

import (
	"github.com/envguard/envguard/envspec"
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

// Rule is a documented check with the function that runs it.
type Rule struct {
	envspec.Rule
	Run func(*Context) []envspec.Diagnostic
}

// Rules returns every resolver rule (EG2xx, EG3xx, EG5xx), in code order.
func Rules() []*Rule {
	var all []*Rule
	all = append(all, stackRules...)
	all = append(all, mixRules...)
	return all
}

// stackRules are the EG2xx rules and EG501/EG502 (resolve.go's helper owns them).
// It is defined in resolve.go.

// mixRules are the EG3xx rules and EG503–EG505.
