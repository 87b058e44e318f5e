#!/usr/bin/env bash
# Records what the lent H200 machine's venv says about itself: the driver,
# torch's own build facts, each installed distribution's name, version and
# Requires-Dist, and how long torch.utils.collect_env takes (the baseline of
# the check row of go run ./bench).
#   usage: h200-facts.sh PREFIX OUTFILE
set -u
prefix=${1:?usage: h200-facts.sh PREFIX OUTFILE}
o=${2:?usage: h200-facts.sh PREFIX OUTFILE}
py=$prefix/bin/python
{
  echo "## nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv 2>&1
  echo "## torch"; "$py" -c 'import torch,sys;print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version(), torch.compiled_with_cxx11_abi(), torch.cuda.get_arch_list(), sys.version)' 2>&1
  echo "## collect_env (3 runs, seconds)"
  for i in 1 2 3; do s=$(date +%s.%N); "$py" -m torch.utils.collect_env >/tmp/ce.txt 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; done
  cat /tmp/ce.txt
  echo "## ld.so"; cat /etc/ld.so.conf /etc/ld.so.conf.d/* 2>/dev/null; ldconfig -p 2>/dev/null | grep -c .
  echo "## metadata"
  for m in "$prefix"/lib/python3*/site-packages/*.dist-info/METADATA; do
    grep -E '^(Name|Version|Requires-Dist|Requires-Python):' "$m"; echo
  done
  echo "## WHEEL tags"
  for m in "$prefix"/lib/python3*/site-packages/*.dist-info/WHEEL; do echo "$m"; grep -E '^Tag:' "$m"; done
} >"$o" 2>&1
