#!/usr/bin/env bash
# Lists, with NVIDIA's cuobjdump, the SASS and PTX of every shared library
# under a prefix (the lent H200 machine's /opt/torch/.venv), one file per
# library, so that scripts/h200-compare.sh can hold envguard's lists to them.
#   usage: h200-cuobjdump-list.sh PREFIX OUTDIR
set -u
prefix=${1:?usage: h200-cuobjdump-list.sh PREFIX OUTDIR}
out=${2:?usage: h200-cuobjdump-list.sh PREFIX OUTDIR}
cuobjdump=${CUOBJDUMP:-/usr/local/cuda/bin/cuobjdump}
mkdir -p "$out/lists"
find "$prefix" -type f \( -name '*.so' -o -name '*.so.*' \) -printf '%s\t%P\n' | sort -k2 >"$out/libraries.tsv"
export cuobjdump prefix out
cut -f2 "$out/libraries.tsv" | xargs -d '\n' -P "$(nproc)" -I{} sh -c '
  f="$1"; key=$(printf %s "$f" | tr / %)
  { "$cuobjdump" --list-elf "$prefix/$f" 2>&1; echo "--- rc=$?"; "$cuobjdump" --list-ptx "$prefix/$f" 2>&1; echo "--- rc=$?"; } >"$out/lists/$key.txt"' _ {} 2>/dev/null
