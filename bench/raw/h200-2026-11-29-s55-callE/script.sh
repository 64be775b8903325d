#!/usr/bin/env bash
# session 55 call E (one H200): k-cliques of one part, one launch against
# pieces on the one GPU (TSG_TEST_CLIQUE_SHARE=pieces, gpu72), round by
# round; R-MAT 22 K = 4, 5; R-MAT 20 K = 6; the CPU's R-MAT 22 K = 5.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W $OUT/j
N=.carry/gpu72
$N/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
$N/tristream-gen --quiet --seed 1 rmat --scale 20 $W/r20.tsg
cat $W/*.tsg > /dev/null
run() { # label env args...
	local l=$1 e=$2; shift 2
	local s=$(date +%s.%N)
	env $e timeout 120 $N/tristream count --json "$@" > $OUT/j/$l.json 2> $OUT/j/$l.err
	echo "rc=$? wall=$(python3 -c "print($(date +%s.%N) - $s)")" > $OUT/j/$l.time
}
for r in 0 1 2; do
	run k5-one-$r X=0 --k 5 --gpu 0 $W/r22.tsg
	run k5-pieces-$r TSG_TEST_CLIQUE_SHARE=pieces --k 5 --gpu 0 $W/r22.tsg
	run k4-one-$r X=0 --k 4 --gpu 0 $W/r22.tsg
	run k4-pieces-$r TSG_TEST_CLIQUE_SHARE=pieces --k 4 --gpu 0 $W/r22.tsg
done
run k6-pieces-0 TSG_TEST_CLIQUE_SHARE=pieces --k 6 --gpu 0 $W/r20.tsg
echo "runs $(( $(date +%s) - T0 ))s"
python3 - <<'PY' | tee $OUT/table.txt
import json, glob, os, statistics
rows = {}
for f in sorted(glob.glob(os.environ['OUT'] + '/j/*.json')):
    l = os.path.basename(f)[:-5]
    t = open(f[:-5] + '.time').read().split()
    try: d = json.load(open(f))
    except Exception: d = {}
    key, r = l.rsplit('-', 1)
    st = d.get('stages', {})
    rows.setdefault(key, []).append((float(t[1].split('=')[1]), t[0], d.get('cliques'), d.get('seconds'), st.get('count_wall'), st.get('count'), st.get('build'), d.get('clique_share'), d.get('kernel'), r))
for k, v in rows.items():
    vv = [x for x in v if x[9] != '0'] or v
    w = [x[0] for x in vv]
    print('%-10s whole %.2f (%s) rc %s cliques %s count_wall %s count %s build %s share %s %s' % (k, statistics.median(w), ' '.join('%.2f' % x for x in w), set(x[1] for x in v), set(x[2] for x in v), [x[4] for x in vv], [x[5] for x in vv], [x[6] for x in vv], v[0][7], v[0][8]))
PY
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
BUILD=gpu72 OUT=$OUT LIMIT=$(( 500 - ($(date +%s) - T0) )) LANES="0:multi-lstc" bash .carry/lanes.sh
