package service

import (
	"context"
	"errors"
	"net/http"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/fixer"
	"github.com/envguard/envguard/report"
)

// Fix answers POST /v1/fix with what `envguard fix` would do to the file:
// the fixed text, its diff and the fixes made and skipped.
func (p *pipeline) Fix(ctx context.Context, req api.FixRequest) (api.FixResult, error) {
	if err := fixer.CheckSelect(req.Select); err != nil {
		return api.FixResult{}, &api.Error{Status: http.StatusBadRequest, Code: "bad_request", Message: err.Error()}
	}
	if k, ok := formatKinds[req.Format]; ok && k != envspec.KindEnvFile {
		return api.FixResult{}, &api.Error{Status: http.StatusBadRequest, Code: "not_fixable",
			Message: "format " + req.Format + ": " + fixer.ErrNotEnvFile.Error()}
	}
	k, _ := p.knowledge()
	res, err := fixer.Fix(ctx, req.File, req.Body, fixer.Options{
		Report: report.Options{Platform: req.Platform, KB: k, Config: p.o.Config},
		Unsafe: req.Unsafe, Select: req.Select,
	})
	if errors.Is(err, fixer.ErrNotEnvFile) {
		return api.FixResult{}, &api.Error{Status: http.StatusBadRequest, Code: "not_fixable", Message: err.Error()}
	}
	if err != nil {
		return api.FixResult{}, err // the deadline passed or the client went away
	}
	if err := unreadable(res.Report); err != nil {
		return api.FixResult{}, err
	}
	out := api.FixResult{
		File: req.File, Fixed: string(res.Fixed), Diff: fixer.Diff(req.File, req.Body, res.Fixed),
		Applied: []api.FixApplied{}, Skipped: []api.FixSkipped{}, Remaining: res.Remaining,
	}
	for _, a := range res.Applied {
		out.Applied = append(out.Applied, api.FixApplied{Code: a.Code, Line: a.Line, Column: a.Column, Message: a.Message})
	}
	for _, s := range res.Skipped {
		out.Skipped = append(out.Skipped, api.FixSkipped{Code: s.Code, Line: s.Line, Reason: s.Reason})
	}
	return out, nil
}
