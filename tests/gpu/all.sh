#!/usr/bin/env bash
# tests/gpu/all.sh BUILD_DIR SHARED_GRAPHS_DIR OUT_DIR [SLICES]
#
# The whole GPU suite on one host, every GPU busy: tests/gpu/multi.sh on
# GPUs 0 and 1 (where the host has two or more), and the one-GPU scripts in
# jobs taken by one worker a GPU, each run with only its GPU visible:
# tests/gpu/run.sh (its counts in SLICES slices, default 11: a graph each
# of its eleven; each slice in two jobs: counts-I with the kernels
# $KERNELS_COUNTS and every other check, kernels-I with the kernels
# $KERNELS_REST by name alone, since R-MAT 19's slice with all nine
# kernels took over the device tool's 10 minutes on an H200, of which five
# kernels by name took 81 s on an H100 (the other checks hold most of it);
# its sanitizer part; its batch part in two),
# tests/gpu/clique.sh (its counts in two halves, early and late, and its
# sanitizer half), tests/gpu/sweep.sh, tests/gpu/oriented.sh,
# tests/gpu/groups.sh (2 min on an H200; on GPUs 0 and 1 after multi.sh
# where there are two, as its groups on several GPUs need two visible)
# and tests/gpu/inputs.sh. The
# longest jobs go first
# (four H200s, 2026-11-26: count slices 4.5-13 min, sanitizer and batch
# 2-2.5 min, multi.sh 15 min on two: 96 GPU-minutes for run.sh and
# multi.sh; four H100s, the same day: clique.sh's counts 14 min, slices of
# 16 3.5-8 min, clique.sh's sanitizer half and inputs.sh 1 min each), past
# the device tool's 30 minutes a session even on four GPUs: JOBS runs the
# rest in a later session, on the same binaries.
# Each job's log is added to OUT_DIR/gpu-tests.txt as the job ends, and a
# line to OUT_DIR/gpu-tests-summary.txt (exit status, "N passed, N
# failed", seconds), so a run stopped early keeps what it did;
# OUT_DIR/progress.txt says where it is, and its "start" line the sha256 of
# the tristream tested (the jobs run a copy of BUILD_DIR taken at the
# start). Exits 0 only if every job asked for ran and passed.
# JOBS="multi counts-2 batch-0 ..." (environment) runs only the jobs named
# (the rest of a suite begun in an earlier run of the same build); the
# summary names the ones left out, so a part is never read as the whole.
# GPUS=N overrides the count of GPUs visible (tests/lib.sh's
# gpus_visible); RUN_SH, MULTI_SH, CLIQUE_SH, INPUTS_SH, ORIENTED_SH,
# SWEEP_SH and GROUPS_SH the scripts run (tests of this script use
# stand-ins).
set -u
B=$1 G=$2 O=$3
SLICES=${4:-11}
here=$(cd "$(dirname "$0")" && pwd)
RUN_SH=${RUN_SH:-$here/run.sh}
MULTI_SH=${MULTI_SH:-$here/multi.sh}
CLIQUE_SH=${CLIQUE_SH:-$here/clique.sh}
INPUTS_SH=${INPUTS_SH:-$here/inputs.sh}
ORIENTED_SH=${ORIENTED_SH:-$here/oriented.sh}
SWEEP_SH=${SWEEP_SH:-$here/sweep.sh}
GROUPS_SH=${GROUPS_SH:-$here/groups.sh}
# the two halves of run.sh's KERNELS: together its default list
KERNELS_COUNTS=${KERNELS_COUNTS:-auto}
KERNELS_REST=${KERNELS_REST:-lstc lstc-paper lstc-hash mid-hash trust fasttc skiff edge-merge}
mkdir -p "$O"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# every job runs a private copy of BUILD_DIR: a rewrite of BUILD_DIR while
# the suite runs (a rebuild, a sync that copies the folder again) could
# otherwise change the binaries between jobs or make an exec fail with
# "Text file busy" (it did once, 2026-11-26); the copy's hash is logged
if ! { mkdir "$T/build" && cp -a "$B/." "$T/build/"; } 2>"$T/cp.err"; then
	echo "FAIL: cannot copy $B: $(cat "$T/cp.err")"
	exit 1
fi
B=$T/build
step() { echo "$(date -u +%FT%TZ) $*" >>"$O/progress.txt"; }
ngpu=${GPUS:-$(. "$here/../lib.sh" && gpus_visible)} # CUDA_VISIBLE_DEVICES honoured
case $ngpu in '' | *[!0-9]*) echo "FAIL: cannot count the GPUs here ('$ngpu')"; exit 1 ;; esac
if [ "$ngpu" -lt 1 ]; then
	echo "FAIL: no GPU here"
	exit 1
fi
# the devices the jobs take: CUDA_VISIBLE_DEVICES's own entries where it
# is set (each job sets it anew, so worker g must name the g-th entry,
# not device g), else 0 .. ngpu - 1
ids=()
[ -z "${CUDA_VISIBLE_DEVICES+x}" ] || IFS=, read -ra ids <<<"$CUDA_VISIBLE_DEVICES"
for ((g = ${#ids[@]}; g < ngpu; g++)); do ids[g]=$g; done
# the queue: a job a line, "name script args", taken under a lock, the
# longest first so that the short ones fill the last gaps
{
	echo "clique-early clique early"
	echo "clique-late clique late"
	for ((i = 0; i < SLICES; i++)); do echo "counts-$i run counts $i/$SLICES"; done
	for ((i = 0; i < SLICES; i++)); do echo "kernels-$i run kernels $i/$SLICES"; done
	echo "batch-0 run batch 0/2"
	echo "batch-1 run batch 1/2"
	echo "sanitizer run sanitizer 0/1"
	echo "clique-sanitizer clique sanitizer"
	echo "sweep sweep"
	echo "oriented oriented"
	echo "groups groups"
	echo "inputs inputs"
} >"$T/all"
[ "$ngpu" -ge 2 ] && echo "multi" >>"$T/all"
wanted() { [ -z "${JOBS:-}" ] || [[ " $JOBS " == *" $1 "* ]]; }
left_out=""
: >"$T/queue"
while read -r name rest; do
	if ! wanted "$name"; then
		left_out="$left_out $name"
	elif [ "$name" != multi ] && ! { [ "$name" = groups ] && [ "$ngpu" -ge 2 ]; }; then
		echo "$name $rest" >>"$T/queue"
	fi
done <"$T/all"
for j in ${JOBS:-}; do # a name of no job would leave a part out unseen
	if ! grep -q "^$j\( \|$\)" "$T/all"; then
		echo "FAIL: JOBS names $j, not a job of this suite: $(cut -d' ' -f1 "$T/all" | tr '\n' ' ')"
		exit 1
	fi
done
: >"$O/gpu-tests.txt"
: >"$O/gpu-tests-summary.txt"
take() { # -> the next job's line, or nothing when the queue is empty
	(
		flock 9
		head -n 1 "$T/queue"
		sed -i 1d "$T/queue"
	) 9>"$T/lock"
}
finish() { # name rc seconds where: its log and summary line into OUT_DIR
	local line="$1: exit $2, $(tail -n 1 "$T/$1.log"), $3 s on $4"
	(
		flock 9
		{ echo "=== $1"; cat "$T/$1.log"; } >>"$O/gpu-tests.txt"
		echo "$line" >>"$O/gpu-tests-summary.txt"
	) 9>"$T/lock.out"
	step "$4: $1 exit $2: $(tail -n 1 "$T/$1.log")"
}
run_job() { # gpu name script args...
	local gpu=$1 name=$2 script=$3 s rc
	shift 3
	s=$(date +%s)
	step "GPU $gpu: $name ($script $*)"
	case $script in
	run)
		case $name in
		counts-*) CUDA_VISIBLE_DEVICES=$gpu KERNELS=$KERNELS_COUNTS bash "$RUN_SH" "$B" "$G" "$@" ;;
		kernels-*) CUDA_VISIBLE_DEVICES=$gpu KERNELS=$KERNELS_REST bash "$RUN_SH" "$B" "$G" "$@" ;;
		*) CUDA_VISIBLE_DEVICES=$gpu bash "$RUN_SH" "$B" "$G" "$@" ;;
		esac ;;
	clique) CUDA_VISIBLE_DEVICES=$gpu PART=$1 bash "$CLIQUE_SH" "$B" "$G" ;;
	inputs) CUDA_VISIBLE_DEVICES=$gpu bash "$INPUTS_SH" "$B" "$G" ;;
	oriented) CUDA_VISIBLE_DEVICES=$gpu bash "$ORIENTED_SH" "$B" "$G" ;;
	sweep) CUDA_VISIBLE_DEVICES=$gpu bash "$SWEEP_SH" "$B" "$G" ;;
	groups) CUDA_VISIBLE_DEVICES=$gpu bash "$GROUPS_SH" "$B" "$G" ;;
	*) echo "FAIL: no script $script"; false ;;
	esac >"$T/$name.log" 2>&1
	rc=$?
	finish "$name" $rc $(($(date +%s) - s)) "GPU $gpu"
}
worker() { # gpu: jobs until the queue is empty
	local line
	while line=$(take) && [ -n "$line" ]; do
		# shellcheck disable=SC2086 # a job's words
		run_job "$1" $line
	done
}
step "start: $ngpu GPU(s), $SLICES count slices${JOBS:+, jobs $JOBS}; $("$B/tristream" --version 2>&1 | head -n 1); sha256 of tristream $(sha256sum "$B/tristream" 2>&1 | cut -c1-16)"
pids=()
if [ "$ngpu" -ge 2 ] && { wanted multi || wanted groups; }; then
	# multi.sh, then groups.sh (its groups on two GPUs: one visible GPU
	# would run only its contexts-of-GPU-0 form) hold GPUs 0 and 1; their
	# workers start when both are done
	(
		if wanted multi; then
			s=$(date +%s)
			step "GPUs ${ids[0]},${ids[1]}: multi.sh"
			CUDA_VISIBLE_DEVICES=${ids[0]},${ids[1]} bash "$MULTI_SH" "$B" "$G" >"$T/multi.log" 2>&1
			finish multi $? $(($(date +%s) - s)) "GPUs ${ids[0]},${ids[1]}"
		fi
		! wanted groups || run_job "${ids[0]},${ids[1]}" groups groups
		worker "${ids[0]}" &
		worker "${ids[1]}"
		wait
	) &
	pids+=($!)
	first=2
else
	first=0
fi
for ((g = first; g < ngpu; g++)); do
	worker "${ids[g]}" &
	pids+=($!)
done
wait "${pids[@]}"
bad=0
grep -qv ": exit 0, " "$O/gpu-tests-summary.txt" && bad=1
[ -s "$O/gpu-tests-summary.txt" ] || bad=1 # nothing ran: not a pass
if [ -s "$T/queue" ]; then # a job never ran: not a pass
	echo "not run: $(tr '\n' ' ' <"$T/queue")" >>"$O/gpu-tests-summary.txt"
	bad=1
fi
[ -z "$left_out" ] || echo "left out (JOBS):$left_out" >>"$O/gpu-tests-summary.txt"
step "done: $( [ $bad = 0 ] && echo passed || echo FAILED)${left_out:+ (a part: left out$left_out)}"
cat "$O/gpu-tests-summary.txt"
exit $bad
