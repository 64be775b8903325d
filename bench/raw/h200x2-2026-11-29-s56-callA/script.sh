#!/usr/bin/env bash
# session 56 call A (two H200s): k-cliques of one part shared by two GPUs
# (gpu76 = HEAD 3165df9) against --gpu 0, round by round (round 0 a
# warm-up); R-MAT 22 K=5 and K=4, R-MAT 20 K=6; then multi.sh lstc and
# arrival on both GPUs with the rest of the call.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W $OUT/j
N=.carry/gpu76
nvidia-smi -L
$N/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
$N/tristream-gen --quiet --seed 1 rmat --scale 20 $W/r20.tsg
cat $W/*.tsg > /dev/null
run() { # label args...
	local l=$1; shift
	local s=$(date +%s.%N)
	timeout 120 $N/tristream count --json "$@" > $OUT/j/$l.json 2> $OUT/j/$l.err
	echo "rc=$? wall=$(python3 -c "print($(date +%s.%N) - $s)")" > $OUT/j/$l.time
}
for r in 0 1 2 3; do
	TSG_OPEN_PROFILE=1 run k5two-$r --k 5 --gpus 2 $W/r22.tsg
	run k5one-$r --k 5 --gpu 0 $W/r22.tsg
	run k4two-$r --k 4 --gpus 2 $W/r22.tsg
	run k4one-$r --k 4 --gpu 0 $W/r22.tsg
	if [ $r -ge 2 ]; then
		TSG_OPEN_PROFILE=1 run k6two-$r --k 6 --gpus 2 $W/r20.tsg
		run k6one-$r --k 6 --gpu 0 $W/r20.tsg
	fi
done
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
    if r == '0': continue  # warm-up round
    st = d.get('stages', {})
    g = d.get('gpus') or []
    rows.setdefault(key, []).append((float(t[1].split('=')[1]), t[0], d.get('cliques'), d.get('seconds'), st.get('count_wall'), st.get('build'), d.get('clique_share'), [(x.get('index'), x.get('units'), round(x.get('busy_s', 0), 2)) for x in g], d.get('note', '')[:500]))
print('label   whole-median (runs) | rc | cliques | own | count_wall | build | clique_share | gpus')
for k, v in rows.items():
    w = [x[0] for x in v]
    print('%-7s %.2f (%s) | %s | %s | %s | %s | %s | %s | %s' % (k, statistics.median(w), ' '.join('%.2f' % x for x in w), set(x[1] for x in v), set(x[2] for x in v), [x[3] for x in v], [x[4] for x in v], [x[5] for x in v], v[0][6], v[0][7]))
    print('   note:', v[0][8])
PY
grep -h . $OUT/j/k5two-1.err | head -40 > $OUT/profile-k5two-1.txt
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
BUILD=gpu76 OUT=$OUT LIMIT=$(( ${CALL_LIMIT:-560} - ($(date +%s) - T0) )) LANES="0,1:multi-lstc,multi-arrival" bash .carry/lanes.sh
