#!/bin/bash
# session 37: tests/gpu on the final build, one lane of jobs a GPU, every
# job as tests/gpu/all.sh runs it (same scripts, same arguments), each
# under a timeout that ends its lane by LIMIT seconds after the start, so
# that a slow job costs only itself. Args: one quoted job list a GPU.
# Jobs: counts-I (run.sh counts I/11), batch-I (run.sh batch I/2),
# sanitizer, clique-early, clique-late, clique-sanitizer, sweep, oriented,
# inputs. Logs: $OUT/gpu-tests.txt (each job's, as it ends),
# $OUT/gpu-tests-summary.txt, $OUT/progress.txt.
set -u
LIMIT=${LIMIT:-575}
B=$(pwd)/${BUILD:-.carry/gpu22} G=$(pwd)/.carry/graphs
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
t0=$(date +%s)
T=$(mktemp -d)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2; echo "tristream $(sha256sum $B/tristream | cut -c1-16)"; $B/tristream --version; } > $OUT/info.txt 2>&1
: > $OUT/gpu-tests.txt; : > $OUT/gpu-tests-summary.txt
step() { echo "$(date -u +%FT%TZ) +$(( $(date +%s) - t0 ))s $*" >> $OUT/progress.txt; }
job() { # gpu name: runs it, returns its status
  local gpu=$1 name=$2 left=$((LIMIT - ($(date +%s) - t0)))
  [ $left -gt 20 ] || { echo "$name: not run (no time left in its lane)" >> $T/notrun; return; }
  local s=$(date +%s) rc
  step "GPU $gpu: $name (timeout $left s)"
  case $name in
  counts-*) CUDA_VISIBLE_DEVICES=$gpu timeout $left bash tests/gpu/run.sh $B $G counts ${name#counts-}/11 ;;
  batch-*) CUDA_VISIBLE_DEVICES=$gpu timeout $left bash tests/gpu/run.sh $B $G batch ${name#batch-}/2 ;;
  kernels-*) CUDA_VISIBLE_DEVICES=$gpu KERNELS="lstc lstc-paper trust fasttc skiff" timeout $left bash tests/gpu/run.sh $B $G kernels ${name#kernels-}/11 ;;
  sanitizer) CUDA_VISIBLE_DEVICES=$gpu timeout $left bash tests/gpu/run.sh $B $G sanitizer 0/1 ;;
  clique-*) CUDA_VISIBLE_DEVICES=$gpu PART=${name#clique-} timeout $left bash tests/gpu/clique.sh $B $G ;;
  sweep) CUDA_VISIBLE_DEVICES=$gpu timeout $left bash tests/gpu/sweep.sh $B $G ;;
  oriented) CUDA_VISIBLE_DEVICES=$gpu timeout $left bash tests/gpu/oriented.sh $B $G ;;
  inputs) CUDA_VISIBLE_DEVICES=$gpu timeout $left bash tests/gpu/inputs.sh $B $G ;;
  *) echo "no job $name"; false ;;
  esac > $T/$name.log 2>&1
  rc=$?
  ( flock 9; { echo "=== $name"; cat $T/$name.log; } >> $OUT/gpu-tests.txt
    echo "$name: exit $rc$([ $rc = 124 ] && echo ' (timed out)'), $(tail -n 1 $T/$name.log), $(( $(date +%s) - s )) s on GPU $gpu" >> $OUT/gpu-tests-summary.txt ) 9>$T/lock
  step "GPU $gpu: $name exit $rc"
}
step "start: lanes: $*"
g=0
for lane in "$@"; do
  ( for j in $lane; do job $g $j; done ) &
  g=$((g + 1))
done
wait
[ -f $T/notrun ] && cat $T/notrun >> $OUT/gpu-tests-summary.txt
step "done"
cat $OUT/info.txt $OUT/gpu-tests-summary.txt
grep -h "^FAIL" $OUT/gpu-tests.txt | head -30
rm -rf $T
