#!/usr/bin/env bash
# session 56 call D (one H200): k-cliques' host setup (order, race) beside
# the GPU's open (gpu78) against after it (gpu77), round by round after a
# warm-up; then tests/gpu clique (early part), multi.sh lstc and the clique
# sanitizer on gpu78 with the rest of the call.
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W $OUT/j
O=.carry/gpu77 N=.carry/gpu78
$N/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
$N/tristream-gen --quiet --seed 1 rmat --scale 20 $W/r20.tsg
cat $W/*.tsg > /dev/null
run() { # label bin args...
	local l=$1 b=$2; shift 2
	local s=$(date +%s.%N)
	TSG_OPEN_PROFILE=1 $b/tristream count --json "$@" > $OUT/j/$l.json 2> $OUT/j/$l.err
	echo "rc=$? wall=$(python3 -c "print($(date +%s.%N) - $s)")" > $OUT/j/$l.time
}
for r in 0 1 2 3; do
	for b in old new; do
		B=$O; [ $b = new ] && B=$N
		run k5-$b-$r $B --k 5 --gpu 0 $W/r22.tsg
		run k4-$b-$r $B --k 4 --gpu 0 $W/r22.tsg
		run k4r20-$b-$r $B --k 4 --gpu 0 $W/r20.tsg
	done
done
echo "runs $(( $(date +%s) - T0 ))s"
python3 - <<'PY' | tee $OUT/table.txt
import json, glob, os, statistics, re
rows = {}
for f in sorted(glob.glob(os.environ['OUT'] + '/j/*.json')):
    l = os.path.basename(f)[:-5]
    t = open(f[:-5] + '.time').read().split()
    try: d = json.load(open(f))
    except Exception: d = {}
    key, r = l.rsplit('-', 1)
    if r == '0': continue
    st = d.get('stages', {})
    err = open(f[:-5] + '.err').read()
    m = re.search(r'first GPU opened at ([0-9.]+)', err)
    rows.setdefault(key, []).append((float(t[1].split('=')[1]), t[0], d.get('cliques'), st.get('plan'), float(m.group(1)) if m else None, d.get('clique_method_chosen')))
print('label      whole median (runs) | rc | cliques | plan | GPU opened at | method')
for k, v in sorted(rows.items()):
    w = [x[0] for x in v]
    print('%-10s %.2f (%s) | %s | %s | %s | %s | %s' % (k, statistics.median(w), ' '.join('%.2f' % x for x in w), set(x[1] for x in v), set(x[2] for x in v), ' '.join('%.2f' % x[3] for x in v if x[3] is not None), ' '.join('%.2f' % x[4] for x in v if x[4] is not None), set(x[5] for x in v)))
PY
rm -rf $W
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
BUILD=gpu78 OUT=$OUT LIMIT=$(( ${CALL_LIMIT:-560} - ($(date +%s) - T0) )) LANES="0:clique-sanitizer,multi-lstc,clique-early" bash .carry/lanes.sh
