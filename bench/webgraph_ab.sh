#!/usr/bin/env bash
# bench/webgraph_ab.sh OLD_BUILD NEW_BUILD WORK_DIR [LOG2_VERTICES=24] [RUNS=5]
#   [CRAWL=../shared/graphs/cnr-2000/cnr-2000] - BVGraph decoding, two builds
# side by side in one run, warm page cache: a web-like crawl written by
# NEW's `--to webgraph` (its transpose a hard link: the graph is symmetric)
# and a real LAW crawl, each converted to .tsg by both builds alternating
# (16 threads by default), the stages from --json; then NEW alone on 1, 2,
# 4, 8 and 16 threads; then `count` on the crawl, CPU and GPU, both builds.
# Every converted file must equal the generator's .tsg; counts must agree.
set -u
O=$1 N=$2 W=$3 L=${4:-24} RUNS=${5:-5} CRAWL=${6:-../shared/graphs/cnr-2000/cnr-2000}
mkdir -p "$W"
nproc
"$N/tristream-gen" --quiet web --vertices $((1 << L)) --seed 1 "$W/web.tsg"
t0=$(date +%s.%N); "$N/tristream-convert" --quiet --to webgraph "$W/web.tsg" "$W/web"; t1=$(date +%s.%N)
echo "writer $(python3 -c "print(round($t1 - $t0, 2))") s"
ls -la "$W"
st() { python3 -c "import json,sys; d=json.load(sys.stdin); print('$1', $2, *(round(d[k],4) for k in ('open_seconds','lists_seconds','assemble_seconds','decode_seconds','seconds')), d['arcs_per_second']/1e6)"; }
for i in $(seq "$RUNS"); do for v in old new; do b=$O; [ $v = new ] && b=$N
	"$b/tristream-convert" --quiet --json "$W/web" "$W/back.tsg" | st $v 16
	cmp -s "$W/back.tsg" "$W/web.tsg" || echo "DIFFERENT $v"
done; done | tee "$W/ab.txt"
for t in 1 2 4 8 16; do "$N/tristream-convert" --quiet --json --threads $t "$W/web" "$W/back.tsg" | st new $t; done
if [ -f "$CRAWL.graph" ]; then
	echo "== $CRAWL (with its transpose)"
	for i in $(seq "$RUNS"); do for v in old new; do b=$O; [ $v = new ] && b=$N
		"$b/tristream-convert" --quiet --json "$CRAWL" "$W/crawl-$v.tsg" | st crawl-$v 16
	done; done | tee "$W/ab-crawl.txt"
	cmp -s "$W/crawl-old.tsg" "$W/crawl-new.tsg" || echo "DIFFERENT: the crawl converted by the two builds"
else
	echo "SKIPPED: no $CRAWL.graph"
fi
echo "== count crawl, cpu and gpu: triangles, input seconds, whole process"
for i in 1 2 3; do for v in old new; do b=$O; [ $v = new ] && b=$N
	for d in cpu gpu; do s=$(date +%s.%N)
		c=$("$b/tristream" count --quiet --device $d --json "$W/web" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['triangles'], round(d['input']['seconds'],3))")
		e=$(date +%s.%N); echo "$v crawl-$d $c $(python3 -c "print(round($e-$s,3))")"
	done
done; done
python3 - "$W/ab.txt" "$W/ab-crawl.txt" <<'PY'
import os, sys, statistics
print("variant  open  lists  assemble  decode  total  Marcs/s (medians, 16 threads)")
for f in sys.argv[1:]:
    if not os.path.exists(f):
        continue
    r = {}
    for l in open(f):
        x = l.split()
        if len(x) >= 8:
            r.setdefault(x[0], []).append([float(y) for y in x[2:]])
    for k, v in r.items():
        print(k, *("%.3f" % statistics.median(x[i] for x in v) for i in range(6)))
PY
