#!/usr/bin/env bash
# session 55 call C (one H200; the two-GPU kind was withdrawn): the shared
# k-clique part on two contexts of GPU 0 (multi.sh ONLY=lstc, gpu70); and
# the first piece then the rest in one launch against one launch, K = 4.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W $OUT/j
O=.carry/gpu69 N=.carry/gpu70
export TRISTREAM_TEST_GPU_REPEAT=1
$N/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
cat $W/*.tsg > /dev/null
run() { # label bin args...
	local l=$1 b=$2; shift 2
	local s=$(date +%s.%N)
	timeout 120 $b/tristream count --json "$@" > $OUT/j/$l.json 2> $OUT/j/$l.err
	echo "rc=$? wall=$(python3 -c "print($(date +%s.%N) - $s)")" > $OUT/j/$l.time
}
for r in 0 1 2; do
	run k4-old00-$r $O --k 4 --gpus 0,0 $W/r22.tsg
	run k4-new00-$r $N --k 4 --gpus 0,0 $W/r22.tsg
	run k4-new0-$r $N --k 4 --gpu 0 $W/r22.tsg
done
run k5-new00-0 $N --k 5 --gpus 0,0 $W/r22.tsg
run k5-new0-0 $N --k 5 --gpu 0 $W/r22.tsg
TSG_TEST_CLIQUE_SHARE=1 run k4-sh00-0 $N --k 4 --gpus 0,0 $W/r22.tsg
echo "runs $(( $(date +%s) - T0 ))s"
python3 - <<'PY' | tee $OUT/table.txt
import json, glob, os, statistics
rows = {}
for f in sorted(glob.glob(os.environ['OUT'] + '/j/*.json')):
    l = os.path.basename(f)[:-5]
    t = open(f[:-5] + '.time').read().split()
    try: d = json.load(open(f))
    except Exception: d = {}
    key = l.rsplit('-', 1)[0]
    g = d.get('gpus') or []
    rows.setdefault(key, []).append((float(t[1].split('=')[1]), t[0], d.get('cliques'), d.get('seconds'), d.get('stages', {}).get('count_wall'), [(x['index'], x['units'], round(x.get('busy_s', 0), 2)) for x in g], d.get('note', '')[:500]))
for k, v in rows.items():
    w = [x[0] for x in v]
    print('%-10s whole %.2f (%s) rc %s cliques %s own %s count_wall %s gpus %s' % (k, statistics.median(w), ' '.join('%.2f' % x for x in w), set(x[1] for x in v), set(x[2] for x in v), [x[3] for x in v], [x[4] for x in v], v[0][5]))
    print('   note:', v[0][6])
PY
head -c 600 $OUT/j/k4-sh00-0.err
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
unset TRISTREAM_TEST_GPU_REPEAT
BUILD=gpu70 OUT=$OUT LIMIT=$(( 560 - ($(date +%s) - T0) )) LANES="0:multi-lstc" bash .carry/lanes.sh
