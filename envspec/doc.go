// Package envspec is the language of the files people commit and of
// installed environments, each item with its source position:
// environment.yml as CEP 24 defines it (keys, name rules, platforms,
// selectors), conda MatchSpecs and version ordering, pip requirement
// lines, conda package URLs, and installed prefixes' metadata. Env, the
// one shape every reader gives, is defined here. It raises the file rules
// (EG1xx), whose definitions are its registry (SyntaxRules), while
// reading, and works out the edits that fix them. It knows syntax, never
// meaning: what a CUDA build string says is the resolver's business. The
// findings it makes are package finding's; the lock and manifest formats
// are package lockfile's, which builds on this one.
package envspec
