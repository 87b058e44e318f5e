package resolver

import (
	"fmt"

	"github.com/envguard/envguard/finding"
)

var ruleEG505 = &Rule{
	Rule: finding.Rule{
		Code:     "EG505",
		Name:     "interactive-packages-in-training-env",
		Severity: finding.SeverityInfo,
		Title:    "interactive or plotting packages in an environment that trains",
		Why: "Notebook servers, kernels and plotting libraries pull in dozens of packages (tornado, zmq, " +
			"Qt or browser stacks, fonts) that a training job never imports. They slow the solve and the " +
			"image build, widen the attack surface, and each one is a chance for a version conflict " +
			"with the framework. One finding per package, at its line, so each can be ignored on its own.",
		Fix: "Keep the training environment minimal and put notebooks and plotting in a separate " +
			"environment (or an `environment-dev.yml`) that adds them.",
		Before: "dependencies:\n  - pytorch=2.1\n  - jupyterlab\n  - matplotlib",
		After:  "dependencies:\n  - pytorch=2.1",
		Since:  "0.1.0",
	},
	run: runEG505,
}

// interactivePackages are the notebook, kernel and plotting packages people
// list on purpose (not the dependencies they drag in, such as
// jupyter_client or matplotlib-base, which would repeat the same finding).
var interactivePackages = map[string]bool{
	"jupyter": true, "jupyterlab": true, "notebook": true, "nbclassic": true,
	"ipykernel": true, "ipywidgets": true, "jupyter-contrib-nbextensions": true,
	"nb-conda-kernels": true, "voila": true,
	"matplotlib": true, "seaborn": true, "plotly": true, "bokeh": true,
	"altair": true, "holoviews": true,
}

// frameworkNames are the packages whose presence makes an environment one
// that trains, for files the resolver could not make a Stack of.
var frameworkNames = map[string]bool{
	"pytorch": true, "pytorch-gpu": true, "torch": true,
	"tensorflow": true, "tensorflow-gpu": true, "tensorflow-cpu": true,
	"jax": true, "jaxlib": true,
}

func runEG505(ctx *Context) []finding.Diagnostic {
	if ctx == nil || ctx.Env == nil {
		return nil
	}
	conda := ctx.condaList()
	reqs, _ := ctx.pipList()
	framework := ""
	var fwPos finding.Pos
	if ctx.Stack != nil && ctx.Stack.Framework != nil {
		framework = ctx.Stack.Framework.Name
		fwPos = ctx.Stack.Framework.Pos
	}
	for _, c := range conda {
		if framework == "" && frameworkNames[c.Name] {
			framework = c.Name
		}
	}
	for _, p := range reqs {
		if framework == "" && frameworkNames[p.Name] {
			framework = p.Name
		}
	}
	if framework == "" {
		return nil
	}
	var out []finding.Diagnostic
	report := func(name, text string, pos finding.Pos) {
		msg := fmt.Sprintf("%s%s in an environment that trains with %s%s: keep training environments minimal", text, at(pos), framework, at(fwPos))
		hint := fmt.Sprintf("move %s (%s) to a separate development environment, or silence it with `# envguard: ignore EG505 notebook environment` if the environment is meant for notebooks", name, place(pos))
		out = append(out, diag(ctx.rule, pos, msg, hint))
	}
	for _, c := range conda {
		if interactivePackages[normalizePip(c.Name)] {
			report(c.Name, condaText(c), c.Dep.Raw.Pos)
		}
	}
	for _, p := range reqs {
		if interactivePackages[p.Name] {
			report(p.Name, pipText(p), p.Dep.Raw.Pos)
		}
	}
	return out
}
