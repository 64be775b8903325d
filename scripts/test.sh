#!/usr/bin/env bash
# The test command (README): configures a build (with the CUDA backend where
# nvcc is installed, so the kernels are compiled), builds, and runs meson's
# test suite on the CPU backend, ThreadSanitizer over the threaded input
# paths (scripts/tsan.sh), then the fuzz targets for a minute each. Prints
# meson's summary, the sanitizer's and the fuzzers' "N passed, N failed".
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
# ThreadSanitizer over the threaded input paths (a second, CPU-only build)
bash scripts/tsan.sh build-tsan
# fuzzing for a bounded time (FUZZ_SECONDS a target, default 60) where clang
# with libFuzzer is installed (.ci/run installs it); any finding fails
if command -v clang >/dev/null; then
	bash tests/fuzz/run.sh "${FUZZ_SECONDS:-60}"
else
	echo "SKIPPED: clang not installed; fuzzing not run"
fi
