#!/usr/bin/env bash
# tests/scripts.sh SOURCE_ROOT - the project's own scripts parse and name
# nothing undefined: pyflakes3 on every tracked .py (a cleanup that moved
# helpers into bench/benchlib.py once left bench/multigpu.py calling a
# function that no longer existed, which only a run on two GPUs would have
# shown), bash -n on every tracked .sh; tests/gpu/all.sh's scheduler with
# stand-in scripts. Without pyflakes3 the Python half is SKIPPED, visibly.
# Ends with "N passed, N failed".
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 1
. tests/lib.sh
if command -v pyflakes3 >/dev/null; then
	for f in $(git ls-files '*.py'); do
		check "pyflakes3 $f" pyflakes3 "$f"
	done
else
	echo "SKIPPED: pyflakes3 is missing (Debian: python3-pyflakes); Python scripts not checked"
fi
for f in $(git ls-files '*.sh') .ci/run; do
	check "bash -n $f" bash -n "$f"
done
# tests/gpu/all.sh's scheduler, with stand-ins for run.sh, multi.sh,
# clique.sh and inputs.sh: every job runs once, on a GPU of its own
# (multi.sh on 0 and 1), and one failed job fails the whole
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/run.sh" <<'EOF2'
#!/usr/bin/env bash
echo "$3 $4 on $CUDA_VISIBLE_DEVICES"
if [ "$3 $4" = "counts 2/4" ] && [ -n "${FAIL_ONE:-}" ]; then echo "1 passed, 1 failed"; exit 1; fi
echo "1 passed, 0 failed"
EOF2
printf '#!/usr/bin/env bash\necho "multi on $CUDA_VISIBLE_DEVICES"; echo "1 passed, 0 failed"\n' >"$T/multi.sh"
printf '#!/usr/bin/env bash\necho "clique $PART on $CUDA_VISIBLE_DEVICES"; echo "1 passed, 0 failed"\n' >"$T/clique.sh"
printf '#!/usr/bin/env bash\necho "inputs on $CUDA_VISIBLE_DEVICES"; echo "1 passed, 0 failed"\n' >"$T/inputs.sh"
mkdir -p "$T/b"
printf '#!/usr/bin/env bash\necho "tristream stand-in"\n' >"$T/b/tristream"
chmod +x "$T/b/tristream"
stand="RUN_SH=$T/run.sh MULTI_SH=$T/multi.sh CLIQUE_SH=$T/clique.sh INPUTS_SH=$T/inputs.sh"
for cfg in "3 0" "1 0" "2 1"; do
	set -- $cfg
	rm -rf "$T/o"
	env FAIL_ONE=$([ "$2" = 1 ] && echo 1) GPUS=$1 $stand \
		bash tests/gpu/all.sh "$T/b" "$T" "$T/o" 4 >/dev/null 2>&1
	rc=$?
	jobs=$(grep -c '^=== ' "$T/o/gpu-tests.txt" 2>/dev/null)
	multi=$(grep -c '^multi on 0,1$' "$T/o/gpu-tests.txt" 2>/dev/null)
	want_multi=$([ "$1" -ge 2 ] && echo 1 || echo 0)
	want_rc=$([ "$2" = 1 ] && echo 1 || echo 0)
	want_jobs=$((10 + want_multi))
	runs=$(grep -c ' on [0-9]*$' "$T/o/gpu-tests.txt" 2>/dev/null)
	check "tests/gpu/all.sh with $1 GPU(s), failing one: $2: exit $rc (want $want_rc), $jobs logs (want $want_jobs), $runs one-GPU jobs (want 10), multi.sh on 0,1: $multi (want $want_multi)" \
		eval '[ "$rc" = "$want_rc" ] && [ "$jobs" = "$want_jobs" ] && [ "$multi" = "$want_multi" ] &&
			[ "$runs" = 10 ] && grep -q "^clique counts on" "$T/o/gpu-tests.txt" &&
			grep -q "^clique sanitizer on" "$T/o/gpu-tests.txt" && grep -q "^inputs on" "$T/o/gpu-tests.txt"'
done
# JOBS runs the jobs named and no other, and the summary names the rest;
# a name of no job fails at once
rm -rf "$T/o"
env JOBS="multi counts-2 sanitizer" GPUS=3 $stand \
	bash tests/gpu/all.sh "$T/b" "$T" "$T/o" 4 >/dev/null 2>&1
rc=$?
jobs=$(grep '^=== ' "$T/o/gpu-tests.txt" 2>/dev/null | sort | tr '\n' ' ')
left=$(grep '^left out (JOBS):' "$T/o/gpu-tests-summary.txt" 2>/dev/null)
check "tests/gpu/all.sh JOBS=\"multi counts-2 sanitizer\": exit $rc, jobs '$jobs', '$left'" \
	eval '[ "$rc" = 0 ] && [ "$jobs" = "=== counts-2 === multi === sanitizer " ] &&
		[ "$left" = "left out (JOBS): clique-counts counts-0 counts-1 counts-3 batch-0 batch-1 clique-sanitizer inputs" ]'
out=$(env JOBS="counts-2 count-9" GPUS=1 $stand \
	bash tests/gpu/all.sh "$T/b" "$T" "$T/o2" 4 2>&1)
rc=$?
check "tests/gpu/all.sh JOBS naming no job: exit $rc ($out)" \
	eval '[ "$rc" = 1 ] && [[ $out == *"JOBS names count-9"* ]] && ! [ -s "$T/o2/gpu-tests.txt" ]'
# each job's log reaches OUT_DIR as it ends: the last job of one worker
# (inputs) sees the nine before it there (a run stopped early keeps them)
cat >"$T/seen.sh" <<'EOF2'
#!/usr/bin/env bash
grep -c '^=== ' "$OUTD/gpu-tests.txt" >"$OUTD/../seen"
echo "1 passed, 0 failed"
EOF2
rm -rf "$T/o3" "$T/seen"
env OUTD=$T/o3 GPUS=1 $stand INPUTS_SH=$T/seen.sh \
	bash tests/gpu/all.sh "$T/b" "$T" "$T/o3" 4 >/dev/null 2>&1
rc=$?
seen=$(cat "$T/seen" 2>/dev/null)
check "tests/gpu/all.sh: the last job saw ${seen:-no} logs before it (want 9), exit $rc" \
	eval '[ "$rc" = 0 ] && [ "$seen" = 9 ]'
# the jobs run a copy of BUILD_DIR taken at the start, never BUILD_DIR
# itself (a rewrite of it during the run once failed an exec), and the
# start line names the copy's hash; a BUILD_DIR that cannot be copied fails
printf '#!/usr/bin/env bash\n[ "$1" != "$SRC" ] && cmp -s "$1/tristream" "$SRC/tristream" && echo "a copy"\necho "1 passed, 0 failed"\n' >"$T/copy.sh"
rm -rf "$T/o4"
env SRC=$T/b JOBS=counts-0 GPUS=1 $stand RUN_SH=$T/copy.sh \
	bash tests/gpu/all.sh "$T/b" "$T" "$T/o4" 4 >/dev/null 2>&1
rc=$?
hash=$(sha256sum "$T/b/tristream" | cut -c1-16)
out=$(env GPUS=1 $stand bash tests/gpu/all.sh "$T/nothing" "$T" "$T/o5" 4 2>&1)
rc2=$?
check "tests/gpu/all.sh's copy of BUILD_DIR: exit $rc, $(tr '\n' ' ' <"$T/o4/gpu-tests.txt" 2>/dev/null); missing BUILD_DIR: exit $rc2 ($out)" \
	eval '[ "$rc" = 0 ] && grep -q "^a copy\$" "$T/o4/gpu-tests.txt" 2>/dev/null &&
		grep -q "start: .*sha256 of tristream $hash\$" "$T/o4/progress.txt" 2>/dev/null &&
		[ "$rc2" = 1 ] && [[ $out == *"FAIL: cannot copy $T/nothing"* ]]'
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
