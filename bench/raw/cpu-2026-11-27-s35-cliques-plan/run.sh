#!/bin/bash
# session 35, development machine (2 cores, no GPU): where k-cliques' out-of-core
# plan goes. R-MAT 22 seed 1, K = 4, the CPU: the two parts' build under
# --plan-only (closed pruning lists every triangle on the host), one part's,
# and the triangle count of the same graph. BUILD: a tristream binary.
set -u
B=${1:-build/tristream}; W=${2:-/tmp}
[ -f $W/r22.tsg ] || "$(dirname "$B")/tristream-gen" --quiet rmat --scale 22 --seed 1 $W/r22.tsg
for p in 2 1; do
  $B count --json --quiet --k 4 --device cpu --layout lstc --partitions $p --plan-only $W/r22.tsg
done
$B count --json --quiet --device cpu $W/r22.tsg
