#!/bin/bash
# session 28, call A: tests/gpu/oriented.sh on the final build of session 27
# (8ee7d93), then per-kernel device times (ncu) of 16 columns against one
# unit on the oriented R-MAT 26, warm.
set -u
G=.carry/gpu; W=/tmp/rs; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $G/tristream | cut -c1-16; which ncu; } > $OUT/info.txt
timeout 200 bash tests/gpu/oriented.sh $G .carry/data > $OUT/oriented-gpu.txt 2>&1; echo "oriented.sh exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
$G/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg && $G/tristream-convert --quiet --oriented $W/r26.tsg $W/r26.o.tsg
rm -f $W/r26.tsg
echo "made at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
F=$W/r26.o.tsg; cat $F > /dev/null
for c in 16 off; do
  $G/tristream count --quiet --json --overlap $c $F > $OUT/plain-$c.json 2>&1
  timeout 150 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv --print-units base \
     --log-file $W/ncu-$c.csv $G/tristream count --quiet --json --overlap $c $F > $OUT/ncu-$c.json 2>$W/ncu-$c.err
  echo "ncu $c exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
  tail -3 $W/ncu-$c.err >> $OUT/info.txt
done
python3 - $W/ncu-16.csv $W/ncu-off.csv > $OUT/kernels.txt <<'PY'
import csv, sys, collections, io
for f in sys.argv[1:]:
    txt = open(f).read()
    i = txt.find('"ID"')
    rows = list(csv.DictReader(io.StringIO(txt[i:]))) if i >= 0 else []
    agg = collections.OrderedDict()
    for r in rows:
        if r.get("Metric Name") != "gpu__time_duration.sum": continue
        k = r["Kernel Name"].split("(")[0][:60]
        n, t = agg.get(k, (0, 0.0)); agg[k] = (n + 1, t + float(r["Metric Value"].replace(",", "")) / 1e9)
    print("==", f, "kernels", len(rows), "total %.3f s" % sum(t for n, t in agg.values()))
    for k, (n, t) in sorted(agg.items(), key=lambda x: -x[1][1]):
        print("%-62s %6d %8.4f" % (k, n, t))
PY
cp $W/ncu-16.csv $W/ncu-off.csv $OUT/ 2>/dev/null; gzip $OUT/ncu-*.csv
cat $OUT/info.txt; grep -E "FAIL|passed" $OUT/oriented-gpu.txt | tail -4; cat $OUT/kernels.txt | head -60
