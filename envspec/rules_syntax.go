package envspec

import "github.com/envguard/envguard/finding"

// SyntaxRules are the EG1xx rules: problems of the file itself. Parse,
// ReadExplicit and the ignore-comment reader raise them; the resolver's
// suppression code raises EG114 and the missing-reason case of EG113.
var SyntaxRules = []*finding.Rule{
	{
		Code: "EG100", Name: "invalid-yaml", Severity: finding.SeverityError,
		Title: "the file is not valid YAML",
		Why: "conda stops at the first syntax error, so nothing of the environment is created; " +
			"a document nested deeper than any environment file needs, or built from aliases that expand " +
			"without bound, is refused for the same reason.",
		Fix:    "Fix the syntax at the line given: indent with spaces, not tabs, and quote values that contain `: ` or start with `*`, `&`, `!` or `%`.",
		Before: "dependencies:\n  - numpy\n\t- scipy\n",
		After:  "dependencies:\n  - numpy\n  - scipy\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG101", Name: "wrong-shape", Severity: finding.SeverityError,
		Title: "a key has the wrong shape",
		Why: "conda expects a mapping at the top, a list under `dependencies`, and under it only package specs " +
			"and `pip:` subsections of strings. CEP 24 requires a client to fail on any other subsection, " +
			"so such a file does not create an environment anywhere.",
		Fix:    "Make `dependencies:` a list of `- spec` lines and put PyPI packages in one `- pip:` list of strings.",
		Before: "dependencies:\n  - numpy\n  - npm:\n      - left-pad\n",
		After:  "dependencies:\n  - numpy\n  - nodejs\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG102", Name: "unknown-key", Severity: finding.SeverityWarning,
		Title: "unknown top-level key",
		Why: "CEP 24 knows `name`, `channels`, `dependencies`, `variables` and `prefix` (plus the extensions " +
			"`platforms` and `category`); conda ignores anything else, so a misspelt `dependencies` silently " +
			"creates an empty environment. A near miss of a known key (`dependency`, `channel`, `dependecies`, " +
			"`Name`) is therefore an error that names the key meant; any other unknown key is a warning.",
		Fix:    "Correct the key's spelling or remove it.",
		Before: "name: train\ndependency:\n  - pytorch\n",
		After:  "name: train\ndependencies:\n  - pytorch\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG103", Name: "invalid-matchspec", Severity: finding.SeverityError, Fixable: finding.FixSafe,
		Title:  "a dependency is not a valid conda MatchSpec, or its version spec does not parse",
		Why:    "conda rejects the whole file when one spec does not parse, typically after the job was queued.",
		Fix:    "Write `name`, `name=1.2`, `name>=1.2,<2`, `name=1.2=build` or `channel::name=1.2`; pip-style `==` pins with extras belong under `pip:`.",
		Before: "dependencies:\n  - numpy>=>1.2\n",
		After:  "dependencies:\n  - numpy>=1.2\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG104", Name: "invalid-pip-line", Severity: finding.SeverityError,
		Title:  "a pip line is neither a valid requirement nor a pip option",
		Why:    "conda writes the `pip:` list to a requirements file and runs pip on it; one bad line makes pip, and so the environment creation, fail after the conda packages are installed.",
		Fix:    "Write a PEP 508 requirement (`name==1.0`, `name[extra]>=1`, `name @ URL`), `-e PATH`, or an option pip accepts in a requirements file.",
		Before: "dependencies:\n  - pip\n  - pip:\n      - torch=2.1.0\n",
		After:  "dependencies:\n  - pip\n  - pip:\n      - torch==2.1.0\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG105", Name: "pip-without-pip", Severity: finding.SeverityWarning, Fixable: finding.FixSafe,
		Title:  "a `pip:` subsection without `pip` among the conda dependencies",
		Why:    "conda then uses whatever pip it finds, which may install into another Python, or fails because there is none.",
		Fix:    "Add `- pip` to the conda dependencies.",
		Before: "dependencies:\n  - python=3.11\n  - pip:\n      - wandb\n",
		After:  "dependencies:\n  - python=3.11\n  - pip\n  - pip:\n      - wandb\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG106", Name: "duplicate-package", Severity: finding.SeverityWarning,
		Title: "the same package listed twice among conda dependencies",
		Why: "The solver must satisfy both entries; readers see only one. When the two constraints exclude " +
			"each other (it is then an error) no environment can be solved at all.",
		Fix:    "Keep one entry per package and merge the constraints into it.",
		Before: "dependencies:\n  - numpy=1.24\n  - pandas\n  - numpy=1.26\n",
		After:  "dependencies:\n  - numpy=1.26\n  - pandas\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG107", Name: "no-channels", Severity: finding.SeverityWarning,
		Title:  "no `channels:` — the result depends on each machine's `.condarc`",
		Why:    "Without channels conda uses each machine's configuration, so the same file solves to different packages (and CUDA builds) on a laptop, a CI runner and a GPU node.",
		Fix:    "List the channels the file was written for, and `nodefaults` when it should not use the defaults channels.",
		Before: "name: train\ndependencies:\n  - pytorch\n",
		After:  "name: train\nchannels:\n  - conda-forge\n  - nodefaults\ndependencies:\n  - pytorch\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG108", Name: "defaults-with-conda-forge", Severity: finding.SeverityWarning, Fixable: finding.FixSafe,
		Title:  "`defaults` (or an Anaconda main/r channel) mixed with `conda-forge`",
		Why:    "The two channels build against different versions of common libraries; mixing them gives environments that solve slowly and break at import time with symbol errors.",
		Fix:    "Use conda-forge alone and add `nodefaults`, or use defaults alone.",
		Before: "channels:\n  - conda-forge\n  - defaults\n",
		After:  "channels:\n  - conda-forge\n  - nodefaults\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG109", Name: "prefix-line", Severity: finding.SeverityInfo, Fixable: finding.FixSafe,
		Title:  "a `prefix:` line (a machine-specific path left by `conda env export`)",
		Why:    "The path belongs to the machine that exported the file; elsewhere it points at a directory that does not exist or belongs to someone else.",
		Fix:    "Delete the `prefix:` line; choose the location with `-n NAME` or `-p DIR` when creating.",
		Before: "name: train\nprefix: /home/alice/miniconda3/envs/train\n",
		After:  "name: train\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG110", Name: "invalid-env-name", Severity: finding.SeverityError,
		Title:  "the environment name is invalid",
		Why:    "CEP 24 forbids `/`, spaces, `:` and `#` in names and the names `base` and `root`; conda refuses to create such an environment, or would overwrite its own base.",
		Fix:    "Use letters, digits, `-`, `_` and `.` only.",
		Before: "name: my env\n",
		After:  "name: my-env\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG111", Name: "duplicate-key", Severity: finding.SeverityError,
		Title:  "a key appears twice in one mapping",
		Why:    "YAML forbids it and tools silently keep one copy, often the second of two exports pasted into one file: half of what you read is not installed.",
		Fix:    "Merge the two entries into one.",
		Before: "dependencies:\n  - numpy\ndependencies:\n  - pytorch\n",
		After:  "dependencies:\n  - numpy\n  - pytorch\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG112", Name: "channel-near-miss", Severity: finding.SeverityWarning, Fixable: finding.FixSafe,
		Title:  "a channel that does not exist as written",
		Why:    "A near miss of a known channel (`default`, `conda_forge`) or a non-conda index (`pypi`) is not found, so packages come from other channels than intended, or not at all.",
		Fix:    "Spell the channel as the hint says; list PyPI packages under `- pip:` instead of adding a `pypi` channel.",
		Before: "channels:\n  - conda_forge\n  - default\n",
		After:  "channels:\n  - conda-forge\n  - defaults\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG113", Name: "malformed-ignore", Severity: finding.SeverityWarning,
		Title:  "a malformed ignore comment: no code, a code not of the form EGnnn, or no reason",
		Why:    "An ignore comment that cannot be read silences nothing, and one without a reason hides a problem without telling the next reader why.",
		Fix:    "Write `# envguard: ignore EG201 reason` with the codes separated by commas and a reason after them.",
		Before: "dependencies:\n  - pytorch-cuda=11.8  # envguard: ignore\n",
		After:  "dependencies:\n  - pytorch-cuda=11.8  # envguard: ignore EG201 the driver pins CUDA 11.8 on this cluster\n",
		Since:  "0.1.0",
	},
	{
		Code: "EG114", Name: "unused-ignore", Severity: finding.SeverityWarning,
		Title:  "an ignore comment that silenced nothing",
		Why:    "The problem it silenced has gone, or the comment is on the wrong line; either way it would silently hide the next finding of that code on its line.",
		Fix:    "Remove the comment, or move it to the line of the finding.",
		Before: "dependencies:\n  - numpy  # envguard: ignore EG201 old CUDA pin\n",
		After:  "dependencies:\n  - numpy\n",
		Since:  "0.1.0",
	},
}
