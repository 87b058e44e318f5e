#!/usr/bin/env bash
# Builds the conda .tar.bz2 fixtures of native/ (Go's compress/bzip2 only
# reads): a package holding the nvcc fixtures of ../fatbin, and a bomb, a
# 256 MiB member of zeros that bzip2 makes a few hundred bytes. The wheel
# and .conda fixtures are built by the tests themselves (archive/zip and
# klauspost/compress/zstd write them).
#   usage: build.sh   (from anywhere; writes beside itself)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarc() { tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 --format=gnu -C "$1" -cf - .; }

mkdir -p "$tmp/pkg/lib/python3.12/site-packages/eg" "$tmp/pkg/info"
cp "$here/../fatbin/sm80.so" "$tmp/pkg/lib/libsm80.so"
cp "$here/../fatbin/multi.so" "$tmp/pkg/lib/libmulti.so.1"
ln -s libmulti.so.1 "$tmp/pkg/lib/libmulti.so"
cp "$here/../fatbin/obj80.o" "$tmp/pkg/lib/obj80.o"
printf 'from ._C import *\n' >"$tmp/pkg/lib/python3.12/site-packages/eg/__init__.py"
printf '{"name": "eg-cuda", "version": "1.0", "build": "0"}\n' >"$tmp/pkg/info/index.json"
tarc "$tmp/pkg" | bzip2 -9 >"$here/eg-cuda-1.0-0.tar.bz2"

mkdir -p "$tmp/bomb/lib"
printf '\177ELF' >"$tmp/bomb/lib/libbomb.so"
truncate -s 256M "$tmp/bomb/lib/libbomb.so"
tarc "$tmp/bomb" | bzip2 -9 >"$here/bomb-1.0-0.tar.bz2"
ls -l "$here"
