#!/usr/bin/env bash
# the fixed multi.sh's host-build expectation (2b83c93), on every graph of multi.sh, same binaries (409954c)
set -u
B=.carry/gpu SHARED=.carry/graphs T=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
graphs=()
"$B/tristream-gen" --quiet rmat --scale 16 --seed 3 "$T/rmat16.tsg" && graphs+=("$T/rmat16.tsg")
"$B/tristream-gen" --quiet rmat --scale 20 --seed 4 "$T/rmat20.tsg" && graphs+=("$T/rmat20.tsg")
"$B/tristream-gen" --quiet er --vertices 100000 --edge-factor 20 --seed 6 "$T/er.tsg" && graphs+=("$T/er.tsg")
"$B/tristream-gen" --quiet web --vertices 262144 --seed 1 "$T/web.tsg" && graphs+=("$T/web.tsg")
"$B/tristream-gen" --quiet clique --vertices 300 "$T/clique.tsg" && graphs+=("$T/clique.tsg")
"$B/tristream-gen" --quiet star --vertices 5000 "$T/star.tsg" && graphs+=("$T/star.tsg")
"$B/tristream-gen" --quiet empty --vertices 10 "$T/empty.tsg" && graphs+=("$T/empty.tsg")
for f in facebook_combined.txt ca-GrQc.txt; do "$B/tristream-convert" --quiet --skip-bad-lines "$SHARED/$f" "$T/$f.tsg" && graphs+=("$T/$f.tsg"); done
"$B/tristream-convert" --quiet "$SHARED/cnr-2000/cnr-2000" "$T/cnr.tsg" && graphs+=("$T/cnr.tsg")
pass=0 fail=0
for g in "${graphs[@]}"; do
	r=$("$B/tests/brute" "$g")
	for a in "--layout block" "--layout block --read all" "--layout block --device gpu"; do
		mpirun -n 2 --bind-to none "$B/tristream" count --quiet --json $a "$g" >"$T/m.json" 2>"$T/err" || : >"$T/m.json"
		dev=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("device",""))' "$T/m.json" 2>/dev/null)
		tri=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("triangles",""))' "$T/m.json" 2>/dev/null)
		case "$a" in
		"--layout block"*"--read "*) want="False 0" ;;
		"--layout block --device gpu") want="True 2" ;;
		"--layout block"*) if [ "$dev" = cpu ]; then want="False 0 cpu"; else want="True 2"; fi ;;
		esac
		got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["host_build"], d.get("host_ranks", 0), *(["cpu"] if "counted on the CPU" in d.get("note", "") else []))' "$T/m.json" 2>/dev/null)
		if [ "$got" = "$want" ] && [ -n "$tri" ] && [ "$tri" = "$r" ]; then pass=$((pass+1)); echo "ok $(basename $g) $a: $tri $dev '$got'"; else fail=$((fail+1)); echo "FAIL $(basename $g) $a: $tri (brute $r) $dev '$got' want '$want' $(head -c 200 $T/err)"; fi
	done
done
rm -rf "$T"
echo "$pass passed, $fail failed"
