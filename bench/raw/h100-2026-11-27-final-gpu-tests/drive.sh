#!/bin/bash
# session 32, call D (one GPU), the final build: (1) tests/gpu/run.sh's
# counts on R-MAT 19 alone (slice 1/11; KERNELS=auto), which holds the new
# --host-mem checks (hm_arrival: arrival over the mapped file, or spill)
# and the check that auto took the arrival layout; (2) where time is left,
# the 300 M-page crawl by the sweep, one pass and at 16G/16G, one run
# each, for the JSON's new set-up times (device_s, begin_s, buffers_s,
# release_s)
set -u
N=$(pwd)/.carry/gpu6; W=/tmp/d; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
KERNELS=auto timeout 330 bash tests/gpu/run.sh $N .carry/data counts 1/11 > $OUT/run-counts-1of11.txt 2>&1
echo "tests/gpu/run.sh counts 1/11 (KERNELS=auto): exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/run-counts-1of11.txt)" >> $OUT/info.txt
left=$(( 560 - ($(date +%s) - t0) ))
if [ $left -gt 150 ]; then
  s=$(date +%s); timeout $left $N/tristream-gen --quiet --seed 1 --webgraph crawl --vertices 300000000 $W/c300m; echo "gen c300m rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
  for a in "--layout sweep" "--layout sweep --host-mem 16G --gpu-mem 16G"; do
    left=$(( 570 - ($(date +%s) - t0) )); [ $left -gt 30 ] || break
    s=$EPOCHREALTIME; timeout $left $N/tristream count --quiet --json --device gpu $a $W/c300m > $W/s.json 2>/dev/null; rc=$?; e=$EPOCHREALTIME
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], "rc", sys.argv[3], "wall %.2f" % (float(sys.argv[5])-float(sys.argv[4])), d["triangles"], "input", d["input"]["seconds"], d["stages"], d["sweep"])' $W/s.json "$a" $rc $s $e >> $OUT/sweep-setup.txt 2>&1 || echo "$a rc=$rc" >> $OUT/sweep-setup.txt
  done
fi
cat $OUT/info.txt; grep -E "FAIL|passed" $OUT/run-counts-1of11.txt | tail -8; cat $OUT/sweep-setup.txt 2>/dev/null | cut -c1-900
