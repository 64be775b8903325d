#!/usr/bin/env bash
# session 55 call I (one H200): tests/gpu multi.sh ONLY=lstc on the final
# code (gpu75), two contexts of the GPU.
set -u
BUILD=gpu75 OUT=$OUT LIMIT=${CALL_LIMIT:-200} LANES="0:multi-lstc" bash .carry/lanes.sh
