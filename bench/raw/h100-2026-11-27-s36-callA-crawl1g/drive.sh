#!/bin/bash
# session 36, call A (nvidia-h100-x1: one H100, 16 cores, 125 GiB): #49's
# gsh-2015-sized crawl (edge factor 48, 1 G pages) made on the H100 host's
# 16 cores with --window 2 (other files, the same graph: faster to make,
# so that making and counting fit one call) and --mem-limit 110G (two
# transpose passes), then counted from cold files by the sweep on the one
# H100 with 16 cores, --host-mem 100G, the machine held to 100 GiB
# available (bench/hold_mem.py) while it counts.
set -u
N=$(pwd)/.carry/gpu20; W=/tmp/w; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2; df -h /tmp | tail -1; sha256sum $N/tristream $N/tristream-gen | cut -c1-16; } > $OUT/info.txt
gm=; nvidia-smi -L | grep -q H100 || gm=78G
WINDOW=2 GEN_MEM=110G GPU_MEM=$gm MEM_CAP=100 LIMIT=575 COUNT_CPUS=0-15 bash bench/crawl_gsh.sh $N $W > $OUT/table.txt 2>&1
echo "crawl_gsh.sh exit $?" >> $OUT/table.txt
cp $W/gen.err $W/route1.json $W/route1.err $OUT/ 2>/dev/null
{ cat $W/held 2>/dev/null; cat $W/held.err 2>/dev/null; } > $OUT/held.txt
free -g | head -2 >> $OUT/info.txt; date -u +%FT%TZ >> $OUT/info.txt
cat $OUT/info.txt $OUT/table.txt; tail -3 $OUT/gen.err; grep -E "Elapsed|Maximum res" $OUT/route1.err
python3 -c "import json; j=json.load(open('$OUT/route1.json')); print({k: j.get(k) for k in ('triangles','passes','layout','device_name','threads','stages','sweep','note')})" 2>&1 | cut -c1-1500
