#!/usr/bin/env bash
# final build: groups.sh, and the arrival layout without groups (arrival.cu's
# orientation was refactored under it) against brute on generated graphs
set -u
B=.carry/gpu24
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi -L; nproc; cat $B/commit; } > $OUT/info.txt 2>&1
timeout 400 bash tests/gpu/groups.sh $B .carry/graphs > $OUT/groups.txt 2>&1
echo "groups.sh rc=$?" | tee -a $OUT/info.txt
tail -2 $OUT/groups.txt
T=/tmp/c2; mkdir -p $T
pass=0; fail=0
$B/tristream-gen --quiet --seed 5 rmat --scale 16 $T/r16.tsg
$B/tristream-gen --quiet --seed 3 crawl --vertices 200000 --edge-factor 8 $T/c.tsg
$B/tristream compress --quiet $T/c.tsg $T/z.tsg
for g in $T/r16.tsg $T/c.tsg; do
	ref=$($B/tests/brute $g)
	for k in 1 7 auto 3000; do for io in uring pread mmap; do
		got=$($B/tristream count --quiet --json --device gpu --layout arrival --batches $k --io $io $g 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["triangles"] if d["groups"] == 0 else "groups")' 2>/dev/null)
		if [ -n "$got" ] && [ "$got" = "$ref" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $g arrival K=$k $io: $got, not $ref"; fi
	done; done
	$B/tristream count --quiet --device cpu --per-vertex $T/cpu.pv $g >/dev/null 2>&1
	got=$($B/tristream count --quiet --device gpu --layout arrival --batches 5 --per-vertex $T/gpu.pv $g 2>/dev/null)
	if cmp -s $T/cpu.pv $T/gpu.pv && [ -s $T/gpu.pv ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $g arrival per-vertex"; fi
done
ref=$($B/tests/brute $T/c.tsg)
got=$($B/tristream count --quiet --device gpu --layout arrival --batches 9 $T/z.tsg 2>/dev/null)
if [ -n "$got" ] && [ "$got" = "$ref" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: lz4 arrival: $got, not $ref"; fi
compute-sanitizer --tool memcheck --error-exitcode 99 --log-file $T/san $B/tristream count --quiet --json --device gpu --layout arrival --batches 5 $T/r16.tsg 2>/dev/null | python3 -c "import json,sys; print(json.load(sys.stdin)[\"triangles\"])" > $T/s.out
rc=${PIPESTATUS[0]}; ref=$($B/tests/brute $T/r16.tsg)
if [ $rc = 0 ] && [ "$(cat $T/s.out)" = "$ref" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: memcheck arrival: rc $rc $(grep -m2 ERROR $T/san)"; fi
echo "arrival without groups: $pass passed, $fail failed" | tee $OUT/arrival.txt
