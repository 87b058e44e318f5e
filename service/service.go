// Package service is the one place where envguard's pipeline (report,
// builder, fixer, gpucheck) is wired into the HTTP service's interfaces
// (package api). `envguard serve` and the load
// benchmark both use it, so what they measure is what users get.
package service

import (
	"context"
	"errors"
	"runtime/debug"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/builder"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// Options configure the pipeline behind the service.
type Options struct {
	KB       *kb.KB
	Config   *report.Config
	Machines *report.Machines
	// Probe reads the local GPUs; nil means the service reports no GPU.
	Probe *gpucheck.Probe
	// LookupEnv applies CUDA_VISIBLE_DEVICES and CONDA_OVERRIDE_* to
	// "local"; nil ignores the process environment.
	LookupEnv gpucheck.LookupEnv
	// RulesList is what GET /v1/rules returns.
	RulesList any
	// Knowledge, when set, gives the KB for each request in place of KB:
	// serve --kb-refresh swaps what it returns, and a request keeps the one
	// it started with from start to end.
	Knowledge func() *kb.KB
}

// Deps returns the api.Deps of the real pipeline.
func Deps(o Options) api.Deps {
	if o.KB == nil {
		o.KB = kb.Default()
	}
	if o.Machines == nil {
		o.Machines = &report.Machines{KB: o.KB}
	}
	if o.Probe != nil {
		probe := o.Probe
		o.Machines.Local = func() *gpucheck.Host { return gpucheck.Local(probe, o.LookupEnv) }
	}
	p := &pipeline{o: o}
	d := api.Deps{
		Validator: p,
		Fixer:     p,
		Builder:   p,
		Targets:   api.ListFunc(func() any { return o.Machines.Names() }),
		Rules:     api.ListFunc(func() any { return o.RulesList }),
		RuleDocs:  api.RuleDocFunc(ruleDoc),
		Readiness: api.ReadinessFunc(func() error {
			if k, _ := p.knowledge(); k.Facts.Date == "" || len(k.Facts.Torch) == 0 {
				return errors.New("knowledge base not loaded")
			}
			return nil
		}),
	}
	if o.Probe != nil {
		d.GPU = api.GPUProbeFunc(func(ctx context.Context) (any, error) {
			return gpucheck.Local(o.Probe, o.LookupEnv), nil
		})
	}
	return d
}

type pipeline struct{ o Options }

// Frameworks are those the builder builds (GET /v1/build).
func (p *pipeline) Frameworks() []string { return builder.Frameworks() }

// knowledge is the KB for one request and the machines resolved with it.
func (p *pipeline) knowledge() (*kb.KB, *report.Machines) {
	if p.o.Knowledge == nil {
		return p.o.KB, p.o.Machines
	}
	k := p.o.Knowledge()
	m := *p.o.Machines
	m.KB = k
	return k, &m
}

// ruleDoc is a rule's documentation for GET /rules/CODE, from the same
// definitions and sections as `envguard rules CODE`.
func ruleDoc(code string) (api.RuleDoc, bool) {
	r := report.Lookup(code)
	if r == nil {
		return api.RuleDoc{}, false
	}
	d := api.RuleDoc{Code: r.Code, Name: r.Name, Severity: r.Severity.String(), Title: r.Title, Since: r.Since}
	for _, s := range r.Sections() {
		d.Sections = append(d.Sections, api.RuleSection{Heading: s.Heading, Body: s.Body, Example: s.Example})
	}
	return d, true
}

func (p *pipeline) options(req api.ValidateRequest) (report.Options, error) {
	k, m := p.knowledge()
	hosts, err := m.Resolve(req.Targets)
	if err != nil {
		return report.Options{}, err
	}
	return report.Options{Platform: req.Platform, KB: k, Config: p.o.Config, Hosts: hosts}, nil
}

// Validate answers POST /v1/validate with exactly the bytes
// `envguard validate --format json` prints.
func (p *pipeline) Validate(ctx context.Context, req api.ValidateRequest) ([]byte, error) {
	b, _, err := p.ValidateCounting(ctx, req)
	return b, err
}

// ValidateCounting is Validate that also returns the findings' codes, for
// the service's metrics.
func (p *pipeline) ValidateCounting(ctx context.Context, req api.ValidateRequest) ([]byte, []string, error) {
	opt, err := p.options(req)
	if err != nil {
		return nil, nil, err
	}
	r, err := validate(ctx, req, opt)
	if err != nil {
		return nil, nil, err // the deadline passed or the client went away
	}
	if err := unreadable(r); err != nil {
		return nil, nil, err
	}
	codes := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		codes[i] = f.Code
	}
	if req.Pretty {
		return r.JSON(), codes, nil
	}
	return r.CompactJSON(), codes, nil
}

// unreadable turns a file that is not YAML at all, or that the parser
// refused to expand (alias bombs, nesting past its depth bound), into a 400
// "bad_yaml" with the line: there is no environment to report on. Every
// other problem is a finding in a 200 report.
func unreadable(r *report.Report) error {
	for _, f := range r.Findings {
		if f.Code == "EG100" {
			return &api.Error{Status: 400, Code: "bad_yaml", Message: f.Message, Line: f.Line}
		}
	}
	return nil
}

// Name answers POST /v1/name.
func (p *pipeline) Name(ctx context.Context, req api.ValidateRequest) (api.NameResult, error) {
	k, _ := p.knowledge()
	r, err := validate(ctx, req, report.Options{Platform: req.Platform, KB: k})
	if err != nil {
		return api.NameResult{}, err
	}
	if err := unreadable(r); err != nil {
		return api.NameResult{}, err
	}
	return api.NameResult{File: r.File, Name: r.Name.Canonical, Declared: r.Name.Declared, Reason: r.Name.Reason}, nil
}

// Build answers POST /v1/build.
func (p *pipeline) Build(ctx context.Context, req api.BuildRequest) ([]byte, error) {
	k, m := p.knowledge()
	hosts, err := m.Resolve(req.Targets)
	if err != nil {
		return nil, err
	}
	res, err := builder.Build(builder.Request{
		Framework: req.Framework, Version: req.Version, Python: req.Python,
		CUDA: req.CUDA, Via: req.Via, Hosts: hosts, KB: k,
		Command: "POST /v1/build",
	})
	if err != nil {
		return nil, err
	}
	return res.YAML, nil
}

// TuneGC sets the garbage collector for a long-running service: its live
// heap is a few MiB (the knowledge base and the requests in flight), so the
// default GOGC=100 collects every few hundred requests and costs several
// percent of CPU under load. 400, with a soft memory limit of 512 MiB so that
// a burst cannot grow the heap without bound, spends that CPU on requests.
// Go's default of 100 was measured again for issue 13 (docs/performance.md):
// the process then held 59 MiB rather than 88 MiB after 100,000 requests,
// but served half as many requests a second.
// An explicit GOGC or GOMEMLIMIT in the environment wins.
func TuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(512 << 20)
	}
}
