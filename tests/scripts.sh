#!/usr/bin/env bash
# tests/scripts.sh SOURCE_ROOT [BUILD_ROOT] - the project's own scripts
# parse and name nothing undefined: pyflakes3 on every tracked .py (a
# cleanup that moved helpers into bench/benchlib.py once left
# bench/multigpu.py calling a function that no longer existed, which only a
# run on two GPUs would have shown), bash -n on every tracked .sh;
# meson.build's list of the headers the .cu files include, complete;
# tests/gpu/all.sh's scheduler with stand-in scripts. And the tests cannot
# pass by skipping or by losing what they check: tests/lib.sh's closing
# line and exit status (77 where every check was skipped); no test script
# prints SKIPPED but through skip() (counted) or exits 0 after a skip;
# linkage.sh, mpi.sh and gpu/multi.sh exit 77 where they cannot run;
# tests/gpu's scripts, with stand-in tools, fail when a graph they need
# cannot be made; and, with BUILD_ROOT, tests/report.sh fails on a
# tristream whose text output is one off, and bench/groups_ab.sh runs a
# variant on another build (label@DIR) and refuses one that is not there,
# and bench/steps.py tables a count's stamps and fails on a failed run.
# Without pyflakes3 the Python half is SKIPPED, visibly; without
# BUILD_ROOT the last checks.
# Ends with "N passed, N failed" (", N skipped" where any was).
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
build=${2:-}
[ -z "$build" ] || build=$(cd "$build" && pwd)
cd "$root" || exit 1
. tests/lib.sh
if command -v pyflakes3 >/dev/null; then
	for f in $(git ls-files '*.py'); do
		check "pyflakes3 $f" pyflakes3 "$f"
	done
else
	skip "pyflakes3 is missing (Debian: python3-pyflakes); Python scripts not checked"
fi
for f in $(git ls-files '*.sh') .ci/run; do
	check "bash -n $f" bash -n "$f"
done
# meson.build's cuda_headers (read so that a header's change rebuilds every
# .cu: meson 1.0 records no header dependencies for nvcc) holds every
# header the .cu files include, directly or through another
check "meson.build's cuda_headers hold every header kernels/*.cu include" python3 -c '
import os, re
seen, todo = set(), ["kernels/" + f for f in os.listdir("kernels") if f.endswith(".cu")]
while todo:
    for h in re.findall(r"#include \"([^\"]+)\"", open(todo.pop()).read()):
        if os.path.exists(h) and h not in seen:
            seen.add(h)
            todo.append(h)
m = re.search(r"cuda_headers = \[([^]]*)\]", open("meson.build").read())
listed = set(re.findall(r"\x27([^\x27]+)\x27", m.group(1))) if m else set()
assert seen and seen <= listed, sorted(seen - listed)'
# tests/gpu/all.sh's scheduler, with stand-ins for run.sh, multi.sh,
# clique.sh, sweep.sh, oriented.sh, groups.sh and inputs.sh: every job runs once, on a GPU of its own
# (multi.sh on 0 and 1), and one failed job fails the whole
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/run.sh" <<'EOF2'
#!/usr/bin/env bash
echo "k=${KERNELS:-}"
echo "$3 $4 on $CUDA_VISIBLE_DEVICES"
if [ "$3 $4" = "counts 2/4" ] && [ -n "${FAIL_ONE:-}" ]; then echo "1 passed, 1 failed"; exit 1; fi
echo "1 passed, 0 failed"
EOF2
printf '#!/usr/bin/env bash\necho "multi $ONLY on $CUDA_VISIBLE_DEVICES"; echo "1 passed, 0 failed"\n' >"$T/multi.sh"
printf '#!/usr/bin/env bash\necho "clique $PART on $CUDA_VISIBLE_DEVICES"; echo "1 passed, 0 failed"\n' >"$T/clique.sh"
printf '#!/usr/bin/env bash\necho "inputs on $CUDA_VISIBLE_DEVICES"; echo "1 passed, 0 failed"\n' >"$T/inputs.sh"
printf '#!/usr/bin/env bash\necho "oriented${ONLY:+ $ONLY} on $CUDA_VISIBLE_DEVICES"; echo "1 passed, 0 failed"\n' >"$T/oriented.sh"
printf '#!/usr/bin/env bash\necho "sweep on $CUDA_VISIBLE_DEVICES"; echo "1 passed, 0 failed"\n' >"$T/sweep.sh"
printf '#!/usr/bin/env bash\necho "groups on $CUDA_VISIBLE_DEVICES"; echo "1 passed, 0 failed"\n' >"$T/groups.sh"
mkdir -p "$T/b"
printf '#!/usr/bin/env bash\necho "tristream stand-in"\n' >"$T/b/tristream"
chmod +x "$T/b/tristream"
stand="RUN_SH=$T/run.sh MULTI_SH=$T/multi.sh CLIQUE_SH=$T/clique.sh INPUTS_SH=$T/inputs.sh ORIENTED_SH=$T/oriented.sh SWEEP_SH=$T/sweep.sh GROUPS_SH=$T/groups.sh"
for cfg in "3 0" "1 0" "2 1"; do
	set -- $cfg
	rm -rf "$T/o"
	# (KERNELS=lstc in the caller's shell: it must reach no job)
	env KERNELS=lstc FAIL_ONE=$([ "$2" = 1 ] && echo 1) GPUS=$1 $stand \
		bash tests/gpu/all.sh "$T/b" "$T" "$T/o" 4 >/dev/null 2>&1
	rc=$?
	jobs=$(grep -c '^=== ' "$T/o/gpu-tests.txt" 2>/dev/null)
	# multi.sh's five parts, groups.sh and oriented.sh's early reads on
	# GPUs 0 and 1 where there are two, one after another; else groups.sh
	# is a one-GPU job and the others are not run
	multi=$(grep -cE '^(multi (lstc|block|arrival|rest|mpi)|oriented early) on 0,1$' "$T/o/gpu-tests.txt" 2>/dev/null)
	want_multi=$([ "$1" -ge 2 ] && echo 6 || echo 0)
	want_rc=$([ "$2" = 1 ] && echo 1 || echo 0)
	want_jobs=$([ "$1" -ge 2 ] && echo 24 || echo 18)
	want_runs=$([ "$1" -ge 2 ] && echo 17 || echo 18)
	want_groups=$([ "$1" -ge 2 ] && echo "0,1" || echo "[0-9]")
	# oriented.sh on one GPU: without its early reads where the pair runs them
	want_oriented=$([ "$1" -ge 2 ] && echo "oriented late" || echo "oriented")
	# one GPU: the summary says which jobs need two
	want_pairnote=$([ "$1" -ge 2 ] && echo 0 || echo 1)
	runs=$(grep -c ' on [0-9]*$' "$T/o/gpu-tests.txt" 2>/dev/null)
	check "tests/gpu/all.sh with $1 GPU(s), failing one: $2: exit $rc (want $want_rc), $jobs logs (want $want_jobs), $runs one-GPU jobs (want $want_runs), multi.sh's parts and oriented.sh's early reads on 0,1: $multi (want $want_multi), groups on $want_groups" \
		eval '[ "$rc" = "$want_rc" ] && [ "$jobs" = "$want_jobs" ] && [ "$multi" = "$want_multi" ] &&
			[ "$runs" = "$want_runs" ] && grep -qx "groups on $want_groups" "$T/o/gpu-tests.txt" &&
			grep -q "^clique early on" "$T/o/gpu-tests.txt" &&
			grep -A1 -x "k=auto" "$T/o/gpu-tests.txt" | grep -q "^counts 3/4 on" &&
			grep -A1 -x "k=lstc lstc-paper lstc-hash mid-hash trust fasttc skiff edge-merge" "$T/o/gpu-tests.txt" | grep -q "^kernels 3/4 on" &&
			grep -A1 -x "k=" "$T/o/gpu-tests.txt" | grep -q "^sanitizer 0/1 on" &&
			grep -q "^clique late on" "$T/o/gpu-tests.txt" && grep -q "^sweep on" "$T/o/gpu-tests.txt" &&
			grep -q "^clique sanitizer on" "$T/o/gpu-tests.txt" && grep -q "^inputs on" "$T/o/gpu-tests.txt" &&
			[ "$(grep -c "^not on this host (they need two GPUs): multi-lstc" "$T/o/gpu-tests-summary.txt")" = "$want_pairnote" ] &&
			grep -qx "$want_oriented on [0-9]" "$T/o/gpu-tests.txt" && grep -q "^groups on" "$T/o/gpu-tests.txt"'
done
# JOBS runs the jobs named and no other, and the summary names the rest;
# a name of no job fails at once
rm -rf "$T/o"
env JOBS="multi-rest counts-2 sanitizer" GPUS=3 $stand \
	bash tests/gpu/all.sh "$T/b" "$T" "$T/o" 4 >/dev/null 2>&1
rc=$?
jobs=$(grep '^=== ' "$T/o/gpu-tests.txt" 2>/dev/null | sort | tr '\n' ' ')
left=$(grep '^left out (JOBS):' "$T/o/gpu-tests-summary.txt" 2>/dev/null)
check "tests/gpu/all.sh JOBS=\"multi-rest counts-2 sanitizer\": exit $rc, jobs '$jobs', '$left'" \
	eval '[ "$rc" = 0 ] && [ "$jobs" = "=== counts-2 === multi-rest === sanitizer " ] && grep -qx "multi rest on 0,1" "$T/o/gpu-tests.txt" &&
		[ "$left" = "left out (JOBS): clique-early clique-late counts-0 counts-1 counts-3 kernels-0 kernels-1 kernels-2 kernels-3 batch-0 batch-1 clique-sanitizer sweep oriented inputs multi-lstc groups multi-block oriented-early multi-arrival multi-mpi" ]'
# groups alone on two GPUs: on the pair, which then takes no other job
rm -rf "$T/o"
env JOBS="groups" GPUS=2 $stand bash tests/gpu/all.sh "$T/b" "$T" "$T/o" 4 >/dev/null 2>&1
rc=$?
check "tests/gpu/all.sh JOBS=groups on two GPUs: exit $rc, $(tr '\n' ' ' <"$T/o/gpu-tests-summary.txt" 2>/dev/null)" \
	eval '[ "$rc" = 0 ] && [ "$(grep -c "^=== " "$T/o/gpu-tests.txt")" = 1 ] && grep -qx "groups on 0,1" "$T/o/gpu-tests.txt"'
# under CUDA_VISIBLE_DEVICES=2,3 (no GPUS), every job on 2 or 3: multi.sh
# and groups on the pair "2,3", never on a device the caller left out
rm -rf "$T/o"
env -u GPUS -u NGPU CUDA_VISIBLE_DEVICES=2,3 $stand bash tests/gpu/all.sh "$T/b" "$T" "$T/o" 4 >/dev/null 2>&1
rc=$?
others=$(grep -E ' on [0-9,]+$' "$T/o/gpu-tests.txt" 2>/dev/null | grep -cvE ' on (2|3|2,3)$')
check "tests/gpu/all.sh under CUDA_VISIBLE_DEVICES=2,3: exit $rc, $others jobs elsewhere (want 0), $(grep -c '^=== ' "$T/o/gpu-tests.txt" 2>/dev/null) logs (want 24)" \
	eval '[ "$rc" = 0 ] && [ "$others" = 0 ] && [ "$(grep -c "^=== " "$T/o/gpu-tests.txt")" = 24 ] &&
		grep -qx "multi lstc on 2,3" "$T/o/gpu-tests.txt" && grep -qx "groups on 2,3" "$T/o/gpu-tests.txt" &&
		grep -qx "sweep on [23]" "$T/o/gpu-tests.txt"'
# tests/lib.sh's gpus_visible: NGPU, else CUDA_VISIBLE_DEVICES's entries,
# else nvidia-smi's list (a stand-in listing four here)
mkdir -p "$T/smi"
printf '#!/bin/sh\nfor i in 0 1 2 3; do echo "GPU $i: H200 (UUID: GPU-$i)"; done\n' >"$T/smi/nvidia-smi"
chmod +x "$T/smi/nvidia-smi"
vis() { env -u NGPU -u CUDA_VISIBLE_DEVICES SMI="$T/smi" "$@" bash -c '. tests/lib.sh; PATH=$SMI:$PATH; gpus_visible'; }
got="$(vis) $(vis CUDA_VISIBLE_DEVICES=2) $(vis CUDA_VISIBLE_DEVICES=0,1) $(vis CUDA_VISIBLE_DEVICES=) $(vis NGPU=3 CUDA_VISIBLE_DEVICES=0)"
check "tests/lib.sh gpus_visible: '$got' (want '4 1 2 0 3')" [ "$got" = "4 1 2 0 3" ]
out=$(env JOBS="counts-2 count-9" GPUS=1 $stand \
	bash tests/gpu/all.sh "$T/b" "$T" "$T/o2" 4 2>&1)
rc=$?
check "tests/gpu/all.sh JOBS naming no job: exit $rc ($out)" \
	eval '[ "$rc" = 1 ] && [[ $out == *"JOBS names count-9"* ]] && ! [ -s "$T/o2/gpu-tests.txt" ]'
# each job's log reaches OUT_DIR as it ends: the last job of one worker
# (inputs) sees the seventeen before it there (a run stopped early keeps them)
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
check "tests/gpu/all.sh: the last job saw ${seen:-no} logs before it (want 17), exit $rc" \
	eval '[ "$rc" = 0 ] && [ "$seen" = 17 ]'
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

# LIMIT: a job still running when the time is up is stopped, with the
# processes it started ("exit 124 (timed out)"), and a job that would
# have under 20 s is not begun; both fail the run. A LIMIT that is not a
# number fails at once, and so does an ONLY that names no part of
# multi.sh or oriented.sh (a typo would otherwise run a part unseen)
# left_running MARK: how many processes whose command line holds MARK are left,
# given up to 10 s to go (a signalled one may take a moment on a loaded
# machine; one never signalled lives a minute)
left_running() {
	for _ in $(seq 50); do pgrep -f "$1" >/dev/null || break; sleep 0.2; done
	pgrep -fc "$1"
}
printf '#!/usr/bin/env bash\nsleep 61.%s & wait\necho "1 passed, 0 failed"\n' $$ >"$T/slow.sh"
rm -rf "$T/o6"
env LIMIT=21 JOBS="counts-0 counts-1" GPUS=1 $stand RUN_SH=$T/slow.sh \
	bash tests/gpu/all.sh "$T/b" "$T" "$T/o6" 4 >/dev/null 2>&1
rc=$?
sleft=$(left_running "sleep 61.$$")
out=$(env LIMIT=9x GPUS=1 $stand bash tests/gpu/all.sh "$T/b" "$T" "$T/o7" 4 2>&1)
rc2=$?
out2=$(ONLY=arival bash tests/gpu/multi.sh "$T/b" "$T" 2>&1)
rc3=$?
out3=$(ONLY=erly bash tests/gpu/oriented.sh "$T/b" "$T" 2>&1)
rc4=$?
check "tests/gpu/all.sh LIMIT=21, a job of 61 s: exit $rc, $(tr '\n' ' ' <"$T/o6/gpu-tests-summary.txt" 2>/dev/null), $sleft left running; LIMIT=9x: exit $rc2; ONLY=arival: exit $rc3; ONLY=erly: exit $rc4" \
	eval '[ "$rc" = 1 ] && [ "$sleft" = 0 ] && grep -q "^counts-0: exit 124 (timed out), " "$T/o6/gpu-tests-summary.txt" &&
		grep -qx "counts-1: not run (no time left)" "$T/o6/gpu-tests-summary.txt" &&
		[ "$rc2" = 1 ] && [[ $out == *"LIMIT=9x is not a whole number"* ]] && ! [ -e "$T/o7/gpu-tests.txt" ] &&
		[ "$rc3" = 1 ] && [[ $out2 == *"ONLY=arival is none of"* ]] && [ "$rc4" = 1 ] && [[ $out3 == *"ONLY=erly is neither early nor late"* ]]'
# run.sh's part and slice, clique.sh's PART and all.sh's SLICES: a value
# of no meaning is refused before anything runs (a slice such as 7/4 or
# 0/0 once selected no graph and passed on the checks after the graphs)
bads=""
for args in "counts 7/4" "counts 01/4" "counts 0/0" "counts x/2" "counts 3" "count 0/11" "kernels 11/11"; do
	out=$(bash tests/gpu/run.sh "$T/b" "$T" $args 2>&1)
	rc=$?
	{ [ "$rc" = 1 ] && [[ $out == FAIL:* ]] && [[ $out != *"tristream stand-in"* ]]; } || bads="$bads [run.sh $args: exit $rc]"
done
out=$(PART=erly bash tests/gpu/clique.sh "$T/b" "$T" 2>&1)
rc=$?
{ [ "$rc" = 1 ] && [[ $out == *"PART=erly is none of"* ]]; } || bads="$bads [clique.sh PART=erly: exit $rc]"
for n in 0 x 2x; do
	out=$(env GPUS=1 $stand bash tests/gpu/all.sh "$T/b" "$T" "$T/o8" $n 2>&1)
	rc=$?
	{ [ "$rc" = 1 ] && [[ $out == *"SLICES '$n' is not a count"* ]]; } || bads="$bads [all.sh SLICES $n: exit $rc]"
done
check "tests/gpu scripts refuse parts and slices of no meaning:${bads:- all refused}" [ -z "$bads" ]
# more values of no meaning: a leading 0 (octal to bash), a JOBS name that
# only matches as a pattern, GPUS past CUDA_VISIBLE_DEVICES's entries
bads=""
for v in "SLICES=08" "LIMIT=099" "JOBS=c.unts-0" "CUDA_VISIBLE_DEVICES=2,3 GPUS=3" "CUDA_VISIBLE_DEVICES=0,,1 GPUS=2"; do
	n=4
	[ "$v" = SLICES=08 ] && n=08
	out=$(env GPUS=1 $stand $v bash tests/gpu/all.sh "$T/b" "$T" "$T/o9" $n 2>&1)
	rc=$?
	{ [ "$rc" = 1 ] && [[ $out == FAIL:* ]]; } || bads="$bads [$v: exit $rc]"
done
check "tests/gpu/all.sh refuses more values of no meaning:${bads:- all refused}" [ -z "$bads" ]
# what a job started is stopped when the job ends, whether it ended in
# time (a process it left behind) or timed out (one that ignores SIGTERM,
# as a tristream finishing its unit under --checkpoint may take a while);
# and when all.sh itself is stopped (SIGTERM), its running job with it.
# Marked sleeps, unique to this run: gone within 10 s, where unkilled
# they would live a minute
mk=$$
printf '#!/usr/bin/env bash\nsleep 63.%s1 &\n[ "$3 $4" = "counts 1/4" ] && (trap "" TERM; exec sleep 63.%s2) &\n[ "$3 $4" = "counts 1/4" ] && sleep 60\necho "1 passed, 0 failed"\n' $mk $mk >"$T/leave.sh"
rm -rf "$T/o10"
env LIMIT=21 JOBS="counts-0 counts-1" GPUS=2 $stand RUN_SH=$T/leave.sh \
	bash tests/gpu/all.sh "$T/b" "$T" "$T/o10" 4 >/dev/null 2>&1
rc=$?
sleft=$(left_running "sleep 63.$mk")
printf '#!/usr/bin/env bash\nsleep 64.%s &\nwait\n' $mk >"$T/long.sh"
rm -rf "$T/o11"
env JOBS="counts-0" GPUS=1 $stand RUN_SH=$T/long.sh bash tests/gpu/all.sh "$T/b" "$T" "$T/o11" 4 >/dev/null 2>&1 &
apid=$!
for _ in $(seq 50); do pgrep -f "sleep 64.$mk" >/dev/null && break; sleep 0.2; done
kill -TERM $apid
wait $apid
rc2=$?
sleft2=$(left_running "sleep 64.$mk")
check "tests/gpu/all.sh stops what its jobs started: exit $rc ($(tr '\n' ' ' <"$T/o10/gpu-tests-summary.txt" 2>/dev/null)), $sleft left; all.sh stopped: exit $rc2, $sleft2 left" \
	eval '[ "$rc" = 1 ] && [ "$sleft" = 0 ] && grep -q "^counts-0: exit 0, " "$T/o10/gpu-tests-summary.txt" &&
		grep -q "^counts-1: exit 124 (timed out), " "$T/o10/gpu-tests-summary.txt" && [ "$rc2" = 130 ] && [ "$sleft2" = 0 ]'

# --- tests/lib.sh's closing line and status: a script whose every check was
# skipped exits 77 (meson: SKIP), one that checked nothing fails
lib_case() { # pass fail skip -> "exit: closing line"
	bash -c '. tests/lib.sh
		for ((i = 0; i < $1; i++)); do check ok true; done
		for ((i = 0; i < $2; i++)); do check no false; done
		for ((i = 0; i < $3; i++)); do skip "a stand-in"; done
		finish_checks' _ "$@" >"$T/lib.out" 2>&1
	echo "$?: $(tail -n 1 "$T/lib.out")"
}
for c in "0 0 2:77: 0 passed, 0 failed, 2 skipped" "1 0 1:0: 1 passed, 0 failed, 1 skipped" \
	"3 0 0:0: 3 passed, 0 failed" "1 1 1:1: 1 passed, 1 failed, 1 skipped" "0 0 0:1: 0 passed, 1 failed"; do
	got=$(lib_case ${c%%:*})
	check "tests/lib.sh with (passed failed skipped) ${c%%:*}: '$got', want '${c#*:}'" [ "$got" = "${c#*:}" ]
done
check "tests/lib.sh: a skip says SKIPPED and why" eval 'lib_case 0 0 1 >/dev/null && grep -qx "SKIPPED: a stand-in" "$T/lib.out"'

# --- no test script can skip and pass: SKIPPED is printed only by skip()
# (which counts it, so a script of skips alone exits 77), and no exit 0
# follows a skip within three lines
tscripts=$(git ls-files 'tests/*.sh' 'tests/**/*.sh' | sort -u)
bad=$(grep -n 'SKIPPED' $tscripts | grep -v '^tests/lib\.sh:\|^tests/scripts\.sh:' | grep -v '^[^:]*:[0-9]*:[[:space:]]*#')
check "SKIPPED printed only through skip() (counted): ${bad:-none}" [ -z "$bad" ]
bad=$(for f in $tscripts; do
	[ "$f" = tests/scripts.sh ] && continue # its stand-ins
	awk -v f="$f" '/SKIPPED|(^|[^_[:alnum:]])skip[[:space:]]+["$]/ { near = NR + 3 }
		near && NR <= near && /exit[[:space:]]+0([^0-9]|$)/ { print f ":" NR }' "$f"
done)
check "no exit 0 after a skip: ${bad:-none}" [ -z "$bad" ]

# --- the scripts that skip whole, run where they cannot run: exit 77 and
# say why (stand-ins: a tristream without CUDA or MPI, no GPU)
SB=$T/sb
mkdir -p "$SB/tests" "$T/path"
cat >"$SB/tristream" <<'EOF2'
#!/usr/bin/env bash
[ "${1:-}" = --version ] && { echo "tristream stand-in (CPU only)"; exit 0; }
exit 1
EOF2
# a generator and a converter that write a stand-in graph, except where
# their arguments hold $FAIL_ON
cat >"$SB/tristream-gen" <<'EOF2'
#!/usr/bin/env bash
[ -n "${FAIL_ON:-}" ] && [[ " $* " == *"$FAIL_ON"* ]] && { echo "stand-in: failed" >&2; exit 1; }
echo stand-in >"${!#}"
EOF2
cp "$SB/tristream-gen" "$SB/tristream-convert"
printf '#!/usr/bin/env bash\n[ "$1" = -L ] && [ -n "${GPUS:-}" ] && for ((i = 0; i < GPUS; i++)); do echo "GPU $i: stand-in"; done\nexit 0\n' >"$T/path/nvidia-smi"
chmod +x "$SB"/tristream* "$T/path/nvidia-smi"
skips() { # description script args...: must exit 77 and say SKIPPED
	local what=$1; shift
	PATH=$T/path:$PATH bash "$@" >"$T/skip.out" 2>&1
	local rc=$?
	check "$what: exit $rc (77), '$(grep -m1 SKIPPED "$T/skip.out")'" eval '[ $rc = 77 ] && grep -q "^SKIPPED: ." "$T/skip.out"'
}
skips "tests/linkage.sh on a build without CUDA" tests/linkage.sh "$SB"
skips "tests/mpi.sh on a build without MPI" tests/mpi.sh "$SB" "$root" "$T/none"
skips "tests/gpu/multi.sh without a GPU" tests/gpu/multi.sh "$SB" "$T/none"

# --- tests/gpu's graphs: every one made is listed, and each one in turn,
# made to fail, fails the script, never drops out of the list in silence
# (stand-in tools; GRAPHS_ONLY=1 stops after the graphs). The counts are
# the scripts' graphs without ../shared: a graph added there is added here.
for sc in "run.sh 10" "multi.sh 9"; do
	read -r f n <<<"$sc"
	PATH=$T/path:$PATH GPUS=2 GRAPHS_ONLY=1 bash "tests/gpu/$f" "$SB" "$T/none" >"$T/g.out" 2>&1
	rc=$?
	names=$(sed -n 's/^graph //p' "$T/g.out")
	got=$(echo "$names" | grep -c .)
	check "tests/gpu/$f with stand-ins: exit $rc (0), $got graphs (want $n), ../shared's crawl skipped" \
		eval '[ $rc = 0 ] && [ "$got" = $n ] && grep -q "^SKIPPED: .*cnr-2000" "$T/g.out"'
	for g in $names; do
		PATH=$T/path:$PATH GPUS=2 GRAPHS_ONLY=1 FAIL_ON=/$g bash "tests/gpu/$f" "$SB" "$T/none" >"$T/g.out" 2>&1
		rc=$?
		check "tests/gpu/$f, $g cannot be made: exit $rc (1), said" \
			eval '[ $rc = 1 ] && grep -q "^FAIL: make $g " "$T/g.out" && ! grep -q "^graph $g\$" "$T/g.out"'
	done
done

# --- the text output: tests/report.sh fails on a tristream that prints its
# count one more (the real tools otherwise, reached through links)
if [ -n "$build" ] && [ -x "$build/tristream" ]; then
	M=$T/mut
	mkdir -p "$M/tests"
	ln -s "$build/tristream-convert" "$build/tristream-gen" "$M/"
	ln -s "$build/tests/brute" "$M/tests/"
	cat >"$M/tristream" <<EOF2
#!/usr/bin/env bash
"$build/tristream" "\$@" | python3 -c '
import re, sys
for line in sys.stdin:
    m = re.fullmatch(r"(triangles|[0-9]+-cliques): ([0-9]+)\\n", line)
    sys.stdout.write("%s: %d\\n" % (m.group(1), int(m.group(2)) + 1) if m else line)'
exit \${PIPESTATUS[0]}
EOF2
	chmod +x "$M/tristream"
	check "the stand-in prints one more: '$("$M/tristream" count --quiet --device cpu "$root/tests/data/karate.txt.gz" 2>/dev/null | head -n 1)'" \
		eval '[ "$("$M/tristream" count --quiet --device cpu "$root/tests/data/karate.txt.gz" 2>/dev/null | head -n 1)" = "triangles: 46" ]'
	bash tests/report.sh "$M" "$root" >"$T/rep.out" 2>&1
	rc=$?
	check "tests/report.sh on a count printed one more: exit $rc (1), $(tail -n 1 "$T/rep.out")" \
		eval '[ $rc = 1 ] && grep -q "^FAIL: karate, default output" "$T/rep.out"'
	# bench/groups_ab.sh on the CPU, a variant on another build (label@DIR)
	OUT=$T/gab DEV=cpu SCALE=10 RUNS=1 MODES=warm WORK_DIR=$T/gabw VARIANTS="a: ; b@$M:" \
		bash bench/groups_ab.sh "$build" >"$T/gab.out" 2>&1
	rc=$?
	check "bench/groups_ab.sh, a variant on another build: exit $rc, $(grep -c '^| warm |' "$T/gab.out") rows" \
		eval '[ $rc = 0 ] && grep -q "^| warm | a |" "$T/gab.out" && grep -q "^| warm | b |" "$T/gab.out" &&
		      grep -q "^build: $M/tristream " "$T/gab.out"'
	OUT=$T/gab2 DEV=cpu SCALE=10 RUNS=1 MODES=warm WORK_DIR=$T/gabw VARIANTS="a: ; c@$T/nowhere:" \
		bash bench/groups_ab.sh "$build" >"$T/gab2.out" 2>&1
	rc=$?
	check "bench/groups_ab.sh, a variant on a build that is not there: exit $rc (2)" \
		eval '[ $rc = 2 ] && grep -q "no $T/nowhere/tristream" "$T/gab2.out"'
	# bench/steps.py on the CPU: the process's stamps in a row each, the
	# count in the last; a variant that fails fails the bench
	python3 bench/steps.py "$build" tests/data/karate.txt.gz --runs 1 "a=--device cpu" \
		"b=--device cpu --threads 1" >"$T/steps.out" 2>&1
	rc=$?
	check "bench/steps.py on the CPU: exit $rc, $(grep -c '^| ' "$T/steps.out") table lines" \
		eval '[ $rc = 0 ] && grep -q "^| graph opened | [0-9]*\.[0-9]* | [0-9]*\.[0-9]* |$" "$T/steps.out" &&
		      grep -q "^| whole | [0-9]*\.[0-9]* | [0-9]*\.[0-9]* |$" "$T/steps.out" &&
		      grep -q "^| count | 45 | 45 |$" "$T/steps.out"'
	gzip -dc tests/data/karate.txt.gz >"$T/karate.txt"
	python3 bench/steps.py "$build" "$T/karate.txt" --runs 1 "a=--device cpu --k 4" \
		"b=--device cpu --k 4 --threads 1" >"$T/steps3.out" 2>&1
	rc=$?
	ref4=$("$build/tests/brute" --k 4 "$T/karate.txt" 2>/dev/null)
	check "bench/steps.py, 4-cliques: exit $rc, '$(grep "^| count" "$T/steps3.out")' (brute: '$ref4')" \
		eval 'num "$ref4" && [ $rc = 0 ] && grep -q "^| count | $ref4 | $ref4 |$" "$T/steps3.out"'
	python3 bench/steps.py "$build" tests/data/karate.txt.gz --runs 1 "a=--device cpu" \
		"b=--no-such-option" >"$T/steps2.out" 2>&1
	rc=$?
	check "bench/steps.py, a variant that fails: exit $rc (1), its own words" \
		eval '[ $rc = 1 ] && grep -q "^steps.py: b (--no-such-option) failed: tristream: unknown option" "$T/steps2.out"'
	python3 bench/steps.py "$T/nowhere" tests/data/karate.txt.gz "a=--device cpu" >"$T/steps4.out" 2>&1
	rc=$?
	check "bench/steps.py on a build that is not there: exit $rc (2)" \
		eval '[ $rc = 2 ] && grep -q "^steps.py: no $T/nowhere/tristream" "$T/steps4.out"'
else
	skip "no BUILD_ROOT given; tests/report.sh not run on a mutated output"
fi
finish_checks
