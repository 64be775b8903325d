#!/usr/bin/env bash
# bench/oriented.sh - an oriented .tsg (tristream-convert --oriented: the
# rank-ordered rows, each edge once) against the undirected file it came
# from, counted side by side in one run, alternating, RUNS times each (the
# oriented one as it is read, the default, and with --overlap off):
# whole process (the shell's clock), the JSON's read, build (orientation)
# and count stages, peak RSS (GNU time where present), file sizes; medians
# last. Every count must agree, and be a number.
#
#   OUT=DIR [RUNS=3] [DEV=cpu|gpu|auto] [ARGS="--k 4"] bench/oriented.sh [BUILD_DIR] [SCALE=20] [WORK_DIR]
set -u
cd "$(dirname "$0")/.."
B=${1:-build}; S=${2:-20}; D=${3:-/tmp/tsg-oriented}
: "${OUT:?set OUT=RESULT_DIR}"
RUNS=${RUNS:-3}; DEV=${DEV:-auto}; ARGS=${ARGS:-}
mkdir -p "$OUT" "$D"
U=$D/rmat$S.tsg O=$D/rmat$S.o.tsg
[ -f "$U" ] || "$B/tristream-gen" --quiet rmat --scale "$S" --seed 1 "$U" || exit 1
t=$EPOCHREALTIME
"$B/tristream-convert" --quiet --oriented "$U" "$O" || exit 1
echo "convert --oriented: $(python3 -c "print(round($EPOCHREALTIME - $t, 2))") s" | tee "$OUT/convert.txt"
TIME=$(command -v /usr/bin/time)
for i in $(seq 1 "$RUNS"); do
	for v in u o x; do
		f=$U; more=
		[ $v = u ] || f=$O
		[ $v = x ] && more="--overlap off"
		t=$EPOCHREALTIME
		# shellcheck disable=SC2086 # ARGS and more: several words on purpose
		${TIME:+$TIME -f %M -o "$OUT/$v-$i.rss"} "$B/tristream" count --quiet --json --device "$DEV" $ARGS $more "$f" >"$OUT/$v-$i.json" 2>"$OUT/$v-$i.err"
		echo "$? $(python3 -c "print($EPOCHREALTIME - $t)")" >"$OUT/$v-$i.meta"
	done
done
python3 - "$OUT" "$RUNS" "$U" "$O" <<'PY'
import json, os, statistics, sys
out, runs, u, o = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
bad = 0
counts = set()
rows = []
names = {"u": "undirected", "o": "oriented", "x": "oriented, --overlap off"}
for v, f in (("u", u), ("o", o), ("x", o)):
    w, rd, bu, co, rss = [], [], [], [], []
    for i in range(1, runs + 1):
        rc, wall = open(f"{out}/{v}-{i}.meta").read().split()
        try:
            d = json.load(open(f"{out}/{v}-{i}.json"))
        except Exception:
            d = {}
        c = d.get("cliques", d.get("triangles"))
        if rc != "0" or not isinstance(c, int):
            print(f"FAIL: {v} run {i}: exit {rc}, count {c!r}"); bad = 1; continue
        counts.add(c)
        st = d.get("stages", {})
        w.append(float(wall)); rd.append(st.get("read", 0)); bu.append(st.get("build", 0)); co.append(st.get("count", 0))
        if os.path.exists(f"{out}/{v}-{i}.rss"):
            rss.append(int(open(f"{out}/{v}-{i}.rss").read().split()[-1]) / 1024)
    m = lambda x: statistics.median(x) if x else float("nan")
    rows.append((names[v], os.path.getsize(f) / 1e6, m(w), min(w, default=0), max(w, default=0), m(rd), m(bu), m(co), m(rss), d.get("device_name", "")))
if len(counts) != 1:
    print(f"FAIL: counts differ or are missing: {sorted(counts)}"); bad = 1
print(f"count: {sorted(counts)}; medians of {runs}")
print(f"{'file':23} {'MB':>8} {'whole s':>8} {'(min-max)':>13} {'read':>6} {'build':>6} {'count':>6} {'RSS MB':>7}  device")
for r in rows:
    print(f"{r[0]:23} {r[1]:8.1f} {r[2]:8.2f} {r[3]:6.2f}-{r[4]:<6.2f} {r[5]:6.2f} {r[6]:6.2f} {r[7]:6.2f} {r[8]:7.0f}  {r[9]}")
sys.exit(bad)
PY
