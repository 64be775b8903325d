#!/usr/bin/env bash
# tests/gpu/all.sh BUILD_DIR SHARED_GRAPHS_DIR OUT_DIR [SLICES]
#
# The whole GPU suite on one host, every GPU busy: tests/gpu/multi.sh on
# GPUs 0 and 1 (where the host has two or more), and tests/gpu/run.sh in
# jobs (its counts in SLICES slices, default 8, its batch part in two, its
# sanitizer part) taken by one worker a GPU, each run with only its GPU
# visible. run.sh alone takes over half an hour on one GPU, past the
# device tool's time for a session; spread over four GPUs it fits.
# Writes OUT_DIR/gpu-tests.txt (every job's log, one after another) and
# OUT_DIR/gpu-tests-summary.txt (a line a job: exit status, "N passed, N
# failed", seconds); OUT_DIR/progress.txt says where it is. Exits 0 only
# if every job passed.
# GPUS=N (environment) overrides the count nvidia-smi gives; RUN_SH and
# MULTI_SH the scripts run (tests of this script use stand-ins).
set -u
B=$1 G=$2 O=$3
SLICES=${4:-8}
here=$(cd "$(dirname "$0")" && pwd)
RUN_SH=${RUN_SH:-$here/run.sh}
MULTI_SH=${MULTI_SH:-$here/multi.sh}
mkdir -p "$O"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
step() { echo "$(date -u +%FT%TZ) $*" >>"$O/progress.txt"; }
ngpu=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
if [ "$ngpu" -lt 1 ]; then
	echo "FAIL: no GPU here"
	exit 1
fi
# the queue: a job a line, "name part slice"; taken under a lock
for ((i = 0; i < SLICES; i++)); do echo "counts-$i counts $i/$SLICES"; done >"$T/queue"
{ echo "batch-0 batch 0/2"; echo "batch-1 batch 1/2"; echo "sanitizer sanitizer 0/1"; } >>"$T/queue"
take() { # -> the next job's line, or nothing when the queue is empty
	(
		flock 9
		head -n 1 "$T/queue"
		sed -i 1d "$T/queue"
	) 9>"$T/lock"
}
run_job() { # gpu name part slice
	local gpu=$1 name=$2 part=$3 slice=$4 s rc
	s=$(date +%s)
	step "GPU $gpu: $name ($part $slice)"
	CUDA_VISIBLE_DEVICES=$gpu bash "$RUN_SH" "$B" "$G" "$part" "$slice" >"$T/$name.log" 2>&1
	rc=$?
	echo "$name: exit $rc, $(tail -n 1 "$T/$name.log"), $(($(date +%s) - s)) s on GPU $gpu" >"$T/$name.sum"
	step "GPU $gpu: $name exit $rc: $(tail -n 1 "$T/$name.log")"
}
worker() { # gpu: jobs until the queue is empty
	local line
	while line=$(take) && [ -n "$line" ]; do
		# shellcheck disable=SC2086 # a job's three words
		run_job "$1" $line
	done
}
step "start: $ngpu GPU(s), $SLICES count slices; $("$B/tristream" --version 2>&1 | head -n 1)"
pids=()
if [ "$ngpu" -ge 2 ]; then
	# multi.sh holds GPUs 0 and 1; their workers start when it is done
	(
		s=$(date +%s)
		step "GPUs 0,1: multi.sh"
		CUDA_VISIBLE_DEVICES=0,1 bash "$MULTI_SH" "$B" "$G" >"$T/multi.log" 2>&1
		rc=$?
		echo "multi: exit $rc, $(tail -n 1 "$T/multi.log"), $(($(date +%s) - s)) s on GPUs 0,1" >"$T/multi.sum"
		step "multi.sh exit $rc: $(tail -n 1 "$T/multi.log")"
		worker 0 &
		worker 1
		wait
	) &
	pids+=($!)
	first=2
else
	first=0
fi
for ((g = first; g < ngpu; g++)); do
	worker "$g" &
	pids+=($!)
done
wait "${pids[@]}"
bad=0
: >"$O/gpu-tests-summary.txt"
: >"$O/gpu-tests.txt"
for f in "$T"/*.sum; do
	[ -e "$f" ] || continue
	cat "$f" >>"$O/gpu-tests-summary.txt"
	n=$(basename "$f" .sum)
	{ echo "=== $n"; cat "$T/$n.log"; } >>"$O/gpu-tests.txt"
	grep -q "exit 0, " "$f" || bad=1
done
if [ -s "$T/queue" ]; then # a job never ran: not a pass
	echo "not run: $(tr '\n' ' ' <"$T/queue")" >>"$O/gpu-tests-summary.txt"
	bad=1
fi
step "done: $( [ $bad = 0 ] && echo passed || echo FAILED)"
cat "$O/gpu-tests-summary.txt"
exit $bad
