#!/usr/bin/env bash
# Installs pre-commit, which internal/packaging runs to check the hook in
# .pre-commit-hooks.yaml and the pre-commit commands of docs/ci.md.
set -euo pipefail
if ! command -v pre-commit >/dev/null 2>&1; then
	apt-get update -qq && apt-get install -y -qq pre-commit
fi
pre-commit --version
