#!/usr/bin/env bash
# bench/fixed_costs.sh BUILD_DIR WORK_DIR [RUNS] - where the GPU's fixed
# costs (context, allocations, copies) outweigh its speed: end-to-end
# `count` on the GPU and on the CPU (all threads), warm page cache, side by
# side on graphs from 1 M to 64 M edges of two shapes (web-like and R-MAT),
# medians of RUNS (default 3). Prints, per graph, the header's counts, the
# sum of squared degrees (wedges x 2 + degrees: a work estimate known
# before the lists are read) and both times: the data for --device auto's
# rule; then --device auto's time and choice beside them.
set -eu
B=$1 W=$2 RUNS=${3:-3}
mkdir -p "$W"
graphs=()
for l in 17 18 19 20 21 22 23; do
	"$B/tristream-gen" --quiet web --vertices $((1 << l)) --seed 1 "$W/web$l.tsg"
	graphs+=("$W/web$l.tsg")
done
for l in 15 16 17 18 19 20 21 22; do
	"$B/tristream-gen" --quiet rmat --scale $l --seed 1 "$W/rmat$l.tsg"
	graphs+=("$W/rmat$l.tsg")
done
printf '%-12s %10s %11s %14s %9s %9s %7s %9s %5s %s\n' graph vertices edges "sum d^2" "gpu s" "cpu s" "gpu/cpu" "auto s" auto count
for g in "${graphs[@]}"; do
	sq=$(python3 - "$g" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
nsec, = struct.unpack_from("<I", b, 20); nv, = struct.unpack_from("<Q", b, 24)
for i in range(nsec):
    kind, off = struct.unpack_from("<I4xQ", b, 64 + 32 * i)
    if kind == 1:
        o = struct.unpack_from("<%dQ" % (nv + 1), b, off)
print(sum((o[v + 1] - o[v]) ** 2 for v in range(nv)))
PY
)
	tg=() tc=() ta=()
	for i in $(seq "$RUNS"); do
		for d in gpu cpu auto; do
			s=$(date +%s.%N)
			out=$("$B/tristream" count --quiet --json --device $d "$g")
			e=$(date +%s.%N)
			t=$(python3 -c "print($e - $s)")
			n=$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["triangles"], d["vertices"], d["edges"])')
			case $d in
			gpu) tg+=("$t"); ng=$n ;;
			cpu) tc+=("$t"); nc=$n ;;
			auto) ta+=("$t"); na=$n; ad=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["device"])') ;;
			esac
		done
	done
	[ "$ng" = "$nc" ] && [ "$na" = "$nc" ] || { echo "COUNTS DIFFER on $g: $ng / $nc / $na"; exit 1; }
	python3 - "$(basename "$g" .tsg)" "$sq" "$ng" "${tg[*]}" "${tc[*]}" "${ta[*]}" "$ad" <<'PY'
import statistics, sys
name, sq, n, tg, tc, ta, ad = sys.argv[1:]
tri, nv, ne = n.split()
med = lambda x: statistics.median(map(float, x.split()))
g, c, a = med(tg), med(tc), med(ta)
print("%-12s %10s %11s %14s %9.3f %9.3f %7.2f %9.3f %5s %s" % (name, nv, ne, sq, g, c, g / c, a, ad, tri))
PY
done
