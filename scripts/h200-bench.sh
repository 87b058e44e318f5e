#!/usr/bin/env bash
# The speed rows of issue 25 on the lent H200 machine, each a ratio against
# a baseline measured in the same run: `envguard check` over a venv against
# `python -m torch.utils.collect_env`, warm (page cache full) and cold
# (page cache dropped with `echo 3 > /proc/sys/vm/drop_caches`, as root,
# before each cold run); check's second run with its cache; `envguard
# inspect` of libtorch_cuda.so; the peak RSS of each envguard run.
#   usage: h200-bench.sh PREFIX OUTFILE     (envguard is $ENVGUARD or ./.devbin/envguard)
set -u
prefix=${1:?usage: h200-bench.sh PREFIX OUTFILE}
out=${2:?usage: h200-bench.sh PREFIX OUTFILE}
envguard=${ENVGUARD:-$(cd "$(dirname "$0")/.." && pwd)/.devbin/envguard}
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
