#!/bin/bash
# session 33, call A (one GPU), build 989a4c4 (.carry/gpu7): (1) tests/gpu/run.sh's
# counts on R-MAT 19 (slice 1/11, KERNELS=auto): the --host-mem arrival mends
# (91b7fda..989a4c4), never run on a GPU; (2) why the plain file's cold read
# under --io uring trails dd: R-MAT 26 read cold by dd (bs 64M and 1M,
# O_DIRECT) and by `tristream info` with --io uring / mmap / pread, twice
# each; (3) --gpu-mem 1/4 cold with --io uring and --io mmap, and warm, one
# run each, for the stage times and h2d bytes (the baseline of the A/B)
set -u
N=$(pwd)/.carry/gpu7; W=/tmp/a; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; free -g | head -2; df -h /tmp | tail -1; sha256sum $N/tristream | cut -c1-16; } > $OUT/info.txt
KERNELS=auto timeout 290 bash tests/gpu/run.sh $N .carry/data counts 1/11 > $OUT/run-counts-1of11.txt 2>&1
echo "tests/gpu/run.sh counts 1/11 (KERNELS=auto): exit $? at $(( $(date +%s) - t0 )) s: $(tail -1 $OUT/run-counts-1of11.txt)" >> $OUT/info.txt
s=$(date +%s); $N/tristream-gen --quiet rmat --scale 26 --seed 1 $W/r26.tsg; echo "gen r26 rc=$? $(( $(date +%s) - s )) s, $(stat -c %s $W/r26.tsg) B" >> $OUT/info.txt
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; for f in $N/tristream /usr/local/cuda/lib64/libcudart.so* $(ldconfig -p | sed -n 's/.*=> \(.*libcuda.so.1\)$/\1/p'); do cat $f > /dev/null 2>&1; done; }
tm() { local s=$EPOCHREALTIME; "$@" > /dev/null 2>&1; local rc=$?; echo "$(python3 -c "print('%.2f' % ($EPOCHREALTIME - $s))") rc=$rc"; }
for rep in 1 2; do
  for what in "dd bs=64M" "dd bs=1M" "info uring" "info mmap" "info pread"; do
    [ $(( $(date +%s) - t0 )) -lt 480 ] || break 2
    drop
    case "$what" in
      dd*) r=$(tm dd if=$W/r26.tsg of=/dev/null ${what#dd } iflag=direct) ;;
      info*) r=$(tm $N/tristream info --io ${what#info } $W/r26.tsg) ;;
    esac
    echo "rep $rep $what cold: $r" >> $OUT/io.txt
  done
done
q=$(( $(stat -c %s $W/r26.tsg) / 4 ))
for io in uring mmap; do
  [ $(( $(date +%s) - t0 )) -lt 540 ] || break
  drop; s=$EPOCHREALTIME
  timeout 60 $N/tristream count --quiet --json --device gpu --io $io --gpu-mem $q $W/r26.tsg > $OUT/q-cold-$io.json 2>$W/q.err
  echo "quarter cold --io $io: rc=$? whole $(python3 -c "print('%.2f' % ($EPOCHREALTIME - $s))")" >> $OUT/io.txt
done
if [ $(( $(date +%s) - t0 )) -lt 560 ]; then
  cat $W/r26.tsg > /dev/null; s=$EPOCHREALTIME
  timeout 40 $N/tristream count --quiet --json --device gpu --gpu-mem $q $W/r26.tsg > $OUT/q-warm.json 2>$W/q.err
  echo "quarter warm: rc=$? whole $(python3 -c "print('%.2f' % ($EPOCHREALTIME - $s))")" >> $OUT/io.txt
fi
for f in $OUT/q-*.json; do python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1].split("/")[-1], d["triangles"], d["seconds"], d["io"], d["partitions"], "h2d", d["h2d_bytes"], d["stages"])' $f >> $OUT/io.txt 2>&1; done
cat $OUT/info.txt; grep -E "FAIL|passed" $OUT/run-counts-1of11.txt | tail -6; cat $OUT/io.txt
