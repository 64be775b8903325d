#!/bin/bash
# session 30, call A: the gsh-2015-sized crawl of the new generator
# (--edge-factor 48, 3.66 bits a link at 1 M pages) made on a 32-core host,
# then counted from cold files on ONE GPU with 16 cores (taskset), --host-mem 100G
set -u
G=$(pwd)/.carry/gpu2; W=/tmp/w; mkdir -p $W; L=$OUT/log.txt
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
exec >>$L 2>&1
echo "start $(date -u +%FT%TZ)"; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2; df -h /tmp | tail -1
sha256sum $G/tristream $G/tristream-gen | cut -c1-16
cat /proc/self/cgroup
s=$(date +%s.%N)
timeout 330 /usr/bin/time -v $G/tristream-gen --seed 1 --edge-factor 48 --webgraph crawl --vertices 1000000000 $W/g1g 2>$OUT/gen.err
rc=$?
echo "gen rc=$rc $(python3 -c "import time; print(round(time.time()-$s,1))") s"; tail -25 $OUT/gen.err; ls -la $W; cp $W/g1g.properties $W/g1g-t.properties $OUT/ 2>/dev/null
[ $rc -eq 0 ] || exit 0
sync; echo 3 > /proc/sys/vm/drop_caches; free -g | head -2
rel=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup); cg=/sys/fs/cgroup$rel/tsgbig
if mkdir -p $cg 2>/dev/null && echo $((100<<30)) > $cg/memory.max 2>/dev/null; then echo "cgroup $cg: memory.max $(cat $cg/memory.max)"; else echo "cgroup: none (memory.max not writable)"; cg=; fi
left=$(( 585 - ($(date +%s) - t0) ))
echo "count with $left s left"
s=$(date +%s.%N)
timeout $left sh -c "[ -n '$cg' ] && echo \$\$ > $cg/cgroup.procs; exec /usr/bin/time -v taskset -c 0-15 $G/tristream count --json --device gpu --gpu 0 --host-mem 100G $W/g1g" > $OUT/count.json 2> $OUT/count.err
echo "count rc=$? $(python3 -c "import time; print(round(time.time()-$s,1))") s"; grep -E "Elapsed|Maximum resident" $OUT/count.err
[ -n "$cg" ] && cat $cg/memory.peak 2>/dev/null
python3 -c "import json; j=json.load(open('$OUT/count.json')); print({k: j.get(k) for k in ('triangles','vertices','edges','seconds','layout','note','device_name','threads')})"
echo "end $(date -u +%FT%TZ)"
