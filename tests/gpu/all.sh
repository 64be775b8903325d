#!/usr/bin/env bash
# tests/gpu/all.sh BUILD_DIR SHARED_GRAPHS_DIR OUT_DIR [SLICES]
#
# The whole GPU suite on one host, every GPU busy, as jobs:
# - on a host of two or more GPUs, the jobs that need two run first, one
#   after another, on GPUs 0 and 1 together: tests/gpu/multi.sh in its
#   five parts (multi-lstc, multi-block, multi-arrival, multi-rest,
#   multi-mpi: ONLY=..., together the whole script), tests/gpu/groups.sh
#   (its groups on several GPUs) and tests/gpu/oriented.sh's early reads
#   under --gpus 0,1 (oriented-early); then GPUs 0 and 1 join the others;
# - every other job is taken from a queue, longest first, by one worker a
#   GPU, and runs with only its GPU visible: tests/gpu/run.sh (its graphs
#   in SLICES slices, default 11, a graph each; each slice in two jobs:
#   counts-I with the kernels $KERNELS_COUNTS and every other check,
#   kernels-I with $KERNELS_REST by name alone; its sanitizer part; its
#   batch part in two), tests/gpu/clique.sh (early, late and sanitizer
#   halves), sweep.sh, oriented.sh (one GPU; where the pair runs
#   oriented-early, ONLY=late: all but those early reads), inputs.sh, and
#   groups.sh where there is one GPU.
# A whole run is about 6,400 GPU-seconds (the jobs' times on two H200s in
# sessions 57-59, bench/raw/h200x2-2026-11-29-s5*), nearly an hour of a
# two-GPU host: past the device tool's 10 minutes a command and its 30 a
# session, so JOBS and LIMIT split it over commands and sessions.
# JOBS="multi-lstc counts-2 batch-0 ..." (environment) runs only the jobs
# named; the summary names the ones left out, so a part is never read as
# the whole, and a name of no job fails at once.
# LIMIT=S (environment, seconds): every job ends by S seconds after the
# start (timeout; its summary line says "timed out"), and a job that
# would have under 20 s is not begun ("not run (no time left)"); either
# fails the run.
# Each job's log is added to OUT_DIR/gpu-tests.txt as the job ends, and a
# line to OUT_DIR/gpu-tests-summary.txt (exit status, "N passed, N
# failed", seconds), so a run stopped early keeps what it did;
# OUT_DIR/progress.txt says where it is, and its "start" line the sha256 of
# the tristream tested (the jobs run a copy of BUILD_DIR taken at the
# start). Exits 0 only if every job asked for ran and passed.
# GPUS=N overrides the count of GPUs visible (tests/lib.sh's
# gpus_visible; CUDA_VISIBLE_DEVICES's own entries are the devices used);
# RUN_SH, MULTI_SH, CLIQUE_SH, INPUTS_SH, ORIENTED_SH, SWEEP_SH and
# GROUPS_SH the scripts run (tests of this script use stand-ins).
set -u
B=$1 G=$2 O=$3
SLICES=${4:-11}
# (no slice would mean no counts jobs, unseen; a leading 0 reads as octal)
if ! [[ $SLICES =~ ^[1-9][0-9]*$ ]]; then
	echo "FAIL: SLICES '$SLICES' is not a count of slices"
	exit 1
fi
if [ -n "${LIMIT:-}" ] && ! [[ $LIMIT =~ ^[1-9][0-9]*$ ]]; then
	echo "FAIL: LIMIT=$LIMIT is not a whole number of seconds"
	exit 1
fi
t0=$(date +%s) # LIMIT's clock
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
# the caller's settings of the scripts' own knobs never reach the jobs:
# each job sets what it takes (a KERNELS left in the shell would narrow the
# sanitizer part, an NGPU turn groups.sh's pair into contexts of one GPU)
unset KERNELS NGPU ONLY PART
mkdir -p "$O"
T=$(mktemp -d)
mkdir "$T/groups"
# each job runs in a process group of its own (timeout's); where all.sh is
# stopped, or a job ends, what the job started is stopped with it
kill_groups() { # the groups of the jobs under $T/groups (files named by pid)
	local f
	for f in "$T"/groups/*; do
		[ -e "$f" ] && kill -KILL -- "-${f##*/}" 2>/dev/null
		rm -f "$f"
	done
}
trap 'kill_groups; rm -rf "$T"' EXIT
trap ': >"$T/stop"; exit 130' INT TERM
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
if [ -n "${CUDA_VISIBLE_DEVICES+x}" ]; then
	IFS=, read -ra ids <<<"$CUDA_VISIBLE_DEVICES"
	# (GPUS past its entries, or an empty entry, would put two workers on
	# one device, or a job on none)
	if [ "${#ids[@]}" -lt "$ngpu" ] || [[ ,$CUDA_VISIBLE_DEVICES, == *,,* ]]; then
		echo "FAIL: CUDA_VISIBLE_DEVICES '$CUDA_VISIBLE_DEVICES' does not name $ngpu GPU(s)"
		exit 1
	fi
fi
for ((g = ${#ids[@]}; g < ngpu; g++)); do ids[g]=$g; done
# the jobs: a line each, "name script args"; the pair's (two GPUs at
# once) and the queue's (one GPU each), the longest first so that the
# short ones fill the last gaps
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
	# (where two GPUs run the early reads, oriented-early, the one-GPU job
	# leaves them out: they check one GPU there too)
	if [ "$ngpu" -ge 2 ]; then echo "oriented oriented late"; else echo "oriented oriented"; fi
	[ "$ngpu" -ge 2 ] || echo "groups groups"
	echo "inputs inputs"
} >"$T/one"
{
	echo "multi-lstc multi lstc"
	echo "groups groups"
	echo "multi-block multi block"
	echo "oriented-early oriented early"
	echo "multi-arrival multi arrival"
	echo "multi-rest multi rest"
	echo "multi-mpi multi mpi"
} >"$T/two.all"
# (one GPU: no pair's jobs; the summary names them)
if [ "$ngpu" -ge 2 ]; then cp "$T/two.all" "$T/two"; else : >"$T/two"; fi
cat "$T/one" "$T/two" >"$T/all"
wanted() { [ -z "${JOBS:-}" ] || [[ " $JOBS " == *" $1 "* ]]; }
left_out=""
: >"$T/queue"
: >"$T/pair"
for q in one two; do
	while read -r name rest; do
		if wanted "$name"; then
			echo "$name $rest" >>"$T/$([ $q = one ] && echo queue || echo pair)"
		else
			left_out="$left_out $name"
		fi
	done <"$T/$q"
done
for j in ${JOBS:-}; do # a name of no job would leave a part out unseen
	if ! cut -d' ' -f1 "$T/all" | grep -qxF -- "$j"; then
		echo "FAIL: JOBS names $j, not a job of this suite: $(cut -d' ' -f1 "$T/all" | tr '\n' ' ')"
		exit 1
	fi
done
: >"$O/gpu-tests.txt"
: >"$O/gpu-tests-summary.txt"
take() { # -> the next job's line, or nothing when the queue is empty or
	# all.sh is being stopped
	(
		flock 9
		[ -e "$T/stop" ] && exit
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
time_left() { # -> seconds left under LIMIT (a large number without one)
	if [ -n "${LIMIT:-}" ]; then echo $((LIMIT - ($(date +%s) - t0))); else echo 1000000; fi
}
limited() { # seconds script args...: the script on BUILD_DIR and the
	# graphs, under timeout in a process group of its own (timeout's pid),
	# which is killed once the script ends: timeout waits only for the
	# script, and a tristream it started may still be finishing a unit
	# (SIGTERM under --checkpoint), an mpirun its ranks
	local secs=$1 script=$2 tp rc
	shift 2
	timeout "$secs" bash "$script" "$B" "$G" "$@" &
	tp=$!
	: >"$T/groups/$tp"
	wait "$tp"
	rc=$?
	kill -KILL -- "-$tp" 2>/dev/null
	rm -f "$T/groups/$tp"
	return $rc
}
run_job() { # gpus name script args...
	local gpu=$1 name=$2 script=$3 s rc left
	shift 3
	left=$(time_left)
	if [ "$left" -lt 20 ]; then
		(
			flock 9
			echo "$name: not run (no time left)" >>"$O/gpu-tests-summary.txt"
		) 9>"$T/lock.out"
		step "$name: not run (no time left)"
		return
	fi
	s=$(date +%s)
	step "GPU $gpu: $name ($script $*)"
	export CUDA_VISIBLE_DEVICES=$gpu
	case $script in
	run)
		case $name in
		counts-*) KERNELS=$KERNELS_COUNTS limited "$left" "$RUN_SH" "$@" ;;
		kernels-*) KERNELS=$KERNELS_REST limited "$left" "$RUN_SH" "$@" ;;
		*) limited "$left" "$RUN_SH" "$@" ;;
		esac ;;
	clique) PART=$1 limited "$left" "$CLIQUE_SH" ;;
	multi) ONLY=$1 limited "$left" "$MULTI_SH" ;;
	inputs) limited "$left" "$INPUTS_SH" ;;
	oriented) ONLY=${1:-} limited "$left" "$ORIENTED_SH" ;;
	sweep) limited "$left" "$SWEEP_SH" ;;
	groups) limited "$left" "$GROUPS_SH" ;;
	*) echo "FAIL: no script $script"; false ;;
	esac >"$T/$name.log" 2>&1
	rc=$?
	[ $rc = 124 ] && [ -n "${LIMIT:-}" ] && rc="124 (timed out)"
	finish "$name" "$rc" $(($(date +%s) - s)) "GPU $gpu"
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
if [ -s "$T/pair" ]; then
	# the jobs of two GPUs, in turn on GPUs 0 and 1 (one visible GPU
	# would run only multi.sh's contexts-of-GPU-0 forms); their workers
	# start when those are done
	(
		while read -r line; do
			# shellcheck disable=SC2086 # a job's words
			run_job "${ids[0]},${ids[1]}" $line </dev/null
		done <"$T/pair"
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
# (one GPU: the pair's jobs cannot run here, and the summary says so)
[ "$ngpu" -ge 2 ] || echo "not on this host (they need two GPUs): $(cut -d' ' -f1 "$T/two.all" |
	sed 's/^groups$/groups (on two)/' | paste -sd' ')" >>"$O/gpu-tests-summary.txt"
step "done: $( [ $bad = 0 ] && echo passed || echo FAILED)${left_out:+ (a part: left out$left_out)}"
cat "$O/gpu-tests-summary.txt"
exit $bad
