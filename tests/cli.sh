#!/usr/bin/env bash
# tests/cli.sh BUILD_DIR SHARED_GRAPHS_DIR - the command-line tools end to end:
# every input format, gzip and stdin, malformed and oversized input, external
# sorting, a full disk, atomic outputs, exit codes, --json, and real graphs
# against their published counts: the ones bundled in tests/data always,
# ../shared/graphs' (the LAW crawl cnr-2000, soc-Slashdot0902, ca-HepPh)
# where present, else SKIPPED. Ends with "N passed, N failed" (", N
# skipped" where any was).
set -u
B=$1
SHARED=${2:-}
T=$(mktemp -d)
MNT=""
cleanup() { [ -n "$MNT" ] && umount "$MNT" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
# check, num, same
. "$(dirname "$0")/lib.sh"
# the independent reference counter (tests/brute.c: no code shared with the engine)
brute() { "$B/tests/brute" "$@"; }
tri() { "$B/tristream" count --quiet --device cpu --json "$@" | python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])'; }
conv() { "$B/tristream-convert" --quiet "$@"; }
rc_of() { "$@" >"$T/out" 2>"$T/err"; echo $?; }
# the comparison itself: failed runs must never compare equal
check "same refuses two empty results" eval '! same "" ""'
check "same refuses non-numbers" eval '! same "error" "error"'
check "same refuses a failed reference" eval '! same "$(false)" "$(false)"'

# --- the same 5-vertex graph (2 triangles) in every format
printf '# a comment\n0 1\n1 2\n2 0\n2 3\n3 0\n3 0\n1 1\n' >"$T/g.txt"
printf '0,1\n1,2\r\n2,0\n2,3\n3,0\n' >"$T/comma.txt"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n%% c\n4 4 5\n2 1\n3 2\n3 1\n4 3\n4 1\n' >"$T/g.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n4 4 5\n1 2 0.5\n2 3 1e3\n3 1 -2\n3 4 1\n4 1 7\n' >"$T/real.mtx"
printf '1\t2\t1\n2\t3\t1\n3\t1\t1\n3\t4\t1\n4\t1\t1\n' >"$T/g.tsv"
printf '4\n0 1 1\n1 2 1\n2 0 1\n2 3 1\n3 0 1\n' >"$T/header.txt"
for f in g.txt comma.txt g.mtx real.mtx g.tsv header.txt; do
	check "convert $f" conv "$T/$f" "$T/$f.tsg"
	check "count $f" same "$(tri "$T/$f.tsg")" 2
done
check "mtx keeps its declared vertex count" sh -c "$B/tristream info --json $T/g.mtx.tsg | grep -q '\"vertices\":4'"
gzip -k "$T/g.txt"
check "gzip input" conv "$T/g.txt.gz" "$T/gz.tsg"
check "gzip count" same "$(tri "$T/gz.tsg")" 2
check "stdin input" sh -c "cat $T/g.txt | $B/tristream-convert --quiet - $T/stdin.tsg"
check "stdin count" same "$(tri "$T/stdin.tsg")" 2
check "stdin gzip" sh -c "cat $T/g.txt.gz | $B/tristream-convert --quiet --format edgelist - $T/stdin2.tsg"
"$B/tristream-convert" --json "$T/g.txt" "$T/r.tsg" >"$T/report.json" 2>"$T/report.txt"
check "report counts dropped self-loops" grep -q '"self_loops":1' "$T/report.json"
check "report counts duplicates" grep -q '"duplicates":1' "$T/report.json"
check "report on stderr" grep -q "dropped 1 self-loops, 1 duplicate" "$T/report.txt"

# --- the bundled graph (works without ../shared): Zachary's karate club
SRC=$(cd "$(dirname "$0")" && pwd)
check "karate converts" conv "$SRC/data/karate.txt.gz" "$T/karate.tsg"
gzip -dc "$SRC/data/karate.txt.gz" >"$T/karate.txt"
check "reference counter: karate has 45 triangles (published)" same "$(brute "$T/karate.txt")" 45
check "reference counter: 11 four-cliques of karate (published)" same "$(brute --k 4 "$T/karate.txt")" 11
check "reference counter reads .tsg: karate" same "$(brute "$T/karate.tsg")" 45
check "reference counter refuses a gzip file (not an empty graph's 0): exit 1, no output" \
	eval '! brute "$SRC/data/karate.txt.gz" >"$T/bgz.out" 2>/dev/null && ! [ -s "$T/bgz.out" ]'
for p in 1 2 5 34 40; do check "karate P=$p" same "$(tri --partitions $p "$T/karate.tsg")" 45; done

# --- relabel
printf '10 20\n20 30\n30 10\n1000000 10\n' >"$T/sparse.txt"
check "relabel" conv --relabel "$T/sparse.txt" "$T/sparse.tsg"
check "relabel: 4 vertices" sh -c "$B/tristream info --json $T/sparse.tsg | grep -q '\"vertices\":4,'"
check "relabel: 1 triangle" same "$(tri "$T/sparse.tsg")" 1

# --- malformed input: file, line and text; exit 3; no output file
printf '0 1\n1 2\nbanana 3\n2 0\n' >"$T/badline.txt"
check "malformed line exits 3" [ "$(rc_of "$B/tristream-convert" "$T/badline.txt" "$T/bad.tsg")" = 3 ]
check "malformed line message" grep -q "badline.txt:3: malformed edge line.*'banana 3'" "$T/err"
check "no output after failure" [ ! -e "$T/bad.tsg" ]
check "skip-bad-lines" conv --skip-bad-lines "$T/badline.txt" "$T/skip.tsg"
check "skip-bad-lines count" same "$(tri "$T/skip.tsg")" 1
printf '0 1\n1 -2\n' >"$T/neg.txt"
check "negative id exits 3" [ "$(rc_of "$B/tristream-convert" "$T/neg.txt" "$T/x.tsg")" = 3 ]
printf '0 1\n1 4294967296\n' >"$T/big.txt"
check "id beyond 32 bits exits 3" [ "$(rc_of "$B/tristream-convert" "$T/big.txt" "$T/x.tsg")" = 3 ]
check "id beyond 32 bits message" grep -q "big.txt:2: vertex id does not fit 32 bits" "$T/err"
check "id beyond 32 bits even with --skip-bad-lines" [ "$(rc_of "$B/tristream-convert" --skip-bad-lines "$T/big.txt" "$T/x.tsg")" = 3 ]
printf '1 2\n0 3\n' >"$T/zero.tsv"
check "0 in a 1-based file" [ "$(rc_of "$B/tristream-convert" "$T/zero.tsv" "$T/x.tsg")" = 3 ]
printf '%%%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n' >"$T/array.mtx"
check "mtx array format refused" [ "$(rc_of "$B/tristream-convert" "$T/array.mtx" "$T/x.tsg")" = 3 ]
printf '# nothing\n' >"$T/empty.txt"
check "empty input exits 3" [ "$(rc_of "$B/tristream-convert" "$T/empty.txt" "$T/x.tsg")" = 3 ]
check "empty input message" grep -q "no edges found" "$T/err"
check "allow-empty" conv --allow-empty "$T/empty.txt" "$T/empty.tsg"
check "empty graph counts 0" same "$(tri "$T/empty.tsg")" 0
printf 'not gzip' | gzip >"$T/trunc.gz"; head -c 20 "$T/trunc.gz" >"$T/cut.gz"
check "truncated gzip exits 3" [ "$(rc_of "$B/tristream-convert" "$T/cut.gz" "$T/x.tsg")" = 3 ]
check "missing input exits 3" [ "$(rc_of "$B/tristream-convert" "$T/nope.txt" "$T/x.tsg")" = 3 ]

# --- external sort: a tiny memory limit spills, same graph
"$B/tristream-gen" --quiet er --vertices 5000 --edges 100000 --seed 3 "$T/er.tsg"
check "generator" [ -s "$T/er.tsg" ]
python3 - "$T/er.txt" <<'PY'
import random, sys
r = random.Random(4)
with open(sys.argv[1], "w") as f:
    for _ in range(200000):
        f.write(f"{r.randrange(20000)} {r.randrange(20000)}\n")
PY
conv --threads 2 "$T/er.txt" "$T/mem.tsg"
"$B/tristream-convert" --json --quiet --mem-limit 64K --tmpdir "$T" "$T/er.txt" "$T/ext.tsg" >"$T/ext.json"
check "external sort spilled" python3 -c "import json;assert json.load(open('$T/ext.json'))['spilled_runs']>1"
check "external sort output identical" cmp -s "$T/mem.tsg" "$T/ext.tsg"
check "no temporary files left" [ -z "$(ls "$T" | grep "^tristream-run")" ]

# --- a full disk: clear error, no output, old file untouched
MNT="$T/small"; mkdir -p "$MNT"
if mount -t tmpfs -o size=256k tmpfs "$MNT" 2>/dev/null; then
	echo keep >"$MNT/out.tsg"
	check "full disk exits 5" [ "$(rc_of "$B/tristream-convert" "$T/er.txt" "$MNT/out.tsg")" = 5 ]
	check "full disk message" grep -qi "disk full\|no space" "$T/err"
	check "full disk keeps the old file" [ "$(cat "$MNT/out.tsg")" = keep ]
	check "full disk leaves no temporary" [ "$(ls -A "$MNT")" = out.tsg ]
	umount "$MNT"; MNT=""
else
	# no mount permission: a file-size limit fails the same reservation
	check "file size limit exits 5" [ "$(rc_of sh -c "ulimit -f 64; exec $B/tristream-convert $T/er.txt $T/limited.tsg")" = 5 ]
	check "file size limit leaves nothing" [ ! -e "$T/limited.tsg" ]
fi
# a file-size limit (RLIMIT_FSIZE) is a failed write, exit 5, for each
# program, never death by SIGXFSZ (153) or a file left cut short
check "file size limit: tristream-gen exits 5" [ "$(rc_of sh -c "ulimit -f 64; exec $B/tristream-gen --quiet er --vertices 20000 --edge-factor 8 $T/limited-gen.tsg")" = 5 ]
check "file size limit: tristream-gen leaves nothing" [ ! -e "$T/limited-gen.tsg" ]
check "file size limit: count --per-vertex exits 5" [ "$(rc_of sh -c "ulimit -f 8; exec $B/tristream count --quiet --device cpu --per-vertex $T/limited.pv $T/er.tsg")" = 5 ]
check "file size limit: count --per-vertex leaves nothing" [ ! -e "$T/limited.pv" ]

# --- count and info: options, json, exit codes
check "count --json keys" sh -c "$B/tristream count --quiet --device cpu --json $T/er.tsg | python3 -c 'import json,sys; d=json.load(sys.stdin); [d[k] for k in (\"triangles\",\"vertices\",\"edges\",\"device\",\"seconds\",\"stages\",\"version\")]'"
ref=$(brute "$T/er.tsg")
check "reference count of er.tsg" num "$ref"
# a path is bytes, JSON is UTF-8: a name that is not UTF-8 still gives a
# line that decodes as UTF-8 (each such byte as the escape \udcXX) and
# the path back byte for byte (os.fsencode), the count, and the error
# object of a failed run alike
odd=$T/$'er\xff\xc3.tsg'
cp "$T/er.tsg" "$odd"
check "--json, a path not in UTF-8: decodes, counts" same "$("$B/tristream" count --quiet --device cpu --json "$odd" |
	python3 -c 'import json,os,sys; d=json.loads(sys.stdin.buffer.read().decode("utf-8")); print(d["triangles"] if os.fsencode(d["graph"]) == os.fsencode(sys.argv[1]) else "name %r" % d["graph"])' "$odd")" "$ref"
check "info --json, a path not in UTF-8: decodes" sh -c "$B/tristream info --json \"\$1\" | python3 -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode(\"utf-8\"))'" sh "$odd"
check "the error's --json, a path not in UTF-8: decodes" sh -c "$B/tristream count --quiet --json \"\$1.gone\" 2>/dev/null | python3 -c 'import json,sys; d=json.loads(sys.stdin.buffer.read().decode(\"utf-8\")); sys.exit(d[\"exit_code\"] == 0)'" sh "$odd"
schemes="edge contig hash"
if "$B/tristream" --version | grep -q METIS; then
	schemes="$schemes metis"
else
	check "--scheme metis without METIS exits 2" [ "$(rc_of "$B/tristream" count --layout lstc --scheme metis "$T/er.tsg")" = 2 ]
	check "--scheme metis without METIS says so" grep -q "libmetis" "$T/err"
fi
for p in 1 3 8; do for s in $schemes; do for r in local lstc closed; do for k in merge hash; do
	check "count P=$p $s $r $k" same "$(tri --layout lstc --partitions $p --scheme $s --prune $r --cpu-kernel $k "$T/er.tsg")" "$ref"
done; done; done; done
for p in 1 2 3 8 50; do for k in merge hash; do
	check "count block Q=$p $k" same "$(tri --layout block --partitions $p --cpu-kernel $k "$T/er.tsg")" "$ref"
done; done
# the arrival layout: batches counted as the file is read
for k in 1 2 5 40 auto; do for io in pread uring; do
	check "count arrival K=$k $io" same "$(tri --layout arrival --batches $k --io $io "$T/er.tsg")" "$ref"
done; done
check "arrival JSON says so" sh -c "$B/tristream count --quiet --device cpu --json --layout arrival --batches 3 $T/er.tsg | grep -q '\"layout\":\"arrival\",\"batches\":3,'"
check "arrival text says so" sh -c "$B/tristream count --quiet --device cpu --layout arrival $T/er.tsg | grep -q 'arrival layout'"
check "--batches alone means arrival" sh -c "$B/tristream count --quiet --device cpu --json --batches 4 $T/er.tsg | grep -q '\"layout\":\"arrival\"'"
check "auto on the CPU is block" sh -c "$B/tristream count --quiet --device cpu --json $T/er.tsg | grep -q '\"layout\":\"block\"'"
check "--batches with --layout block exits 2" [ "$(rc_of "$B/tristream" count --layout block --batches 3 "$T/er.tsg")" = 2 ]
check "--batches 0 exits 2" [ "$(rc_of "$B/tristream" count --batches 0 "$T/er.tsg")" = 2 ]
check "--partitions with --layout arrival exits 2" [ "$(rc_of "$B/tristream" count --layout arrival --partitions 4 "$T/er.tsg")" = 2 ]
check "--partitions with --layout arrival says why" grep -q "does not apply to --layout arrival" "$T/err"
check "--kernel lstc with --layout arrival exits 2" [ "$(rc_of "$B/tristream" count --layout arrival --kernel lstc "$T/er.tsg")" = 2 ]
for w in one-pass two-pass; do for p in 1 4; do
	check "--orient $w Q=$p" same "$(tri --orient $w --partitions $p "$T/er.tsg")" "$ref"
done; done
check "--json reports the orientation's stages" sh -c "$B/tristream count --quiet --device cpu --json --orient two-pass $T/er.tsg | grep -q '\"orient\":\"two-pass\".*\"orient_rows\"'"
check "unknown --orient exits 2" [ "$(rc_of "$B/tristream" count --orient sideways "$T/er.tsg")" = 2 ]

# --- bounded host memory: --host-mem spills the oriented graph (and decoded
# lists) to nameless scratch files, maps the input, and counts the same
"$B/tristream-gen" --quiet rmat --scale 14 --seed 3 "$T/hm.tsg"
"$B/tristream" compress --quiet "$T/hm.tsg" "$T/hm.lz4.tsg"
hmref=$(brute "$T/hm.tsg")
check "reference count of hm.tsg" num "$hmref"
hm() { tri --threads 2 --scratch-dir "$T/scr" "$@"; }
mkdir -p "$T/scr"
for f in hm hm.lz4; do for p in 1 3; do
	check "--host-mem spill $f P=$p" same "$(hm --host-mem 4M --partitions $p "$T/$f.tsg")" "$hmref"
done; done
check "--host-mem spill reported" sh -c "$B/tristream count --quiet --device cpu --threads 2 --json --host-mem 4M --scratch-dir $T/scr $T/hm.tsg | grep -q '\"host_mem\":{\"mode\":\"spill\"'"
check "--host-mem with room counts in memory" sh -c "$B/tristream count --quiet --device cpu --threads 2 --json --host-mem 1G $T/hm.tsg | grep -q '\"mode\":\"in-memory\"'"
check "--host-mem leaves no scratch files" [ -z "$(ls -A "$T/scr")" ]
check "--host-mem plan-only spill" sh -c "$B/tristream count --quiet --device cpu --threads 2 --plan-only --host-mem 4M --scratch-dir $T/scr $T/hm.lz4.tsg >/dev/null"
check "--host-mem too small exits 4" [ "$(rc_of "$B/tristream" count --device cpu --threads 2 --host-mem 1K "$T/hm.tsg")" = 4 ]
check "--host-mem too small says what would do" grep -q "too small.*needs about" "$T/err"
check "--host-mem bad size exits 2" [ "$(rc_of "$B/tristream" count --host-mem lots "$T/hm.tsg")" = 2 ]
# sizes are decimal: strtod alone took a sign, a space, hex and exponents
for s in 0x10M 1e3M +4M " 4M" 4M. .5M -1M inf nan 4MX; do
	check "--host-mem '$s' exits 2" [ "$(rc_of "$B/tristream" count --device cpu --host-mem "$s" "$T/hm.tsg")" = 2 ]
done
check "--host-mem 1.5G counts" same "$(hm --host-mem 1.5G "$T/hm.tsg")" "$hmref"
check "--gpu-mem 0x1G exits 2, a bad size" eval '[ "$(rc_of "$B/tristream" count --gpu-mem 0x1G "$T/hm.tsg")" = 2 ] && grep -q "bad --gpu-mem size" "$T/err"'
check "--host-mem with --layout lstc exits 2" [ "$(rc_of "$B/tristream" count --layout lstc --host-mem 4M "$T/hm.tsg")" = 2 ]
# the arrival layout stays within --host-mem only on a GPU (no rows on the
# host); on the CPU it is refused where the budget spills, by name
check "--host-mem spill with --layout arrival on the CPU exits 2" [ "$(rc_of "$B/tristream" count --device cpu --threads 2 --layout arrival --host-mem 4M "$T/hm.tsg")" = 2 ]
check "... and says only a GPU holds no rows" grep -q "layout arrival under --host-mem.*only a GPU" "$T/err"
check "--host-mem spill with --batches on the CPU exits 2" [ "$(rc_of "$B/tristream" count --device cpu --threads 2 --batches 4 --host-mem 4M "$T/hm.tsg")" = 2 ]
check "... naming the arrival layout's --batches" grep -q "arrival layout (--batches) under --host-mem.*only a GPU" "$T/err"
# auto under --host-mem keys its checkpoint as the block layout, as before
# --host-mem allowed the arrival layout: a checkpoint of either resumes
"$B/tristream" count --quiet --device cpu --threads 2 --layout block --host-mem 4M --scratch-dir "$T/scr" --checkpoint "$T/hm.ck" "$T/hm.tsg" >/dev/null 2>&1
check "--host-mem checkpoint of --layout block resumes under auto" same "$(hm --host-mem 4M --checkpoint "$T/hm.ck" "$T/hm.tsg")" "$hmref"
rm -f "$T/hm.ck"
check "--stats and --host-mem: the layout's reason names --stats" sh -c "$B/tristream count --quiet --device cpu --threads 2 --json --stats --host-mem 4M --scratch-dir $T/scr $T/hm.tsg | python3 -c 'import json,sys; r=json.load(sys.stdin)[\"plan\"][\"layout\"][\"reason\"]; sys.exit(not r.startswith(\"--stats \"))'"
check "--host-mem with room and --layout arrival counts" same "$(hm --host-mem 1G --layout arrival "$T/hm.tsg")" "$hmref"
check "--host-mem on auto, CPU: the block layout spills" sh -c "$B/tristream count --quiet --device cpu --threads 2 --json --host-mem 4M --scratch-dir $T/scr $T/hm.tsg | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(not (d[\"layout\"] == \"block\" and d[\"host_mem\"][\"mode\"] == \"spill\" and \"need_arrival\" not in d[\"host_mem\"]))'"
check "missing scratch dir exits 5" [ "$(rc_of "$B/tristream" count --device cpu --threads 2 --host-mem 4M --scratch-dir "$T/nodir" "$T/hm.tsg")" = 5 ]
check "missing scratch dir is named" grep -q "scratch file in $T/nodir" "$T/err"
MNT="$T/tinyscr"; mkdir -p "$MNT"
if mount -t tmpfs -o size=64k tmpfs "$MNT" 2>/dev/null; then
	check "full scratch disk exits 5" [ "$(rc_of "$B/tristream" count --device cpu --threads 2 --host-mem 4M --scratch-dir "$MNT" "$T/hm.tsg")" = 5 ]
	check "full scratch disk message" grep -q "cannot reserve.*scratch space" "$T/err"
	check "full scratch disk left nothing" [ -z "$(ls -A "$MNT")" ]
	umount "$MNT"
else
	skip "no mount permission; full scratch disk not tried"
fi
MNT=""
# a real bound: in a memory cgroup smaller than the in-memory count needs,
# that count is killed or fails, and the spilling one still counts exactly
"$B/tristream-gen" --quiet rmat --scale 18 --seed 5 "$T/big.tsg"
bigref=$(brute "$T/big.tsg")
check "reference count of big.tsg" num "$bigref"
# large enough for the readers' parallel paths: a .tsg read buffered on
# several threads (auto on a cached file, or --io pread), and a text read
# in stripes (from a file; stdin reads in order)
check "big.tsg, --io pread (parallel buffered reads)" same "$(tri --io pread "$T/big.tsg")" "$bigref"
check "big.tsg, --io auto on a cached file" same "$(tri --io auto "$T/big.tsg")" "$bigref"
check "big.tsg: auto says what it found in the page cache" python3 -c "import json,sys; d=json.loads(sys.argv[1]); assert d['io'] in ('pread', 'uring') and 0 <= d['io_cached'] <= 1" "$("$B/tristream" count --quiet --device cpu --json "$T/big.tsg")"
"$B/tristream-convert" --quiet --to text "$T/big.tsg" "$T/big.txt"
check "a graph built in memory from text reports no .tsg reader" python3 -c "import json,sys; d=json.loads(sys.argv[1]); assert 'io' not in d and 'io_cached' not in d and d['input_format'] == 'edgelist' and d['triangles'] > 0" "$("$B/tristream" count --quiet --device cpu --json "$T/big.txt")"
check "big.txt is past the striped-read threshold (16 MiB)" [ "$(stat -c %s "$T/big.txt")" -gt $((16 << 20)) ]
check "big.txt (striped reads) counts as big.tsg" same "$(tri --threads 3 "$T/big.txt")" "$bigref"
check "big.txt from stdin counts as big.tsg" same "$(tri - <"$T/big.txt")" "$bigref"
cg_run $((40 << 20)) "$B/tristream" count --quiet --device cpu --threads 2 --io pread "$T/big.tsg" >/dev/null 2>&1
cgrc=$?
if [ $cgrc != 99 ]; then
	echo "memory cgroup of 40 MiB: the in-memory count exited $cgrc"
	check "in-memory count fails in a 40 MiB cgroup" [ $cgrc != 0 ]
	# the bound as README states it: --host-mem B holds within B + 24 MiB (the
	# program, thread stacks, reader buffers), page cache being reclaimable;
	# a process above its cgroup's limit is killed, so a count is the proof
	for hm in 8 16 32; do
		cg_run $(((hm + 24) << 20)) "$B/tristream" count --quiet --device cpu --threads 2 --json \
			--host-mem ${hm}M --scratch-dir "$T/scr" "$T/big.tsg" >"$T/cg.json" 2>"$T/err"
		check "--host-mem ${hm}M counts in a $((hm + 24)) MiB cgroup" same "$(python3 -c "import json; print(json.load(open('$T/cg.json'))['triangles'])" 2>/dev/null)" "$bigref"
	done
else
	skip "no memory cgroup can be made here; the bound itself not tried"
fi
check "block layout unit count" sh -c "$B/tristream count --quiet --device cpu --json --partitions 4 $T/er.tsg | grep -q '\"partitions\":10,'"
check "--scheme with the block layout exits 2" [ "$(rc_of "$B/tristream" count --scheme hash "$T/er.tsg")" = 2 ]
check "--scheme with the block layout says why" grep -q "applies to --layout lstc" "$T/err"
# --seed seeds hash and metis parts only: with edge or contig cuts it
# would change nothing but the checkpoint's key
check "--seed without --scheme hash exits 2" [ "$(rc_of "$B/tristream" count --device cpu --layout lstc --seed 5 "$T/er.tsg")" = 2 ]
check "--seed without --scheme hash says why" grep -q "seeds --scheme hash or metis: not --scheme edge" "$T/err"
check "--seed with --scheme hash counts" same "$(tri --layout lstc --scheme hash --seed 5 "$T/er.tsg")" "$(brute "$T/er.tsg")"
# the plan's read: auto's share of the file in the page cache to a tenth,
# beside the line where its choice changes
check "--json plan.io names the page cache's share and auto's line" sh -c "$B/tristream count --quiet --device cpu --json $T/er.tsg |
	python3 -c 'import json,sys,re; r=json.load(sys.stdin)[\"plan\"][\"io\"][\"reason\"]; sys.exit(not re.fullmatch(r\"auto: [0-9.]+% of the file in the page cache \\((at least|below) 90%\\)\", r))'"
# tristream-convert: the text parser's and builder's options on a .tsg
# input (read as it is) and --no-transpose on a text are refused, not dropped
for a in "--to text --relabel" "--to webgraph --mem-limit 1G" "--oriented --skip-bad-lines" "--oriented --format snap" "--to text --gzip zlib" "--relabel"; do
	check "convert $a from a .tsg exits 2" [ "$(rc_of "$B/tristream-convert" --quiet $a "$T/er.tsg" "$T/optout")" = 2 ]
	check "convert $a from a .tsg says why" grep -q "applies to a text edge list" "$T/err"
done
check "convert --no-transpose of a text exits 2" [ "$(rc_of "$B/tristream-convert" --quiet --no-transpose "$T/badline.txt" "$T/optout.tsg")" = 2 ]
check "convert --no-transpose of a text says why" grep -q "applies to a LAW WebGraph crawl" "$T/err"
check "convert: no output where an option was refused" sh -c "! ls '$T'/optout* 2>/dev/null | grep -q ."
check "unknown layout exits 2" [ "$(rc_of "$B/tristream" count --layout diagonal "$T/er.tsg")" = 2 ]
check "unknown GPU kernel exits 2" [ "$(rc_of "$B/tristream" count --kernel bogus "$T/er.tsg")" = 2 ]
check "unknown GPU kernel message" grep -q "unknown GPU kernel 'bogus'" "$T/err"
for k in mid-hash lstc lstc-paper lstc-hash trust fasttc skiff edge-merge; do # parsed in every build; the CPU counts
	check "--kernel $k on the CPU" same "$(tri --kernel $k "$T/karate.tsg")" 45
done
for p in block-degree block-index warp-index; do
	check "--cta-policy $p parsed" same "$(tri --kernel skiff --cta-policy $p "$T/karate.tsg")" 45
done
check "unknown CTA policy exits 2" [ "$(rc_of "$B/tristream" count --kernel skiff --cta-policy grid "$T/er.tsg")" = 2 ]
check "unknown CTA policy message" grep -q "unknown CTA policy 'grid'" "$T/err"
check "--cta-policy without skiff exits 2" [ "$(rc_of "$B/tristream" count --kernel trust --cta-policy warp-index "$T/er.tsg")" = 2 ]
check "--cta-policy without skiff says why" grep -q "applies to --kernel skiff" "$T/err"
check "help names skiff, fasttc and edge-merge" sh -c "$B/tristream count --help | grep -q skiff && $B/tristream count --help | grep -q fasttc && $B/tristream count --help | grep -q edge-merge"
check "help names mid-hash" sh -c "$B/tristream count --help | grep -q mid-hash"
for k in merge hash wedge; do
	for p in 1 3; do
		check "--cpu-kernel $k P=$p" same "$(tri --cpu-kernel $k --partitions $p "$T/karate.tsg")" 45
	done
	check "--cpu-kernel $k lstc layout" same "$(tri --cpu-kernel $k --layout lstc --partitions 3 "$T/karate.tsg")" 45
done
check "unknown CPU kernel exits 2" [ "$(rc_of "$B/tristream" count --cpu-kernel simd "$T/er.tsg")" = 2 ]
for io in mmap pread uring auto; do
	check "io $io" same "$(tri --io $io "$T/er.tsg")" "$ref"
done
check "uring fallback note" sh -c "TSG_DISABLE_URING=1 $B/tristream count --device cpu --io uring $T/er.tsg 2>&1 >/dev/null | grep -q 'io_uring disabled'"
# io_uring's request size (TSG_URING_CHUNK_KIB): many small reads in flight
# and their completions out of order, or one read of the whole file
for kib in 4 12 1024 65536; do
	check "io uring, requests of $kib KiB" same "$(TSG_URING_CHUNK_KIB=$kib tri --io uring "$T/er.tsg")" "$ref"
done
# a result that cannot be written is exit 5, never a silent success
if [ -w /dev/full ]; then
	for a in "count --device cpu" "count --device cpu --json" "info" "info --json"; do
		check "$a > /dev/full exits 5" [ "$(rc_of sh -c "exec $B/tristream $a $T/karate.tsg >/dev/full")" = 5 ]
	done
	check "/dev/full is named" grep -q "cannot write the result to standard output" "$T/err"
	check "convert --json > /dev/full exits 5" [ "$(rc_of sh -c "exec $B/tristream-convert --quiet --json $T/g.txt $T/full.tsg >/dev/full")" = 5 ]
	for t in tristream tristream-convert tristream-gen; do
		check "$t --version > /dev/full exits 5" [ "$(rc_of sh -c "exec $B/$t --version >/dev/full")" = 5 ]
	done
else
	skip "no /dev/full; lost stdout not tried"
fi
# many graphs in one run: each counted, a bad one reported and skipped
erref=$(brute "$T/er.txt")
printf '# a manifest\n%s\n\n  %s\n%s\n' "$T/karate.tsg" "$T/missing.tsg" "$T/er.txt" >"$T/manifest.txt"
"$B/tristream" count --quiet --device cpu --json "$T/er.tsg" --manifest "$T/manifest.txt" >"$T/many.json" 2>"$T/many.err"
mrc=$?
check "many graphs: exit code of the first failure (3)" [ $mrc = 3 ]
check "many graphs: one JSON line per graph" [ "$(wc -l <"$T/many.json")" = 4 ]
check "many graphs: counts in order, error for the bad one" python3 -c "
import json
rows = [json.loads(l) for l in open('$T/many.json')]
assert [r.get('triangles') for r in rows] == [$ref, 45, None, $erref], rows
assert rows[2]['exit_code'] == 3 and 'missing.tsg' in rows[2]['error'] and 'triangles' not in rows[2]"
check "many graphs: the bad one named on stderr" grep -q "missing.tsg" "$T/many.err"
"$B/tristream" count --quiet --device cpu "$T/karate.tsg" "$T/er.tsg" >"$T/many.txt"
check "many graphs, all good: exit 0" [ $? = 0 ]
check "many graphs: a summary table" grep -q "^2 of 2 graphs counted" "$T/many.txt"
check "many graphs: summary counts" sh -c "grep -q 'karate.tsg  *45 ' $T/many.txt && grep -q 'er.tsg  *$ref ' $T/many.txt"
check "no graph exits 2" [ "$(rc_of "$B/tristream" count --device cpu)" = 2 ]
check "missing manifest exits 3" [ "$(rc_of "$B/tristream" count --manifest "$T/none.txt")" = 3 ]
check "missing manifest is named" grep -q "manifest.*none.txt" "$T/err"
check "info" sh -c "$B/tristream info $T/er.tsg | grep -q 'checksums and structure: ok'"
check "info --verify checks symmetry exactly" sh -c "$B/tristream info --verify $T/er.tsg | grep -q 'symmetry: ok (exact'"
check "info --verify --json" sh -c "$B/tristream info --verify --json $T/er.tsg | grep -q '\"symmetry_exact\":true'"
# info maps a file it finds in the page cache (--io auto) and says how it
# read; what it prints is the same whichever way
cat "$T/er.tsg" >/dev/null
for m in auto pread mmap; do
	"$B/tristream" info --json --io $m "$T/er.tsg" >"$T/info-$m.json" 2>/dev/null
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.pop("io", "none")); print(json.dumps(d, sort_keys=True))' \
		"$T/info-$m.json" >"$T/info-$m.txt" 2>/dev/null || : >"$T/info-$m.txt"
done
check "info --io auto of a cached file maps it: '$(head -n 1 "$T/info-auto.txt")' (pread: '$(head -n 1 "$T/info-pread.txt")', mmap: '$(head -n 1 "$T/info-mmap.txt")')" \
	eval '[ "$(head -n 1 "$T/info-auto.txt")" = mmap ] && [ "$(head -n 1 "$T/info-pread.txt")" = pread ] &&
	      [ "$(head -n 1 "$T/info-mmap.txt")" = mmap ]'
check "info prints the same graph whichever way it read" \
	eval '[ -n "$(sed -n 2p "$T/info-auto.txt")" ] && [ "$(sed -n 2p "$T/info-auto.txt")" = "$(sed -n 2p "$T/info-pread.txt")" ] &&
	      [ "$(sed -n 2p "$T/info-auto.txt")" = "$(sed -n 2p "$T/info-mmap.txt")" ]'
# convert --compress killed at any moment leaves no file behind but a
# complete output (its plain intermediate is unnamed or unlinked)
python3 - "$T/kill.txt" <<'PY'
import random, sys
r = random.Random(7)
with open(sys.argv[1], "w") as f:
    for _ in range(600000):
        f.write(f"{r.randrange(1 << 18)} {r.randrange(1 << 18)}\n")
PY
mkdir -p "$T/killdir"
for d in 0.05 0.1 0.2 0.3 0.5 0.8; do
	rm -f "$T/killdir/"*
	(timeout -s KILL $d "$B/tristream-convert" --quiet --compress lz4 --tmpdir "$T/killdir" "$T/kill.txt" "$T/killdir/k.tsg") 2>/dev/null
	left=$(ls -A "$T/killdir")
	check "convert --compress killed after ${d}s leaves nothing but a whole output ('$left')" \
		sh -c "[ -z '$left' ] || { [ '$left' = k.tsg ] && $B/tristream info $T/killdir/k.tsg >/dev/null; }"
done
# ... and so does --to text, whose output is a stream (io/atomic.h: a file
# without a name until it is whole)
for d in 0.02 0.05 0.1 0.2; do
	rm -f "$T/killdir/"*
	(timeout -s KILL $d "$B/tristream-convert" --quiet --to text "$T/big.tsg" "$T/killdir/k.txt") 2>/dev/null
	left=$(ls -A "$T/killdir")
	check "convert --to text killed after ${d}s leaves nothing but a whole output ('$left')" \
		sh -c "[ -z '$left' ] || { [ '$left' = k.txt ] && n=\$(wc -l <$T/killdir/k.txt) && e=\$($B/tristream info --json $T/big.tsg | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"edges\"])') && [ -n \"\$n\" ] && [ \"\$n\" = \"\$e\" ]; }"
done
check "--help" "$B/tristream" count --help
check "version" sh -c "$B/tristream --version | grep -q tristream"
# every tool says its version (tests/oom.sh starts each bare by it)
for t in tristream-convert tristream-gen; do
	check "$t --version" sh -c "[ \"\$($B/$t --version)\" = \"$t \$($B/tristream --version | sed -n '1s/^tristream \([^ ]*\).*/\1/p')\" ]"
done
check "unknown command exits 2" [ "$(rc_of "$B/tristream" frobnicate)" = 2 ]
check "bad option exits 2" [ "$(rc_of "$B/tristream" count --partitions zero "$T/er.tsg")" = 2 ]
check "missing graph exits 3" [ "$(rc_of "$B/tristream" count "$T/none.tsg")" = 3 ]
# count on any input: text is converted first (in memory where it fits,
# else through a scratch .tsg), and says so
erref=$(brute "$T/er.txt")
check "reference count of er.txt" num "$erref"
check "count on a text edge list" same "$(tri "$T/er.txt")" "$erref"
check "count on text says it built the lists in memory" sh -c "$B/tristream count --device cpu --json --quiet $T/er.txt | grep -q '\"input_format\":\"edgelist\",\"input\":{\"scratch_tsg\":false,\"built_in_memory\":true'"
mkdir -p "$T/scr2"
check "count on text under --host-mem goes through a scratch .tsg" same "$(tri --host-mem 4M --scratch-dir "$T/scr2" "$T/er.txt")" "$erref"
check "... and says so" sh -c "$B/tristream count --device cpu --json --quiet --host-mem 4M --scratch-dir $T/scr2 $T/er.txt | grep -q '\"scratch_tsg\":true,\"built_in_memory\":false'"
check "... and leaves no scratch file" [ -z "$(ls -A "$T/scr2")" ]
# killed once its scratch .tsg is whole, before the count opens it (a
# test hook pauses there): nothing is left (a named file was, before)
TSG_TEST_INPUT_PAUSE_MS=30000 "$B/tristream" count --device cpu --host-mem 4M --scratch-dir "$T/scr2" \
	"$T/er.txt" >/dev/null 2>"$T/pause.err" &
pid=$!
while kill -0 $pid 2>/dev/null && ! grep -q "scratch .tsg is whole" "$T/pause.err"; do sleep 0.05; done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
check "killed once its scratch .tsg is whole: it paused there" grep -q "scratch .tsg is whole" "$T/pause.err"
check "killed once its scratch .tsg is whole: no file left" [ -z "$(ls -A "$T/scr2")" ]
# text written by --to text reads back as the same graph
check "--to text" conv --to text "$T/er.tsg" "$T/er-out.txt"
check "--to text: one line per edge" same "$(wc -l <"$T/er-out.txt")" "$("$B/tristream" info --json "$T/er.tsg" | python3 -c 'import json,sys; print(json.load(sys.stdin)["edges"])')"
check "--to text: each edge once, u < v" awk '$1 >= $2 { exit 1 }' "$T/er-out.txt"
check "--to text round trip" sh -c "$B/tristream-convert --quiet $T/er-out.txt $T/er-rt.tsg && a=\$($B/tristream info $T/er-rt.tsg | grep -v '^file') && [ -n \"\$a\" ] && [ \"\$a\" = \"\$($B/tristream info $T/er.tsg | grep -v '^file')\" ]"
check "--to text on a full device exits 5" [ "$(rc_of "$B/tristream-convert" --quiet --to text "$T/er.tsg" /dev/full)" = 5 ]
# gzip: libdeflate (whole file; members in parallel) and zlib (streamed) give
# the same graph; a truncated stream is an error for both, never a count
gzip -c "$T/er-out.txt" >"$T/one.gz"
split -l 97 "$T/er-out.txt" "$T/part."
for f in "$T"/part.*; do gzip -c "$f"; done >"$T/many.gz"
rm -f "$T"/part.*
for d in libdeflate zlib auto; do
	for z in one many; do
		check "gzip ($z member(s)), --gzip $d" sh -c "$B/tristream-convert --quiet --gzip $d $T/$z.gz $T/gz.tsg && cmp -s $T/gz.tsg $T/er-rt.tsg"
	done
	head -c $(($(stat -c %s "$T/one.gz") - 9)) "$T/one.gz" >"$T/cut.gz"
	check "truncated gzip, --gzip $d, exits 3" [ "$(rc_of "$B/tristream-convert" --quiet --gzip $d "$T/cut.gz" "$T/cutgz.tsg")" = 3 ]
	check "truncated gzip, --gzip $d, says so" grep -q "gzip stream" "$T/err"
	check "truncated gzip, --gzip $d, writes nothing" [ ! -e "$T/cutgz.tsg" ]
done
check "many members decoded by libdeflate, said in the JSON" sh -c "$B/tristream-convert --quiet --json --gzip libdeflate $T/many.gz $T/gz.tsg | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(not (d[\"decoder\"] == \"libdeflate\" and d[\"gzip_members\"] > 1))'"
check "count on gzip text (libdeflate)" same "$(tri "$T/many.gz")" "$(brute "$T/er-out.txt")"
check "--gzip rejects an unknown decoder" [ "$(rc_of "$B/tristream-convert" --gzip lzma "$T/one.gz" "$T/x.tsg")" = 2 ]
check "count on text leaves no scratch file" sh -c "TMPDIR=$T/scr $B/tristream count --quiet --device cpu $T/er.txt >/dev/null && [ -z \"\$(ls -A $T/scr)\" ]"
check "count on gzip text from stdin" same "$(gzip -c "$T/er.txt" | tri -)" "$erref"
check "count on Matrix Market" same "$(tri "$T/g.mtx")" 2
head -c 3000 /dev/urandom >"$T/garbage.bin"; printf '\x00\xff' >>"$T/garbage.bin"
check "count on a binary non-graph exits 3" [ "$(rc_of "$B/tristream" count --device cpu "$T/garbage.bin")" = 3 ]
check "count on a binary non-graph prints no count" [ ! -s "$T/out" ]
cp "$T/er.tsg" "$T/corrupt.tsg"; printf '\x55' | dd of="$T/corrupt.tsg" bs=1 seek=9000 conv=notrunc 2>/dev/null
check "corrupt graph exits 3" [ "$(rc_of "$B/tristream" count "$T/corrupt.tsg")" = 3 ]
check "corrupt graph message" grep -q "checksum mismatch" "$T/err"
check "corrupt graph, arrival layout, exits 3" [ "$(rc_of "$B/tristream" count --device cpu --layout arrival --batches 4 "$T/corrupt.tsg")" = 3 ]
check "corrupt graph, arrival layout, prints no count" [ ! -s "$T/out" ]
head -c 10000 "$T/er.tsg" >"$T/cut.tsg"
check "truncated graph exits 3" [ "$(rc_of "$B/tristream" count "$T/cut.tsg")" = 3 ]
check "truncated graph, arrival layout, exits 3" [ "$(rc_of "$B/tristream" count --device cpu --layout arrival --batches 4 "$T/cut.tsg")" = 3 ]
if ! "$B/tristream" --version | grep -q CUDA; then
	check "--device gpu without CUDA exits 6" [ "$(rc_of "$B/tristream" count --device gpu "$T/er.tsg")" = 6 ]
fi

# --- --gpus: what it takes, and what it refuses (tests/gpu/multi.sh counts on GPUs)
for bad in 0 65 x 0,0 1, ,1 0,,1 -1 2,x; do
	check "--gpus $bad is a usage error" [ "$(rc_of "$B/tristream" count --gpus "$bad" "$T/er.tsg")" = 2 ]
	check "--gpus $bad says what --gpus takes" grep -q "gpus takes" "$T/err"
done
check "--gpus with --device cpu is a usage error" [ "$(rc_of "$B/tristream" count --gpus 2 --device cpu "$T/er.tsg")" = 2 ]
check "--gpus with --gpu is a usage error" [ "$(rc_of "$B/tristream" count --gpus 2 --gpu 1 "$T/er.tsg")" = 2 ]
check "--gpus with --layout sweep is a usage error" [ "$(rc_of "$B/tristream" count --gpus 0,1 --layout sweep "$T/er.tsg")" = 2 ]
check "--gpus with --layout sweep names the layouts it takes" grep -q "applies to the block, lstc and arrival layouts" "$T/err"
check "--gpus with --layout arrival passes the plan (exit 6 only for want of a GPU)" eval '[ "$(rc_of "$B/tristream" count --gpus 0,1 --layout arrival "$T/er.tsg")" != 2 ]'
check "--gpus with --k 4 --layout block is a usage error" [ "$(rc_of "$B/tristream" count --gpus 2 --k 4 --layout block "$T/er.tsg")" = 2 ]
if ! "$B/tristream" --version | grep -q CUDA || ! command -v nvidia-smi >/dev/null; then
	# no GPU here: every form fails as a device error, and prints no count;
	# LSTC parts and k-cliques are taken (tests/gpu/multi.sh counts them)
	for g in all 2 0,1 1; do
		check "--gpus $g without a GPU exits 6" [ "$(rc_of "$B/tristream" count --gpus "$g" "$T/er.tsg")" = 6 ]
		check "--gpus $g without a GPU prints no count" [ ! -s "$T/out" ]
	done
	check "--gpus 2 --layout lstc is taken (exit 6 without a GPU)" [ "$(rc_of "$B/tristream" count --gpus 2 --layout lstc "$T/er.tsg")" = 6 ]
	check "--gpus 2 --k 4 is taken (exit 6 without a GPU)" [ "$(rc_of "$B/tristream" count --gpus 2 --k 4 "$T/er.tsg")" = 6 ]
	check "--gpus 0,0 under TRISTREAM_TEST_GPU_REPEAT=1 is taken (exit 6 without a GPU)" \
		[ "$(TRISTREAM_TEST_GPU_REPEAT=1 rc_of "$B/tristream" count --gpus 0,0 "$T/er.tsg")" = 6 ]
fi
check "TRISTREAM_TEST_GPU_REPEAT=0 leaves --gpus 0,0 a usage error" \
	[ "$(TRISTREAM_TEST_GPU_REPEAT=0 rc_of "$B/tristream" count --gpus 0,0 "$T/er.tsg")" = 2 ]

# --- LZ4-compressed graphs: same counts, every reader, damage is exit 3
check "compress" "$B/tristream" compress --quiet "$T/er.tsg" "$T/er.lz4.tsg"
check "compressed graph says so" sh -c "$B/tristream info --json $T/er.lz4.tsg | grep -q '\"compression\":\"lz4\"'"
for io in mmap pread uring; do
	check "compressed count, $io" same "$(tri --io $io "$T/er.lz4.tsg")" "$ref"
done
check "compressed count, lstc layout" same "$(tri --layout lstc --partitions 3 "$T/er.lz4.tsg")" "$ref"
check "decompress" "$B/tristream" decompress --quiet "$T/er.lz4.tsg" "$T/er.back.tsg"
check "decompress restores the file byte for byte" cmp -s "$T/er.tsg" "$T/er.back.tsg"
check "convert --compress lz4" sh -c "$B/tristream-convert --quiet --json --compress lz4 $T/er.txt $T/er.c.tsg | grep -q '\"compression\":\"lz4\"'"
check "convert --compress leaves no temporary" [ -z "$(ls "$T" | grep plain)" ]
check "convert --compress count" same "$(tri "$T/er.c.tsg")" "$(brute "$T/mem.tsg")"
check "convert --compress bad value exits 2" [ "$(rc_of "$B/tristream-convert" --compress zstd "$T/er.txt" "$T/x.tsg")" = 2 ]
zs=$(( $(stat -c %s "$T/er.lz4.tsg" 2>/dev/null || echo 0) / 2 ))
cp "$T/er.lz4.tsg" "$T/er.lz4.bad.tsg"; printf '\x55\x55' | dd of="$T/er.lz4.bad.tsg" bs=1 seek=$((45056 + 1000)) conv=notrunc 2>/dev/null
check "damaged compressed graph exits 3" [ "$(rc_of "$B/tristream" count "$T/er.lz4.bad.tsg")" = 3 ]
check "damaged compressed graph message" grep -q "checksum mismatch\|corrupt" "$T/err"
check "damaged compressed graph, arrival layout, exits 3" [ "$(rc_of "$B/tristream" count --device cpu --layout arrival --batches 4 "$T/er.lz4.bad.tsg")" = 3 ]
head -c $zs "$T/er.lz4.tsg" >"$T/er.lz4.cut.tsg"
check "truncated compressed graph exits 3" [ "$(rc_of "$B/tristream" count "$T/er.lz4.cut.tsg")" = 3 ]
# reorder: renumbered by (degree, id), the same count, degrees then
# non-decreasing along the ids; plain or LZ4; bad input leaves nothing
check "reorder" "$B/tristream" reorder --quiet "$T/er.tsg" "$T/er.ro.tsg"
check "reordered count equals brute's" same "$(brute "$T/er.ro.tsg")" "$ref"
check "reordered degrees grow with the ids" python3 - "$T/er.ro.tsg" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
nv = 5000
off = struct.unpack_from('<%dQ' % (nv + 1), d, 4096)
deg = [off[i + 1] - off[i] for i in range(nv)]
assert all(deg[i] <= deg[i + 1] for i in range(nv - 1)), "degrees not sorted"
PY
check "reorder --lz4 writes LZ4" sh -c "$B/tristream reorder --json --lz4 $T/er.lz4.tsg $T/er.ro.lz4.tsg | grep -q '\"compression\":\"lz4\",\"reordered\":true'"
check "reordered LZ4 count" same "$(tri "$T/er.ro.lz4.tsg")" "$ref"
check "reorder of a damaged file exits 3" [ "$(rc_of "$B/tristream" reorder "$T/er.lz4.bad.tsg" "$T/er.ro.bad.tsg")" = 3 ]
check "reorder of a damaged file writes nothing" [ ! -e "$T/er.ro.bad.tsg" ]
check "--lz4 belongs to reorder: compress --lz4 exits 2" [ "$(rc_of "$B/tristream" compress --lz4 "$T/er.tsg" "$T/x.tsg")" = 2 ]
check "--read bogus exits 2" [ "$(rc_of "$B/tristream" count --read bogus "$T/er.tsg")" = 2 ]
check "--read ranges with --k exits 2" [ "$(rc_of "$B/tristream" count --read ranges --k 4 "$T/er.tsg")" = 2 ]
# a clique's lists are runs of consecutive ids: far more entries than bytes
"$B/tristream-gen" --quiet clique --vertices 1000 "$T/clique.tsg"
"$B/tristream" compress --quiet "$T/clique.tsg" "$T/clique.lz4.tsg"
check "clique compresses past 4 entries a byte" python3 -c "import os; assert os.path.getsize('$T/clique.lz4.tsg') * 4 < 1000 * 999"
check "reference counter: C(1000,3) triangles in a 1000-clique" same "$(brute "$T/clique.tsg")" 166167000
check "compressed clique count" same "$(tri "$T/clique.lz4.tsg")" 166167000
check "compress a missing file exits 3" [ "$(rc_of "$B/tristream" compress "$T/none.tsg" "$T/none.lz4.tsg")" = 3 ]
check "compress of a missing file writes nothing" [ ! -e "$T/none.lz4.tsg" ]

# --- the generator: its graphs depend on the seed, never on the threads;
# crawl is as redundant as a crawl (BVGraph bits a link, against web's)
for spec in "rmat --scale 12" "web --vertices 30000" "crawl --vertices 150000"; do
	"$B/tristream-gen" --quiet --threads 1 --seed 4 $spec "$T/gen1.tsg"
	"$B/tristream-gen" --quiet --threads 5 --seed 4 $spec "$T/gen5.tsg"
	check "gen ${spec%% *}: the same file on 1 and 5 threads" sh -c "[ -s $T/gen1.tsg ] && cmp -s $T/gen1.tsg $T/gen5.tsg"
done
"$B/tristream-gen" --quiet --seed 5 crawl --vertices 150000 "$T/gen5.tsg"
check "gen crawl: another seed, another graph" sh -c "! cmp -s $T/gen1.tsg $T/gen5.tsg"
d1ref=$(brute "$T/gen1.tsg") # the crawl's count, used below too
check "reference counter on a crawl" same "$d1ref" "$(tri "$T/gen1.tsg")"
"$B/tristream-gen" --quiet --seed 4 web --vertices 150000 "$T/genw.tsg"
bits() { conv --to webgraph "$1" "$T/bits" && sed -n 's/^bitsperlink=//p' "$T/bits.properties"; }
cb=$(bits "$T/gen1.tsg") wb=$(bits "$T/genw.tsg")
check "gen crawl: under 4 bits a link as BVGraph ($cb), web over 8 ($wb)" python3 -c "assert 0 < $cb < 4 and $wb > 8"
# a BVGraph written over another: the old .properties is moved aside before
# the new files are named, so a run killed between two renames leaves no
# graph at BASE (refused, exit 3), not a new .graph beside the old
# .properties and .offsets; the old .properties is kept aside under an
# .old. name (BASE.properties.old.XXXXXX)
cp "$T/bits.properties" "$T/bits-props.old"
TSG_TEST_WEBGRAPH_NAMING_PAUSE_MS=30000 "$B/tristream-convert" --quiet --to webgraph "$T/gen1.tsg" \
	"$T/bits" 2>"$T/pause.err" &
pid=$!
while kill -0 $pid 2>/dev/null && ! grep -q "not yet its .properties" "$T/pause.err"; do sleep 0.05; done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
check "--to webgraph over a graph, killed between its names: it paused there" grep -q "not yet its .properties" "$T/pause.err"
check "... no .properties at BASE" [ ! -e "$T/bits.properties" ]
check "... nor at its transpose, removed before" [ ! -e "$T/bits-t.properties" ]
check "... BASE is no graph: exit 3" [ "$(rc_of "$B/tristream" count --quiet --device cpu "$T/bits")" = 3 ]
check "... the old .properties kept aside" sh -c "cmp -s $T/bits-props.old $T/bits.properties.old.*"
rm -f "$T"/bits.properties.old.*
check "--to webgraph over a graph" conv --to webgraph "$T/gen1.tsg" "$T/bits"
check "--to webgraph over a graph: the new one counted" same "$(tri "$T/bits")" "$d1ref"
check "--to webgraph over a graph: nothing left aside" sh -c "! ls $T | grep -q '^bits.*\.\(tmp\|old\)\.'"
check "--to webgraph: the transpose linked" sh -c "[ \$(stat -c %i $T/bits.graph) = \$(stat -c %i $T/bits-t.graph) ]"
# where the file system refuses hard links (FAT; a test hook here) the
# transpose is written again: the same bytes, its own files
check "--to webgraph without hard links" env TSG_TEST_NO_LINKS=1 "$B/tristream-convert" --quiet --to webgraph "$T/gen1.tsg" "$T/nolink"
check "--to webgraph without hard links: the transpose written, the same bytes" sh -c "for e in graph offsets properties; do [ -s $T/nolink-t.\$e ] && cmp -s $T/nolink.\$e $T/nolink-t.\$e && [ \$(stat -c %i $T/nolink.\$e) != \$(stat -c %i $T/nolink-t.\$e) ] || exit 1; done"
check "--to webgraph without hard links: counted with its transpose" same "$(tri "$T/nolink")" "$d1ref"
check "gen crawl: degree about 27, triangles closed" python3 -c "
import json, subprocess
d = json.loads(subprocess.check_output(['$B/tristream', 'count', '--quiet', '--device', 'cpu', '--json', '$T/gen1.tsg']))
deg = 2 * d['edges'] / 150000
assert 20 < deg < 34 and d['triangles'] > 3 * d['edges'], (deg, d['triangles'], d['edges'])"
# --webgraph: the crawl's links directed, with their transpose, as LAW ships
# a crawl; merged, the same undirected graph as the .tsg of the same seed
"$B/tristream-gen" --quiet --threads 1 --seed 4 --webgraph crawl --vertices 150000 "$T/d1"
"$B/tristream-gen" --quiet --threads 5 --seed 4 --webgraph crawl --vertices 150000 "$T/d5"
check "gen --webgraph: the same files on 1 and 5 threads" sh -c "for e in graph offsets properties; do for f in '' -t; do [ -s $T/d1\$f.\$e ] && cmp -s $T/d1\$f.\$e $T/d5\$f.\$e || exit 1; done; done"
check "gen --webgraph: directed (graph and transpose differ)" sh -c "! cmp -s $T/d1.graph $T/d1-t.graph"
check "gen --webgraph: converted, byte-identical to the crawl's .tsg" sh -c "$B/tristream-convert --quiet $T/d1 $T/d1.tsg && cmp -s $T/d1.tsg $T/gen1.tsg"
check "gen --webgraph: counted without the transpose (sorted)" same "$(tri --no-transpose "$T/d1")" "$d1ref"
# --to webgraph writes OUT-t.* too: never over the input's transpose, nor
# over an input that is a transpose (a review's finding: both replaced it)
cp "$T/d1-t.graph" "$T/d1t.keep"
check "--to webgraph over the input's transpose: exit 2" [ "$(rc_of "$B/tristream-convert" --quiet --to webgraph "$T/d1" "$T/d1-t")" = 2 ]
check "--to webgraph from a transpose, its OUT-t the input: exit 2" [ "$(rc_of "$B/tristream-convert" --quiet --to webgraph "$T/d1-t" "$T/d1")" = 2 ]
check "... the transpose kept" cmp -s "$T/d1-t.graph" "$T/d1t.keep"
check "... said so" grep -q "is the input itself (or its transpose)" "$T/err"
# over another crawl, killed after the new graph is named and before its
# transpose (the pause comes once in each): the graph counted by sorting,
# as the old transpose's .properties went first, never against it
"$B/tristream-gen" --quiet --seed 7 --webgraph crawl --vertices 20000 "$T/gw"
"$B/tristream-gen" --quiet --seed 8 crawl --vertices 20000 "$T/gw8.tsg"
gw8ref=$(brute "$T/gw8.tsg")
TSG_TEST_WEBGRAPH_NAMING_PAUSE_MS=10000 "$B/tristream-gen" --quiet --seed 8 --webgraph crawl \
	--vertices 20000 "$T/gw" 2>"$T/pause.err" &
pid=$!
while kill -0 $pid 2>/dev/null && [ "$(grep -c "not yet its .properties" "$T/pause.err")" -lt 2 ]; do sleep 0.05; done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
check "gen --webgraph over a crawl, killed between graph and transpose: it paused there" [ "$(grep -c "not yet its .properties" "$T/pause.err")" = 2 ]
check "... the transpose has no .properties" [ ! -e "$T/gw-t.properties" ]
check "... the new graph counted by sorting" same "$(tri "$T/gw")" "$gw8ref"
check "... said so" sh -c "$B/tristream count --quiet --device cpu --json $T/gw | grep -q '\"transpose_merged\":false'"
# counted as it is decoded: the arrival layout's batches take chunks of
# merged lists as they are placed, ranked by bounds of their degrees (out
# + in); any batch count, any thread count, per-vertex counts by those ranks
streamed() { "$B/tristream" count --quiet --device cpu --json --layout arrival "$@" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["input"]["decoded_while_counting"], d["lists_streamed"])'; }
check "crawl with its transpose, arrival: decoded while counted, said so" [ "$(streamed "$T/d1")" = "True True" ]
check "crawl, --decode-first: decoded whole first, said so" [ "$(streamed --decode-first "$T/d1")" = "False False" ]
check "crawl, block layout: decoded whole first, said so" [ "$("$B/tristream" count --quiet --device cpu --json --layout block "$T/d1" | grep -c '"decoded_while_counting":false')" = 1 ]
# and the plan's input says the same as the JSON's input, whichever device
# and layout auto took (a crawl opened to be decoded as counted and then
# read whole by the layout taken once said "decoded while counting")
for a in "" "--device cpu" "--device cpu --layout arrival" "--device cpu --layout block" "--batches 8" "--decode-first"; do
	got=$("$B/tristream" count --quiet --json $a "$T/d1" 2>/dev/null | python3 -c 'import json,sys
d = json.load(sys.stdin); c = d["plan"]["input"]["chosen"]
print((c.startswith("decoded while counting")) == d["input"]["decoded_while_counting"] and c.startswith("decoded "))' 2>&1)
	check "crawl $a: plan.input agrees with input.decoded_while_counting ($got)" [ "$got" = True ]
done
for th in 1 3 16; do for nb in 1 7 300; do
	check "crawl decoded while counted, $nb batches, $th threads" same "$(tri --layout arrival --batches $nb --threads $th "$T/d1")" "$d1ref"
done; done
check "crawl decoded whole first, arrival" same "$(tri --layout arrival --decode-first "$T/d1")" "$d1ref"
# (per vertex on a crawl a fifth the size: the reference's triple loop
# takes seconds a page on the large one)
"$B/tristream-gen" --quiet --seed 6 --webgraph crawl --vertices 30000 "$T/d6"
"$B/tristream-gen" --quiet --seed 6 crawl --vertices 30000 "$T/d6.tsg"
brute --per-vertex "$T/d6.tsg" >"$T/d6.pvref"
"$B/tristream" count --quiet --device cpu --layout arrival --threads 3 --batches 9 --per-vertex "$T/d6.pv" "$T/d6" >/dev/null
check "crawl decoded while counted: per-vertex counts (ranked by bounds) against the reference" sh -c "[ -s $T/d6.pvref ] && cmp -s $T/d6.pv $T/d6.pvref"
# decoded from the opening on, ahead of the count: a count that fails
# before it reads (no GPU on this machine) stops the decoding, exits 6
check "crawl decoded ahead, count failing before it reads: exit 6" [ "$(rc_of "$B/tristream" count --device gpu --layout arrival "$T/d1")" = 6 ]
check "crawl decoded ahead, count failing before it reads: said so" grep -q "GPU\|CUDA" "$T/err"
# a transpose that is not the graph's is found only at the end, after
# batches were counted: the count is dropped, exit 3
mkdir -p "$T/nott"
for e in graph offsets properties; do cp "$T/d1.$e" "$T/nott/d.$e"; cp "$T/d1.$e" "$T/nott/d-t.$e"; done
for l in arrival block; do
	check "crawl whose transpose is not its own, $l layout: exit 3, no count" sh -c "[ $(rc_of "$B/tristream" count --device cpu --layout $l "$T/nott/d") = 3 ] && [ ! -s $T/out ]"
	check "crawl whose transpose is not its own, $l layout: said so" grep -q "is not the transpose" "$T/err"
done
check "gen --webgraph with --tmpdir exits 2 (no scratch files)" [ "$(rc_of "$B/tristream-gen" --webgraph --tmpdir "$T" crawl --vertices 10 "$T/x")" = 2 ]
check "gen --webgraph with a kind other than crawl exits 2" [ "$(rc_of "$B/tristream-gen" --webgraph rmat --scale 5 "$T/x")" = 2 ]
check "gen crawl --edge-factor past 4096 exits 2" [ "$(rc_of "$B/tristream-gen" crawl --vertices 10 --edge-factor 5000 "$T/x.tsg")" = 2 ]

# --- out of memory: a clear error and exit 4, never a crash
"$B/tristream-gen" --quiet er --vertices 200000 --edges 4000000 --seed 9 "$T/oom.tsg"
check "out of memory exits 4" [ "$(rc_of sh -c "ulimit -v 40000; exec $B/tristream count --device cpu --io pread $T/oom.tsg")" = 4 ]
check "out of memory message" grep -qi "cannot allocate\|out of memory" "$T/err"
check "converter out of memory exits 4, not 'corrupt'" [ "$(rc_of sh -c "ulimit -v 12000; exec $B/tristream-convert --mem-limit 1G $T/er.txt $T/oom2.tsg")" = 4 ]

# --- LAW WebGraph crawls: cnr-2000 (../shared/graphs/cnr-2000), published
# count after symmetrizing 20,977,629; every path, and damage of every kind
WG="$SHARED/cnr-2000"
if [ -n "$SHARED" ] && [ -f "$WG/cnr-2000.graph" ] && [ -f "$WG/cnr-2000-t.graph" ]; then
	W="$T/wg"; mkdir -p "$W/full" "$W/plain" "$W/nooff"
	cp "$WG"/cnr-2000.* "$WG"/cnr-2000-t.* "$W/full/"
	cp "$WG"/cnr-2000.* "$W/plain/"
	cp "$WG/cnr-2000.graph" "$WG/cnr-2000.properties" "$WG/cnr-2000-t.graph" "$WG/cnr-2000-t.properties" "$W/nooff/"
	wjson() { "$B/tristream" count --quiet --device cpu --json "$@"; }
	for src in "$W/full/cnr-2000" "$W/full/cnr-2000.graph" "$W/full/cnr-2000.properties"; do
		check "webgraph $(basename "$src") with its transpose" same "$(tri "$src")" 20977629
	done
	check "webgraph merged with the transpose, said so" sh -c "$B/tristream count --quiet --device cpu --json $W/full/cnr-2000 | grep -q '\"transpose_merged\":true'"
	check "webgraph --no-transpose" same "$(tri --no-transpose "$W/full/cnr-2000")" 20977629
	check "webgraph without a transpose" same "$(tri "$W/plain/cnr-2000")" 20977629
	check "webgraph without a transpose sorts, said so" sh -c "$B/tristream count --quiet --device cpu --json $W/plain/cnr-2000 | grep -q '\"built_in_memory\":true,\"build_seconds\":[0-9.]*,\"transpose_merged\":false'"
	check "webgraph without .offsets" same "$(tri "$W/nooff/cnr-2000")" 20977629
	check "webgraph without .offsets says it scanned" sh -c "$B/tristream count --quiet --device cpu --json $W/nooff/cnr-2000 | grep -q '\"offsets_scanned\":true'"
	check "webgraph, no transpose, no .offsets" same "$(tri --no-transpose "$W/nooff/cnr-2000")" 20977629
	for l in block arrival lstc; do
		check "webgraph, $l layout" same "$(tri --layout $l --partitions 3 "$W/full/cnr-2000" 2>/dev/null || tri --layout $l "$W/full/cnr-2000")" 20977629
	done
	for th in 1 16; do
		check "webgraph decoded while counted, $th threads" same "$(tri --layout arrival --batches 9 --threads $th "$W/full/cnr-2000")" 20977629
	done
	check "webgraph without .offsets, decoded while counted" same "$(tri --layout arrival "$W/nooff/cnr-2000")" 20977629
	check "webgraph --host-mem spills through a scratch .tsg" same "$(tri --host-mem 8M --scratch-dir "$T/scr" "$W/full/cnr-2000")" 20977629
	check "convert webgraph (transpose)" conv "$W/full/cnr-2000" "$W/a.tsg"
	check "convert webgraph (sorted)" conv "$W/plain/cnr-2000.graph" "$W/b.tsg"
	check "convert webgraph (no .offsets)" conv "$W/nooff/cnr-2000" "$W/c.tsg"
	check "convert webgraph --compress lz4" conv --compress lz4 "$W/full/cnr-2000" "$W/d.tsg"
	check "the three conversions are byte-identical" sh -c "cmp -s $W/a.tsg $W/b.tsg && cmp -s $W/a.tsg $W/c.tsg"
	# ranges of nodes taken by many threads (more than the cores, so some
	# finish before those ahead of them and are parked), the offsets
	# decoded beside them: the same file on every thread count
	for th in 1 3 16 64; do
		check "convert webgraph on $th threads, byte-identical" sh -c "$B/tristream-convert --quiet --threads $th $W/full/cnr-2000 $W/th.tsg && cmp -s $W/a.tsg $W/th.tsg"
	done
	check "count webgraph on 64 threads" same "$(tri --threads 64 "$W/full/cnr-2000")" 20977629
	check "converted cnr-2000: 2,738,969 edges" sh -c "$B/tristream info --json $W/a.tsg | grep -q '\"vertices\":325557,\"edges\":2738969'"
	check "converted cnr-2000 counts" same "$(tri "$W/a.tsg")" 20977629
	check "converted cnr-2000, LZ4, counts" same "$(tri "$W/d.tsg")" 20977629
	check "converted cnr-2000: exactly symmetric" sh -c "$B/tristream info --verify $W/a.tsg >/dev/null"
	check "reference counter on the converted crawl" same "$(brute "$W/a.tsg")" 20977629
	# the writer: cnr-2000 (undirected) written as BVGraph and read back
	check "convert --to webgraph" conv --to webgraph "$W/a.tsg" "$W/rt"
	check "--to webgraph writes the transpose too" eval '[ -f "$W/rt-t.graph" ] && [ -f "$W/rt.offsets" ]'
	check "round trip through the writer counts" same "$(tri "$W/rt")" 20977629
	check "round trip through the writer, sorted" same "$(tri --no-transpose "$W/rt")" 20977629
	check "round trip through the writer is byte-identical" sh -c "$B/tristream-convert --quiet $W/rt $W/rt.tsg && cmp -s $W/a.tsg $W/rt.tsg"
	check "--to webgraph from text" conv --to webgraph "$T/er.txt" "$W/ert"
	check "--to webgraph from text counts" same "$(tri "$W/ert")" "$erref"
	check "--to webgraph with --compress exits 2" [ "$(rc_of "$B/tristream-convert" --to webgraph --compress lz4 "$T/er.txt" "$W/x")" = 2 ]
	# damage: each a clear error, exit 3, no count
	bad_wg() { # description, directory: its cnr-2000 must fail with exit 3 and no output
		local rc1 rc2 rc3
		rc1=$(rc_of "$B/tristream" count --device cpu "$2/cnr-2000"); cp "$T/err" "$T/err1"
		local out1=$(cat "$T/out")
		rc3=$(rc_of "$B/tristream" count --device cpu --layout arrival "$2/cnr-2000")
		local out3=$(cat "$T/out")
		rc2=$(rc_of "$B/tristream-convert" "$2/cnr-2000" "$2/x.tsg")
		check "webgraph $1: count exits 3" [ "$rc1" = 3 ]
		check "webgraph $1: count prints no count" [ -z "$out1" ]
		check "webgraph $1: count decoding while counting exits 3, no count" sh -c "[ $rc3 = 3 ] && [ -z '$out3' ]"
		check "webgraph $1: convert exits 3, writes nothing" sh -c "[ $rc2 = 3 ] && [ ! -e $2/x.tsg ]"
	}
	mk() { rm -rf "$W/$1"; mkdir -p "$W/$1"; cp "$WG"/cnr-2000.* "$W/$1/"; [ "${2:-}" = t ] && cp "$WG"/cnr-2000-t.* "$W/$1/"; true; }
	for t in "" t; do
		mk cut $t; head -c 600000 "$WG/cnr-2000.graph" >"$W/cut/cnr-2000.graph"
		bad_wg "truncated .graph ${t:+(transpose)}" "$W/cut"
		mk off $t; python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[len(b)//2]^=0x24; open(sys.argv[1],'wb').write(b)" "$W/off/cnr-2000.offsets"
		bad_wg ".offsets that disagree with the lists ${t:+(transpose)}" "$W/off"
		mk win $t; sed -i 's/^windowsize=.*/windowsize=2/' "$W/win/cnr-2000.properties"
		bad_wg "a reference outside the window ${t:+(transpose)}" "$W/win"
		check "webgraph reference outside the window is named" grep -q "reference outside the window\|corrupt" "$T/err1"
		mk range $t; sed -i 's/^nodes=.*/nodes=300000/' "$W/range/cnr-2000.properties"
		bad_wg "successors out of range ${t:+(transpose)}" "$W/range"
		mk arcs $t; sed -i 's/^arcs=.*/arcs=3216153/' "$W/arcs/cnr-2000.properties"
		bad_wg "arc count that disagrees ${t:+(transpose)}" "$W/arcs"
		# damage met by many threads at once, the offsets still decoding
		mk offcut $t; head -c 100000 "$WG/cnr-2000.offsets" >"$W/offcut/cnr-2000.offsets"
		[ "$t" = t ] && head -c 50000 "$WG/cnr-2000-t.offsets" >"$W/offcut/cnr-2000-t.offsets"
		for th in 1 16; do
			rc=$(rc_of "$B/tristream-convert" --threads $th "$W/offcut/cnr-2000" "$W/offcut/x.tsg")
			check "webgraph truncated .offsets ${t:+(transpose) }on $th threads: exit 3, nothing written" sh -c "[ $rc = 3 ] && [ ! -e $W/offcut/x.tsg ]"
			check "webgraph truncated .offsets ${t:+(transpose) }on $th threads: said so" grep -q "offsets" "$T/err"
			rc=$(rc_of "$B/tristream" count --device cpu --layout arrival --threads $th "$W/offcut/cnr-2000")
			check "webgraph truncated .offsets ${t:+(transpose) }on $th threads, decoded while counted: exit 3, no count, said so" sh -c "[ $rc = 3 ] && [ ! -s $T/out ] && grep -q offsets $T/err"
			rc=$(rc_of "$B/tristream-convert" --threads $th "$W/cut/cnr-2000" "$W/cut/x.tsg")
			check "webgraph truncated .graph ${t:+(transpose) }on $th threads: exit 3, nothing written" sh -c "[ $rc = 3 ] && [ ! -e $W/cut/x.tsg ]"
		done
	done
	for kv in "nodes=" "nodes=many" "zetak=0" "version=1" "endianness=little" "compressionflags=RESIDUALS_NIBBLE" "graphclass=it.unimi.dsi.webgraph.EFGraph" "windowsize=-3"; do
		mk props; sed -i "s/^${kv%%=*}=.*//" "$W/props/cnr-2000.properties"; echo "$kv" >>"$W/props/cnr-2000.properties"
		[ "$kv" = "nodes=" ] && sed -i '/^nodes=/d' "$W/props/cnr-2000.properties"
		bad_wg ".properties with '$kv'" "$W/props"
		check "webgraph .properties with '$kv' names the key" grep -q "${kv%%=*}" "$T/err1"
	done
else
	skip "${SHARED:-../shared/graphs}/cnr-2000 not found (not bundled); the LAW crawl's checks not run"
fi

# --- real graphs, published counts: the bundled ones (tests/data) always
D=$SRC/data
conv "$D/facebook_combined.txt.gz" "$T/fb.tsg"
check "facebook: 4,039 vertices, 88,234 edges" sh -c "$B/tristream info --json $T/fb.tsg | grep -q '\"vertices\":4039,\"edges\":88234'"
for p in 1 4 16; do check "facebook P=$p" same "$(tri --partitions $p "$T/fb.tsg")" 1612010; done
for p in 4 16; do check "facebook lstc P=$p" same "$(tri --layout lstc --partitions $p "$T/fb.tsg")" 1612010; done
check "facebook, counted from the gzip text" same "$(tri "$D/facebook_combined.txt.gz")" 1612010
conv --relabel "$D/ca-GrQc.txt.gz" "$T/gr.tsg"
check "ca-GrQc vertices and edges" sh -c "$B/tristream info --json $T/gr.tsg | grep -q '\"vertices\":5241,\"edges\":14484'"
for p in 1 4 16; do check "ca-GrQc P=$p" same "$(tri --partitions $p "$T/gr.tsg")" 48260; done
for p in 4 16; do for s in $schemes; do
	check "ca-GrQc lstc $s P=$p" same "$(tri --layout lstc --partitions $p --scheme $s "$T/gr.tsg")" 48260
done; done
check "ca-GrQc, arrival layout from the gzip text" same "$(tri --layout arrival --batches 7 "$D/ca-GrQc.txt.gz")" 48260
# directed: each pair once however many arcs join it
"$B/tristream-convert" --json --quiet "$D/email-Eu-core.txt.gz" "$T/em.tsg" >"$T/em.json"
check "email-Eu-core: 16,064 undirected edges from its arcs" grep -q '"edges":16064' "$T/em.json"
for p in 1 3; do for k in merge hash wedge; do
	check "email-Eu-core P=$p $k" same "$(tri --partitions $p --cpu-kernel $k "$T/em.tsg")" 105461
done; done
check "email-Eu-core lstc P=4 closed" same "$(tri --layout lstc --partitions 4 --prune closed "$T/em.tsg")" 105461
# and ../shared/graphs adds the copies as they came and the larger ones
if [ -n "$SHARED" ] && [ -f "$SHARED/facebook_combined.txt" ]; then
	# this copy ends with a "-1" sentinel line, reported as one bad line
	"$B/tristream-convert" --json --quiet --skip-bad-lines "$SHARED/facebook_combined.txt" "$T/fbs.tsg" >"$T/fb.json"
	check "shared facebook copy: one bad line reported" grep -q '"bad_lines":1' "$T/fb.json"
	check "shared facebook copy: the bundled graph, byte for byte" cmp -s "$T/fb.tsg" "$T/fbs.tsg"
else
	skip "${SHARED:-../shared/graphs}/facebook_combined.txt not found; its sentinel line not read"
fi
for f in "soc-Slashdot0902.txt.gz 602592" "ca-HepPh.txt 3358499"; do
	set -- $f
	if [ -n "$SHARED" ] && [ -f "$SHARED/$1" ]; then
		conv "$SHARED/$1" "$T/big-real.tsg"
		for p in 1 4; do check "$1 P=$p" same "$(tri --partitions $p "$T/big-real.tsg")" "$2"; done
	else
		skip "${SHARED:-../shared/graphs}/$1 not found (not bundled); its published count not checked"
	fi
done

# --- SIGBUS (a mapped input cut short while in use, or a disk error) ends
# the program with exit 3 and a message, not a crash. Sent by hand: each
# program waits on a pipe once its handler is set (/proc's SigCgt says so;
# after about 30 s it is sent all the same, and the check then fails)
sigbus_case() { # name, command reading stdin...
	local name=$1 pid mask rc i
	shift
	rm -f "$T/bus.fifo"
	mkfifo "$T/bus.fifo"
	exec 9<>"$T/bus.fifo" # a writer that sends nothing: the read waits
	"$@" <"$T/bus.fifo" >"$T/bus.out" 2>"$T/bus.err" &
	pid=$!
	# the program itself, not the shell forked to start it (which may catch
	# SIGBUS too, until its exec: a loaded machine showed that race)
	local exe
	exe=$(readlink -f "$1")
	# exe read before the mask: once it names the program the exec is done,
	# so the mask is the program's (read the other way round, a mask read
	# from the shell just before its exec passed: CI, 2026-11-27)
	for ((i = 0; i < 600; i++)); do
		if [ -n "$exe" ] && [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$exe" ]; then
			mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
			[ -n "$mask" ] && (((0x$mask >> 6) & 1)) && break # SIGBUS is signal 7
		fi
		sleep 0.05
	done
	kill -BUS $pid
	wait $pid
	rc=$?
	exec 9>&-
	check "$name: SIGBUS exits 3 (got $rc), says why" eval '[ $rc = 3 ] && grep -q "could not be read.*(SIGBUS)" "$T/bus.err"'
}
sigbus_case "count of stdin" "$B/tristream" count --quiet -
sigbus_case "convert of stdin" "$B/tristream-convert" --quiet - "$T/bus.tsg"
check "convert stopped by SIGBUS leaves no output" test ! -e "$T/bus.tsg"
finish_checks
