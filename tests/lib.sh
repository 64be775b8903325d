# tests/lib.sh - what the shell tests share (sourced): a check counter, a
# visible skip, the closing line and exit status, the count comparison, and
# the real graphs with published counts.
pass=0; fail=0; skipped=0
failed_names="" # each failure's line again, for the closing lines (a log cut to its tail still names them)
# python3 as its interpreter, not a version manager's shim (pyenv's costs
# two more processes a call, a third of a second on a loaded 2-core
# machine, and the tests call it hundreds of times)
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ] && PATH=${py%/*}:$PATH
unset py
check() { # description, condition... (returns the condition's status)
	local what=$1; shift
	if "$@"; then pass=$((pass+1)); return 0; fi
	fail=$((fail+1)); echo "FAIL: $what"; failed_names="$failed_names
FAIL: $what"; return 1
}
# The GPU scripts' form of check: a condition evaluated by the caller
# (`cond && ok || bad "why"`), counted the same way.
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; failed_names="$failed_names
FAIL: $*"; }
# A check (or a named group of checks) that cannot run here: said on its
# own line and counted, never passed over in silence.
skip() { # why...
	skipped=$((skipped+1)); echo "SKIPPED: $*"
}
# The closing line, "N passed, N failed" (", N skipped" where any was), and
# the exit status: 1 on a failure or where nothing at all was checked, 77
# (meson's "skipped") where every check was skipped, else 0.
finish_checks() {
	if [ $((pass + fail + skipped)) = 0 ]; then fail=1; echo "FAIL: nothing was checked"; fi
	[ -z "$failed_names" ] || printf 'the failures again:%s\n' "$failed_names"
	if [ "$skipped" -gt 0 ]; then
		echo "$pass passed, $fail failed, $skipped skipped"
	else
		echo "$pass passed, $fail failed"
	fi
	[ "$fail" = 0 ] || exit 1
	[ "$pass" -gt 0 ] || exit 77
	exit 0
}
wait_size() { # FILE BYTES PID: until FILE holds BYTES or more, or PID has ended
	while kill -0 "$3" 2>/dev/null && [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -lt "$2" ]; do
		sleep 0.02
	done
}
# Runs CMD in a child memory cgroup of LIMIT_BYTES (v1 or v2), or returns
# 99 where none can be made here (the caller then skips, visibly).
cg_run() { # LIMIT_BYTES CMD...
	local rel base cg lim=$1; shift
	rel=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup)
	if [ -n "$rel" ] && [ -w "/sys/fs/cgroup/memory$rel" ]; then
		cg="/sys/fs/cgroup/memory$rel/tsg-test-$$"; mkdir "$cg" 2>/dev/null || return 99
		echo "$lim" >"$cg/memory.limit_in_bytes" || { rmdir "$cg"; return 99; }
	else
		rel=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup); base=/sys/fs/cgroup/unified
		[ -d "$base" ] || base=/sys/fs/cgroup
		cg="$base$rel/tsg-test-$$"; mkdir "$cg" 2>/dev/null || return 99
		echo "$lim" >"$cg/memory.max" 2>/dev/null || { rmdir "$cg"; return 99; }
	fi
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"
	local rc=$?
	rmdir "$cg" 2>/dev/null
	return $rc
}
# GPUs a test may use: NGPU where set, else CUDA_VISIBLE_DEVICES's entries
# where set (nvidia-smi lists every GPU of the host whatever it says),
# else nvidia-smi's count (0 without it)
gpus_visible() {
	if [ -n "${NGPU:-}" ]; then
		echo "$NGPU"
	elif [ -n "${CUDA_VISIBLE_DEVICES+x}" ]; then
		echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c '[^[:space:]]'
	else
		nvidia-smi -L 2>/dev/null | grep -c '^GPU'
	fi
}
# A count comparison passes only on two equal decimal numbers: an empty or
# non-numeric side (a failed run) fails it, so "" = "" can never pass.
num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
same() { num "$1" && num "$2" && [ "$1" = "$2" ]; }
# The real graphs with published counts as T/NAME.tsg: the ones bundled in
# tests/data (tests/data/README.md) always, grqc (ca-GrQc), email
# (email-Eu-core) and fb (ego-Facebook); the ones only SHARED
# (../shared/graphs) has where it has them, slash (soc-Slashdot0902), hepph
# (ca-HepPh) and cnr (the LAW crawl cnr-2000, symmetrized), each one it
# lacks SKIPPED. Each conversion is a check: a graph that cannot be made
# fails, it never drops out. B is the build folder, SRC the source root;
# real_graphs lists the names made.
convert_real() { # B SRC SHARED T
	local B=$1 D=$2/tests/data S=$3 T=$4 f n
	real_graphs=()
	for f in ca-GrQc.txt.gz:grqc email-Eu-core.txt.gz:email facebook_combined.txt.gz:fb; do
		n=${f##*:} f=${f%%:*}
		check "convert the bundled $f" "$B/tristream-convert" --quiet "$D/$f" "$T/$n.tsg" && real_graphs+=("$n")
	done
	for f in soc-Slashdot0902.txt.gz:slash ca-HepPh.txt:hepph cnr-2000/cnr-2000.graph:cnr; do
		n=${f##*:} f=${f%%:*}
		if [ -n "$S" ] && [ -f "$S/$f" ]; then
			check "convert $S/$f" "$B/tristream-convert" --quiet "$S/${f%.graph}" "$T/$n.tsg" && real_graphs+=("$n")
		else
			skip "$n: ${S:-../shared/graphs}/$f not found (not bundled; its checks not run)"
		fi
	done
}
# add_graph PATH CMD...: runs CMD... PATH (a generator or converter writing
# PATH) and lists PATH in the array graphs; a graph that cannot be made is
# a failed check, never one dropped from the list in silence
add_graph() {
	local g=$1; shift
	check "make $(basename "$g") ($(basename "$1") ${*:2})" "$@" "$g" && graphs+=("$g")
}
