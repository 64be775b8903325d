#!/bin/bash
# session 36, call E (one H100, 16 cores): the 300 M-page crawl at
# --host-mem 16G --gpu-mem 16G (chunks kept between passes) against its
# in-memory count, the final build (.carry/gpu21), rounds interleaved
# while the call's time lasts (at most 3), then medians.
set -u
N=$(pwd)/.carry/gpu21; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet --seed 1 --webgraph crawl --vertices 300000000 $W/c300m; echo "gen c300m rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
one() { # NAME ARGS...
	local name=$1; shift
	local s=$EPOCHREALTIME
	timeout 60 $N/tristream count --quiet --json --device gpu "$@" $W/c300m > $W/o.json 2>$W/o.err; local rc=$?
	python3 -c "
import json; j=json.load(open('$W/o.json')); s=j.get('sweep',{})
print('$name', round($EPOCHREALTIME - $s, 2), j['triangles'], j.get('layout'), j.get('passes','-'), s.get('chunks_decoded','-'), s.get('kept_chunks','-'), s.get('decoded_from_kept','-'))" >> $OUT/runs.txt 2>/dev/null || echo "$name rc=$rc $(head -c 200 $W/o.err)" >> $OUT/runs.txt
}
for r in 1 2 3; do
	[ $(( $(date +%s) - t0 )) -lt 140 ] || break
	one inmem; one bounded --layout sweep --host-mem 16G --gpu-mem 16G
done
python3 - $OUT/runs.txt > $OUT/table.md <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1]) if "rc=" not in l]
med = {v: statistics.median(float(x[1]) for x in rows if x[0] == v) for v in ("inmem", "bounded") if any(x[0] == v for x in rows)}
print("| variant (one H100, 16 cores) | wall s, median (runs) | vs in memory | triangles | passes | decoded | kept / read from kept |")
print("|---|---|---|---|---|---|---|")
for v in med:
    r = [x for x in rows if x[0] == v]
    print(f"| {v} | {med[v]:.2f} ({', '.join(x[1] for x in r)}) | {med[v] / med['inmem']:.2f}x | {' '.join(sorted(set(x[2] for x in r)))} | {r[0][4]} | {r[0][5]} | {r[0][6]} / {r[0][7]} |")
PY
echo "done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
cat $OUT/info.txt $OUT/runs.txt $OUT/table.md
