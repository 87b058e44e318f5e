// Package envspec is the language of the files people commit and of
// installed environments, each item with its source position:
// environment.yml as CEP 24 defines it (keys, name rules, platforms,
// selectors), conda MatchSpecs and version ordering, pip requirement lines
// and requirements files, the lock and manifest formats (conda-lock, pixi,
// uv, pylock, explicit files, and the TOML they are written in), and
// installed prefixes' metadata. It raises the file rules (EG1xx) while
// reading, and works out the edits that fix them. It knows syntax, never
// meaning: what a CUDA build string says is the resolver's business. The
// findings it makes are package finding's.
package envspec
