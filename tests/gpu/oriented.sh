#!/usr/bin/env bash
# tests/gpu/oriented.sh [BUILD_DIR] [SHARED_GRAPHS_DIR] - an oriented .tsg
# (tristream-convert --oriented: the rank-ordered rows, each edge once)
# counted on the GPU: the block layout adopts its rows, so every unit's
# copies come from the file's own pages. Against the CPU's count of the
# undirected file (itself checked against tests/brute where quick): R-MAT,
# Erdős–Rényi, web, a clique (closed form), a star, karate and cnr-2000
# where SHARED has it; one unit and many (--gpu-mem), every reader,
# --host-mem (the file mapped), per-vertex counts and clustering equal to
# the CPU's byte for byte, a checkpoint replayed, a damaged file (exit 3,
# no count), the read begun before the GPUs are opened (where they then
# lack the room, --gpu-mem 24M: the budget's units over the read down, top
# first), and compute-sanitizer memcheck. And the same early read of a
# plain .tsg the arrival layout counts (its batches follow it): counts,
# per-vertex, every reader, LZ4, --host-mem, groups, several GPUs where
# there are, JSON lists_read_early, a damaged file (exit 3), a run refused
# once the GPU is open (exit 4, the read stopped), and none where auto will
# take the block layout. ONLY=early: the graphs and those two sections
# alone; ONLY=late: all but those two (tests/gpu/all.sh runs the early
# ones on two GPUs, where they check one GPU too). No GPU: exit 77. Ends with
# "N passed, N failed" (", N skipped" where any was).
set -u
case ${ONLY:-} in '' | early | late) ;; *)
	echo "FAIL: ONLY=$ONLY is neither early nor late"
	echo "0 passed, 1 failed"
	exit 1 ;;
esac
B=${1:-build}
SHARED=${2:-../shared/graphs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
# check, ok, bad, skip, finish_checks, num, same
. "$(dirname "$0")/../lib.sh"
field() { # key, json file -> value
	python3 -c 'import json,sys; d=json.load(open(sys.argv[2])); print(d.get(sys.argv[1], ""))' "$1" "$2" 2>/dev/null
}
count() { # out file, args... (the JSON of one count; empty on failure)
	local o=$1; shift
	"$B/tristream" count --quiet --json "$@" >"$o" 2>"$T/err" || { echo "  ($(head -c 300 "$T/err"))"; : >"$o"; }
}
if [ "$(gpus_visible)" -lt 1 ]; then
	skip "no GPU here; oriented files on the GPU not checked"
	finish_checks
fi
gen() { "$B/tristream-gen" --quiet "$@"; }
graphs=()
mk() { # name, command... (a graph that cannot be made is a failure)
	local n=$1; shift
	if "$@"; then graphs+=("$n"); ok; else bad "making $n"; fi
}
mk rmat16 gen rmat --scale 16 --seed 3 "$T/rmat16.tsg"
mk rmat20 gen rmat --scale 20 --seed 4 "$T/rmat20.tsg"
mk er gen er --vertices 100000 --edge-factor 20 --seed 6 "$T/er.tsg"
mk web gen web --vertices 262144 --seed 1 "$T/web.tsg"
mk clique gen clique --vertices 300 "$T/clique.tsg"
mk star gen star --vertices 5000 "$T/star.tsg"
mk karate "$B/tristream-convert" --quiet "$(dirname "$0")/../data/karate.txt.gz" "$T/karate.tsg"
if [ -f "$SHARED/cnr-2000/cnr-2000.properties" ]; then
	mk cnr "$B/tristream-convert" --quiet "$SHARED/cnr-2000/cnr-2000" "$T/cnr.tsg"
else
	skip "$SHARED/cnr-2000 not found (not bundled); the LAW crawl not checked oriented"
fi
declare -A ref
for n in "${graphs[@]}"; do
	"$B/tristream-convert" --quiet --oriented "$T/$n.tsg" "$T/$n.o.tsg" && ok || bad "$n: convert --oriented"
	count "$T/c.json" --device cpu "$T/$n.tsg"
	ref[$n]=$(field triangles "$T/c.json")
	num "${ref[$n]}" && ok || bad "$n: CPU count '${ref[$n]}'"
	case $n in rmat20 | er | web | cnr) ;; *)
		same "$("$B/tests/brute" "$T/$n.tsg")" "${ref[$n]}" && ok || bad "$n: brute disagrees with the CPU" ;;
	esac
done
[ -n "${ref[clique]:-}" ] && { same "${ref[clique]}" "$(python3 -c 'import math; print(math.comb(300, 3))')" && ok || bad "K300: ${ref[clique]}"; }
[ -n "${ref[cnr]:-}" ] && { same "${ref[cnr]}" 20977629 && ok || bad "cnr-2000: ${ref[cnr]}"; }
section2_offs() { # .tsg -> byte offsets low, in the middle and high in its
	# section 2 (the rows or lists), from the header's section table
	python3 -c 'import struct,sys
b = open(sys.argv[1], "rb").read(4096)
for i in range(8):
    k, z, o, n, x = struct.unpack_from("<IIQQQ", b, 64 + 32 * i)
    if k == 2: print(o + 4096, o + n // 2, o + n - 4096)' "$1"
}
early() { # the read begun before the GPUs were opened
	local n a ov
	for n in rmat20 web er karate; do
		[ -n "${ref[$n]:-}" ] || continue
		for a in "" "--overlap 5" "--io mmap" "--kernel edge-merge"; do
			count "$T/e.json" --device gpu $a "$T/$n.o.tsg"
			same "$(field triangles "$T/e.json")" "${ref[$n]}" && ok || bad "$n oriented $a, read early: $(field triangles "$T/e.json") vs ${ref[$n]}"
			ov=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["plan"]["overlap"]; print(o["chosen"].endswith("read from the top rank down"), "begun before the GPUs were opened" in o["reason"])' "$T/e.json" 2>&1)
			[ "$ov" = "True True" ] && ok || bad "$n oriented $a: read early? '$ov'"
		done
		count "$T/e.json" --device gpu --overlap 5 "$T/$n.o.tsg"
		ov=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["plan"]["overlap"]; print(o["chosen"], o["reason"].endswith("; the read begun before the GPUs were opened"))' "$T/e.json" 2>&1)
		[ "$ov" = "5 row blocks, read from the top rank down True" ] && ok || bad "$n oriented --overlap 5: row blocks held, read early? '$ov'"
		# where the room falls short: budget units, read down
		for a in "--gpu-mem 24M" "--gpu-mem 24M --kernel edge-merge" "--gpu-mem 32M --overlap 3"; do
			count "$T/e.json" --device gpu $a "$T/$n.o.tsg"
			same "$(field triangles "$T/e.json")" "${ref[$n]}" && ok || bad "$n oriented $a, read early, short of room: $(field triangles "$T/e.json") vs ${ref[$n]}"
		done
		count "$T/e.json" --device gpu --gpu-mem 24M "$T/$n.o.tsg"
		ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); o=d["plan"]["overlap"]; print(o["chosen"].endswith("units in read order, read from the top rank down"), "begun before the GPUs were opened" in o["reason"], d["partitions"] > 1 or "fell short" not in o["reason"])' "$T/e.json" 2>&1)
		[ "$ov" = "True True True" ] && ok || bad "$n oriented --gpu-mem 24M, read early, short of room: plan '$ov'"
	done
	# per-vertex over several budget units read down (R-MAT 20's rows
	# do not fit 24M)
	"$B/tristream" count --quiet --json --device gpu --gpu-mem 24M --per-vertex "$T/pv.early" "$T/rmat20.o.tsg" >"$T/e.json" 2>"$T/err"
	"$B/tristream" count --quiet --device cpu --per-vertex "$T/pv.cpu20" "$T/rmat20.tsg" >/dev/null
	[ -s "$T/pv.cpu20" ] && cmp -s "$T/pv.cpu20" "$T/pv.early" && ok || bad "per-vertex, read early, short of room, differs from the CPU's"
	ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["partitions"] > 1, "fell short" in d["plan"]["overlap"]["reason"])' "$T/e.json" 2>&1)
	[ "$ov" = "True True" ] && ok || bad "per-vertex, --gpu-mem 24M: several units over the read down? '$ov'"
	# damage in the rows (section 2: from the header's section table), low,
	# in the middle and among the top rows read first, read early with
	# room and without
	local offs off rc
	offs=$(section2_offs "$T/rmat20.o.tsg")
	[ "$(echo $offs | wc -w)" = 3 ] && ok || bad "rmat20.o.tsg: its rows section not found in the header ('$offs')"
	for off in $offs; do
		for a in "" "--gpu-mem 24M"; do
			cp "$T/rmat20.o.tsg" "$T/bad.tsg"; printf '\x55\x55\x55\x55' | dd of="$T/bad.tsg" bs=1 seek=$off conv=notrunc 2>/dev/null
			"$B/tristream" count --quiet --device gpu $a "$T/bad.tsg" >"$T/out" 2>"$T/err"; rc=$?
			same "$rc" 3 && [ ! -s "$T/out" ] && ok || bad "damage at byte $off, read early $a: exit $rc, out '$(head -c 80 "$T/out")'"
		done
	done
}
early_plain() { # a plain file's read begun before the GPUs were opened (arrival)
	local n a got ov offs off rc ngpu
	ngpu=$(gpus_visible) # those CUDA_VISIBLE_DEVICES leaves (tests/lib.sh)
	for n in rmat20 web er karate star clique; do
		[ -n "${ref[$n]:-}" ] || continue
		# (--io named: under auto a file in the page cache, as these are, is
		# mapped, then read early; checked below)
		for a in "--io pread" "--io pread --layout arrival" "--io mmap" "--io uring" \
			"--io pread --batches 7" "--io pread --layout arrival --gpu-mem 24M" \
			"--layout arrival --batches 300 --io uring"; do
			count "$T/e.json" --device gpu $a "$T/$n.tsg"
			got=$(field triangles "$T/e.json")
			same "$got" "${ref[$n]}" && ok || bad "$n plain $a, read early: $got vs ${ref[$n]}"
			ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["layout"], d.get("lists_read_early"), d["lists_streamed"])' "$T/e.json" 2>&1)
			[ "$ov" = "arrival True True" ] && ok || bad "$n plain $a: arrival read early? '$ov'"
		done
		if [ "$ngpu" -ge 2 ]; then
			for a in "--gpus 0,1 --io pread" "--gpus 0,1 --io pread --layout arrival" "--gpus 0,1 --io uring --layout arrival --gpu-mem 24M"; do
				count "$T/e.json" --device gpu $a "$T/$n.tsg"
				same "$(field triangles "$T/e.json")" "${ref[$n]}" && ok || bad "$n plain $a, read early: $(field triangles "$T/e.json") vs ${ref[$n]}"
			done
		fi
		# (an LZ4 .tsg is written from text: the graph's edges out and in again)
		{ "$B/tristream-convert" --quiet --to text "$T/$n.tsg" "$T/$n.el" &&
		  "$B/tristream-convert" --quiet --compress lz4 "$T/$n.el" "$T/$n.z.tsg"; } && ok || bad "$n: to text, then convert --compress lz4"
		rm -f "$T/$n.el"
		count "$T/e.json" --device gpu --io pread "$T/$n.z.tsg"
		same "$(field triangles "$T/e.json")" "${ref[$n]}" && ok || bad "$n plain LZ4, read early: $(field triangles "$T/e.json") vs ${ref[$n]}"
	done
	[ "$ngpu" -ge 2 ] || skip "one GPU: the plain file's early read under --gpus not checked"
	# --io auto on a file in the page cache: mapped (its pages sent from
	# where they lie, not copied out first) and walked early, said so in the
	# plan; one and, where there are, two GPUs; per-vertex byte for byte
	local al=("" "--layout arrival" "--batches 5")
	[ "$ngpu" -ge 2 ] && al+=("--gpus 0,1")
	for a in "${al[@]}"; do
		count "$T/e.json" --device gpu $a "$T/rmat20.tsg"
		ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["triangles"] == int(sys.argv[2]), d["layout"], d["io_cached"] >= 0.9, d.get("lists_read_early"), d["io"], "mapped" in d["plan"]["io"].get("reason", ""))' "$T/e.json" "${ref[rmat20]}" 2>&1)
		[ "$ov" = "True arrival True True mmap True" ] && ok || bad "rmat20 plain, --io auto $a, cached: mapped and read early? '$ov'"
	done
	count "$T/e.json" --device gpu --per-vertex "$T/pv.map" "$T/rmat20.tsg"
	[ -s "$T/pv.cpu20" ] || "$B/tristream" count --quiet --device cpu --per-vertex "$T/pv.cpu20" "$T/rmat20.tsg" >/dev/null
	[ -s "$T/pv.cpu20" ] && cmp -s "$T/pv.cpu20" "$T/pv.map" && [ "$(field io "$T/e.json")" = mmap ] && ok || bad "plain per-vertex, --io auto cached (mapped: '$(field io "$T/e.json")'), differs from the CPU's"
	# ... but not where the arrival layout is unlikely: the CPU, k-cliques,
	# auto's block layout at --gpu-mem below the rows, a checkpoint
	# (buffered reads)
	rm -f "$T/map.ck"
	for a in "--device cpu" "--device gpu --k 4" "--device gpu --gpu-mem 24M" "--device gpu --checkpoint $T/map.ck"; do
		count "$T/e.json" $a "$T/rmat20.tsg"
		ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["io_cached"] >= 0.9, d["io"])' "$T/e.json" 2>&1)
		[ "$ov" = "True pread" ] && ok || bad "rmat20 plain, --io auto $a, cached: read buffered? '$ov'"
	done
	# --host-mem at the arrival layout's need (below the whole graph's):
	# the arrival over the mapped file, read early
	local hm
	hm=$("$B/tristream" count --quiet --json --device gpu --threads 4 --host-mem 1T "$T/rmat20.tsg" 2>/dev/null |
		python3 -c 'import json,sys; h=json.load(sys.stdin)["host_mem"]; a=h.get("need_arrival", 0); print(a if 0 < a < h["need_memory"] else "")' 2>/dev/null)
	if [ -n "$hm" ]; then
		count "$T/e.json" --device gpu --threads 4 --host-mem "$hm" --scratch-dir "$T" "$T/rmat20.tsg"
		ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["triangles"] == int(sys.argv[2]), d["host_mem"]["mode"], d["layout"], d.get("lists_read_early"))' "$T/e.json" "${ref[rmat20]}" 2>&1)
		[ "$ov" = "True arrival arrival True" ] && ok || bad "rmat20 plain --host-mem $hm: the arrival over the map, read early? '$ov'"
	else
		bad "rmat20 plain: no arrival need under --host-mem found"
	fi
	# auto at --gpu-mem below twice the rows (under auto's groups): the
	# block layout, no early read; named, the arrival in groups reads early
	count "$T/e.json" --device gpu --gpu-mem 24M "$T/rmat20.tsg"
	ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["triangles"] == int(sys.argv[2]), d["layout"], d.get("lists_read_early"), "read began before" in d.get("note", ""))' "$T/e.json" "${ref[rmat20]}" 2>&1)
	[ "$ov" = "True block None False" ] && ok || bad "rmat20 plain --gpu-mem 24M: auto's block layout, no early read? '$ov'"
	"$B/tristream" count --quiet --json --device gpu --layout arrival --gpu-mem 24M --per-vertex "$T/pv.early" "$T/rmat20.tsg" >"$T/e.json" 2>"$T/err"
	[ -s "$T/pv.cpu20" ] || "$B/tristream" count --quiet --device cpu --per-vertex "$T/pv.cpu20" "$T/rmat20.tsg" >/dev/null
	[ -s "$T/pv.cpu20" ] && cmp -s "$T/pv.cpu20" "$T/pv.early" && ok || bad "plain per-vertex, arrival in groups, read early, differs from the CPU's"
	"$B/tristream" count --quiet --json --device gpu --per-vertex "$T/pv.early2" "$T/web.tsg" >"$T/e.json" 2>"$T/err"
	"$B/tristream" count --quiet --device cpu --per-vertex "$T/pv.cpuweb" "$T/web.tsg" >/dev/null
	[ -s "$T/pv.cpuweb" ] && cmp -s "$T/pv.cpuweb" "$T/pv.early2" && ok || bad "plain per-vertex, arrival, read early, differs from the CPU's"
	# damage in the lists (section 2), low, middle, high: exit 3, no count
	offs=$(section2_offs "$T/rmat20.tsg")
	[ "$(echo $offs | wc -w)" = 3 ] && ok || bad "rmat20.tsg: its lists section not found in the header ('$offs')"
	for off in $offs; do
		for a in "--io pread" "--io pread --layout arrival --gpu-mem 24M" "--io uring" ""; do
			cp "$T/rmat20.tsg" "$T/bad.tsg"; printf '\x55\x55\x55\x55' | dd of="$T/bad.tsg" bs=1 seek=$off conv=notrunc 2>/dev/null
			"$B/tristream" count --quiet --device gpu $a "$T/bad.tsg" >"$T/out" 2>"$T/err"; rc=$?
			same "$rc" 3 && [ ! -s "$T/out" ] && ok || bad "plain damage at byte $off, read early $a: exit $rc, out '$(head -c 80 "$T/out")'"
		done
	done
	# refused once the GPU is opened (--gpu-mem past what the card has
	# free): exit 4 and no count, the read stopped rather than waited for
	# where it had not ended (said under TSG_OPEN_PROFILE), plain and
	# oriented
	for f in rmat20.tsg rmat20.o.tsg; do
		for a in "--io pread" "--io uring"; do
			TSG_OPEN_PROFILE=1 "$B/tristream" count --quiet --device gpu --gpu-mem 100000G $a "$T/$f" >"$T/out" 2>"$T/err"; rc=$?
			same "$rc" 4 && [ ! -s "$T/out" ] && grep -q "exceeds the" "$T/err" && grep -q "open profile: read begun" "$T/err" && ok || bad "$f, read early, --gpu-mem 100000G $a: exit $rc, '$(grep -v 'open profile' "$T/err" | head -c 200)'"
			grep -q "read stopped" "$T/err" && echo "  ($f --gpu-mem 100000G $a: the read was stopped)" || echo "  ($f --gpu-mem 100000G $a: the read had ended before the refusal)"
		done
	done
	# a read that outlasts the GPU's start (R-MAT 24, 2 GB, read with
	# O_DIRECT: over a second on the lent hosts' disks, where the refusal
	# comes within about 0.7 s) is stopped, not waited for
	if gen rmat --scale 24 --seed 5 "$T/rmat24.tsg"; then
		TSG_OPEN_PROFILE=1 "$B/tristream" count --quiet --device gpu --gpu-mem 100000G --io uring "$T/rmat24.tsg" >"$T/out" 2>"$T/err"; rc=$?
		same "$rc" 4 && [ ! -s "$T/out" ] && grep -q "open profile: read stopped" "$T/err" && ok || bad "rmat24, read early, --gpu-mem 100000G --io uring: exit $rc, the read stopped? '$(head -c 300 "$T/err")'"
		rm -f "$T/rmat24.tsg"
	else
		bad "making rmat24"
	fi
}
if [ "${ONLY:-}" = early ]; then
	early
	early_plain
	finish_checks
fi
for n in "${graphs[@]}"; do
	for a in "" "--gpu-mem 64M" "--gpu-mem 24M" "--io mmap" "--io pread" "--io uring" \
		"--kernel edge-merge" "--kernel lstc-hash --gpu-mem 48M" "--host-mem 256M" \
		"--overlap off" "--overlap 7" "--overlap 7 --io mmap" "--overlap 7 --io uring" \
		"--overlap 7 --overlap-cut columns" "--overlap 2 --overlap-cut columns --io mmap" \
		"--overlap 3 --gpu-mem 24M" "--overlap 3 --overlap-cut rows --gpu-mem 24M" \
		"--overlap 5 --kernel edge-merge" "--overlap 64 --kernel lstc-hash" \
		"--overlap 64 --overlap-cut columns --kernel lstc-hash"; do
		count "$T/g.json" --device gpu $a "$T/$n.o.tsg"
		same "$(field triangles "$T/g.json")" "${ref[$n]}" && ok || bad "$n oriented $a: $(field triangles "$T/g.json") vs ${ref[$n]}"
		[ "$(field layout "$T/g.json")" = block ] && ok || bad "$n oriented $a: layout '$(field layout "$T/g.json")'"
	done
	# the rows in LZ4 chunks (--oriented --compress lz4): read down or up
	"$B/tristream-convert" --quiet --oriented --compress lz4 "$T/$n.tsg" "$T/$n.oz.tsg" && ok || bad "$n: convert --oriented --compress lz4"
	for a in "" "--overlap 7" "--overlap 7 --overlap-cut columns" "--overlap 3 --gpu-mem 24M" "--overlap off" "--io uring"; do
		count "$T/g.json" --device gpu $a "$T/$n.oz.tsg"
		same "$(field triangles "$T/g.json")" "${ref[$n]}" && ok || bad "$n oriented LZ4 $a: $(field triangles "$T/g.json") vs ${ref[$n]}"
	done
	echo "$n: ${ref[$n]} (checks so far: $pass passed, $fail failed)"
done
# counted as read (--overlap): row blocks held once on the GPU (resident,
# read down), columns where asked (read up), or the budget's units in read
# order, each kernel chosen as its rows come in; the plan says which
count "$T/o.json" --device gpu --overlap 7 "$T/rmat20.o.tsg"
ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["plan"]["overlap"]["chosen"], d["partitions"], "read_wait" in d["stages"])' "$T/o.json" 2>&1)
[ "$ov" = "7 row blocks, read from the top rank down 7 True" ] && ok || bad "--overlap 7 on the GPU: plan '$ov'"
count "$T/o.json" --device gpu --overlap 7 --overlap-cut columns "$T/rmat20.o.tsg"
ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["plan"]["overlap"]["chosen"], d["partitions"])' "$T/o.json" 2>&1)
[ "$ov" = "7 columns 7" ] && ok || bad "--overlap 7 --overlap-cut columns on the GPU: plan '$ov'"
count "$T/o.json" --device gpu --overlap 3 --gpu-mem 24M "$T/rmat20.o.tsg"
ov=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["plan"]["overlap"]["chosen"].endswith("units in read order, read from the top rank down"), d["partitions"] > 1, "each as its rows came in" in d.get("note", ""))' "$T/o.json" 2>&1)
[ "$ov" = "True True True" ] && ok || bad "--overlap, --gpu-mem 24M on the GPU: '$ov'"
if [ "${ONLY:-}" = late ]; then
	skip "ONLY=late: the reads begun before the GPUs open not checked here (ONLY=early)"
else
	early
	early_plain
fi
g=rmat16
"$B/tristream" count --quiet --device cpu --per-vertex "$T/pv.cpu" "$T/$g.tsg" >/dev/null
for a in "--overlap 7" "--overlap 7 --overlap-cut columns" "--overlap 4 --gpu-mem 24M"; do
	rm -f "$T/pv.ov"
	"$B/tristream" count --quiet --device gpu $a --per-vertex "$T/pv.ov" "$T/$g.o.tsg" >/dev/null 2>"$T/err"
	cmp -s "$T/pv.cpu" "$T/pv.ov" && ok || bad "per-vertex on the oriented file, $a, differs from the CPU's"
done
"$B/tristream" count --quiet --device gpu --per-vertex "$T/pv.gpu" "$T/$g.o.tsg" >/dev/null 2>"$T/err"
cmp -s "$T/pv.cpu" "$T/pv.gpu" && ok || bad "per-vertex on the oriented file differs from the CPU's on the undirected one"
"$B/tristream" count --quiet --device gpu --gpu-mem 24M --per-vertex "$T/pv.gpu2" "$T/$g.o.tsg" >/dev/null 2>"$T/err"
cmp -s "$T/pv.cpu" "$T/pv.gpu2" && ok || bad "per-vertex on the oriented file, several units, differs"
a=$("$B/tristream" count --quiet --json --device cpu --clustering "$T/$g.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["transitivity"], d["average_clustering"])')
b=$("$B/tristream" count --quiet --json --device gpu --clustering "$T/$g.o.tsg" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["transitivity"], d["average_clustering"])')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "clustering: '$b' vs '$a'"
rm -f "$T/ckp"
count "$T/k1.json" --device gpu --gpu-mem 24M --checkpoint "$T/ckp" "$T/rmat20.o.tsg"
count "$T/k2.json" --device gpu --gpu-mem 24M --checkpoint "$T/ckp" "$T/rmat20.o.tsg"
same "$(field triangles "$T/k1.json")" "${ref[rmat20]}" && ok || bad "oriented with a checkpoint: $(field triangles "$T/k1.json")"
same "$(field triangles "$T/k2.json")" "${ref[rmat20]}" && ok || bad "oriented checkpoint replayed: $(field triangles "$T/k2.json")"
cp "$T/rmat16.o.tsg" "$T/bad.tsg"; printf '\x55' | dd of="$T/bad.tsg" bs=1 seek=9000 conv=notrunc 2>/dev/null
"$B/tristream" count --quiet --device gpu "$T/bad.tsg" >"$T/out" 2>"$T/err"; rc=$?
same "$rc" 3 && ok || bad "damaged oriented file: exit $rc"
[ ! -s "$T/out" ] && ok || bad "damaged oriented file printed a count"
# damage late in the file: earlier columns are counted on the GPU before
# the read finds it; the count is still never reported
sz=$(stat -c %s "$T/rmat20.o.tsg")
for off in 12288 $((sz / 4)) $((sz * 3 / 4)) $((sz - 4096)); do
	for a in "--overlap 7" "--overlap 7 --overlap-cut columns" "--overlap 3 --gpu-mem 24M"; do
		cp "$T/rmat20.o.tsg" "$T/bad.tsg"; printf '\x55\x55\x55\x55' | dd of="$T/bad.tsg" bs=1 seek=$off conv=notrunc 2>/dev/null
		"$B/tristream" count --quiet --device gpu $a "$T/bad.tsg" >"$T/out" 2>"$T/err"; rc=$?
		same "$rc" 3 && [ ! -s "$T/out" ] && ok || bad "damage at byte $off, $a: exit $rc, out '$(head -c 80 "$T/out")'"
	done
done
if command -v compute-sanitizer >/dev/null; then
	compute-sanitizer --tool memcheck --error-exitcode 99 --log-file "$T/san" "$B/tristream" count --quiet --json --device gpu --gpu-mem 24M "$T/web.o.tsg" >"$T/s.json" 2>/dev/null
	rc=$?
	same "$rc" 0 && ok || bad "memcheck, oriented, several units: exit $rc: $(grep -m3 -E 'ERROR|Invalid' "$T/san")"
	same "$(field triangles "$T/s.json")" "${ref[web]}" && ok || bad "memcheck, oriented: count"
	for a in "--overlap 7" "--overlap 7 --overlap-cut columns" "--overlap 3 --gpu-mem 24M"; do
		compute-sanitizer --tool memcheck --error-exitcode 99 --log-file "$T/san" "$B/tristream" count --quiet --json --device gpu $a "$T/rmat16.o.tsg" >"$T/s.json" 2>/dev/null
		rc=$?
		same "$rc" 0 && ok || bad "memcheck, oriented $a: exit $rc: $(grep -m3 -E 'ERROR|Invalid' "$T/san")"
		same "$(field triangles "$T/s.json")" "${ref[rmat16]}" && ok || bad "memcheck, oriented $a: count"
	done
else
	skip "compute-sanitizer not found: memcheck not run"
fi
finish_checks
