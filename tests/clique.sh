#!/usr/bin/env bash
# tests/clique.sh BUILD_DIR SRC_DIR [SHARED_GRAPHS_DIR] - k-clique counting
# (count --k K, --k-all) on the CPU backend against independent values:
# tests/brute.c (plain recursion over sorted lists, no code shared with the
# engine) on random graphs, closed forms on cliques, complete multipartite,
# empty, star and grid graphs, the karate club's known counts, and the
# real graphs' reference counts (the bundled ones always, ../shared's
# where present); both methods, one part and several (three schemes, both
# pruning rules), degree and degeneracy order, one
# thread and all; overflow and usage errors; a checkpoint killed and
# resumed. Ends with "N passed, N failed" (", N skipped" where any was).
set -u
B=$1
SRC=$2
SHARED=${3:-$SRC/../shared/graphs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# check, num, same, convert_shared
. "$(dirname "$0")/lib.sh"
gen() { "$B/tristream-gen" --quiet "$@"; }
kc() { # graph K args... -> the K-clique count (empty on failure)
	local g=$1 k=$2; shift 2
	"$B/tristream" count --quiet --json --device cpu --k "$k" "$@" "$g" 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["cliques"])' 2>/dev/null
}
rc_of() { "$@" >"$T/out" 2>"$T/err"; echo $?; }

# --- random graphs against tests/brute, every K, both methods, in and out of core
gen er --vertices 150 --edges 2500 --seed 1 "$T/er1.tsg"
gen er --vertices 60 --edges 900 --seed 2 "$T/er2.tsg"
gen rmat --scale 9 --edge-factor 12 --seed 3 "$T/rmat9.tsg"
gen rmat --scale 10 --edge-factor 8 --seed 4 "$T/rmat10.tsg"
gen web --vertices 2000 --seed 5 "$T/web.tsg"
for g in er1 er2 rmat9 rmat10 web; do
	for k in 4 5 6 7 8; do
		ref=$("$B/tests/brute" --k $k "$T/$g.tsg")
		num "$ref" || { check "$g K=$k: brute failed" false; continue; }
		check "$g K=$k auto" same "$(kc "$T/$g.tsg" $k)" "$ref"
		for m in orient pivot; do
			for v in "" "--partitions 3" "--partitions 4 --scheme hash --seed 7" \
				"--partitions 5 --scheme contig --prune lstc" "--order degeneracy" \
				"--partitions 3 --order degeneracy --threads 1" "--partitions 3 --prune local" \
				"--partitions 6 --prune closed --scheme hash --seed 3"; do
				got=$(kc "$T/$g.tsg" $k --kclique-method $m $v)
				check "$g K=$k $m $v: $got, brute $ref" same "$got" "$ref"
			done
		done
	done
	echo "$g: K = 4..8 checked ($(kc "$T/$g.tsg" 4) four-cliques)"
done

# --k-all: every size against brute, sizes 1 and 2 against the graph
for g in er1 rmat9 web; do
	out=$("$B/tristream" count --quiet --json --device cpu --k-all "$T/$g.tsg")
	read -r nv ne sizes < <(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["id_range"], d["edges"], " ".join(map(str, d["clique_counts"])))')
	set -- $sizes
	check "$g --k-all: 1-cliques $1, ids (id_range) $nv" same "$1" "$nv"
	check "$g --k-all: 2-cliques $2, edges $ne" same "$2" "$ne"
	shift 2
	j=3
	for n in "$@"; do
		ref=$("$B/tests/brute" --k $j "$T/$g.tsg")
		check "$g --k-all size $j: $n, brute $ref" same "$n" "$ref"
		j=$((j + 1))
	done
	ref=$("$B/tests/brute" --k $j "$T/$g.tsg")
	check "$g --k-all: no clique of $j ($ref by brute)" same "$ref" 0
	got=$("$B/tristream" count --quiet --json --device cpu --k-all --partitions 3 "$T/$g.tsg" |
		python3 -c 'import json,sys; print(" ".join(map(str, json.load(sys.stdin)["clique_counts"])))')
	check "$g --k-all in 3 parts: '$got'" [ "$got" = "$nv $ne $*" ]
done

# the pruning rule: auto is closed for K > 3 over several parts, local in
# one part and for --k-all, which counts edges; closed with --k-all is
# refused (usage, exit 2)
got=$("$B/tristream" count --quiet --json --device cpu --k 4 --partitions 3 "$T/web.tsg" | python3 -c 'import json,sys; print(json.load(sys.stdin)["prune"])')
check "--k 4 in 3 parts prunes closed by default: '$got'" [ "$got" = closed ]
got=$("$B/tristream" count --quiet --json --device cpu --k 4 "$T/web.tsg" | python3 -c 'import json,sys; print(json.load(sys.stdin)["prune"])')
check "--k 4 in one part prunes local by default: '$got'" [ "$got" = local ]
got=$("$B/tristream" count --quiet --json --device cpu --k-all --partitions 3 "$T/web.tsg" | python3 -c 'import json,sys; print(json.load(sys.stdin)["prune"])')
check "--k-all prunes local by default: '$got'" [ "$got" = local ]
check "--k-all --prune closed exits 2" [ "$(rc_of "$B/tristream" count --device cpu --k-all --prune closed "$T/web.tsg")" = 2 ]
check "--k-all --prune closed says why" grep -q "edges on triangles" "$T/err"

# a 300-clique at K = 8: orientation cannot finish on a sample (C(299,7)
# subsets a source), so the race must stop it and take pivoting
gen clique --vertices 300 "$T/k300.tsg"
got=$("$B/tristream" count --quiet --json --device cpu --k 8 "$T/k300.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["clique_method"], d["clique_method_chosen"], d["cliques"])')
check "auto on K300 at K=8 races and pivots: '$got'" [ "$got" = "pivot raced on every 64th source $(python3 -c "import math; print(math.comb(300, 8))")" ]

# auto on the CPU: both methods timed on a sample, and said (below 256
# sources: orientation, nothing timed)
got=$("$B/tristream" count --quiet --json --device cpu --k 5 "$T/rmat10.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["clique_method"] in ("orient", "pivot"), "clique_method_chosen" in d)')
check "auto on R-MAT 10: a method chosen by timing, said: '$got'" [ "$got" = "True True" ]
got=$("$B/tristream" count --quiet --json --device cpu --k 5 "$T/er2.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["clique_method"], "clique_method_chosen" in d)')
check "auto on 60 vertices: orientation, untimed: '$got'" [ "$got" = "orient False" ]

# --- closed forms
gen clique --vertices 12 "$T/k12.tsg"
for k in 3 4 5 6 7 8 9 10 11 12 13; do
	ref=$(python3 -c "import math; print(math.comb(12, $k))")
	for m in orient pivot; do
		[ $k = 3 ] && continue
		got=$(kc "$T/k12.tsg" $k --kclique-method $m)
		check "K12 K=$k $m: $got, C(12,$k) = $ref" same "$got" "$ref"
	done
done
gen clique --vertices 40 "$T/k40.tsg"
got=$(kc "$T/k40.tsg" 20 --kclique-method pivot)
check "K40 K=20 pivot: $got" same "$got" "$(python3 -c 'import math; print(math.comb(40, 20))')"
got=$("$B/tristream" count --quiet --json --device cpu --k-all "$T/k40.tsg" |
	python3 -c 'import json,sys; print(" ".join(map(str, json.load(sys.stdin)["clique_counts"])))')
check "K40 --k-all" [ "$got" = "$(python3 -c 'import math; print(" ".join(str(math.comb(40, j)) for j in range(1, 41)))')" ]
# complete multipartite graphs: K-cliques = the elementary symmetric
# polynomial of the part sizes
for parts in "3 4 5 2" "1 1 1 1 1 1 1" "6 6" "2 3 4 5 6 7"; do
	python3 - "$T/mp.txt" $parts <<'EOF'
import sys
sizes = list(map(int, sys.argv[2:]))
ids, at = [], 0
for s in sizes:
    ids.append(range(at, at + s)); at += s
with open(sys.argv[1], "w") as f:
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            for a in ids[i]:
                for b in ids[j]:
                    f.write(f"{a} {b}\n")
EOF
	"$B/tristream-convert" --quiet "$T/mp.txt" "$T/mp.tsg"
	for k in 4 5 6 7; do
		ref=$(python3 -c "
import itertools, math, sys
s = list(map(int, '$parts'.split()))
print(sum(math.prod(c) for c in itertools.combinations(s, $k)))")
		for m in orient pivot; do
			got=$(kc "$T/mp.tsg" $k --kclique-method $m)
			check "multipartite ($parts) K=$k $m: $got, closed form $ref" same "$got" "$ref"
		done
	done
done
gen empty --vertices 50 "$T/empty.tsg"
gen star --vertices 300 "$T/star.tsg"
gen grid --rows 20 --cols 20 "$T/grid.tsg"
for g in empty star grid; do
	for k in 4 8 32; do
		for m in orient pivot; do
			got=$(kc "$T/$g.tsg" $k --kclique-method $m)
			check "$g K=$k $m: $got, not 0" same "$got" 0
		done
	done
done

# --- the karate club: 11 four-cliques, 2 five-cliques (and 45 triangles)
gzip -dc "$SRC/tests/data/karate.txt.gz" >"$T/karate.txt"
for m in orient pivot; do
	check "karate 4-cliques ($m)" same "$(kc "$T/karate.txt" 4 --kclique-method $m)" 11
	check "karate 5-cliques ($m)" same "$(kc "$T/karate.txt" 5 --kclique-method $m)" 2
	check "karate 6-cliques ($m)" same "$(kc "$T/karate.txt" 6 --kclique-method $m)" 0
done
got=$("$B/tristream" count --quiet --device cpu --k-all "$T/karate.txt" | grep -c cliques)
check "karate --k-all: sizes 1..5 in the text ($got lines)" same "$got" 5
"$B/tristream" count --quiet --device cpu --k 4 "$T/karate.txt" >"$T/out"
check "karate text: '4-cliques: 11'" grep -qx "4-cliques: 11" "$T/out"
# K = 3 stays the triangle count, same keys
got=$("$B/tristream" count --quiet --json --device cpu --k 3 "$T/karate.txt" |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["triangles"], "cliques" in d)')
check "--k 3 is the triangle count: '$got'" [ "$got" = "45 False" ]

# --- overflow: never a wrapped count (exit 9)
gen clique --vertices 200 "$T/k200.tsg"
rc=$(rc_of "$B/tristream" count --quiet --device cpu --k 16 --kclique-method pivot "$T/k200.tsg")
check "C(200,16) > 2^64: exit $rc, not 9" [ "$rc" = 9 ]
check "overflow named" grep -q "2^64" "$T/err"
check "overflow: nothing on stdout" [ ! -s "$T/out" ]
gen clique --vertices 70 "$T/k70.tsg"
rc=$(rc_of "$B/tristream" count --quiet --device cpu --k-all "$T/k70.tsg")
check "C(70,35) > 2^64 with --k-all: exit $rc, not 9" [ "$rc" = 9 ]
got=$(kc "$T/k70.tsg" 10 --kclique-method pivot)
check "K70 K=10 fits: $got" same "$got" "$(python3 -c 'import math; print(math.comb(70, 10))')"

# --- usage errors (exit 2)
for a in "--k 2" "--k 33" "--k x" "--k 4 --layout block" "--k 4 --layout arrival" \
	"--k 4 --per-vertex $T/pv" "--k 4 --clustering" "--k-all --k 4" \
	"--kclique-method pivot" "--k-all --kclique-method orient" "--order degeneracy" \
	"--order sideways --k 4" "--k-all --checkpoint $T/ck" "--kclique-scheme edge" \
	"--k 4 --kclique-scheme diagonal" "--k 4 --kclique-group 3" "--k 4 --kclique-group 64" \
	"--k 4 --kclique-group 0" "--k 4 --kclique-group x"; do
	rc=$(rc_of "$B/tristream" count --quiet --device cpu $a "$T/karate.txt")
	check "$a: exit $rc, not 2" [ "$rc" = 2 ]
done

# GPU-only knobs on the CPU: counted all the same, and said to be unused
out=$("$B/tristream" count --quiet --json --device cpu --k 4 --kclique-scheme edge --kclique-group 4 "$T/karate.txt" |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["cliques"], "not used on the CPU" in d.get("note", ""), "clique_scheme" in d)')
check "--kclique-scheme on the CPU: '$out'" [ "$out" = "11 True False" ]

# --- a checkpoint killed at random moments and resumed (K = 5, 64 parts, one thread)
gen rmat --scale 13 --edge-factor 16 --seed 4 "$T/rmat13.tsg"
ref=$("$B/tests/brute" --k 5 "$T/rmat13.tsg")
for d in first 0.05 0.1 0.2 0.3; do
	rm -f "$T/ck"
	"$B/tristream" count --quiet --device cpu --k 5 --partitions 64 --threads 1 --checkpoint "$T/ck" "$T/rmat13.tsg" >/dev/null 2>&1 &
	pid=$!
	if [ $d = first ]; then # once a part is recorded (header 64 bytes, plan and records 32)
		wait_size "$T/ck" 128 $pid
	else
		sleep $d
	fi
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	out=$("$B/tristream" count --quiet --json --device cpu --k 5 --partitions 64 --threads 1 --checkpoint "$T/ck" "$T/rmat13.tsg")
	got=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["cliques"])')
	check "K=5 checkpoint killed ($d): $got, brute $ref" same "$got" "$ref"
	echo "K=5 checkpoint killed ($d): $(echo "$out" | python3 -c 'import json,sys; c=json.load(sys.stdin)["checkpoint"]; print(c.get("units_resumed", "all"), "parts resumed")')"
done
rc=$(rc_of "$B/tristream" count --quiet --device cpu --k 4 --partitions 64 --threads 1 --checkpoint "$T/ck" "$T/rmat13.tsg")
check "a K=5 checkpoint rerun with K=4: exit $rc, not 2" [ "$rc" = 2 ]

# --- the real graphs' reference counts (tests/data/README.md, and
# ../shared/graphs/README.md for the ones only it has): the bundled ones
# always, ../shared's where present
convert_real "$B" "$SRC" "$SHARED" "$T"
while read -r g k4 k5 k6; do
	case " ${real_graphs[*]} " in *" $g "*) ;; *) continue ;; esac # failed or skipped, and said so
	for m in orient pivot; do
		check "$g 4-cliques ($m)" same "$(kc "$T/$g.tsg" 4 --kclique-method $m)" $k4
		check "$g 5-cliques ($m, 3 parts)" same "$(kc "$T/$g.tsg" 5 --kclique-method $m --partitions 3)" $k5
	done
	# orientation takes minutes on ca-HepPh's 6-cliques on 2 cores: pivoting there
	[ "$k6" = - ] || check "$g 6-cliques (auto, degeneracy order)" same "$(kc "$T/$g.tsg" 6 --order degeneracy)" $k6
done <<'EOF'
grqc 329297 2215500 12898478
email 423750 1222005 2701759
fb 30004668 517965151 7830937838
slash 2260269 12596328 57879044
hepph 150281372 6491049885 -
cnr 159814399 1252511081 -
EOF

finish_checks
