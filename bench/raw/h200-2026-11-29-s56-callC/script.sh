#!/usr/bin/env bash
# session 56 call C (one H200): the share's guided launches (gpu77) set
# against one launch (gpu76 = 3165df9, the same code there), on the one
# GPU: TSG_TEST_CLIQUE_SHARE=pieces with --gpu 0 (16 pieces, a GPU listed)
# and with --gpus 0,0 (32 pieces, as two GPUs deal them, all on GPU 0);
# two rounds, interleaved; then multi.sh ONLY=lstc on gpu77.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W $OUT/j
O=.carry/gpu76 N=.carry/gpu77
$N/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
$N/tristream-gen --quiet --seed 1 rmat --scale 20 $W/r20.tsg
cat $W/*.tsg > /dev/null
run() { # label env... args...
	local l=$1; shift
	local s=$(date +%s.%N)
	env TSG_OPEN_PROFILE=1 "$@" > $OUT/j/$l.json 2> $OUT/j/$l.err
	echo "rc=$? wall=$(python3 -c "print($(date +%s.%N) - $s)")" > $OUT/j/$l.time
}
for r in 1 2; do
	for k in 6 5; do
		f=$W/r20.tsg; [ $k = 5 ] && f=$W/r22.tsg
		run k$k-one-$r $O/tristream count --json --k $k --gpu 0 $f
		run k$k-g16-$r TSG_TEST_CLIQUE_SHARE=pieces $N/tristream count --json --k $k --gpu 0 $f
		run k$k-g32-$r TSG_TEST_CLIQUE_SHARE=pieces TRISTREAM_TEST_GPU_REPEAT=1 $N/tristream count --json --k $k --gpus 0,0 $f
	done
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
    st = d.get('stages', {})
    rows.setdefault(key, []).append((float(t[1].split('=')[1]), t[0], d.get('cliques'), st.get('count_wall'), d.get('clique_share')))
for k, v in rows.items():
    print('%-7s whole %s | %s | cliques %s | count_wall %s | %s' % (k, ' '.join('%.2f' % x[0] for x in v), set(x[1] for x in v), set(x[2] for x in v), ' '.join('%.2f' % (x[3] or 0) for x in v), v[0][4]))
PY
grep -h "slot" $OUT/j/k6-g32-1.err > $OUT/profile-k6-g32-1.txt
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
BUILD=gpu77 OUT=$OUT LIMIT=$(( ${CALL_LIMIT:-560} - ($(date +%s) - T0) )) LANES="0:multi-lstc" bash .carry/lanes.sh
