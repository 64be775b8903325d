#!/usr/bin/env bash
# session 56 call B (one H200): why R-MAT 20's 6-cliques shared on two
# GPUs (32 pieces) took 40% more GPU time than one launch while 16 pieces
# on one GPU took 7% more: piece size? (one H200: 16 and 32 pieces on it)
set -u
W=/tmp/w; mkdir -p $W $OUT/j
N=.carry/gpu76
$N/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
$N/tristream-gen --quiet --seed 1 rmat --scale 20 $W/r20.tsg
cat $W/*.tsg > /dev/null
run() { # label env... -- args...
	local l=$1; shift
	local s=$(date +%s.%N)
	env TSG_OPEN_PROFILE=1 "$@" > $OUT/j/$l.json 2> $OUT/j/$l.err
	echo "rc=$? wall=$(python3 -c "print($(date +%s.%N) - $s)")" > $OUT/j/$l.time
}
C="$N/tristream count --json"
for k in 6 5; do
	f=$W/r20.tsg; [ $k = 5 ] && f=$W/r22.tsg
	run k$k-one $C --k $k --gpu 0 $f
	run k$k-p16 TSG_TEST_CLIQUE_SHARE=pieces $C --k $k --gpu 0 $f
	run k$k-p32 TSG_TEST_CLIQUE_SHARE=pieces TRISTREAM_TEST_GPU_REPEAT=1 $C --k $k --gpus 0,0 $f


done
python3 - <<'PY' | tee $OUT/table.txt
import json, glob, os
for f in sorted(glob.glob(os.environ['OUT'] + '/j/*.json')):
    l = os.path.basename(f)[:-5]
    t = open(f[:-5] + '.time').read().split()
    try: d = json.load(open(f))
    except Exception: d = {}
    st = d.get('stages', {})
    print('%-9s %s %s cliques %s count_wall %s count %s share %s gpus %s' % (l, t[0], t[1], d.get('cliques'), st.get('count_wall'), st.get('count'), d.get('clique_share'), [(x.get('index'), x.get('units'), round(x.get('busy_s', 0), 2)) for x in d.get('gpus') or []]))
PY
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
