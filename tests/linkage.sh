#!/usr/bin/env bash
# tests/linkage.sh BUILD_DIR - a GPU build runs on a machine whose loader
# path lacks CUDA's lib directory: the programs link the CUDA runtime
# statically and need no CUDA shared library (the driver's libcuda is
# opened by the static runtime at start, so ldd never lists it). Skipped
# (exit 77, said) in a build without the CUDA backend.
# Ends with "N passed, N failed" (", N skipped" where any was).
set -u
B=$1
. "$(dirname "$0")/lib.sh"
if ! "$B/tristream" --version | grep -q CUDA; then
	skip "this build has no CUDA backend; linkage not checked"
	finish_checks
fi
for p in tristream tristream-convert tristream-gen; do
	deps=$(ldd "$B/$p" 2>&1)
	check "$p needs no CUDA shared library and lacks none: $deps" \
		eval '[ -n "$deps" ] && ! echo "$deps" | grep -Eq "libcuda|libcudart|libnv|not found"'
	# and it starts with no CUDA directory on the loader path
	check "$p starts without LD_LIBRARY_PATH" eval 'env -u LD_LIBRARY_PATH "$B/$p" --help >/dev/null 2>&1'
done
finish_checks
