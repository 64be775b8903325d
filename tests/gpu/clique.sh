#!/usr/bin/env bash
# tests/gpu/clique.sh BUILD_DIR [SHARED_GRAPHS_DIR] - k-cliques on the GPU,
# run by a developer on the GPU machine: both methods, both schemes
# (vertex- and edge-centric) and several group sizes, K = 4..8, against
# tests/brute (independent) on random graphs and the CPU backend (itself
# checked against brute by tests/clique.sh) on larger ones, the shared
# graphs' reference counts, closed forms on cliques; several parts under a
# small --gpu-mem, degeneracy order; overflow (exit 9); compute-sanitizer
# memcheck and racecheck on each method and scheme. Ends with "N passed, N
# failed" (", N skipped" where any was).
# PART=counts or PART=sanitizer in the environment runs one half; PART=early
# the counts before the closed forms (random graphs against brute, R-MAT
# against the CPU), PART=late the counts from the closed forms on: the two
# make PART=counts, which took 819 s on an H100, past the device tool's
# 10-minute limit for one command.
set -u
B=${1:-build}
SHARED=${2:-../shared/graphs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../lib.sh"
gen() { "$B/tristream-gen" --quiet "$@"; }
kall() { # graph device args... -> every size's count and the largest, on one line
	local g=$1 dev=$2; shift 2
	"$B/tristream" count --quiet --json --device "$dev" --k-all "$@" "$g" 2>"$T/err" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(map(str, d["clique_counts"])), d["max_clique"])' 2>/dev/null
}
bipartite() { # K(300,300) as T/bip.tsg: out-lists of 300, no triangle
	python3 -c 'print("\n".join("%d %d" % (i, j) for i in range(300) for j in range(300, 600)))' >"$T/bip.txt" &&
		"$B/tristream-convert" --quiet "$T/bip.txt" "$T/bip.tsg"
}
kc() { # graph K device args... -> the count
	local g=$1 k=$2 dev=$3; shift 3
	"$B/tristream" count --quiet --json --device "$dev" --k "$k" "$@" "$g" 2>"$T/err" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["cliques"])' 2>/dev/null
}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
PART=${PART:-all}
case $PART in all | counts | early | late | sanitizer) ;; *)
	echo "FAIL: PART=$PART is none of all, counts, early, late, sanitizer"
	echo "0 passed, 1 failed"
	exit 1 ;;
esac

gen er --vertices 300 --edges 6000 --seed 1 "$T/er.tsg"
gen rmat --scale 10 --edge-factor 8 --seed 4 "$T/rmat10.tsg"
gen web --vertices 3000 --seed 5 "$T/web.tsg"
gen rmat --scale 13 --seed 4 "$T/rmat13.tsg"
gen rmat --scale 14 --edge-factor 8 --seed 2 "$T/rmat14.tsg"
gen clique --vertices 40 "$T/k40.tsg"
gen clique --vertices 200 "$T/k200.tsg"
case $PART in sanitizer | late) ;; *) false ;; esac || for g in er rmat10 web; do
	for k in 4 5 6 7 8; do
		ref=$("$B/tests/brute" --k $k "$T/$g.tsg")
		for m in orient pivot; do
			for v in "" "--partitions 3" "--order degeneracy" "--kclique-scheme vertex" \
				"--kclique-scheme edge" "--kclique-scheme vertex --kclique-group 1" \
				"--kclique-scheme edge --kclique-group 4" "--kclique-scheme vertex --kclique-group 32" \
				"--kclique-scheme edge --kclique-group 32 --partitions 3"; do
				[ $m = pivot ] && case $v in *group*) continue ;; esac
				got=$(kc "$T/$g.tsg" $k gpu --kclique-method $m $v)
				check "$g K=$k $m $v: GPU $got, brute $ref" same "$got" "$ref"
			done
		done
	done
	echo "checked $g ($SECONDS s)"
done
# (R-MAT has vast numbers of cliques: 6-cliques of R-MAT 16 are 6.2e10,
# minutes for orientation; these scales stay within seconds)
case $PART in sanitizer | late) ;; *) false ;; esac || for g in rmat13 rmat14; do
	bytes=$(stat -c %s "$T/$g.tsg")
	for k in 4 5 6 7 8; do
		ref=$(kc "$T/$g.tsg" $k cpu --kclique-method pivot)
		for m in orient pivot; do
			[ $m = orient ] && [ $k -gt 7 ] && [ $g = rmat13 ] && continue # 1.7e10 8-cliques: slow
			for sc in vertex edge; do
				got=$(kc "$T/$g.tsg" $k gpu --kclique-method $m --kclique-scheme $sc)
				check "$g K=$k $m $sc: GPU $got, CPU $ref" same "$got" "$ref"
			done
			got=$(kc "$T/$g.tsg" $k gpu --kclique-method $m --gpu-mem $((bytes / 3)))
			parts=$("$B/tristream" count --quiet --json --device gpu --k $k --kclique-method $m --gpu-mem $((bytes / 3)) "$T/$g.tsg" | python3 -c 'import json,sys; print(json.load(sys.stdin)["partitions"])')
			check "$g K=$k $m --gpu-mem 1/3 ($parts parts): GPU $got, CPU $ref" same "$got" "$ref"
			# the greedy closed plan in the degeneracy order (its lists
			# stored in that order, partition/part.c)
			if [ $k -le 5 ]; then
				check "$g K=$k $m --gpu-mem 1/3 --order degeneracy" same \
					"$(kc "$T/$g.tsg" $k gpu --kclique-method $m --order degeneracy --gpu-mem $((bytes / 3)))" "$ref"
			fi
		done
	done
	echo "checked $g ($parts parts at 1/3 of the file)"
done
[ "$PART" = early ] && { skip "PART=early: the closed forms and the counts after them not run"; finish_checks; }
[ "$PART" = sanitizer ] || for k in 4 8 12; do
	ref=$(python3 -c "import math; print(math.comb(40, $k))")
	got=$(kc "$T/k40.tsg" $k gpu --kclique-method pivot)
	check "K40 K=$k pivot: $got, C(40,$k) $ref" same "$got" "$ref"
done
if [ "$PART" != sanitizer ]; then
	got=$(kc "$T/k40.tsg" 20 gpu --kclique-method pivot)
	check "K40 K=20 pivot: $got" same "$got" "$(python3 -c 'import math; print(math.comb(40, 20))')"
	# out-lists up to 199: tiers 0 and 1 (kernels/clique.h)
	for k in 4 5 6; do
		ref=$(python3 -c "import math; print(math.comb(200, $k))")
		for v in "orient --kclique-scheme vertex" "orient --kclique-scheme edge --kclique-group 1" \
			"orient --kclique-scheme edge --kclique-group 8" "pivot --kclique-scheme vertex" \
			"pivot --kclique-scheme edge"; do
			got=$(kc "$T/k200.tsg" $k gpu --kclique-method $v)
			check "K200 K=$k $v: $got, C(200,$k) $ref" same "$got" "$ref"
		done
	done
	# the tiers' edges (kernels/clique.h): out-lists of 128 and 129, 256 and 257
	for n in 130 258; do
		gen clique --vertices $n "$T/k$n.tsg"
		for k in 4 5; do
			ref=$(python3 -c "import math; print(math.comb($n, $k))")
			for v in "orient --kclique-scheme vertex" "orient --kclique-scheme edge" \
				"pivot --kclique-scheme vertex" "pivot --kclique-scheme edge"; do
				got=$(kc "$T/k$n.tsg" $k gpu --kclique-method $v)
				check "K$n K=$k $v: $got, C($n,$k) $ref" same "$got" "$ref"
			done
		done
	done
	# tier 0's stacks in shared memory (kern_clique_tier_shared): orientation
	# with groups of one lane up to K = 16, the next K in the pool; pivoting
	# (lists of 128). Counts by closed form on a 30-clique, and the JSON
	# says which ran.
	gen clique --vertices 30 "$T/k30.tsg"
	for v in "16 orient vertex True" "17 orient vertex False" "16 orient edge True" \
		"17 orient edge False" "5 pivot vertex True" "9 pivot edge True"; do
		read -r k m sc sh <<<"$v"
		out=$("$B/tristream" count --quiet --json --device gpu --k $k --kclique-method $m --kclique-scheme $sc $([ $m = orient ] && echo --kclique-group 1) "$T/k30.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["clique_shared_tier0"], d["cliques"])')
		check "K30 K=$k $m $sc shared tier 0 $sh: '$out'" [ "$out" = "$sh $(python3 -c "import math; print(math.comb(30, $k))")" ]
	done
	# auto's choices, said in the JSON: the scheme by K, the method by a
	# race on the host (R-MAT 13), by K below 1024 vertices (K40); on an
	# 1100-clique at K = 7 orientation cannot finish (C(1099,6) subsets a
	# source) and the race must stop it and take pivoting
	for kx in "4 vertex" "5 edge" "6 edge" "7 edge" "8 edge"; do
		read -r k sc <<<"$kx"
		out=$("$B/tristream" count --quiet --json --device gpu --k $k "$T/rmat13.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); m=d["clique_method"]; print(m in ("orient", "pivot"), d["clique_scheme"], d.get("clique_group", "-") == (1 if m == "orient" else "-"), d["clique_method_chosen"].startswith("raced on the host"), d["cliques"])')
		check "auto at K=$k: '$out'" [ "$out" = "True $sc True True $(kc "$T/rmat13.tsg" $k cpu --kclique-method pivot)" ]
	done
	for kx in "4 orient" "7 pivot"; do
		read -r k m <<<"$kx"
		out=$("$B/tristream" count --quiet --json --device gpu --k $k "$T/k40.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["clique_method"], d["clique_method_chosen"], d["cliques"])')
		check "auto on K40 at K=$k: '$out'" [ "$out" = "$m by K: pivoting from K = 7 $(python3 -c "import math; print(math.comb(40, $k))")" ]
	done
	gen clique --vertices 1100 "$T/k1100.tsg"
	out=$("$B/tristream" count --quiet --json --device gpu --k 7 "$T/k1100.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["clique_method"], d["clique_method_chosen"].startswith("raced"), d["cliques"])')
	check "auto on K1100 at K=7 races and pivots: '$out'" [ "$out" = "pivot True $(python3 -c "import math; print(math.comb(1100, 7))")" ]
	"$B/tristream" count --quiet --device gpu --k 16 --kclique-method pivot "$T/k200.tsg" >"$T/out" 2>"$T/err"
	rc=$?
	check "C(200,16) > 2^64 on the GPU: exit $rc, not 9" [ $rc = 9 ]
	check "overflow: nothing on stdout" [ ! -s "$T/out" ]
	# --k-all on the GPU: every size against the CPU backend's (checked
	# against brute by tests/clique.sh), in one part, in 3 and (where a
	# part fits) under a third of the file; closed forms on a clique.
	# (dense: 1000 vertices of degree about 400, out-lists from under 128
	# to over 256, tiers 0 to 2; bip: K(300,300))
	gen er --vertices 1000 --edges 200000 --seed 3 "$T/dense.tsg"
	bipartite
	for g in er rmat10 web rmat13 rmat14 dense bip; do
		ref=$(kall "$T/$g.tsg" cpu)
		third=
		case $g in rmat1[34]) third="--gpu-mem $(($(stat -c %s "$T/$g.tsg") / 3))" ;; esac
		for v in "" "--partitions 3" ${third:+"$third"}; do
			got=$(kall "$T/$g.tsg" gpu $v)
			check "$g --k-all GPU $v: '${got:0:60}...' = CPU" eval '[ -n "$ref" ] && [ "$got" = "$ref" ]'
		done
	done
	got=$(kall "$T/k40.tsg" gpu)
	check "K40 --k-all GPU: C(40, j), j = 1..40, max 40" [ "$got" = "$(python3 -c 'import math; print(" ".join(str(math.comb(40, j)) for j in range(1, 41)), 40)')" ]
	"$B/tristream" count --quiet --device gpu --k-all "$T/k200.tsg" >"$T/out" 2>"$T/err"
	rc=$?
	check "--k-all on K200 (C(200,100) > 2^64) on the GPU: exit $rc, not 9" [ $rc = 9 ]
	check "--k-all overflow: nothing on stdout" [ ! -s "$T/out" ]
	rc=$("$B/tristream" count --quiet --device gpu --k-all --kclique-scheme edge "$T/er.tsg" >/dev/null 2>"$T/err"; echo $?)
	check "--k-all --kclique-scheme edge: exit $rc, not 2" [ "$rc" = 2 ]
	check "--k-all --kclique-scheme edge says why" grep -q "whole subgraph" "$T/err"
	out=$("$B/tristream" count --quiet --json --k-all "$T/er.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["device"], d["clique_method"], d["clique_scheme"])')
	check "--k-all with --device auto counts on the GPU: '$out'" [ "$out" = "gpu pivot vertex" ]
fi

if [ "$PART" != sanitizer ]; then
	# the bundled real graphs always, ../shared's where present
	convert_real "$B" "$(dirname "$0")/../.." "$SHARED" "$T"
	has() { [[ " ${real_graphs[*]} " == *" $1 "* ]]; } # else failed or skipped, and said so
	while read -r g k4 k5 k6; do
		has $g || continue
		for m in orient pivot; do
			for sc in vertex edge; do
				check "$g 4-cliques GPU $m $sc" same "$(kc "$T/$g.tsg" 4 gpu --kclique-method $m --kclique-scheme $sc)" $k4
				check "$g 5-cliques GPU $m $sc" same "$(kc "$T/$g.tsg" 5 gpu --kclique-method $m --kclique-scheme $sc)" $k5
			done
		done
		[ "$k6" = - ] || check "$g 6-cliques GPU pivot" same "$(kc "$T/$g.tsg" 6 gpu --kclique-method pivot)" $k6
		echo "checked $g"
	done <<'EOF'
grqc 329297 2215500 12898478
fb 30004668 517965151 7830937838
hepph 150281372 6491049885 -
cnr 159814399 1252511081 -
EOF
	# --k-all: every size as the CPU backend counts it; past 2^64 - 1 on
	# ca-HepPh and cnr-2000, exit 9 as on the CPU. (ego-Facebook's whole
	# tree takes minutes either way.)
	for g in grqc email slash hepph cnr; do
		has $g || continue
		ref=$(kall "$T/$g.tsg" cpu)
		got=$(kall "$T/$g.tsg" gpu)
		rc=$("$B/tristream" count --quiet --device gpu --k-all "$T/$g.tsg" >/dev/null 2>&1; echo $?)
		case $g in
		hepph | cnr) check "$g --k-all GPU: exit $rc, not 9 (overflow)" [ "$rc" = 9 ] ;;
		*) check "$g --k-all GPU = CPU ('${ref:0:40}...')" eval '[ -n "$ref" ] && [ "$got" = "$ref" ]' ;;
		esac
	done
	echo "checked the shared graphs' --k-all ($SECONDS s)"
fi

if [ "$PART" = counts ] || [ "$PART" = late ]; then
	:
elif command -v compute-sanitizer >/dev/null; then
	[ -f "$T/k258.tsg" ] || gen clique --vertices 258 "$T/k258.tsg"
	for tool in memcheck racecheck; do
		for m in orient pivot; do
			for sc in vertex edge; do
				for gk in "rmat10 5" "k258 4"; do # k258: tiers 0, 1 and 2
					read -r g k <<<"$gk"
					out=$(compute-sanitizer --tool $tool "$B/tristream" count --quiet --device gpu --k $k --kclique-method $m --kclique-scheme $sc --partitions 2 "$T/$g.tsg" 2>&1)
					echo "$tool $m $sc $g: $(echo "$out" | grep -E "ERROR SUMMARY|RACECHECK SUMMARY")"
					check "$tool $m $sc $g clean" bash -c "echo \"\$1\" | grep -qE '(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)'" _ "$out"
					check "$tool $m $sc $g count" grep -q "$k-cliques: $("$B/tests/brute" --k $k "$T/$g.tsg")\$" <(echo "$out")
				done
			done
		done
		# --k-all: every size, two parts; K(300,300): out-lists of 300 (tier 2)
		[ -f "$T/bip.tsg" ] || bipartite
		for gx in "rmat10 5-cliques: $("$B/tests/brute" --k 5 "$T/rmat10.tsg")" "bip 2-cliques: 90000"; do
			g=${gx%% *}
			out=$(compute-sanitizer --tool $tool "$B/tristream" count --quiet --device gpu --k-all --partitions 2 "$T/$g.tsg" 2>&1)
			echo "$tool --k-all $g: $(echo "$out" | grep -E "ERROR SUMMARY|RACECHECK SUMMARY")"
			check "$tool --k-all $g clean" bash -c "echo \"\$1\" | grep -qE '(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)'" _ "$out"
			check "$tool --k-all $g: ${gx#* }" grep -qx "${gx#* }" <(echo "$out")
		done
	done
else
	# asked for by name, the sanitizer is the part: its absence fails it
	if [ "$PART" = sanitizer ]; then
		bad "compute-sanitizer not found: the sanitizer half cannot run"
	else
		skip "compute-sanitizer not found; the sanitizer half not run"
	fi
fi
finish_checks
