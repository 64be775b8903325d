#!/usr/bin/env bash
# tests/fuzz/run.sh [--build-only] [SECONDS] [TARGET...] - builds the libFuzzer targets with
# clang, AddressSanitizer and UndefinedBehaviorSanitizer (build-fuzz/), and
# runs each for SECONDS (default 60) from its seed corpus
# (tests/fuzz/corpus/TARGET) and the crashes kept so far
# (tests/fuzz/regressions/TARGET). New inputs go to a scratch corpus, not
# the repository. Any crash, leak, sanitizer report or timeout fails the
# run; the input that caused it is copied to build-fuzz/findings/ (make it
# a regression test by moving it under tests/fuzz/regressions/TARGET).
# FUZZ_JOBS targets run at once (default: the CPUs there are; each target
# is one process). Prints each target's executions and ends with "N
# passed, N failed" (targets).
set -u
cd "$(dirname "$0")/../.."
build_only=0
[ "${1:-}" = --build-only ] && build_only=1 && shift # scripts/test.sh builds them while meson's tests run
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(text graph lz4_chunk webgraph offsets)
B=build-fuzz
if [ ! -d "$B" ]; then
	CC=clang meson setup "$B" -Dfuzz=true -Dcuda=disabled -Dmetis=disabled \
		-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null || exit 1
fi
ninja -C "$B" $(for t in "${targets[@]}"; do echo "tests/fuzz/fuzz_$t"; done) >/dev/null || exit 1
[ $build_only = 1 ] && exit 0
# an allocation over 1 GiB fails (returns NULL) instead of ending the run:
# a text graph's ids are its vertex count, and a header's counts may ask for
# much, so out-of-memory paths are fuzzed too and must end in exit 4
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1:max_allocation_size_mb=1024
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
mkdir -p "$B/findings"
# written graphs go to memory where it can: fsync on a disk would make the
# text target 50 times slower
scratch=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d -p "$B")
trap 'rm -rf "$scratch"' EXIT
fuzz_one() { # target: its run, and its line in $B/result-TARGET ("ok ..." or "FAIL ...")
	local t=$1 work="$B/corpus-$1" log="$B/fuzz-$1.log" rc execs found
	mkdir -p "$work" "$B/artifacts-$t"
	TMPDIR="$scratch" "$B/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -malloc_limit_mb=65536 \
		-print_final_stats=1 -artifact_prefix="$B/artifacts-$t/" \
		"$work" $(for d in corpus regressions; do [ -d "tests/fuzz/$d/$t" ] && echo "tests/fuzz/$d/$t"; done) \
		>"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	found=$(ls -A "$B/artifacts-$t" | grep -v '^slow-unit-') # slow units are noted, not failures
	if [ $rc = 0 ] && [ -z "$found" ] && [ -n "$execs" ]; then
		echo "ok fuzz $t: ${execs} executions in ${secs}s, no finding" >"$B/result-$t"
	else
		{
			echo "FAIL: fuzz $t: exit $rc, ${execs:-?} executions, findings: ${found:-none}"
			grep -E "ERROR|SUMMARY|runtime error" "$log" | head -5
		} >"$B/result-$t"
		cp "$B/artifacts-$t/"* "$B/findings/" 2>/dev/null
	fi
}
jobs=${FUZZ_JOBS:-$(nproc)}
running=0
for t in "${targets[@]}"; do
	rm -f "$B/result-$t"
	if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
	fuzz_one "$t" &
	running=$((running + 1))
done
wait
pass=0
fail=0
for t in "${targets[@]}"; do
	if head -n 1 "$B/result-$t" 2>/dev/null | grep -q '^ok '; then
		pass=$((pass + 1))
		sed 's/^ok //' "$B/result-$t"
	else
		fail=$((fail + 1))
		cat "$B/result-$t" 2>/dev/null || echo "FAIL: fuzz $t: no result"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
