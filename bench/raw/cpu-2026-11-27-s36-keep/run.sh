#!/bin/bash
# session 36: the sweep with decoded chunks kept between passes against
# none kept (TSG_TEST_SWEEP_KEEP=0), same build, CPU backend, on the
# development machine (2 cores): a 4 M-page crawl, edge factor 16, blocks
# held to a third by --partitions 3; 3 rounds interleaved, medians.
B=${1:-build}; T=${2:-/tmp/kc}; mkdir -p $T
[ -f $T/c4m.graph ] || $B/tristream-gen --quiet --seed 1 --edge-factor 16 --webgraph crawl --vertices 4000000 $T/c4m || exit 1
one() { # NAME ENV...
	local name=$1; shift
	local s=$EPOCHREALTIME
	env "$@" $B/tristream count --quiet --json --device cpu --layout sweep --partitions 3 $T/c4m > $T/k.json || { echo "$name failed"; exit 1; }
	python3 -c "
import json,sys; j=json.load(open('$T/k.json')); s=j['sweep']
print('$name', round($EPOCHREALTIME - $s, 3), j['triangles'], j['passes'], s['chunks_decoded'], s['kept_chunks'], s['kept_bytes'], s['decoded_from_kept'])"
}
for r in 1 2 3; do one kept TSG_TEST_SWEEP_KEEP=; one none TSG_TEST_SWEEP_KEEP=0; done | tee $T/keep-runs.txt
python3 - $T/keep-runs.txt <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
print("| variant | wall s, median of 3 (runs) | triangles | passes | chunks decoded | kept (bytes) | read from kept |")
print("|---|---|---|---|---|---|---|")
for v in ("kept", "none"):
    r = [x for x in rows if x[0] == v]
    w = [float(x[1]) for x in r]
    print(f"| {v} | {statistics.median(w):.3f} ({', '.join(x[1] for x in r)}) | {r[0][2]} | {r[0][3]} | {r[0][4]} | {r[0][5]} ({r[0][6]}) | {r[0][7]} |")
PY
