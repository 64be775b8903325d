#!/usr/bin/env bash
# counts 1/8 as its two halves (graphs i%16 = 1 and i%16 = 9; together exactly i%8 = 1)
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0
X=/tmp/res/extra
half() { # gpu pattern slice
	local gpu=$1 pat=$2 sl=$3 s rc n=${3%/*}
	while ! grep -q -- "$pat" /tmp/res/progress.txt; do sleep 3; done
	s=$(date +%s)
	echo "$(date -u +%FT%TZ) GPU $gpu: counts-1h$n (counts $sl) [extra]" >> /tmp/res/progress.txt
	CUDA_VISIBLE_DEVICES=$gpu bash tests/gpu/run.sh .carry/gpu .carry/graphs counts $sl > $X/counts-1h$n.log 2>&1
	rc=$?
	echo "$(date -u +%FT%TZ) GPU $gpu: counts-1h$n exit $rc: $(tail -n1 $X/counts-1h$n.log), $(( $(date +%s)-s )) s [extra]" >> /tmp/res/progress.txt
}
half 2 "counts-3 exit" 1/16 & half 3 "counts-4 exit" 9/16 &
wait
echo "$(date -u +%FT%TZ) extra-b END" >> /tmp/res/progress.txt
