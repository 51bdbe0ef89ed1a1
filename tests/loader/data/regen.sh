#!/usr/bin/env bash
# Rebuilds the checked-in code objects the loader tests use for v2 and v3 of kernels/loader/args.cl.
# The CMake kernel rule builds v2/v3 only for kernels/tests/*.cl, so these are kept here instead.
# Built with Debian 12's clang-14 / ld.lld-14.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for v in 2 3; do
  clang -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx803 -nogpulib -O3 -mcode-object-version=$v \
    -Xclang -finclude-default-header -include "$root/kernels/include/strobe_cl.h" -I "$root/kernels/include" \
    -c "$root/kernels/loader/args.cl" -o "$tmp/args.o"
  ld.lld -shared "$tmp/args.o" -o "$here/args-v$v.hsaco"
done
