#!/bin/bash
# The 1 G-page crawl (about 34.7 G arcs): generated in bounded memory, then
# counted from cold files by the sweep, the process held to 100 GiB (cgroup).
set -u
G=$(pwd)/.carry/gpu; W=/tmp/w; L=$W/log.txt; mkdir -p $W
exec >>$L 2>&1
echo "start $(date -u +%FT%TZ)"; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; free -g | head -2; df -h /tmp | tail -1
sha256sum $G/tristream $G/tristream-gen
s=$(date +%s.%N)
/usr/bin/time -v $G/tristream-gen --seed 1 --edge-factor 64 --webgraph crawl --vertices 1000000000 $W/g1g 2>$W/gen.err
echo "gen rc=$? $(python3 -c "import time; print(round(time.time()-$s,1))") s"; tail -30 $W/gen.err; ls -la $W; cat $W/g1g.properties | head -12
sync; echo 3 > /proc/sys/vm/drop_caches; free -g | head -2
# a child memory cgroup of 100 GiB (v1 or v2), else run without one and say so
rel=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup); cg=
if [ -n "$rel" ] && mkdir -p /sys/fs/cgroup/memory$rel/tsgbig 2>/dev/null; then cg=/sys/fs/cgroup/memory$rel/tsgbig; echo $((100<<30)) > $cg/memory.limit_in_bytes
else rel=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup); base=/sys/fs/cgroup; [ -d /sys/fs/cgroup/unified ] && base=/sys/fs/cgroup/unified
  if mkdir -p $base$rel/tsgbig 2>/dev/null; then cg=$base$rel/tsgbig; echo $((100<<30)) > $cg/memory.max; fi; fi
echo "cgroup: ${cg:-none}"; cat $cg/memory.limit_in_bytes $cg/memory.max 2>/dev/null
s=$(date +%s.%N)
sh -c "[ -n '$cg' ] && echo \$\$ > $cg/cgroup.procs; exec /usr/bin/time -v $G/tristream count --json --device gpu $W/g1g" > $W/count.json 2> $W/count.err
echo "count rc=$? $(python3 -c "import time; print(round(time.time()-$s,1))") s"; tail -40 $W/count.err
cat $cg/memory.max_usage_in_bytes $cg/memory.peak 2>/dev/null
python3 -c "import json; j=json.load(open('$W/count.json')); print({k: j.get(k) for k in ('triangles','vertices','edges','passes','chunks','block_bytes','seconds','stages','sweep','note','device_name')})"
echo "end $(date -u +%FT%TZ)"
