#!/usr/bin/env bash
# Step of the envguard GitHub Action (action.yml): puts envguard at
# $ENVGUARD_VERSION on the job's PATH. It downloads the release archive for
# the runner (.goreleaser.yaml names them envguard_<os>_<arch>), checks it
# against the release's checksums.txt, and unpacks it into
# $ENVGUARD_CACHE_DIR, which the Action's cache step keeps between runs for a
# tagged version. When there is no such release (a commit, a fork, a
# version before the first release) it falls back to go install. A
# checksum that does not match is an error, never a fallback.
set -euo pipefail
version=${ENVGUARD_VERSION:-latest}
module=github.com/envguard/envguard
cache=${ENVGUARD_CACHE_DIR:-}
base=${ENVGUARD_DOWNLOAD_BASE:-https://github.com/envguard/envguard/releases}

say() { echo "envguard install: $*" >&2; }

exe=envguard
case "${RUNNER_OS:-$(uname -s)}" in
Linux) os=linux ;;
macOS | Darwin) os=darwin ;;
Windows | MINGW* | MSYS* | CYGWIN*) os=windows exe=envguard.exe ;;
*) os= ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
X64 | x86_64 | amd64) arch=amd64 ;;
ARM64 | arm64 | aarch64) arch=arm64 ;;
*) arch= ;;
esac

sha256() {
	if command -v sha256sum >/dev/null; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}

# download prints the directory envguard was unpacked into, or fails (exit
# 1) when the release is not there; a bad checksum exits 3.
download() {
	local url asset tmp want got dir
	if [ "$version" = latest ]; then
		url=$base/latest/download
	else
		url=$base/download/$version
	fi
	asset=envguard_${os}_${arch}.tar.gz
	[ "$os" = windows ] && asset=envguard_${os}_${arch}.zip
	tmp=$(mktemp -d)
	if ! curl -fsSL --retry 2 --connect-timeout 10 -o "$tmp/checksums.txt" "$url/checksums.txt" ||
		! curl -fsSL --retry 2 --connect-timeout 10 -o "$tmp/$asset" "$url/$asset"; then
		say "no release archive at $url/$asset"
		return 1
	fi
	want=$(awk -v a="$asset" '$2 == a || $2 == "*" a { print $1 }' "$tmp/checksums.txt")
	got=$(sha256 "$tmp/$asset")
	if [ -z "$want" ] || [ "$want" != "$got" ]; then
		say "$asset: sha256 $got does not match checksums.txt (${want:-no line for it}); not installing it"
		exit 3
	fi
	dir=${cache:-$tmp/bin}
	mkdir -p "$dir"
	if [ "$os" = windows ]; then
		unzip -o -q "$tmp/$asset" "$exe" -d "$dir"
	else
		tar -xzf "$tmp/$asset" -C "$dir" "$exe"
	fi
	say "installed $asset ($version, sha256 $got verified)"
	echo "$dir"
}

goinstall() {
	say "falling back to go install $module/cmd/envguard@$version"
	# go-nvml's headers use deprecated declarations; the warning is noise.
	export CGO_CFLAGS=-Wno-deprecated-declarations
	go install "github.com/envguard/envguard/cmd/envguard@${version}"
	bin=$(go env GOBIN)
	if [ -z "$bin" ]; then
		bin=$(go env GOPATH)/bin
	fi
}

if [ -n "$cache" ] && [ -x "$cache/$exe" ]; then
	say "using the cached $version in $cache"
	bin=$cache
elif [ -n "$os" ] && [ -n "$arch" ]; then
	rc=0
	bin=$(download) || rc=$?
	case $rc in
	0) ;;
	1) goinstall ;;
	*) exit "$rc" ;;
	esac
else
	say "no release binary for this runner (${RUNNER_OS:-$(uname -s)} ${RUNNER_ARCH:-$(uname -m)})"
	goinstall
fi
echo "$bin" >>"$GITHUB_PATH"
"$bin/$exe" --version
