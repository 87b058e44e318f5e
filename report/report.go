// Package report runs the whole pipeline over one input — parse (envspec),
// resolve and judge (resolver), hold against machines (gpucheck), apply
// ignore comments and project severities — and renders the result. The CLI
// and the HTTP service share it, so `envguard validate --format json` and
// POST /v1/validate answer byte for byte the same.
package report

import (
	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/resolver"
)

// Report is the result of validating one environment.
type Report struct {
	File     string          `json:"file"`
	Name     Name            `json:"name"`
	Stack    *resolver.Stack `json:"stack"`
	Targets  []TargetReport  `json:"targets"`
	Findings []Finding       `json:"findings"`
	// Notes say what was left out while reading (an unreadable record of
	// an installed prefix).
	Notes   []string `json:"notes,omitempty"`
	Summary Summary  `json:"summary"`
	// KB names the knowledge base the report rests on: its date, version
	// and layers.
	KB *KBInfo `json:"kb"`

	env   *envspec.Env
	diags finding.Diagnostics
}

// Name is the declared and the canonical name.
type Name struct {
	Declared  string `json:"declared,omitempty"`
	Canonical string `json:"canonical,omitempty"`
	// Reason says why there is no canonical name.
	Reason string `json:"reason,omitempty"`
}

// TargetReport is the environment held against one machine.
type TargetReport struct {
	Name        string      `json:"name"`
	Driver      string      `json:"driver,omitempty"`
	CUDADriver  string      `json:"cuda_driver,omitempty"`
	Available   bool        `json:"available"`
	Reason      string      `json:"reason,omitempty"`
	DriverRange string      `json:"driver_range,omitempty"`
	Nodes       int         `json:"nodes,omitempty"` // identical machines (a Kubernetes node pool)
	GPUs        []TargetGPU `json:"gpus"`
	// Verdict is ok (every check decided, none failed), fail, or unknown
	// (some check could not be decided: Undecided says which, and each is
	// an EG409 finding).
	Verdict   gpucheck.Verdict     `json:"verdict"`
	Undecided []gpucheck.Undecided `json:"undecided,omitempty"`
	// Uninstallable says why the file cannot be installed as written: the
	// target fails whatever its GPUs.
	Uninstallable string   `json:"uninstallable,omitempty"`
	Notes         []string `json:"notes,omitempty"`
}

// TargetGPU is a GPU of a target, as the report shows it.
type TargetGPU struct {
	Name              string `json:"name,omitempty"`
	ComputeCapability string `json:"compute_capability"`
}

// Finding is a diagnostic as the report shows it.
type Finding struct {
	Code      string `json:"code"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndColumn int    `json:"end_column,omitempty"`
	Hint      string `json:"hint,omitempty"`
	Snippet   string `json:"snippet,omitempty"`
	// Target names the machine a EG4xx finding is about.
	Target string `json:"target,omitempty"`
	// Related are the other lines the finding involves (EG201 names both
	// disagreeing items).
	Related []Related `json:"related,omitempty"`
}

// Related is another place a finding involves.
type Related struct {
	Line   int `json:"line"`
	Column int `json:"column,omitempty"`
}

// Summary counts findings by severity, and targets by verdict.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Info     int `json:"info"`
	// Targets counts the verdicts; nil when no target was checked.
	Targets *VerdictCounts `json:"targets,omitempty"`
}

// VerdictCounts counts targets by verdict.
type VerdictCounts struct {
	OK      int `json:"ok"`
	Fail    int `json:"fail"`
	Unknown int `json:"unknown"`
}

// Env returns the parsed environment the report is about.
func (r *Report) Env() *envspec.Env { return r.env }

// Diagnostics returns the findings as diagnostics (after suppression).
func (r *Report) Diagnostics() finding.Diagnostics { return r.diags }
