#!/usr/bin/env bash
# session 53 call A: groups_ab at a quarter (warm, cold) and the whole GPU
# (warm): units / sparse 2 / sparse 8; then tests/gpu groups.sh and inputs.sh.
set -u
T0=$(date +%s)
B=.carry/gpu65
V="units: ; sparse2:TSG_ARRIVAL_SPARSE=2 ; sparse8:TSG_ARRIVAL_SPARSE=8"
mkdir -p /tmp/o
OUT=/tmp/o/q EXPECT=49154930897 VARIANTS="$V" WORK_DIR=/tmp/w bash bench/groups_ab.sh $B > /tmp/o/q.log 2>&1
echo "quarter done at $(( $(date +%s) - T0 ))s" | tee -a /tmp/o/q.log
OUT=/tmp/o/f0 FRACTION=0 MODES=warm EXPECT=49154930897 VARIANTS="$V" WORK_DIR=/tmp/w bash bench/groups_ab.sh $B > /tmp/o/f0.log 2>&1
echo "whole GPU done at $(( $(date +%s) - T0 ))s" | tee -a /tmp/o/f0.log
rm -f /tmp/w/rmat26.tsg
tar czf $OUT/ab.tgz -C /tmp/o .
cp /tmp/o/q/table.md $OUT/quarter.md; cp /tmp/o/f0/table.md $OUT/whole.md
BUILD=gpu65 OUT=$OUT LIMIT=$(( 575 - ($(date +%s) - T0) )) LANES="0:groups,inputs" bash .carry/lanes.sh
cat $OUT/quarter.md $OUT/whole.md
