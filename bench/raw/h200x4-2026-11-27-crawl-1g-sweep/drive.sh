#!/bin/bash
# session 30, call C (four GPUs, 64 cores, 512 GiB; 395 s of the session's device time left): the gsh-2015-sized crawl
# (edge factor 48) made on every core, then counted by two routes:
#  1. the sweep of 37b0663 (a pass sweeps only the chunks after its block;
#     offsets decoded on every thread)
#     from cold files on ONE GPU with 16 cores (taskset), --host-mem 100G
#  2. in memory: the crawl decoded whole and merged, oriented on the host,
#     the block layout's units on every GPU (--layout block --gpus all)
set -u
N=$(pwd)/.carry/gpu3; W=/tmp/w; mkdir -p $W; L=$OUT/log.txt
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
exec >>$L 2>&1
echo "start $(date -u +%FT%TZ)"; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2; df -h /tmp | tail -1
sha256sum $N/tristream $N/tristream-gen | cut -c1-16
s=$(date +%s.%N)
timeout 200 /usr/bin/time -v $N/tristream-gen --seed 1 --edge-factor 48 --webgraph crawl --vertices 1000000000 $W/g1g 2>$OUT/gen.err
rc=$?
echo "gen rc=$rc $(python3 -c "import time; print(round(time.time()-$s,1))") s"; grep -E "pages,|Elapsed|Maximum" $OUT/gen.err; ls -la $W
[ $rc -eq 0 ] || exit 0
sha256sum $W/g1g.properties $W/g1g-t.properties | cut -c1-16
sync; echo 3 > /proc/sys/vm/drop_caches; free -g | head -2
left=$(( 395 - ($(date +%s) - t0) ))
echo "route 1 (sweep, one GPU, 16 cores, cold) with $left s left"
s=$(date +%s.%N)
timeout $left /usr/bin/time -v taskset -c 0-15 $N/tristream count --json --device gpu --gpu 0 --host-mem 100G $W/g1g > $OUT/count1.json 2> $OUT/count1.err
echo "route 1 rc=$? $(python3 -c "import time; print(round(time.time()-$s,1))") s"; grep -E "Elapsed|Maximum resident" $OUT/count1.err
python3 -c "import json; j=json.load(open('$OUT/count1.json')); print({k: j.get(k) for k in ('triangles','vertices','edges','passes','chunks','layout','device_name','threads','stages','sweep')})"
left=$(( 395 - ($(date +%s) - t0) ))
echo "route 2 (in memory, block layout, every GPU, every core) with $left s left"
[ $left -ge 150 ] || { echo "route 2 not run: too little time left"; exit 0; }
free -g | head -2
s=$(date +%s.%N)
timeout $left /usr/bin/time -v $N/tristream count --json --device gpu --gpus all --layout block $W/g1g > $OUT/count2.json 2> $OUT/count2.err
echo "route 2 rc=$? $(python3 -c "import time; print(round(time.time()-$s,1))") s"; grep -E "Elapsed|Maximum resident" $OUT/count2.err; grep -v "^\s" $OUT/count2.err | tail -5
python3 -c "import json; j=json.load(open('$OUT/count2.json')); print({k: j.get(k) for k in ('triangles','vertices','edges','layout','device_name','threads','stages','note','error')})"
echo "end $(date -u +%FT%TZ)"
