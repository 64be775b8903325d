#!/usr/bin/env bash
# bench/multigpu_all.sh BUILD_DIR SHARED_GRAPHS_DIR OUT_DIR [SCALES] [BASE_BUILD]
#
# Every two-GPU figure of issue #16 in one run, on a host of two GPUs (the
# device tool's nvidia-h100-x2 or nvidia-h200-x2), one after another so
# that nothing else uses the GPUs meanwhile:
#   1. bench/multigpu.py: R-MAT SCALES (default 22 24 25 26), one GPU vs
#      --gpus 2 vs mpirun -n 2, files in the page cache (medians of 3),
#      R-MAT 26 at 1/4 of the footprint, each scale from a cold file,
#      4-cliques and the LSTC layout at 22;
#   2. R-MAT 24 on --gpus 2 with 2, 4, 8 and 16 source blocks
#      (--partitions), to see what the automatic plan's 8 units cost;
#   3. tests/gpu/multi.sh (correctness on both GPUs);
#   4. bench/ranges.py with 2 and 4 ranks on the two GPUs: R-MAT 22 and
#      web 2^22 renumbered, then a crawl of 2^22 vertices read from its
#      BVGraph files.
# With BASE_BUILD (an A/B of a change to how work is shared): step 1 only
# for SCALES and R-MAT 26 at 1/4, BASE_BUILD's --gpus 2 and mpirun -n 2
# beside this build's in the page-cache set (no cold file, k-cliques,
# LSTC or arrival rows), then step 3.
# Logs and JSON lines go to OUT_DIR (at most seven files); progress.txt
# says where it is.
set -u
B=$1 G=$2 O=$3
SCALES=${4:-22 24 25 26}
BASE=${5:-}
mkdir -p "$O"
export PYTHONUNBUFFERED=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
step() { echo "$(date -u +%FT%TZ) $*" >>"$O/progress.txt"; }
step "start: $("$B/tristream" --version 2>&1 | head -1); $(nproc) cores"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader >>"$O/progress.txt"

step "multigpu.py $SCALES ${BASE:+against $BASE}"
if [ -n "$BASE" ]; then
	# shellcheck disable=SC2086 # SCALES is a list
	python3 bench/multigpu.py "$B" $SCALES --runs 3 --quarter 26 --base "$BASE" \
		--base-cache-only --no-arrival --out "$O/multigpu.jsonl" >"$O/multigpu.txt" 2>&1
	step "multigpu.py exit $?"
	step "tests/gpu/multi.sh"
	bash tests/gpu/multi.sh "$B" "$G" >"$O/multi-tests.txt" 2>&1
	step "multi.sh exit $?: $(tail -1 "$O/multi-tests.txt")"
	step "done"
	exit 0
fi
# shellcheck disable=SC2086 # SCALES is a list
python3 bench/multigpu.py "$B" $SCALES --runs 3 --quarter 26 --cold 24,25,26 --k 4 --kscales 22 \
	--lstc 22 --out "$O/multigpu.jsonl" >"$O/multigpu.txt" 2>&1
step "multigpu.py exit $?"

step "R-MAT 24 by --partitions on two GPUs"
summary='
import json, sys
t = sys.stdin.read()
try:
    j = json.loads(t)
except ValueError:
    sys.exit("%s %s FAILED %s" % (sys.argv[1], sys.argv[2], t[-300:]))
per = j.get("gpus") or [dict(p, index=0, units=1, busy_s=0) for p in j["partition_stats"]]
print(sys.argv[1], sys.argv[2], j["triangles"], j["partitions"], j["stages"]["count_wall"],
      j["h2d_bytes"], " ".join("gpu%d:units=%d,h2d_ms=%.1f,kernel_ms=%.1f,busy=%.3f" % (
          x["index"], x["units"], x.get("h2d_ms", 0), x.get("kernel_ms", 0), x["busy_s"]) for x in per))
'
g=$(mktemp -d)/rmat24.tsg
"$B/tristream-gen" --quiet rmat --scale 24 --seed 1 "$g"
for r in 1 2 3; do
	for p in auto 2 4 8 16; do
		popt=()
		[ "$p" = auto ] || popt=(--partitions "$p")
		"$B/tristream" count --quiet --json --gpus 2 "${popt[@]}" "$g" 2>>"$O/explore.txt" |
			python3 -c "$summary" "$r" "$p" >>"$O/explore.txt" 2>&1
	done
	"$B/tristream" count --quiet --json --gpu 0 --layout block "$g" 2>>"$O/explore.txt" |
		python3 -c "$summary" "$r" one >>"$O/explore.txt" 2>&1
done
rm -rf "$(dirname "$g")"
step "explore done"

step "tests/gpu/multi.sh"
bash tests/gpu/multi.sh "$B" "$G" >"$O/multi-tests.txt" 2>&1
step "multi.sh exit $?: $(tail -1 "$O/multi-tests.txt")"

step "ranges.py"
python3 bench/ranges.py "$B" --ranks 2,4 --scale 22 --web 22 --runs 3 --gpu-mem 4G \
	--out "$O/ranges.jsonl" >"$O/ranges.txt" 2>&1
step "ranges.py exit $?"
step "ranges.py, a crawl read from its BVGraph files"
python3 bench/ranges.py "$B" --ranks 2,4 --scale 0 --web 0 --crawl 4194304 --runs 3 --gpu-mem 4G \
	--out "$O/ranges.jsonl" >>"$O/ranges.txt" 2>&1
step "ranges.py crawl exit $?"
step "done"
