#!/bin/bash
# session 36: tristream-gen --window W on the development machine (2 cores):
# a 2 M-page crawl at edge factor 48, each window 3 times (median), the
# bits a link of both files, and the triangle count (the same graph).
B=${1:-build}; T=$(mktemp -d); trap 'rm -rf $T' EXIT
echo "| window | made (s), 3 runs | bits a link (graph / transpose) | triangles |"
echo "|---|---|---|---|"
for w in 7 3 2 1 0; do
  ts=()
  for i in 1 2 3; do
    s=$EPOCHREALTIME; $B/tristream-gen --quiet --seed 1 --edge-factor 48 --window $w --webgraph crawl --vertices 2000000 $T/c || exit 1
    ts+=($(python3 -c "print(round($EPOCHREALTIME - $s, 2))"))
  done
  t=$($B/tristream count --quiet --json --device cpu $T/c | python3 -c "import json,sys; print(json.load(sys.stdin)[\"triangles\"])")
  echo "| $w | ${ts[*]} | $(sed -n 's/^bitsperlink=//p' $T/c.properties) / $(sed -n 's/^bitsperlink=//p' $T/c-t.properties) | $t |"
done
