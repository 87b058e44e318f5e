#!/usr/bin/env bash
# Step of the envguard GitHub Action (action.yml): installs envguard at
# $ENVGUARD_VERSION with go install and puts it on the job's PATH.
set -euo pipefail
version=${ENVGUARD_VERSION:-latest}
# go-nvml's headers use deprecated declarations; the warning is noise.
export CGO_CFLAGS=-Wno-deprecated-declarations
go install "github.com/envguard/envguard/cmd/envguard@${version}"
bin=$(go env GOBIN)
if [ -z "$bin" ]; then
	bin=$(go env GOPATH)/bin
fi
echo "$bin" >>"$GITHUB_PATH"
"$bin/envguard" --version
