#!/usr/bin/env bash
# Holds envguard's lists of GPU code to NVIDIA's cuobjdump, library by
# library: runs `envguard inspect --format json PREFIX` and compares, for
# every library scripts/h200-cuobjdump-list.sh listed into LISTS_DIR, the
# SASS and PTX entries as multisets. Prints one line per library that
# differs and "N libraries, M with device code, K equal, D differ"; exits 1
# when D is not 0, 2 when it cannot run.
#
#   usage: h200-compare.sh PREFIX LISTS_DIR
#
# envguard is $ENVGUARD or ./.devbin/envguard; the comparer is
# $H200_COMPARE or ./.devbin/h200compare, else `go run ./scripts/h200compare`
# (a machine without Go, such as the lent GPU one, needs both built:
#   CGO_ENABLED=0 go build -o .devbin/ ./cmd/envguard ./scripts/h200compare).
# Without a GPU machine, against the nvcc fixtures:
#   go run ./scripts/h200compare -make-lists native/testdata/fatbin /tmp/lists
#   scripts/h200-compare.sh native/testdata/fatbin /tmp/lists
set -euo pipefail
prefix=${1:?usage: h200-compare.sh PREFIX LISTS_DIR}
lists=${2:?usage: h200-compare.sh PREFIX LISTS_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
envguard=${ENVGUARD:-$root/.devbin/envguard}
if [ ! -x "$envguard" ]; then
	echo "h200-compare: no envguard at $envguard (set ENVGUARD or build .devbin/envguard)" >&2
	exit 2
fi
if [ -n "${H200_COMPARE:-}" ]; then
	compare=("$H200_COMPARE")
elif [ -x "$root/.devbin/h200compare" ]; then
	compare=("$root/.devbin/h200compare")
elif command -v go >/dev/null 2>&1; then
	compare=(go run "$root/scripts/h200compare")
else
	echo "h200-compare: no comparer (set H200_COMPARE or build .devbin/h200compare)" >&2
	exit 2
fi
[ -f "$lists/libraries.tsv" ] || { echo "h200-compare: $lists/libraries.tsv is missing" >&2; exit 2; }
json=$(mktemp)
trap 'rm -f "$json"' EXIT
# inspect exits 2 when some library cannot be read; the comparer reports
# those libraries from the JSON's errors.
rc=0
"$envguard" inspect --format json "$prefix" >"$json" 2>/dev/null || rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
	echo "h200-compare: envguard inspect exited $rc" >&2
	exit 2
fi
"${compare[@]}" "$prefix" "$lists" "$json"
