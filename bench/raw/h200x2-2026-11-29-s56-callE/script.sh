#!/usr/bin/env bash
# session 56 call E (two H200s): the final code (gpu78: guided launches,
# the race beside the open) --gpus 2 against --gpu 0, round by round
# (round 0, K = 5 only, a warm-up).
set -u
W=/tmp/w; mkdir -p $W $OUT/j
N=.carry/gpu78
nvidia-smi -L
$N/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
$N/tristream-gen --quiet --seed 1 rmat --scale 20 $W/r20.tsg
cat $W/*.tsg > /dev/null
run() { # label args...
	local l=$1; shift
	local s=$(date +%s.%N)
	TSG_OPEN_PROFILE=1 timeout 60 $N/tristream count --json "$@" > $OUT/j/$l.json 2> $OUT/j/$l.err
	echo "rc=$? wall=$(python3 -c "print($(date +%s.%N) - $s)")" > $OUT/j/$l.time
}
for r in 0 1 2; do
	run k5two-$r --k 5 --gpus 2 $W/r22.tsg
	run k5one-$r --k 5 --gpu 0 $W/r22.tsg
	[ $r = 0 ] && continue
	run k6two-$r --k 6 --gpus 2 $W/r20.tsg
	run k6one-$r --k 6 --gpu 0 $W/r20.tsg
	run k4two-$r --k 4 --gpus 2 $W/r22.tsg
	run k4one-$r --k 4 --gpu 0 $W/r22.tsg
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
    g = d.get('gpus') or []
    rows.setdefault(key, []).append((float(t[1].split('=')[1]), t[0], d.get('cliques'), st.get('count_wall'), st.get('plan'), d.get('clique_share'), [(x.get('index'), x.get('units'), round(x.get('busy_s', 0), 2)) for x in g]))
print('label   whole (runs) | rc | cliques | count_wall | plan | clique_share | gpus')
for k, v in sorted(rows.items()):
    print('%-7s %s | %s | %s | %s | %s | %s | %s' % (k, ' '.join('%.2f' % x[0] for x in v), set(x[1] for x in v), set(x[2] for x in v), ' '.join('%.2f' % (x[3] or 0) for x in v), ' '.join('%.2f' % (x[4] or 0) for x in v), v[0][5], v[0][6]))
PY
grep -h "slot\|held" $OUT/j/k6two-1.err > $OUT/profile-k6two-1.txt
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
