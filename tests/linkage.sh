#!/usr/bin/env bash
# tests/linkage.sh BUILD_DIR - a GPU build runs on a machine whose loader
# path lacks CUDA's lib directory: the programs link the CUDA runtime
# statically and need no CUDA shared library (the driver's libcuda is
# opened by the static runtime at start, so ldd never lists it).
# Ends with "N passed, N failed".
set -u
B=$1
pass=0
fail=0
if ! "$B/tristream" --version | grep -q CUDA; then
	echo "SKIPPED: this build has no CUDA backend; linkage not checked"
	echo "0 passed, 0 failed"
	exit 0
fi
for p in tristream tristream-convert tristream-gen; do
	deps=$(ldd "$B/$p" 2>&1)
	if [ -z "$deps" ] || echo "$deps" | grep -Eq 'libcuda|libcudart|libnv|not found'; then
		echo "FAIL: $p needs a CUDA shared library or lacks one:"
		echo "$deps"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
	# and it starts with no CUDA directory on the loader path
	if env -u LD_LIBRARY_PATH "$B/$p" --help >/dev/null 2>&1; then
		pass=$((pass + 1))
	else
		echo "FAIL: $p does not start without LD_LIBRARY_PATH"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
