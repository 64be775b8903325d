#!/usr/bin/env bash
# The test command (README): configures a build (with the CUDA backend where
# nvcc is installed, so the kernels are compiled), builds, and runs meson's
# test suite on the CPU backend. Prints meson's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cuda=disabled
command -v nvcc >/dev/null && cuda=enabled
if [ ! -d build-test ]; then
	meson setup build-test -Dcuda=$cuda >/dev/null
fi
ninja -C build-test
meson test -C build-test --print-errorlogs
