#!/bin/bash
# session 37, call A (one GPU): where the time outside the JSON's seconds
# goes (a throwaway build, .carry/exp, HEAD 8efb842 + timestamps on stderr
# under TSG_TRACE and a TSG_FAST_EXIT that flushes stdout and _exits after
# the report), and whether leaving without freeing shortens the process.
# R-MAT 26: cold --host-mem 4G (5 rounds: dd, normal, fast), warm default
# (5 rounds: normal, fast).
set -u
E=$(pwd)/.carry/exp; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; sha256sum $E/tristream | cut -c1-16; } > $OUT/info.txt
s=$(date +%s); $E/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s" >> $OUT/info.txt
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; for f in $E/tristream /usr/local/cuda/lib64/libcudart.so* $(ldconfig -p | sed -n 's/.*=> \(.*libcuda.so.1\)$/\1/p'); do cat $f > /dev/null 2>&1; done; }
one() { # name, fast(0/1), then options
  local name=$1 fast=$2; shift 2
  if [ $fast = 1 ]; then export TSG_FAST_EXIT=1; else unset TSG_FAST_EXIT; fi
  s=$EPOCHREALTIME; TSG_TRACE=1 $E/tristream count --quiet --json --device gpu "$@" $W/r26.tsg > $W/$name.json 2>$W/$name.err; rc=$?; e=$EPOCHREALTIME
  unset TSG_FAST_EXIT
  python3 - "$name" $rc $s $e $W/$name.json $W/$name.err >> $OUT/runs.txt 2>&1 <<'PY'
import json,sys
name,rc,s,e,jf,ef=sys.argv[1:]
s=float(s); e=float(e)
d=json.load(open(jf))
tr=[l.split() for l in open(ef) if l.startswith('TRACE ')]
marks=' '.join('%s=%.3f'%(w,float(t)-s) for _,w,t in tr)
print('%-12s rc=%s whole=%.3f seconds=%.3f ok=%s %s exit=%.3f'%(name,rc,e-s,d['seconds'],d['triangles']==49154930897,marks,e-s))
PY
}
for i in 1 2 3 4 5; do
  drop; dd if=$W/r26.tsg of=/dev/null bs=64M iflag=direct 2>&1 | tail -1 | sed "s/^/dd-$i: /" >> $OUT/runs.txt
  drop; one hm-norm-$i 0 --host-mem 4G --scratch-dir $W
  drop; one hm-fast-$i 1 --host-mem 4G --scratch-dir $W
done
cat $W/r26.tsg > /dev/null
one warm-0 0
for i in 1 2 3 4 5; do one warm-norm-$i 0; one warm-fast-$i 1; done
tar czf $OUT/runs.tgz -C $W $(cd $W && ls *.json *.err)
cat $OUT/info.txt $OUT/runs.txt
