#!/usr/bin/env bash
# tests/gen.sh BUILD_DIR - tristream-gen --webgraph crawl, made in bounded
# memory: the same files byte for byte on 1, 2 and 3 threads, in one pass
# of the transpose and in several (a --mem-limit just above the least the
# threads need), and as the in-memory generator made them before (their
# sha256); the transpose exactly the graph's (test_webgraph --transpose-of)
# and counted, with it and without it, as the .tsg of the same arguments
# and as the reference counter counts that; converted, that very .tsg; a
# too small --mem-limit, --tmpdir, an output that cannot be written and a
# full disk refused with their exit codes and no file left; the peak memory
# within the limit. Ends with "N passed, N failed".
set -u
B=$1
T=$(mktemp -d)
MNT=""
cleanup() { [ -n "$MNT" ] && umount "$MNT" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
# check, num, same
. "$(dirname "$0")/lib.sh"
gen() { "$B/tristream-gen" "$@"; }
brute() { "$B/tests/brute" "$@"; }
tri() { "$B/tristream" count --quiet --device cpu --json "$@" | python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])'; }
rc_of() { "$@" >"$T/out" 2>"$T/err"; echo $?; }
files() { echo "$1.graph $1.offsets $1.properties $1-t.graph $1-t.offsets $1-t.properties"; }
same_files() { # BASE BASE: all six files present and equal
	local a b
	for a in $(files "$1"); do
		b=$2${a#"$1"}
		[ -s "$a" ] && cmp -s "$a" "$b" || return 1
	done
}
passes() { sed -n 's/.*the transpose in \([0-9]*\) pass.*/\1/p' "$1"; }

N=600000 # pages: 10 spans of 2^16, the last one partial
SEED=7
gen --quiet --seed $SEED crawl --vertices $N "$T/u.tsg"
ref=$(brute "$T/u.tsg")
check "reference count of the crawl's .tsg is a number" num "$ref"

# --- too little memory: exit 4, the least it needs named, nothing written
for th in 1 2 3; do
	check "$th threads, --mem-limit 1M: exit 4" [ "$(rc_of gen --seed $SEED --threads $th --mem-limit 1M --webgraph crawl --vertices $N "$T/small")" = 4 ]
	least=$(sed -n 's/.*too small for .* at least \([0-9.]*\) MiB$/\1/p' "$T/err")
	check "$th threads, --mem-limit 1M: says the least ($least MiB)" num "${least%.*}"
	low[$th]=$(python3 -c "import math; print(math.ceil(${least:-0}) + 2)")M
done
check "--mem-limit too small leaves no file" [ -z "$(ls "$T" | grep small)" ]

# --- the same files whatever the threads and the memory
for th in 1 2 3; do
	gen --seed $SEED --threads $th --webgraph crawl --vertices $N "$T/one$th" 2>"$T/one$th.err"
	check "$th threads, default memory: one pass" same "$(passes "$T/one$th.err")" 1
	gen --seed $SEED --threads $th --mem-limit "${low[$th]}" --webgraph crawl --vertices $N "$T/many$th" 2>"$T/many$th.err"
	p=$(passes "$T/many$th.err")
	check "$th threads, --mem-limit ${low[$th]}: several passes ($p)" sh -c "[ '${p:-0}' -ge 3 ]"
	check "$th threads, one pass: the files of 1 thread" same_files "$T/one1" "$T/one$th"
	check "$th threads, $p passes: the files of 1 thread, one pass" same_files "$T/one1" "$T/many$th"
done
if command -v sha256sum >/dev/null; then
	# made by the in-memory generator this one replaced (commit 766e24d)
	sums="70cce1a4b1a009c0773b1ee600975a88291d2286c534ae03399f41e09b8bb7be one1.graph
0226e5248dd69435c72eb744530cdb341c00c75012842367baa97bcf2f23b643 one1.offsets
2b5f85a705da4abe199a52a795dac18ec191aa1d5b4021736212117ecc9bb036 one1-t.graph
29e6b058b60392f9e85e80436b0c3381d46a05edebecf94b2da28f30d02746cd one1-t.offsets"
	check "the files the in-memory generator made (sha256)" sh -c "cd $T && echo '$sums' | sed 's/ /  /' | sha256sum --quiet -c"
else
	echo "note: no sha256sum, the files are not compared with the in-memory generator's"
fi
gen --quiet --seed 8 --webgraph crawl --vertices $N "$T/other"
check "another seed, other files" sh -c "! cmp -s $T/one1.graph $T/other.graph"
check "directed: the graph and its transpose differ" sh -c "! cmp -s $T/one1.graph $T/one1-t.graph"
check ".properties: the pages" grep -qx "nodes=$N" "$T/one1.properties"
arcs=$(sed -n 's/^arcs=//p' "$T/one1.properties")
check ".properties: the same arcs in both ($arcs)" sh -c "[ -n '$arcs' ] && grep -qx 'arcs=$arcs' $T/one1-t.properties"
bpl=$(sed -n 's/^bitsperlink=//p' "$T/one1.properties")
check ".properties: bits a link ($bpl), a crawl's" python3 -c "assert 1 < float('$bpl') < 6"
check ".properties: LAW's statistics" grep -q "^avgref=[0-9.]*$" "$T/one1-t.properties"

# --- the graph: its transpose exact, counted as the .tsg of the same arguments
check "the transpose is exactly the graph's ($arcs arcs)" "$B/tests/test_webgraph" --transpose-of "$T/many3"
check "counted with its transpose (checked as decoded): the reference count" same "$(tri "$T/many3")" "$ref"
check "counted without the transpose (sorted): the reference count" same "$(tri --no-transpose "$T/many3")" "$ref"
check "converted with the transpose: the crawl's .tsg, byte for byte" sh -c "$B/tristream-convert --quiet $T/many3 $T/m.tsg && cmp -s $T/m.tsg $T/u.tsg"
check "converted without the transpose: the crawl's .tsg, byte for byte" sh -c "$B/tristream-convert --quiet --no-transpose $T/many3 $T/n.tsg && cmp -s $T/n.tsg $T/u.tsg"

# --- past edge factor 16 (links of a page to pages of its site on their
# own: gen.c, crawl_own): the same files on 1 and 3 threads and in several
# transpose passes, the transpose exact, the .tsg of the same arguments
# byte for byte and its count; 3-4.5 bits a link, as issue #49 asks of a
# crawl of gsh-2015's size (the pages here are fewer: 2.4 spans)
N48=160000
gen --quiet --seed $SEED --edge-factor 48 crawl --vertices $N48 "$T/u48.tsg"
ref48=$(brute "$T/u48.tsg")
check "edge factor 48: reference count is a number" num "$ref48"
gen --quiet --seed $SEED --threads 3 --edge-factor 48 --webgraph crawl --vertices $N48 "$T/e48a"
rc_of gen --seed $SEED --threads 1 --mem-limit 1M --edge-factor 48 --webgraph crawl --vertices $N48 "$T/e48b" >/dev/null
least48=$(sed -n 's/.*too small for .* at least \([0-9.]*\) MiB$/\1/p' "$T/err")
low48=$(python3 -c "import math; print(math.ceil(${least48:-0}) + 2)")M
gen --seed $SEED --threads 1 --mem-limit "$low48" --edge-factor 48 --webgraph crawl --vertices $N48 "$T/e48b" 2>"$T/e48b.err"
check "edge factor 48: 3 threads, and 1 in $low48 ($(passes "$T/e48b.err") transpose passes), the same files" same_files "$T/e48a" "$T/e48b"
check "edge factor 48: several transpose passes" python3 -c "assert int('$(passes "$T/e48b.err")' or 0) > 1"
check "edge factor 48: the transpose is exactly the graph's" "$B/tests/test_webgraph" --transpose-of "$T/e48a"
check "edge factor 48: converted, the .tsg of the same arguments byte for byte" sh -c "$B/tristream-convert --quiet $T/e48a $T/e48.tsg && cmp -s $T/e48.tsg $T/u48.tsg"
check "edge factor 48: counted with its transpose, the reference count" same "$(tri "$T/e48a")" "$ref48"
bpl48=$(sed -n 's/^bitsperlink=//p' "$T/e48a.properties")
arcs48=$(sed -n 's/^arcs=//p' "$T/e48a.properties")
check "edge factor 48: 3-4.5 bits a link ($bpl48)" python3 -c "assert 3 <= float('$bpl48') <= 4.5"
check "edge factor 48: 30-40 links a page ($arcs48 arcs)" python3 -c "assert 30 * $N48 <= int('$arcs48') <= 40 * $N48"

# --- --window: other files, the same graph, the window in the properties
gen --quiet --seed $SEED --threads 2 --edge-factor 48 --window 2 --webgraph crawl --vertices $N48 "$T/e48w"
check "--window 2: windowsize=2 in both .properties" sh -c "grep -qx windowsize=2 '$T/e48w.properties' && grep -qx windowsize=2 '$T/e48w-t.properties'"
check "--window 2: other bits than window 7" sh -c "! cmp -s '$T/e48w.graph' '$T/e48a.graph'"
check "--window 2: counted, the reference count" same "$(tri "$T/e48w")" "$ref48"
check "--window 2: the transpose is exactly the graph's" "$B/tests/test_webgraph" --transpose-of "$T/e48w"
bplw=$(sed -n 's/^bitsperlink=//p' "$T/e48w.properties")
check "--window 2: 3-4.5 bits a link ($bplw)" python3 -c "assert 3 <= float('$bplw') <= 4.5"
check "--window 8: exit 2" [ "$(rc_of gen --window 8 --webgraph crawl --vertices 10 "$T/x")" = 2 ]
check "--window without --webgraph: exit 2" [ "$(rc_of gen --window 3 crawl --vertices 10 "$T/x.tsg")" = 2 ]

# --- refused
check "--webgraph with --tmpdir: exit 2" [ "$(rc_of gen --tmpdir "$T" --webgraph crawl --vertices 10 "$T/x")" = 2 ]
check "an output that cannot be written: exit 5" [ "$(rc_of gen --webgraph crawl --vertices 1000 "$T/none/x")" = 5 ]
check "an output that cannot be written: named" grep -q "none/x" "$T/err"
check "an output that cannot be written: nothing left" [ ! -e "$T/none" ]
MNT="$T/full"
mkdir -p "$MNT"
if mount -t tmpfs -o size=1M tmpfs "$MNT" 2>/dev/null; then
	check "a full disk: exit 5" [ "$(rc_of gen --webgraph crawl --vertices $N "$MNT/x")" = 5 ]
	check "a full disk: said so, the file named" grep -q "full/x.*No space left" "$T/err"
	check "a full disk: nothing left" [ -z "$(ls -A "$MNT")" ]
	umount "$MNT"
else
	skip "no tmpfs could be mounted (not root?): a full disk not tried (3 checks)"
fi
MNT=""
gen --quiet --seed $SEED --webgraph crawl --vertices 1000 "$T/small"
check "a small crawl leaves its six files and no temporary" sh -c "[ \$(ls $T | grep -c '^small') = 6 ]"
check "--help tells of --mem-limit for --webgraph" sh -c "$B/tristream-gen --help | grep -q -- '--mem-limit (default half the memory available)'"

# --- the peak memory within the limit
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f %M -o "$T/rss" "$B/tristream-gen" --quiet --seed $SEED --threads 2 --mem-limit "${low[2]}" --webgraph crawl --vertices $N "$T/mem"
	kb=$(cat "$T/rss")
	check "peak memory ${kb} KiB within --mem-limit ${low[2]}" sh -c "[ '${kb:-x}' -le $(( ${low[2]%M} * 1024 )) ] 2>/dev/null"
else
	skip "no /usr/bin/time (apt-get install time): the peak memory not checked"
fi

# outputs are published over their paths: never over a FIFO or a device
# (a link to one included), nor over the input's own path (a review's
# findings, session 49)
mkfifo "$T/fifo"
ln -s /dev/null "$T/null-link"
check "a .tsg onto a FIFO: exit 2, the FIFO left" eval '[ "$(rc_of "$B/tristream-gen" --quiet rmat --scale 6 "$T/fifo")" = 2 ] && [ -p "$T/fifo" ]'
check "a .tsg onto a link to /dev/null: exit 2, the link left" eval '[ "$(rc_of "$B/tristream-gen" --quiet rmat --scale 6 "$T/null-link")" = 2 ] && [ -L "$T/null-link" ]'
"$B/tristream-gen" --quiet rmat --scale 8 "$T/self.tsg"
"$B/tristream-convert" --quiet --to text "$T/self.tsg" "$T/self.txt"
cp "$T/self.tsg" "$T/self0.tsg"
cp "$T/self.txt" "$T/self0.txt"
check "convert onto its own text input: exit 2, the input kept" eval '[ "$(rc_of "$B/tristream-convert" --quiet "$T/self.txt" "$T/self.txt")" = 2 ] && cmp -s "$T/self.txt" "$T/self0.txt"'
check "convert --to text onto its own .tsg: exit 2, the input kept" eval '[ "$(rc_of "$B/tristream-convert" --quiet --to text "$T/self.tsg" "$T/self.tsg")" = 2 ] && cmp -s "$T/self.tsg" "$T/self0.tsg"'
check "--per-vertex onto the graph itself: exit 2, the graph kept" eval '[ "$(rc_of "$B/tristream" count --quiet --per-vertex "$T/self.tsg" "$T/self.tsg")" = 2 ] && cmp -s "$T/self.tsg" "$T/self0.tsg"'
check "--per-vertex elsewhere still written" eval '[ "$(rc_of "$B/tristream" count --quiet --per-vertex "$T/self.pv" "$T/self.tsg")" = 0 ] && [ -s "$T/self.pv" ]'
# a closed pipe is exit 5, as a full disk, not death by SIGPIPE (the read
# end closed before the program starts: no race)
for prog in "tristream count --quiet" "tristream info" "tristream-convert --to text"; do
	set -- $prog
	check "$prog into a closed pipe: exit 5" python3 -c "
import os, subprocess, sys
r, w = os.pipe(); os.close(r)
args = [sys.argv[1] + '/' + sys.argv[2]] + sys.argv[3:]
p = subprocess.run(args, stdout=w, stderr=subprocess.PIPE)
assert p.returncode == 5, (p.returncode, p.stderr[-200:])" "$B" "$@" "$T/self.tsg" $([ "$1" = tristream-convert ] && echo /dev/stdout)
done

finish_checks
