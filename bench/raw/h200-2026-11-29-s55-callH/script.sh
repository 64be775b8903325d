#!/usr/bin/env bash
# session 55 call H (one H200): where the short k-clique count's pieces
# lose time (R-MAT 22, K = 4, TSG_OPEN_PROFILE=1's lines a launch).
set -u
W=/tmp/w; mkdir -p $W
N=.carry/gpu74
export TRISTREAM_TEST_GPU_REPEAT=1
$N/tristream-gen --quiet --seed 1 rmat --scale 22 $W/r22.tsg
cat $W/*.tsg > /dev/null
for r in 0 1 2; do
	echo "== --gpus 0,0 run $r"
	TSG_OPEN_PROFILE=1 $N/tristream count --json --k 4 --gpus 0,0 $W/r22.tsg 2>&1 >$W/a.json | grep -v "^tristream: note"
	python3 -c "import json; d=json.load(open('$W/a.json')); print(d['cliques'], d['stages']['count_wall'], d['stages']['build'], d['stages']['count'])"
	echo "== --gpu 0 run $r"
	TSG_OPEN_PROFILE=1 $N/tristream count --json --k 4 --gpu 0 $W/r22.tsg 2>&1 >$W/a.json | grep -v "^tristream: note"
	python3 -c "import json; d=json.load(open('$W/a.json')); print(d['cliques'], d['stages']['count_wall'], d['stages']['build'], d['stages']['count'])"
done
echo "== pieces, --gpu 0"
TSG_TEST_CLIQUE_SHARE=pieces TSG_OPEN_PROFILE=1 $N/tristream count --json --k 4 --gpu 0 $W/r22.tsg 2>&1 >$W/a.json | grep -v "^tristream: note"
python3 -c "import json; d=json.load(open('$W/a.json')); print(d['cliques'], d['stages']['count_wall'], d['stages']['build'], d['stages']['count'])"
rm -rf $W
