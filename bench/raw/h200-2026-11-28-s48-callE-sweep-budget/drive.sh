#!/usr/bin/env bash
# session 48: tests/gpu/sweep.sh's new budget checks alone (the whole
# script does not fit the device time left), on gpu60
set -u
B=$(pwd)/.carry/gpu60
T=/tmp/s; mkdir -p $T
{ date -u +%FT%TZ; nvidia-smi --query-gpu=index,name --format=csv,noheader; echo "tristream $(sha256sum $B/tristream | cut -c1-16) commit $(cat $B/commit)"; } > $OUT/info.txt
$B/tristream-gen --quiet --seed 4 --webgraph crawl --vertices 500000 $T/c2 || exit 1
$B/tristream-gen --quiet --seed 4 crawl --vertices 500000 $T/c2.tsg || exit 1
ref=$($B/tests/brute $T/c2.tsg)
sw() { $B/tristream count --quiet --json --device gpu --layout sweep "$@"; }
pass=0 fail=0
TSG_TEST_BUDGET_RACE=1 sw --partitions 3 $T/c2 > $T/race.json
python3 -c "
import json; d = json.load(open('$T/race.json'))
assert '$ref'.isdigit() and d['triangles'] == int('$ref') and d['layout'] == 'sweep' and d['device'] == 'gpu', d
assert 'read again 1 time,' in d['note'], d['note']" && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL race: $(head -c 600 $T/race.json)"; }
cp $T/race.json $OUT/race.json
TSG_TEST_BUDGET_RACE=1 sw --partitions 3 --gpu-mem 1G $T/c2 > $T/race1g.json
python3 -c "
import json; d = json.load(open('$T/race1g.json'))
assert '$ref'.isdigit() and d['triangles'] == int('$ref') and 'read again' not in d.get('note', ''), d" && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL 1G: $(head -c 600 $T/race1g.json)"; }
cp $T/race1g.json $OUT/race1g.json
echo "brute $ref; $pass passed, $fail failed" | tee $OUT/result.txt
