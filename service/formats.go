package service

import (
	"context"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/report"
)

// formatKinds maps the names ?format= takes (api.Formats) to envspec's
// readers. "pyproject" is [tool.pixi] in a pyproject.toml, which the pixi
// manifest reader reads.
var formatKinds = map[string]envspec.Kind{
	"environment":  envspec.KindEnvFile,
	"explicit":     envspec.KindExplicit,
	"conda-lock":   envspec.KindCondaLock,
	"pixi-lock":    envspec.KindPixiLock,
	"pixi-toml":    envspec.KindPixiManifest,
	"pyproject":    envspec.KindPixiManifest,
	"uv-lock":      envspec.KindUVLock,
	"pylock":       envspec.KindPylock,
	"requirements": envspec.KindRequirements,
	"collect-env":  envspec.KindCollectEnv,
}

// validate judges a request's body with the reader its format names; with
// no format, as `envguard validate` does (by the file name and content),
// except that a file the client did not name is told by its content alone:
// the default name environment.yml must not make a uv.lock sent without
// ?file= read as YAML. Requirements includes (-r) are never followed: the
// service must not open a file a request names.
func validate(ctx context.Context, req api.ValidateRequest, opt report.Options) (*report.Report, error) {
	kind, ok := formatKinds[req.Format]
	if !ok {
		name := req.File
		if !req.FileNamed {
			name = ""
		}
		kind = lockfile.SniffFile(name, req.Body)
		if kind == envspec.KindEnvFile || kind == envspec.KindExplicit {
			return report.ValidateContext(ctx, req.File, req.Body, opt)
		}
	}
	if kind == envspec.KindCollectEnv && lockfile.IsCollectEnv(req.Body) {
		// Validate reads the machine the output describes as well.
		return report.ValidateContext(ctx, req.File, req.Body, opt)
	}
	env := readKind(ctx, kind, req.File, req.Body, opt)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return report.FromEnvContext(ctx, env, opt)
}

// readKind reads src with the reader of kind, bounded as report.Validate
// bounds it (opt.Budget.MaxItems; 0 means the default) and stopped by ctx.
func readKind(ctx context.Context, kind envspec.Kind, file string, src []byte, opt report.Options) *envspec.Env {
	lo := lockfile.Options{Platform: opt.Platform, MaxItems: opt.Budget.MaxItems, Context: ctx}
	switch kind {
	case envspec.KindExplicit:
		return lockfile.ReadExplicitWith(file, src, lo)
	case envspec.KindCondaLock:
		return lockfile.ReadCondaLock(file, src, lo)
	case envspec.KindPixiLock:
		return lockfile.ReadPixiLock(file, src, lo)
	case envspec.KindPixiManifest:
		return lockfile.ReadPixiManifest(file, src, lo)
	case envspec.KindUVLock:
		return lockfile.ReadUVLock(file, src, lo)
	case envspec.KindPylock:
		return lockfile.ReadPylock(file, src, lo)
	case envspec.KindRequirements:
		return lockfile.ReadRequirements(file, src, lo)
	case envspec.KindCollectEnv:
		return lockfile.ReadCollectEnv(file, src, lo)
	case envspec.KindUnknown:
		// The EG100 that names the formats, however the file is named.
		env := lockfile.Read("", src, lo)
		env.File = file
		for i := range env.Diags {
			env.Diags[i].Pos.File = file
		}
		return env
	}
	return envspec.Parse(file, src, envspec.ParseOptions{Platform: opt.Platform, MaxItems: opt.Budget.MaxItems, Context: ctx})
}
