#!/usr/bin/env bash
# tests/fuzz/campaign.sh BUILD_DIR TARGET SECONDS JOBS [LOG] - a long fuzzing
# campaign: JOBS libFuzzer processes of one target (built with
# tests/fuzz/run.sh's options, e.g. on a machine with more cores) for
# SECONDS each, from the seed corpus and regressions. Prints one line:
# "fuzz TARGET: N executions in S s by J jobs, findings: ..." and exits 1
# on any finding (the inputs are left in BUILD_DIR/campaign-TARGET/).
set -u
B=$1 t=$2 secs=$3 jobs=$4 log=${5:-/dev/null}
cd "$(dirname "$0")/../.."
w="$B/campaign-$t"
rm -rf "$w"
mkdir -p "$w/corpus" "$w/artifacts"
scratch=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1:max_allocation_size_mb=1024
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
(cd "$w" && TMPDIR="$scratch" "../tests/fuzz/fuzz_$t" -jobs="$jobs" -workers="$jobs" \
	-max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -malloc_limit_mb=65536 \
	-print_final_stats=1 -artifact_prefix=artifacts/ corpus \
	$(for d in corpus regressions; do [ -d "$OLDPWD/tests/fuzz/$d/$t" ] && echo "$OLDPWD/tests/fuzz/$d/$t"; done) \
	>/dev/null 2>&1)
execs=0
for f in "$w"/fuzz-*.log; do
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$f" | tail -1)
	execs=$((execs + ${n:-0}))
	cat "$f" >>"$log"
done
# slow-unit-* files are inputs over libFuzzer's 10 s report threshold: noted,
# not findings (a hang is a timeout-* at -timeout, which fails the run)
slow=$(ls -A "$w/artifacts" | grep -c '^slow-unit-')
found=$(ls -A "$w/artifacts" | grep -v '^slow-unit-')
note=""
[ "$slow" -gt 0 ] && note=" ($slow inputs over 10 s, noted)"
echo "fuzz $t: $execs executions in $secs s by $jobs jobs, findings: ${found:-none}$note"
[ -z "$found" ] && [ "$execs" -gt 0 ]
