#!/usr/bin/env bash
# bench/groups_ab.sh - variants of the arrival layout in groups side by
# side in one call: R-MAT SCALE (seed 1) with a fraction of the file's size
# as the GPU's budget (groups, kernels/arrival.cu), each variant an
# environment (the groups' bench knobs: TSG_ARRIVAL_GROUP_UNITS,
# _TALLY, _B, _REC, _EARLY ...) and tristream options, warm and cold, run
# round by round (round i: every variant's i-th run), so that the call's
# drift falls on all alike. Session 52's units of batches were measured
# this way (bench/RESULTS.md; its raw files hold the one-off script this
# generalises).
#
#   OUT=RESULT_DIR [RUNS=3] [SCALE=26] [FRACTION=4] [EXPECT=N] [DEV=gpu]
#   [MODES="warm cold"] [WORK_DIR=/tmp/tsg-groups-ab]
#   [VARIANTS="units: ; batch-a-launch:TSG_ARRIVAL_GROUP_UNITS=0"]
#       bench/groups_ab.sh [BUILD_DIR=build-gpu]
#
# FRACTION=0: no --gpu-mem (the whole GPU: the arrival layout in one
# region, for knobs that act there too).
# VARIANTS: `;`-separated `label:ENV=V ENV=V -- OPTIONS`, the part before
# `--` set in the environment, the part after passed to tristream count;
# `label@DIR:...` runs DIR/tristream instead of BUILD_DIR's, so that two
# builds are compared round by round (DIR relative to where the script
# was started).
# Warm: the file read into the page cache first, --io auto; cold: the page
# cache dropped before each run (and the program's own files read back, so
# that only the graph is cold), --io uring (O_DIRECT), and `dd` O_DIRECT of
# the file each round beside. Columns: whole = the process from the shell;
# GPU = JSON stages.count (copies and kernels); group ends = JSON
# arrival_groups.group_end_s; pair / unit launches; x dd = whole over the
# round's dd (cold). Medians of RUNS, (min-max) of whole. Checks: every
# run exits 0 with a numeric count, every count equal (and to EXPECT where
# given; R-MAT 26 seed 1: 49154930897); each failure a FAIL line, exit 1.
# DEV=cpu runs the script where there is no GPU (counts on the CPU, no
# groups: the columns say "-"). One JSON per run in OUT; the table last,
# also in OUT/table.md.
set -u
export LC_ALL=C
[ -n "${EPOCHREALTIME:-}" ] || { echo "groups_ab.sh: needs bash 5 (EPOCHREALTIME)" >&2; exit 2; }
B=${1:-build-gpu}
: "${OUT:?set OUT=RESULT_DIR}"
RUNS=${RUNS:-3} S=${SCALE:-26} F=${FRACTION:-4} DEV=${DEV:-gpu} MODES=${MODES:-warm cold}
D=${WORK_DIR:-/tmp/tsg-groups-ab}
VARIANTS=${VARIANTS:-"units: ; batch-a-launch:TSG_ARRIVAL_GROUP_UNITS=0"}
case $RUNS$S$F in *[!0-9]*) echo "groups_ab.sh: RUNS, SCALE and FRACTION are numbers" >&2; exit 2 ;; esac
[ "$RUNS" -ge 1 ] || { echo "groups_ab.sh: RUNS at least 1" >&2; exit 2; }
case $DEV in gpu | cpu) ;; *) echo "groups_ab.sh: DEV is gpu or cpu, not '$DEV'" >&2; exit 2 ;; esac
for m in $MODES; do
	case $m in warm | cold) ;; *) echo "groups_ab.sh: MODES holds warm and cold, not '$m'" >&2; exit 2 ;; esac
done
for t in tristream tristream-gen; do
	[ -x "$B/$t" ] || { echo "groups_ab.sh: no $B/$t" >&2; exit 2; }
done
mkdir -p "$OUT" "$D" || exit 1
B=$(cd "$B" && pwd) OUT=$(cd "$OUT" && pwd)
G=$D/rmat$S.tsg
[ -f "$G" ] || "$B/tristream-gen" --quiet --seed 1 rmat --scale "$S" "$G" ||
	{ echo "FAIL: tristream-gen rmat --scale $S"; exit 1; }
budget=0
[ "$F" -gt 0 ] && budget=$(($(stat -c %s "$G") / F))
IFS=';' read -r -a VS <<<"$VARIANTS"
# each variant's label and program (label@DIR: DIR's), once; BINS: every
# program, read back after each drop
VLABEL=() VBIN=() BINS=("$B/tristream")
for j in "${!VS[@]}"; do
	l=$(echo "${VS[$j]%%:*}" | tr -d ' ')
	VLABEL[j]=${l%%@*} VBIN[j]=$B/tristream
	case $l in *@*)
		d=${l#*@}
		[ -x "$d/tristream" ] || { echo "groups_ab.sh: no $d/tristream (variant '$l')" >&2; exit 2; }
		VBIN[j]=$(cd "$d" && pwd)/tristream
		BINS+=("${VBIN[j]}") ;;
	esac
done
mapfile -t PROG < <(for b in "${BINS[@]}"; do echo "$b"; ldd "$b" 2>/dev/null | awk '$3 ~ /^\// { print $3 }'; done | sort -u
	ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 / { print $NF; exit }')
drop() { sync; echo 3 2>/dev/null >/proc/sys/vm/drop_caches || true; cat "${PROG[@]}" >/dev/null; }
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); host: $(nproc) CPUs"
	command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
	for b in "${BINS[@]}"; do
		echo "build: $b sha256 $(sha256sum "$b" | cut -c1-16)"
	done
	echo "checkout: $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null)"
	echo "graph: $G ($(stat -c %s "$G") bytes), --gpu-mem $([ "$F" -gt 0 ] && echo "$budget (1/$F)" || echo "not given (FRACTION=0)"); DEV=$DEV RUNS=$RUNS MODES=\"$MODES\""
	echo "variants: $VARIANTS"
	[ -w /proc/sys/vm/drop_caches ] || echo "page cache: CANNOT be dropped: cold runs read with O_DIRECT only"
} | tee "$OUT/machine.txt"
run() { # mode round index
	local v=${VS[$3]} label=${VLABEL[$3]} bin=${VBIN[$3]} env opts
	v=${v#*:}
	env=${v%%--*}
	opts=""
	case $v in *--*) opts=${v#*--} ;; esac
	local io=auto dev=(--device gpu --gpu 0)
	[ "$budget" -gt 0 ] && dev+=(--gpu-mem "$budget")
	[ "$1" = cold ] && { drop; io=uring; }
	[ "$DEV" = cpu ] && dev=(--device cpu)
	local f=$OUT/$1-$label-$2 t0 t1 rc
	t0=$EPOCHREALTIME
	# shellcheck disable=SC2086 # env and opts are word lists by design
	env $env "$bin" count --json --quiet "${dev[@]}" --io "$io" $opts "$G" >"$f.json" 2>"$f.err"
	rc=$?
	t1=$EPOCHREALTIME
	echo "$rc $t0 $t1" >"$f.meta"
	echo "$1 $label round $2: exit $rc, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
}
for m in $MODES; do
	[ "$m" = warm ] && cat "$G" >/dev/null
	for i in $(seq 1 "$RUNS"); do
		if [ "$m" = cold ]; then
			drop
			t0=$EPOCHREALTIME
			dd if="$G" of=/dev/null bs=64M iflag=direct 2>/dev/null
			echo "$? $t0 $EPOCHREALTIME" >"$OUT/dd-$i.meta"
		fi
		for j in "${!VS[@]}"; do run "$m" "$i" "$j"; done
	done
done
python3 - "$OUT" "$RUNS" "${EXPECT:-}" "$MODES" "$VARIANTS" <<'PY' | tee "$OUT/table.md"
import json, statistics, sys
out, runs, expect, modes, variants = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].split(), sys.argv[5]
labels = [v.split(':', 1)[0].replace(' ', '').split('@')[0] for v in variants.split(';')]
def meta(f):
    rc, a, b = open(f).read().split()
    return int(rc), float(b) - float(a)
dd = [meta('%s/dd-%d.meta' % (out, i))[1] for i in range(1, runs + 1)] if 'cold' in modes else []
fails, counts = [], set()
med = lambda xs: '%.2f' % statistics.median(xs) if xs else '-'
print('| mode | variant | whole, median (min-max) | x dd | GPU | group ends | pair / unit launches |')
print('|---|---|---|---|---|---|---|')
for m in modes:
    for l in labels:
        whole, ratio, gpu, ends, launches = [], [], [], [], set()
        for i in range(1, runs + 1):
            f = '%s/%s-%s-%d' % (out, m, l, i)
            rc, s = meta(f + '.meta')
            try:
                d = json.load(open(f + '.json'))
            except Exception:
                d = {}
            t = d.get('triangles')
            if rc != 0 or not isinstance(t, int):
                fails.append('%s %s round %d: exit %d, count %r' % (m, l, i, rc, t))
                continue
            counts.add(t)
            whole.append(s)
            if dd:
                ratio.append(s / dd[i - 1])
            gpu.append(d.get('stages', {}).get('count', 0))
            a = d.get('arrival_groups', {})
            if a:
                ends.append(a.get('group_end_s', 0))
                launches.add('%s / %s' % (a.get('pair_launches', '-'), a.get('unit_launches', '-')))
        span = '(%.2f-%.2f)' % (min(whole), max(whole)) if whole else ''
        print('| %s | %s | %s %s | %s | %s | %s | %s |' % (m, l, med(whole), span,
              med(ratio) if m == 'cold' else '-', med(gpu) if gpu else '-', med(ends) if ends else '-',
              ', '.join(sorted(launches)) or '-'))
if dd:
    print('\n`dd` O_DIRECT: %s s (median %s)' % (' / '.join('%.2f' % x for x in dd), med(dd)))
if len(counts) > 1:
    fails.append('counts differ: %s' % sorted(counts))
if expect and counts and counts != {int(expect)}:
    fails.append('counts %s, not EXPECT %s' % (sorted(counts), expect))
print('\ncount: %s' % (', '.join(str(c) for c in sorted(counts)) or 'none'))
for f in fails:
    print('FAIL: ' + f)
sys.exit(1 if fails or not counts else 0)
PY
exit "${PIPESTATUS[0]}"
