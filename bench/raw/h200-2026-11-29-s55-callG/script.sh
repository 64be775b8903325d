#!/usr/bin/env bash
# session 55 call G (one H200): the short k-clique count under --gpus
# (R-MAT 22, K = 4): gpu73 (first pieces, then the rest in one launch)
# against gpu69 (one launch) and --gpu 0, on "GPUs 0,0" (two contexts
# of GPU 0, as tests do: the second is never opened for a short count).
set -u
W=/tmp/w; mkdir -p $W $OUT/j
O=.carry/gpu69 N=.carry/gpu73
export TRISTREAM_TEST_GPU_REPEAT=1
$N/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
cat $W/*.tsg > /dev/null
run() { # label bin args...
	local l=$1 b=$2; shift 2
	local s=$(date +%s.%N)
	timeout 120 $b/tristream count --json "$@" > $OUT/j/$l.json 2> $OUT/j/$l.err
	echo "rc=$? wall=$(python3 -c "print($(date +%s.%N) - $s)")" > $OUT/j/$l.time
}
for r in 0 1 2 3 4; do
	run k4-new00-$r $N --k 4 --gpus 0,0 $W/r22.tsg
	run k4-old00-$r $O --k 4 --gpus 0,0 $W/r22.tsg
	run k4-new0-$r $N --k 4 --gpu 0 $W/r22.tsg
done
python3 - <<'PY' | tee $OUT/table.txt
import json, glob, os, statistics
rows = {}
for f in sorted(glob.glob(os.environ['OUT'] + '/j/*.json')):
    l = os.path.basename(f)[:-5]
    t = open(f[:-5] + '.time').read().split()
    try: d = json.load(open(f))
    except Exception: d = {}
    key, r = l.rsplit('-', 1)
    if r == '0': continue
    st = d.get('stages', {})
    rows.setdefault(key, []).append((float(t[1].split('=')[1]), t[0], d.get('cliques'), d.get('seconds'), st.get('count_wall'), st.get('count'), st.get('build'), d.get('clique_share'), d.get('note', '')[:400]))
for k, v in rows.items():
    w = [x[0] for x in v]
    print('%-9s whole %.2f (%s) | %s | %s | own %s | count_wall %s | count %s | build %s | %s' % (k, statistics.median(w), ' '.join('%.2f' % x for x in w), set(x[1] for x in v), set(x[2] for x in v), [x[3] for x in v], [x[4] for x in v], [x[5] for x in v], [x[6] for x in v], v[0][7]))
    print('   note:', v[0][8])
PY
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
