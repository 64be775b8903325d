#!/usr/bin/env bash
# bench/crawl_gsh.sh BUILD_DIR WORK_DIR [VERTICES] [EDGE_FACTOR] - the
# gsh-2015-sized crawl (#49): `tristream-gen --seed 1 --edge-factor 48
# --webgraph crawl --vertices 1000000000` (35.1 G arcs at 3.7 bits a link,
# 34 GB of files; smaller with VERTICES), made on every core, then counted
# from cold files (the page cache dropped: root) by two routes:
#  1. the sweep on one GPU with COUNT_CPUS cores (default 0-15: a
#     workstation's 16, by taskset) and --host-mem HOST_MEM (default 100G),
#     as the issue's target asks; peak RSS from /usr/bin/time;
#  2. ROUTE2=1: the crawl decoded whole in memory and counted by the block
#     layout on every GPU (--layout block --gpus all): no code of the sweep,
#     about 10 bytes an arc of host memory (a 512 GiB host for this one).
# MEM_CAP=GiB holds the machine's memory down to that much available
# while route 1 runs (bench/hold_mem.py: locked anonymous memory), the
# issue's 100 GiB where no memory cgroup can be made; the table says what
# was held and whether the holder lived through the count.
# GPU_MEM=SIZE passes --gpu-mem SIZE to route 1 (an H100's 80 GB block on
# a larger card, where no H100 is lent: the table names the card and it).
# WINDOW=W makes the crawl with --window W (default the generator's 7):
# other files, the same graph, faster to make (tests/gen.sh); GEN_MEM=SIZE
# gives the generator --mem-limit SIZE (fewer transpose passes where the
# host has room: the count's cap is set after the making).
# LIMIT (seconds, default none) stops what would run past it: each step
# gets what is left. DEVICE=cpu counts on the CPU (a try-out without a
# GPU: route 2 then one process on every core). Prints a table last; the
# counts must agree.
# What session 30 ran on the device was this driver's first form
# (bench/raw/h200x4-2026-11-27-crawl-1g-sweep/drive.sh).
set -u
B=$1 W=$2 N=${3:-1000000000} EF=${4:-48}
CPUS=${COUNT_CPUS:-0-15} HM=${HOST_MEM:-100G} D=${DEVICE:-gpu}
one=(--device "$D") every=(--device "$D")
[ "$D" = gpu ] && one+=(--gpu 0) && every+=(--gpus all)
[ -n "${GPU_MEM:-}" ] && one+=(--gpu-mem "$GPU_MEM")
t0=$(date +%s)
left() { if [ -n "${LIMIT:-}" ]; then echo $((LIMIT - ($(date +%s) - t0))); else echo 86400; fi; }
mkdir -p "$W" || exit 1
g=$W/gsh$N
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$1)" "$2" 2>/dev/null; }
s=$(date +%s.%N)
gopt=()
[ -n "${WINDOW:-}" ] && gopt+=(--window "$WINDOW")
[ -n "${GEN_MEM:-}" ] && gopt+=(--mem-limit "$GEN_MEM")
timeout "$(left)" /usr/bin/time -v "$B/tristream-gen" --seed 1 --edge-factor "$EF" "${gopt[@]}" \
	--webgraph crawl --vertices "$N" "$g" 2>"$W/gen.err" || { echo "FAIL: tristream-gen"; tail -5 "$W/gen.err"; exit 1; }
gen_s=$(python3 -c "import time; print(round(time.time() - $s, 1))")
arcs=$(sed -n 's/^arcs=//p' "$g.properties")
bits=$(sed -n 's/^bitsperlink=//p' "$g.properties")
sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || echo "note: the page cache was not dropped (not root): route 1 is not cold"
cap=none holder=
if [ -n "${MEM_CAP:-}" ]; then
	rm -f "$W/held"
	python3 "$(dirname "$0")/hold_mem.py" "$MEM_CAP" "$W/held" 2>"$W/held.err" &
	holder=$!
	for _ in $(seq 1 600); do [ -f "$W/held" ] || ! kill -0 $holder 2>/dev/null || sleep 0.5; done
	[ -f "$W/held" ] || { echo "FAIL: memory not held to $MEM_CAP GiB: $(cat "$W/held.err")"; exit 1; }
	cap="$MEM_CAP GiB ($(cat "$W/held"))"
fi
s=$(date +%s.%N)
timeout "$(left)" /usr/bin/time -v taskset -c "$CPUS" "$B/tristream" count --json "${one[@]}" \
	--layout sweep --host-mem "$HM" "$g" >"$W/route1.json" 2>"$W/route1.err"
r1_rc=$?
r1_s=$(python3 -c "import time; print(round(time.time() - $s, 1))")
r1_rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$W/route1.err")
r1=$(field "['triangles']" "$W/route1.json")
if [ -n "$holder" ]; then
	kill -0 $holder 2>/dev/null && cap="$cap, held to the end" || cap="$cap, HOLDER DIED: not bounded"
	kill $holder 2>/dev/null; wait $holder 2>/dev/null
fi
r2=- r2_s=- r2_rc=-
if [ "${ROUTE2:-0}" = 1 ]; then
	s=$(date +%s.%N)
	timeout "$(left)" "$B/tristream" count --json "${every[@]}" --layout block "$g" \
		>"$W/route2.json" 2>"$W/route2.err"
	r2_rc=$?
	r2_s=$(python3 -c "import time; print(round(time.time() - $s, 1))")
	r2=$(field "['triangles']" "$W/route2.json")
fi
echo "route 1's memory cap: $cap"
[ "$D" = gpu ] && echo "route 1's card: $(nvidia-smi -i 0 --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null)${GPU_MEM:+, held to --gpu-mem $GPU_MEM}"
echo "made with: tristream-gen ${gopt[*]:-(defaults)}; $(grep -o 'the transpose in [0-9]* pass[a-z]*' "$W/gen.err" | head -1)"
echo "| pages | arcs | bits a link | made (s) | route 1: sweep, one $D, cores $CPUS, cold (s) | peak RSS (KiB) | route 2: in memory, block layout (s) | triangles 1 | triangles 2 |"
echo "|---|---|---|---|---|---|---|---|---|"
echo "| $N | $arcs | $bits | $gen_s | $r1_s (exit $r1_rc) | $r1_rss | $r2_s (exit $r2_rc) | ${r1:-none} | $r2 |"
[ "$r1_rc" = 0 ] && [ -n "$r1" ] || exit 1
case $cap in *DIED*) exit 1 ;; esac
[ "${ROUTE2:-0}" != 1 ] || { [ "$r2_rc" = 0 ] && [ "$r2" = "$r1" ]; } || { echo "FAIL: the routes disagree or one failed"; exit 1; }
