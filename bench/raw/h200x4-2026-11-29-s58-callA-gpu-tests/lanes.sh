#!/usr/bin/env bash
# session 42: tests/gpu on the final build in lanes, one lane a GPU (or a
# pair for multi.sh), each lane's jobs one after another under a timeout
# that ends by LIMIT seconds after the start; lanes at once.
#   LANES="0:counts-0,inputs 1:counts-2 2,3:multi-arrival,multi-lstc" LIMIT=560
# Logs: $OUT/gpu-tests.txt (every job's log), $OUT/gpu-tests-summary.txt, $OUT/info.txt
set -u
LIMIT=${LIMIT:-560}
B=$(pwd)/.carry/${BUILD:-gpu83} G=$(pwd)/.carry/graphs
t0=$(date +%s)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader; nproc; free -g | head -2;
  echo "tristream $(sha256sum $B/tristream | cut -c1-16) commit $(cat $B/commit)"; $B/tristream --version; echo "LANES=$LANES LIMIT=$LIMIT"; } > $OUT/info.txt 2>&1
L=/tmp/lanes; rm -rf $L; mkdir -p $L
job() { # name gpus left
	local name=$1 gpus=$2 left=$3
	export CUDA_VISIBLE_DEVICES=$gpus
	case $name in
	counts-*) KERNELS=auto timeout $left bash tests/gpu/run.sh $B $G counts ${name#counts-}/11 ;;
	kernels-*) KERNELS="lstc lstc-paper lstc-hash mid-hash trust fasttc skiff edge-merge" timeout $left bash tests/gpu/run.sh $B $G kernels ${name#kernels-}/11 ;;
	batch-*) timeout $left bash tests/gpu/run.sh $B $G batch ${name#batch-}/2 ;;
	sanitizer) timeout $left bash tests/gpu/run.sh $B $G sanitizer 0/1 ;;
	clique-*) PART=${name#clique-} timeout $left bash tests/gpu/clique.sh $B $G ;;
	sweep) timeout $left bash tests/gpu/sweep.sh $B $G ;;
	oriented) timeout $left bash tests/gpu/oriented.sh $B $G ;;
	oriented-early) ONLY=early timeout $left bash tests/gpu/oriented.sh $B $G ;;
	inputs) timeout $left bash tests/gpu/inputs.sh $B $G ;;
	groups) timeout $left bash tests/gpu/groups.sh $B $G ;;
	groups1) NGPU=1 timeout $left bash tests/gpu/groups.sh $B $G ;;
	multi-*) ONLY=${name#multi-} timeout $left bash tests/gpu/multi.sh $B $G ;;
	*) echo "no job $name"; false ;;
	esac
}
lane() { # gpus jobs,comma
	local gpus=$1 name
	for name in ${2//,/ }; do
		local left=$((LIMIT - ($(date +%s) - t0)))
		if [ $left -lt 20 ]; then echo "$name: not run (no time left)" >> $L/summary; continue; fi
		local s=$(date +%s)
		job $name $gpus $left > $L/$name.log 2>&1
		local rc=$?
		echo "$name: exit $rc$([ $rc = 124 ] && echo ' (timed out)'), $(tail -n 1 $L/$name.log), $(( $(date +%s) - s )) s on GPU $gpus" >> $L/summary
	done
}
for spec in $LANES; do lane ${spec%%:*} ${spec#*:} & done
wait
: > $OUT/gpu-tests.txt
for f in $L/*.log; do { echo "=== $(basename $f .log)"; cat $f; } >> $OUT/gpu-tests.txt; done
cp $L/summary $OUT/gpu-tests-summary.txt
cat $OUT/gpu-tests-summary.txt
grep -h "^FAIL" $L/*.log | head -20
