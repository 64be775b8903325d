#!/usr/bin/env bash
# The test command (README): configures a build (with the CUDA backend where
# nvcc is installed, so the kernels are compiled), builds, and runs meson's
# test suite on the CPU backend, ThreadSanitizer over the threaded input
# paths (scripts/tsan.sh), then the fuzz targets for FUZZ_SECONDS each
# (default 30; two at a time on two CPUs) where clang is installed. The
# sanitizer's build and checks and the fuzzers' build run beside meson's
# tests.
# Every step runs, whatever the one before did; the output ends with one
# labelled summary:
#   meson: N ok, N fail, N skipped (S s; slowest: NAME S s, ...)
#   tsan: N passed, N failed (S s)
#   fuzz: N targets, no findings (S s each) | fuzz: SKIPPED: why
#   total: N passed, N failed[, N skipped]
# where total counts each meson test, each ThreadSanitizer check and each
# fuzz target once. Exits 0 only if nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
cuda=disabled
command -v nvcc >/dev/null && cuda=enabled
L=$(mktemp -d)
trap 'rm -rf "$L"' EXIT
now() { date +%s; }
fuzz=0
command -v clang >/dev/null && fuzz=1

# --- build (the sanitizer's and fuzzers' builds start beside meson's tests)
t0=$(now)
if [ ! -d build-test ]; then
	meson setup build-test -Dcuda=$cuda >/dev/null
fi
built=1
ninja -C build-test || built=0

# --- meson's tests; beside them, ThreadSanitizer's build and checks (a
# fixed amount of work that fills the gaps meson's tests leave, such as
# MPI's start-ups) and the fuzzers' build
t1=$(now)
(
	s=$(now)
	if [ $built = 1 ]; then
		bash scripts/tsan.sh build-tsan >"$L/tsan.log" 2>&1
	else
		echo "FAIL: build-test did not build; ThreadSanitizer's checks need it" >"$L/tsan.log"
	fi
	echo $(($(now) - s)) >"$L/tsan.s"
	if [ $fuzz = 1 ]; then
		bash tests/fuzz/run.sh --build-only >"$L/fuzz-build.log" 2>&1 || echo "FAIL: the fuzz targets did not build" >>"$L/fuzz-build.log"
	fi
) &
bpid=$!
if [ $built = 1 ]; then
	meson test -C build-test --print-errorlogs
else
	echo "FAIL: build-test did not build; meson's tests not run"
fi
t2=$(now)
wait $bpid
echo "--- ThreadSanitizer (built and run beside meson's tests)"
cat "$L/tsan.log"
cat "$L/fuzz-build.log" 2>/dev/null
t4=$(now)

# --- fuzzing for a bounded time (any finding fails)
if [ $fuzz = 1 ]; then
	bash tests/fuzz/run.sh "${FUZZ_SECONDS:-30}" | tee "$L/fuzz.log"
else
	echo "SKIPPED: clang not installed; fuzzing not run"
fi
t5=$(now)

# --- the summary
counts() { sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$1" 2>/dev/null | tail -n 1; }
ok=0 bad=0 sk=0
if [ $built = 1 ] && [ -f build-test/meson-logs/testlog.json ]; then
	read -r mok mfail mskip slow < <(python3 - build-test/meson-logs/testlog.json "$L/meson-fails.txt" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ok = sum(r["result"] in ("OK", "EXPECTEDFAIL") for r in rows)
skip = sum(r["result"] == "SKIP" for r in rows)
slow = sorted(rows, key=lambda r: -r["duration"])[:3]
print(ok, len(rows) - ok - skip, skip, ", ".join("%s %.0f s" % (r["name"], r["duration"]) for r in slow))
# each failed test's own FAIL lines, for the summary: meson prints only a
# log's tail, which can miss them
with open(sys.argv[2], "w") as f:
    for r in rows:
        if r["result"] not in ("OK", "EXPECTEDFAIL", "SKIP"):
            # shell tests print "FAIL: ..." on stdout, C tests "FAIL file:line: ..." on stderr
            out = (r.get("stdout") or "") + "\n" + (r.get("stderr") or "")
            fails = [l for l in out.splitlines() if l.startswith(("FAIL: ", "FAIL "))]
            for l in dict.fromkeys(fails) or ["(no FAIL line: %s)" % r["result"]]:
                f.write("  %s: %s\n" % (r["name"], l))
PY
	)
	meson_line="meson: $mok ok, $mfail fail, $mskip skipped ($((t2 - t1)) s; slowest: $slow)"
else
	mok=0 mfail=1 mskip=0
	meson_line="meson: build-test did not build (1 fail)"
fi
ok=$((ok + mok)) bad=$((bad + mfail)) sk=$((sk + mskip))
read -r tp tf < <(counts "$L/tsan.log")
if [ -n "${tp:-}" ]; then
	tsan_line="tsan: $tp passed, $tf failed ($(cat "$L/tsan.s") s with its build, beside meson's tests)"
else
	tp=0 tf=1
	tsan_line="tsan: did not run to its end (1 fail)"
fi
ok=$((ok + tp)) bad=$((bad + tf))
if [ $fuzz = 1 ]; then
	read -r fp ff < <(counts "$L/fuzz.log")
	if [ -z "${fp:-}" ]; then
		fp=0 ff=1
		fuzz_line="fuzz: did not run to its end (1 fail)"
	elif [ "$ff" = 0 ]; then
		fuzz_line="fuzz: $fp targets, no findings (${FUZZ_SECONDS:-30} s each; $((t5 - t4)) s)"
	else
		fuzz_line="fuzz: $((fp + ff)) targets, $ff with findings or failed (build-fuzz/findings/)"
	fi
	ok=$((ok + fp)) bad=$((bad + ff))
else
	fuzz_line="fuzz: SKIPPED: clang not installed"
	sk=$((sk + 1))
fi
echo
echo "=== summary ($(($(now) - t0)) s; build $((t1 - t0)) s)"
echo "$meson_line"
[ ! -s "$L/meson-fails.txt" ] || cat "$L/meson-fails.txt"
echo "$tsan_line"
echo "$fuzz_line"
if [ "$sk" -gt 0 ]; then
	echo "total: $ok passed, $bad failed, $sk skipped"
else
	echo "total: $ok passed, $bad failed"
fi
[ "$bad" = 0 ]
