#!/usr/bin/env bash
# bench/clique.sh BUILD_DIR WORK_DIR [RUNS] [SCALES] [KS] [LIMIT_S] - k-clique
# counting side by side in one run, warm page cache: on the GPU orientation
# vertex- and edge-centric, pivoting, and auto at 1/4 of the file (--gpu-mem,
# several LSTC parts), its parts pruned closed (auto) and local; on the CPU
# (every thread) orientation and pivoting. Graphs: R-MAT SCALES
# (default "20 21 22"; "" for none), and WORK_DIR/*.real.tsg if present (the shared
# graphs, converted by the caller). Medians of RUNS (default 3) of the
# engine's counting stage ("count" in the JSON: the parts' kernels, without
# the read and the context) and of the whole process; a variant that takes
# longer than LIMIT_S (default 60) seconds once is shown as "> LIMIT" and
# not repeated, nor run at a larger K on that graph. Every count in a row must agree: the "check" column.
set -u
B=$1 W=$2 RUNS=${3:-3} SCALES=${4-"20 21 22"} KS=${5:-"4 5 6 7 8"} LIMIT=${6:-60}
mkdir -p "$W"
median() { python3 -c "import statistics,sys; print('%.3f' % statistics.median(map(float, sys.argv[1:])))" "$@"; }
one() { # args -> "count_s wall_s cliques" or "timeout"
	local s e out
	s=$(date +%s.%N)
	out=$(timeout "$LIMIT" "$B/tristream" count --quiet --json "$@" 2>/dev/null) || { echo timeout; return; }
	e=$(date +%s.%N)
	echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['stages']['count'], $e - $s, d['cliques'], d['partitions'])"
}
graphs=()
for s in $SCALES; do
	g="$W/rmat$s.tsg"
	[ -f "$g" ] || "$B/tristream-gen" --quiet rmat --scale "$s" --seed 1 "$g"
	graphs+=("$g")
done
for g in "$W"/*.real.tsg; do [ -f "$g" ] && graphs+=("$g"); done
printf '%-14s %2s %-22s %10s %10s %20s %6s %s\n' graph K variant "count s" "wall s" cliques parts check
for g in "${graphs[@]}"; do
	cat "$g" >/dev/null
	q=$(( $(stat -c %s "$g") / 4 ))
	name=$(basename "$g" .tsg)
	unset slow
	declare -A slow=() # variants over the limit at a smaller K: not run again
	for k in $KS; do
		ref=
		ok=yes
		for v in "gpu orient vertex" "gpu orient edge" "gpu pivot edge" "cpu orient -" \
			"cpu pivot -" "gpu-1/4 auto -" "gpu-1/4-local auto -"; do
			read -r dev m sc <<<"$v"
			extra=
			[ "$sc" = - ] || extra="--kclique-scheme $sc"
			[ "$dev" = gpu-1/4 ] && { dev=gpu; extra="--gpu-mem $q"; }
			[ "$dev" = gpu-1/4-local ] && { dev=gpu; extra="--gpu-mem $q --prune local"; }
			ts=() tw=() n= to=
			if [ -n "${slow[$v]:-}" ]; then
				printf '%-14s %2s %-22s %10s %10s %20s %6s %s\n' "$name" $k "$v" "> $LIMIT" "" "(over at a smaller K)" "" ""
				continue
			fi
			for i in $(seq "$RUNS"); do
				r=$(one --device $dev --k $k --kclique-method $m $extra "$g")
				[ "$r" = timeout ] && { to=1; break; }
				read -r c w n np <<<"$r"
				ts+=("$c"); tw+=("$w")
			done
			if [ -n "$to" ]; then
				slow[$v]=1
				printf '%-14s %2s %-22s %10s %10s %20s %6s %s\n' "$name" $k "$v" "> $LIMIT" "" "" "" ""
				continue
			fi
			case $n in '' | *[!0-9]*) ok="NO COUNT" ;; esac
			[ -z "$ref" ] && ref=$n
			[ "$n" = "$ref" ] || ok="DIFFERS"
			printf '%-14s %2s %-22s %10s %10s %20s %6s %s\n' "$name" $k "$v" "$(median "${ts[@]}")" "$(median "${tw[@]}")" "$n" "$np" "$ok"
		done
	done
done
