#!/usr/bin/env bash
# The speed rows of issue 25 on the lent H200 machine, each a ratio against
# a baseline measured in the same run: `envguard check` over a venv against
# `python -m torch.utils.collect_env`, warm (page cache full) and cold
# (page cache dropped with `echo 3 > /proc/sys/vm/drop_caches`, as root,
# before each cold run); check's second run with its cache; `envguard
# inspect` of libtorch_cuda.so; the peak RSS of each envguard run.
#   usage: h200-bench.sh build                 (here, with Go: .devbin/envguard and .devbin/bench)
#          h200-bench.sh PREFIX OUTFILE        (there: envguard is $ENVGUARD or ./.devbin/envguard)
# One device call, after `build` here (.devbin is ignored, so carry it):
#   run(carry=[".devbin"], command="scripts/h200-bench.sh /opt/torch/.venv $OUT/h200.tsv")
# writes OUTFILE (the raw runs), OUTFILE.check.txt/.json (the verdict) and
# OUTFILE.bench.txt/.json (the `bench --only check` table: the same rows as
# ratios against collect_env, with their goals and whether each is met).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = build ]; then
	cd "$root" && mkdir -p .devbin &&
		CGO_CFLAGS=-Wno-deprecated-declarations GOOS=linux GOARCH=amd64 go build -o .devbin/envguard ./cmd/envguard &&
		CGO_CFLAGS=-Wno-deprecated-declarations GOOS=linux GOARCH=amd64 go build -o .devbin/bench ./bench
	exit
fi
prefix=${1:?usage: h200-bench.sh PREFIX OUTFILE}
out=${2:?usage: h200-bench.sh PREFIX OUTFILE}
envguard=${ENVGUARD:-$root/.devbin/envguard}
cache=$(mktemp -d)
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
# run LABEL CMD...: wall seconds and peak RSS (KiB) of one run, via
# python's resource module on the child.
run() {
	local label=$1; shift
	python3 - "$label" "$@" <<'PY'
import resource, subprocess, sys, time
label, cmd = sys.argv[1], sys.argv[2:]
t = time.perf_counter()
p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
dt = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{label}\t{dt:.4f}\t{rss}\trc={p.returncode}")
PY
}
py=$prefix/bin/python
libtorch=$(find "$prefix" -name 'libtorch_cuda.so' | head -1)
export VIRTUAL_ENV=$prefix XDG_CACHE_HOME=$cache
{
	echo -e "row\tseconds\tmax_rss_kib\trc"
	for i in 1 2 3; do drop; run collect_env-cold "$py" -m torch.utils.collect_env; done
	for i in 1 2 3; do run collect_env-warm "$py" -m torch.utils.collect_env; done
	for i in 1 2 3; do drop; rm -rf "$cache"/*; run check-cold "$envguard" check; done
	for i in 1 2 3; do rm -rf "$cache"/*; run check-warm-nocache "$envguard" check; done
	run check-prime "$envguard" check
	for i in 1 2 3; do run check-second "$envguard" check; done
	for i in 1 2 3; do run inspect-libtorch_cuda "$envguard" inspect --format json "$libtorch"; done
} >"$out" 2>&1
"$envguard" check >"$out.check.txt" 2>&1
"$envguard" check --format json >"$out.check.json" 2>&1 || true
# The bench's check rows: ratios against collect_env in the same run, cold
# by dropping the page cache (as root) before each run.
if [ -x "$root/.devbin/bench" ]; then
	"$root/.devbin/bench" --only check --envguard "$envguard" --corpus "$root/testdata/gpucorpus" \
		--prefix "$prefix" --collect-env-python "$py" --library "$libtorch" --drop-caches \
		--json-file "$out.bench.json" >"$out.bench.txt" 2>&1
fi
