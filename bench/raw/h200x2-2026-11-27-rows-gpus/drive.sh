#!/bin/bash
# session 28, call D (2 GPUs): oriented files counted as read (row blocks
# read down) on --gpus 2, counts against the CPU; auto's one GPU for an
# oriented file (its first run on a GPU); R-MAT 25 warm one GPU / two
set -u
G=.carry/gpu2; W=/tmp/e; mkdir -p $W
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
export NCCL_NVLS_ENABLE=0
t0=$(date +%s)
{ nvidia-smi --query-gpu=index,name --format=csv,noheader; nproc; sha256sum $G/tristream | cut -c1-16; } > $OUT/info.txt
pass=0; fail=0
ok() { pass=$((pass+1)); }; bad() { fail=$((fail+1)); echo "FAIL: $*" | tee -a $OUT/counts.txt; }
tri() { $G/tristream count --quiet --json "$@" 2>$W/err | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("triangles",""), "|", d["plan"].get("overlap",{}).get("chosen","-"), "|", d.get("note",""), "|", len(d.get("gpus",[])) or 1)' 2>/dev/null; }
$G/tristream-gen --quiet rmat --scale 18 --seed 2 $W/r18.tsg; $G/tristream-gen --quiet web --vertices 200000 --seed 1 $W/web.tsg
$G/tristream-convert --quiet $PWD/.carry/data/cnr-2000/cnr-2000 $W/cnr.tsg
for n in r18 web cnr; do
  $G/tristream-convert --quiet --oriented $W/$n.tsg $W/$n.o.tsg
  ref=$($G/tristream count --quiet --device cpu $W/$n.tsg | sed -n 's/^triangles: //p')
  [ -n "$ref" ] || { bad "$n: no CPU count"; continue; }
  for a in "--overlap 7" "--overlap 7 --overlap-cut columns" "--overlap 3 --gpu-mem 24M" "--overlap off" "" "--overlap 5 --kernel edge-merge"; do
    out=$(tri --gpus 2 $a $W/$n.o.tsg)
    want=2; [ -z "$a" ] && want=1
    [ "${out%% *}" = "$ref" ] && [ "${out##* }" = $want ] && ok || bad "$n --gpus 2 $a: '$out' vs $ref, $want GPUs ($(head -c 200 $W/err))"
    echo "$n --gpus 2 $a: $out (ref $ref)" >> $OUT/counts.txt
  done
done
$G/tristream count --quiet --device cpu --per-vertex $W/pv.cpu $W/r18.tsg >/dev/null
for a in "--overlap 7" "--overlap 7 --overlap-cut columns"; do
  rm -f $W/pv.g2; $G/tristream count --quiet --gpus 2 $a --per-vertex $W/pv.g2 $W/r18.o.tsg >/dev/null 2>$W/err
  cmp -s $W/pv.cpu $W/pv.g2 && ok || bad "per-vertex --gpus 2 $a differs"
done
echo "checks: $pass passed, $fail failed at $(( $(date +%s) - t0 )) s" | tee -a $OUT/info.txt
$G/tristream-gen --quiet rmat --scale 25 --seed 1 $W/r25.tsg && $G/tristream-convert --quiet --oriented $W/r25.tsg $W/r25.o.tsg
cat $W/r25.o.tsg $W/r25.tsg > /dev/null
echo "r25 made at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
for i in 0 1 2 3; do for a in "--gpu 0|o" "--gpus 2|o" "--gpus 2 --overlap 16|o" "--gpus 2 --overlap 16 --overlap-cut columns|o" "--gpu 0|p" "--gpus 2|p"; do
  f=$W/r25.tsg; [ "${a##*|}" = o ] && f=$W/r25.o.tsg; a=${a%|*}
  s=$EPOCHREALTIME; $G/tristream count --quiet --json $a $f > $W/t.json; rc=$?; e=$EPOCHREALTIME
  [ $i = 0 ] && continue
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); st=d["stages"]; print("%-44s rc=%s whole=%.2f own=%.2f tri=%s units=%s read=%.2f wait=%.2f cwall=%.2f gpus=%s" % (sys.argv[2], sys.argv[3], float(sys.argv[5])-float(sys.argv[4]), d["seconds"], d["triangles"], d["partitions"], st["read"], st.get("read_wait",-1), st.get("count_wall",0), [round(g.get("busy_s",0),2) for g in d.get("gpus",[])]))' $W/t.json "$a $(basename $f)" $rc $s $e >> $OUT/timing.txt 2>&1
  mkdir -p $W/j; cp $W/t.json "$W/j/$i-$(echo "$a $(basename $f)" | tr -c 'a-z0-9.\n' _).json"
done; done
echo "done at $(( $(date +%s) - t0 )) s" >> $OUT/info.txt
(cd $W/j && tar czf $OUT/timing-json.tgz .)
cat $OUT/info.txt $OUT/timing.txt; grep -c . $OUT/counts.txt
