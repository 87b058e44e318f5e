#!/usr/bin/env bash
# Builds the fatbin fixtures of native/ with nvcc (CUDA 13.0 on the lent H200
# machine): tiny shared libraries, each one kernel, for chosen architectures,
# variants and compression modes, stripped so that each is a few KB. For each
# it also writes what NVIDIA's own cuobjdump lists (NAME.cuobjdump), which the
# golden tests hold native/ to.
#   usage: build.sh OUTDIR
set -u
out=${1:?usage: build.sh OUTDIR}
mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
cuobjdump=${CUOBJDUMP:-/usr/local/cuda/bin/cuobjdump}
src=$(mktemp -d)/k.cu
cat >"$src" <<'CU'
extern "C" __global__ void eg_axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" void eg_launch(float a, const float *x, float *y, int n) {
  eg_axpy<<<(n + 255) / 256, 256>>>(a, x, y, n);
}
CU
build() { # name, nvcc flags...
  local name=$1; shift
  if "$nvcc" -shared -Xcompiler -fPIC -cudart shared -o "$out/$name.so" "$src" "$@" 2>"$out/$name.nvcc.err"; then
    strip "$out/$name.so"
    { echo "# nvcc $*"; "$cuobjdump" --list-elf "$out/$name.so" 2>&1; "$cuobjdump" --list-ptx "$out/$name.so" 2>&1; } >"$out/$name.cuobjdump"
    rm -f "$out/$name.nvcc.err"
  else
    echo "nvcc failed for $name: $(head -c 300 "$out/$name.nvcc.err")" >&2
  fi
}
build sm80 -gencode arch=compute_80,code=sm_80
build multi -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code='[sm_90,compute_90]'
build ptx120 -gencode arch=compute_120,code=compute_120
build sm90a -gencode arch=compute_90a,code=sm_90a
build sm100a -gencode arch=compute_100a,code='[sm_100a,compute_100a]'
build sm100f -gencode arch=compute_100f,code=sm_100f
build sm121 -gencode arch=compute_121,code=sm_121
build nocompress --no-compress -gencode arch=compute_80,code='[sm_80,compute_80]'
build compressall -Xfatbin=-compress-all -gencode arch=compute_80,code='[sm_80,compute_80]' -gencode arch=compute_90a,code=sm_90a
for m in default size speed balance none; do
  build "mode_$m" --compress-mode=$m -Xfatbin=-compress-all -gencode arch=compute_86,code='[sm_86,compute_86]' -gencode arch=compute_100a,code=sm_100a
done
# An object file and a static archive hold fatbins too.
"$nvcc" -c -Xcompiler -fPIC -o "$out/obj80.o" "$src" -gencode arch=compute_80,code=sm_80 2>/dev/null && strip --strip-unneeded "$out/obj80.o" &&
  { "$cuobjdump" --list-elf "$out/obj80.o"; "$cuobjdump" --list-ptx "$out/obj80.o"; } >"$out/obj80.cuobjdump" 2>&1
ls -l "$out"
