#!/bin/bash
# OUT=DIR bench/webgraph_billion_stages.sh [OLD_BUILD=.carry/gpu-mpi] [NEW_BUILD=.carry/new]: the billion-edge crawl (web 2^27, written by --to
# webgraph, its transpose a copy) counted cold on the GPU by two builds, twice each,
# alternating: wall time, max RSS, the JSON seconds, input and stages.
exec > >(tee $OUT/billion-stages.txt) 2>&1
O=${1:-.carry/gpu-mpi} N=${2:-.carry/new}
W=/tmp/wb; mkdir -p $W
t=$(date +%s.%N); $N/tristream-gen --quiet web --vertices $((1 << 27)) --seed 1 $W/web27.tsg; echo "gen $(python3 -c "print(round($(date +%s.%N)-$t,1))") s"
t=$(date +%s.%N); $N/tristream-convert --quiet --to webgraph $W/web27.tsg $W/web27; echo "writer $(python3 -c "print(round($(date +%s.%N)-$t,1))") s"
for e in graph offsets properties; do rm -f $W/web27-t.$e; cp $W/web27.$e $W/web27-t.$e; done
rm -f $W/web27.tsg
for run in 1 2; do for b in old new; do
B=$O; [ $b = new ] && B=$N
sync; echo 3 >/proc/sys/vm/drop_caches
python3 -c '
import resource, subprocess, sys, time
t = time.time()
rc = subprocess.call(sys.argv[1:], stdout=open(sys.argv[0] if False else "/tmp/wb/out.json", "w"), stderr=open("/tmp/wb/err.txt", "w"))
print("rc", rc, "wall %.3f s" % (time.time() - t), "max rss %d MB" % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024))
' $B/tristream count --json --device gpu $W/web27; cp /tmp/wb/out.json $W/$b.json; cp /tmp/wb/err.txt $W/$b.err
python3 -c '
import json,sys; d=json.load(open(sys.argv[1]))
print(sys.argv[2], "triangles", d["triangles"], "json seconds", round(d["seconds"],3), "input", round(d["input"]["seconds"],3), "layout", d["layout"])
print("  stages", {k: round(v,3) for k,v in d["stages"].items()})' $W/$b.json $b
grep -v "^tristream: [0-9]" $W/$b.err | tail -12
done; done
