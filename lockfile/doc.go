// Package lockfile reads the files that pin or list an environment other
// than environment.yml: conda-lock.yml, pixi.lock, pixi.toml (and
// [tool.pixi] in pyproject.toml), uv.lock, pylock.toml, pip requirements
// files and `conda list --explicit` files, with the TOML reader the TOML
// formats share. Each becomes the envspec.Env every reader gives, each
// item at the place of its entry, with the file rules (EG1xx, envspec's
// registry) raised where the file breaks them. It also tells which of
// these formats, or environment.yml, a file is (SniffFile, IsInputName)
// and reads any of them (Read). It imports envspec, never the other way.
package lockfile
