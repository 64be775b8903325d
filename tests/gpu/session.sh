#!/usr/bin/env bash
# tests/gpu/session.sh PART SLICE FUZZ_TARGET FUZZ_SECONDS FUZZ_JOBS [BENCH]
# One device call: a slice of tests/gpu/run.sh (PART all|counts|sanitizer,
# SLICE I/N) with a fuzzing campaign of one target running beside it on the
# spare cores (tests/fuzz/campaign.sh; FUZZ_TARGET none: no fuzzing), then,
# if BENCH is set, bench/webgraph.sh at 2^BENCH vertices. Expects .carry/gpu
# (the static GPU build), .carry/fuzz (the static fuzz build) and
# .carry/graphs (the shared graphs). Logs go to $OUT.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
part=$1 slice=$2 ft=$3 fs=$4 fj=$5 bench=${6:-}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
fpid=
if [ "$ft" != none ]; then
	bash tests/fuzz/campaign.sh .carry/fuzz "$ft" "$fs" "$fj" "$OUT/fuzz-$ft.log" >"$OUT/fuzz-$ft.txt" 2>&1 &
	fpid=$!
fi
s=$(date +%s)
bash tests/gpu/run.sh .carry/gpu .carry/graphs "$part" "$slice" >"$OUT/gpu-tests-$part-${slice/\//of}.txt" 2>&1
rc=$?
echo "gpu tests $part $slice: exit $rc in $(( $(date +%s) - s )) s: $(tail -1 "$OUT/gpu-tests-$part-${slice/\//of}.txt")"
grep FAIL "$OUT/gpu-tests-$part-${slice/\//of}.txt" | head -20
if [ -n "$bench" ]; then
	bash bench/webgraph.sh .carry/gpu /tmp/wgbench "$bench" 3 >"$OUT/webgraph-bench.txt" 2>&1
	echo "webgraph bench: exit $?"
	tail -9 "$OUT/webgraph-bench.txt"
fi
if [ -n "$fpid" ]; then
	wait "$fpid"
	echo "fuzz exit $?: $(cat "$OUT/fuzz-$ft.txt")"
	gzip -f "$OUT/fuzz-$ft.log"
fi
