#!/usr/bin/env bash
# bench/clique_ab.sh OLD_BUILD NEW_BUILD WORK_DIR - k-cliques on the GPU, two
# builds side by side in one run, alternating, medians of RUNS (default 3)
# of the engine's stages (plan, build, count, engine: the JSON's "stages")
# on R-MAT 20 and 22 (tristream-gen --seed 1), K = 4 and 5 in memory and
# K = 4 at 1/4 of the file (--gpu-mem). ROWS=mem: in memory only; K5Q=1:
# R-MAT 20 K = 5 at 1/4 too (one run, LIM seconds at most); KHI="6 7":
# R-MAT 20 in memory at those K (one run each); EXTRA="a.tsg b.tsg": those
# graphs in memory at K = 5 and 6 (medians of RUNS), for each method of
# METHODS (default: auto). Counts must
# agree between the builds and runs ("same N", else "DIFFER").
O=$1; N=$2; W=$3; mkdir -p "$W"; RUNS=${RUNS:-3}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
one() { local b=$1; shift
	timeout ${LIM:-60} $b/tristream count --quiet --json "$@" 2>$W/err | python3 -c '
import json,sys
d=json.load(sys.stdin); st=d["stages"]
print(d.get("cliques"), d["partitions"], st.get("plan",0), st.get("build",0), st.get("count",0), st.get("engine",0))' || echo "X"
}
row() { local l=$1; shift
	local ro=() rn=() c=
	for i in $(seq $RUNS); do
		for b in old new; do
			B=$O; [ $b = new ] && B=$N
			r=$(one $B "$@"); echo "  $l $b: $r" >&2 # every run, on stderr
			[ "$r" = X ] && { echo "$l $b: FAILED/TIMEOUT $(tail -1 $W/err)"; return; }
			[ $b = old ] && ro+=("$r") || rn+=("$r")
		done
	done
	python3 - "$l" "${ro[@]}" -- "${rn[@]}" <<'PY'
import sys, statistics as s
l=sys.argv[1]; a=sys.argv[2:]; i=a.index("--"); o=[x.split() for x in a[:i]]; n=[x.split() for x in a[i+1:]]
def med(rs,j): return s.median(float(r[j]) for r in rs)
cnt={r[0] for r in o+n}
print("%-22s parts %3s/%3s plan %6.2f/%6.2f build %6.2f/%6.2f count %7.3f/%7.3f engine %7.3f/%7.3f  %.2fx %s" % (l, o[0][1], n[0][1], med(o,2), med(n,2), med(o,3), med(n,3), med(o,4), med(n,4), med(o,5), med(n,5), med(o,5)/med(n,5), "same "+o[0][0] if len(cnt)==1 else "DIFFER %s" % cnt))
PY
}
for s in 20 22; do $N/tristream-gen --quiet rmat --scale $s --seed 1 $W/rmat$s.tsg; done
echo "graph/K/budget         old/new (medians of $RUNS, seconds)"
for s in 20 22; do
	g=$W/rmat$s.tsg; q=$(( $(stat -c %s $g) / 4 ))
	row "rmat$s K4 memory" --k 4 $g
	row "rmat$s K5 memory" --k 5 $g
	[ "${ROWS:-all}" = mem ] || row "rmat$s K4 1/4" --k 4 --gpu-mem $q $g
done
g=$W/rmat20.tsg; q=$(( $(stat -c %s $g) / 4 ))
[ -n "${K5Q:-}" ] && RUNS=1 row "rmat20 K5 1/4" --k 5 --gpu-mem $q $g
for k in ${KHI:-}; do RUNS=1 row "rmat20 K$k memory" --k $k $g; done
for g in ${EXTRA:-}; do
	for m in ${METHODS:-auto}; do
		for k in 5 6; do row "$(basename $g .tsg) K$k $m" --k $k --kclique-method $m $g; done
	done
done
