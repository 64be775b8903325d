#!/usr/bin/env bash
# side by side: host-built rows (old) vs device orientation (new), R-MAT 22/24/25, O_DIRECT uring
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
B=build-gpu; O=.carry/old/tristream; T=/tmp/q6; mkdir -p $T $OUT
j() { python3 -c 'import json,sys; t=sys.stdin.read()
try:
  j=json.loads(t); s=j["stages"]; print(j["triangles"], j["layout"], j.get("batches"), "total %.3f"%j["seconds"], "device %.3f"%s["count"], "tail %.3f"%s.get("arrival_tail",0), "rows %.3f"%s.get("arrival_rows",0), "begin->rows %.3f"%(s["build"]-s.get("arrival_rows",0)-s.get("arrival_tail",0)), "pin %s"%(j.get("lists_pinned_bytes")==j.get("lists_bytes")))
except Exception: print("ERR", t[-600:])'; }
for s in 22 24 25; do
  "$B/tristream-gen" --quiet rmat --scale $s --seed 1 $T/r$s.tsg
  "$B/tristream" compress --quiet $T/r$s.tsg $T/z$s.tsg
  for i in 1 2 3; do
    echo "r$s new:   $("$B/tristream" count --quiet --json --device gpu $T/r$s.tsg | j)"
    echo "r$s old:   $("$O" count --quiet --json --device gpu $T/r$s.tsg | j)"
    echo "r$s block: $("$B/tristream" count --quiet --json --device gpu --layout block $T/r$s.tsg | j)"
  done
  echo "z$s new lz4: $("$B/tristream" count --quiet --json --device gpu $T/z$s.tsg | j)"
  echo "z$s old lz4: $("$O" count --quiet --json --device gpu $T/z$s.tsg | j)"
  "$B/tristream" count --quiet --json --device gpu $T/r$s.tsg > $OUT/new$s.json
  rm -f $T/z$s.tsg
done
