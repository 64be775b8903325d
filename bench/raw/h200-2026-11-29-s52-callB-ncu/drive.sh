#!/usr/bin/env bash
# session 52 call B: where the device's time goes in R-MAT 26 at a quarter,
# warm, one GPU: every kernel's duration (ncu, gpu__time_duration, kernels
# serialised) summed by name; and the groups' pair launches timed alone
# (TSG_ARRIVAL_GROUP_PROFILE=1).
set -u
T0=$(date +%s)
W=/tmp/w; mkdir -p $W
B=$(pwd)/.carry/${BUILD:-gpu63}
[ -f $W/r26.tsg ] || $B/tristream-gen --quiet --seed 1 rmat --scale 26 $W/r26.tsg || exit 1
echo "gen done at $(( $(date +%s) - T0 ))s" >> $OUT/b.txt
Q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
cat $W/r26.tsg > /dev/null
for i in 1 2; do
	TSG_OPEN_PROFILE=1 TSG_ARRIVAL_GROUP_PROFILE=1 $B/tristream count --json --quiet --gpu 0 --gpu-mem $Q $W/r26.tsg > $W/p.json 2> $W/p.err
	echo "profile=1 run $i rc=$? $(python3 -c "import json; d=json.load(open('$W/p.json')); s=d['stages']; print(d['triangles'], 'seconds', d['seconds'], 'count', s.get('count'), 'tail', s.get('arrival_tail'))")" >> $OUT/b.txt
	grep -E "groups profile|open profile: arrival" $W/p.err >> $OUT/b.txt
done
echo "ncu from $(( $(date +%s) - T0 ))s: $(command -v ncu)" >> $OUT/b.txt
timeout 400 ncu --metrics gpu__time_duration.sum --csv --print-units base --log-file $W/ncu.csv \
	$B/tristream count --json --quiet --gpu 0 --gpu-mem $Q $W/r26.tsg > $W/n.json 2> $W/n.err
echo "ncu rc=$? at $(( $(date +%s) - T0 ))s" >> $OUT/b.txt
head -c 300 $W/n.json >> $OUT/b.txt; tail -3 $W/n.err >> $OUT/b.txt
python3 - $W/ncu.csv >> $OUT/b.txt <<'PY'
import csv, sys, collections
rows = []
with open(sys.argv[1]) as f:
    lines = [l for l in f if l.startswith('"')]
r = csv.DictReader(lines)
tot = collections.defaultdict(float); n = collections.Counter()
for row in r:
    if row.get('Metric Name') != 'gpu__time_duration.sum': continue
    name = row['Kernel Name']
    short = name.split('(')[0].split('<')[0].replace('void ', '')
    if 'cub' in name.lower(): short = 'cub:' + name.split('<')[0].split('::')[-1][:40]
    tot[short] += float(row['Metric Value'].replace(',', '')) / 1e6
    n[short] += 1
all_ = sum(tot.values())
print('kernels total %.1f ms in %d launches' % (all_, sum(n.values())))
for k, v in sorted(tot.items(), key=lambda x: -x[1]):
    print('%10.1f ms %6d  %s' % (v, n[k], k))
PY
gzip -c $W/ncu.csv > $OUT/ncu.csv.gz
echo "done at $(( $(date +%s) - T0 ))s" >> $OUT/b.txt
cat $OUT/b.txt
