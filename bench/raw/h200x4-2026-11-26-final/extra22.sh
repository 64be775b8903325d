#!/usr/bin/env bash
# the other count slices (same binaries), each on a GPU as all.sh frees it
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0
X=/tmp/res/extra; mkdir -p $X
printf '%s\n' 3 4 5 0 1 > $X/queue
take() { ( flock 9; head -n1 $X/queue; sed -i 1d $X/queue ) 9>$X/lock; }
worker() { # gpu pattern-in-progress.txt-that-frees-it
	local gpu=$1 pat=$2 s k rc
	while ! grep -q -- "$pat" /tmp/res/progress.txt; do sleep 3; done
	while k=$(take) && [ -n "$k" ]; do
		s=$(date +%s)
		echo "$(date -u +%FT%TZ) GPU $gpu: counts-$k (counts $k/8) [extra]" >> /tmp/res/progress.txt
		CUDA_VISIBLE_DEVICES=$gpu bash tests/gpu/run.sh .carry/gpu .carry/graphs counts $k/8 > $X/counts-$k.log 2>&1
		rc=$?
		echo "$(date -u +%FT%TZ) GPU $gpu: counts-$k exit $rc: $(tail -n1 $X/counts-$k.log), $(( $(date +%s)-s )) s [extra]" >> /tmp/res/progress.txt
	done
}
worker 0 "multi exit" & worker 1 "multi exit" & worker 2 "counts-2 exit" & worker 3 "counts-7 exit" &
wait
echo "$(date -u +%FT%TZ) extra END" >> /tmp/res/progress.txt
