// Package api is envguard's HTTP service: POST an environment file, get the
// same JSON report `envguard validate --format json` prints. The handlers are
// methods on a struct of interfaces (Deps), so that api sees the pipeline only
// through them: package service fills them with the real pipeline (report,
// builder, fixer, gpucheck), and tests fill them with fakes.
package api

import "context"

// ValidateRequest is one environment file to judge.
type ValidateRequest struct {
	// File is the name the report shows ("environment.yml" when the client
	// gives none).
	File string
	// Body is the environment file as sent, unmodified.
	Body []byte
	// Targets are the machines to hold the environment against, by name
	// (?target=NAME or "targets" in the JSON body); empty means the server's
	// default.
	Targets []string
	// Platform is the conda subdir selectors are evaluated for; empty means
	// the server's default.
	Platform string
	// Format is which reader reads Body (?format= or "format" in the JSON
	// body; one of Formats, aliases already resolved). Empty means told by
	// File and content, as `envguard validate` tells them; where the client
	// named no file either (FileNamed false), by content alone.
	Format string
	// FileNamed reports whether the client named the file (?file= or
	// "file"); File is a default otherwise.
	FileNamed bool
	// Pretty asks for indented JSON (?pretty=1), as the CLI prints it;
	// the report is compact otherwise.
	Pretty bool
}

// NameResult is the answer of POST /v1/name.
type NameResult struct {
	File string `json:"file"`
	// Name is the canonical name (pt20_cu118), empty when there is none.
	Name     string `json:"name"`
	Declared string `json:"declared,omitempty"`
	// Reason says why there is no canonical name.
	Reason string `json:"reason,omitempty"`
}

// BuildRequest is the JSON body of POST /v1/build.
type BuildRequest struct {
	Framework string   `json:"framework"`
	Version   string   `json:"version,omitempty"`
	Python    string   `json:"python,omitempty"`
	CUDA      string   `json:"cuda,omitempty"` // a version, "auto" or "cpu"
	Targets   []string `json:"targets,omitempty"`
	Via       string   `json:"via,omitempty"` // conda or pip
}

// Validator runs the pipeline over one environment file.
type Validator interface {
	// Validate returns the JSON report bytes (exactly what
	// `envguard validate --format json` prints) for one environment file.
	// An environment with problems is a report with findings, not an error;
	// errors are for input that cannot be judged at all (see StatusCoder).
	Validate(ctx context.Context, req ValidateRequest) ([]byte, error)
	// Name returns the canonical-name response.
	Name(ctx context.Context, req ValidateRequest) (NameResult, error)
}

// FindingCounter is implemented by Validators that can also return the
// codes of the report's findings, in order, so that the metrics need not
// decode the report again.
type FindingCounter interface {
	ValidateCounting(ctx context.Context, req ValidateRequest) (report []byte, codes []string, err error)
}

// Builder emits an environment file that passes its own validation.
type Builder interface {
	Build(ctx context.Context, req BuildRequest) (yaml []byte, err error)
}

// FrameworkLister is implemented by Builders that say which frameworks
// they build: GET /v1/build lists them, and the web page's build form
// offers only those.
type FrameworkLister interface {
	Frameworks() []string
}

// GPUProbe reports the local host as NVML sees it. With no driver it
// returns a value whose JSON has "available": false and a "reason", and a
// nil error; an error means NVML itself failed.
type GPUProbe interface {
	GPU(ctx context.Context) (any, error)
}

// Targets lists the configured targets; the value is marshalled as JSON.
type Targets interface{ List() any }

// Rules lists the rule catalogue; the value is marshalled as JSON.
type Rules interface{ List() any }

// Readiness says whether the service can answer (knowledge base loaded).
type Readiness interface{ Ready() error }

// Deps are the service's collaborators. Nil members are allowed: a nil
// Validator or Builder answers 501, a nil GPU probe reports no GPU, nil
// Targets and Rules list nothing, a nil Readiness is always ready, nil
// RuleDocs answers 404 for every /rules/CODE.
type Deps struct {
	Validator Validator
	// Fixer answers POST /v1/fix; nil answers 501.
	Fixer     Fixer
	Builder   Builder
	GPU       GPUProbe
	Targets   Targets
	Rules     Rules
	RuleDocs  RuleDocs
	Readiness Readiness
}

// ValidatorFuncs adapts two functions to a Validator, so that tests and
// benchmarks can swap the pipeline without a type.
type ValidatorFuncs struct {
	ValidateFunc func(ctx context.Context, req ValidateRequest) ([]byte, error)
	NameFunc     func(ctx context.Context, req ValidateRequest) (NameResult, error)
}

// Validate calls ValidateFunc.
func (v ValidatorFuncs) Validate(ctx context.Context, req ValidateRequest) ([]byte, error) {
	if v.ValidateFunc == nil {
		return nil, &Error{Status: 501, Code: "not_implemented", Message: "validation is not available on this server"}
	}
	return v.ValidateFunc(ctx, req)
}

// Name calls NameFunc.
func (v ValidatorFuncs) Name(ctx context.Context, req ValidateRequest) (NameResult, error) {
	if v.NameFunc == nil {
		return NameResult{}, &Error{Status: 501, Code: "not_implemented", Message: "naming is not available on this server"}
	}
	return v.NameFunc(ctx, req)
}

// BuilderFunc adapts a function to a Builder.
type BuilderFunc func(ctx context.Context, req BuildRequest) ([]byte, error)

// Build calls f.
func (f BuilderFunc) Build(ctx context.Context, req BuildRequest) ([]byte, error) { return f(ctx, req) }

// GPUProbeFunc adapts a function to a GPUProbe.
type GPUProbeFunc func(ctx context.Context) (any, error)

// GPU calls f.
func (f GPUProbeFunc) GPU(ctx context.Context) (any, error) { return f(ctx) }

// ReadinessFunc adapts a function to a Readiness.
type ReadinessFunc func() error

// Ready calls f.
func (f ReadinessFunc) Ready() error { return f() }

// ListFunc adapts a function to Targets or Rules.
type ListFunc func() any

// List calls f.
func (f ListFunc) List() any { return f() }

// RuleDoc is one rule's documentation as GET /rules/CODE shows it: the
// same definitions, and the same sections in the same order, as
// `envguard rules CODE` prints.
type RuleDoc struct {
	Code     string
	Name     string
	Severity string
	Title    string
	Since    string
	Sections []RuleSection
}

// RuleSection is one part of a rule's documentation.
type RuleSection struct {
	Heading string
	Body    string
	// Example marks an environment.yml excerpt, shown as code.
	Example bool
}

// RuleDocs finds one rule's documentation by its code (EG201).
type RuleDocs interface {
	RuleDoc(code string) (RuleDoc, bool)
}

// RuleDocFunc adapts a function to RuleDocs.
type RuleDocFunc func(code string) (RuleDoc, bool)

// RuleDoc calls f.
func (f RuleDocFunc) RuleDoc(code string) (RuleDoc, bool) { return f(code) }
