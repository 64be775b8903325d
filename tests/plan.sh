#!/usr/bin/env bash
# tests/plan.sh BUILD_DIR SOURCE_ROOT - count's options and its plan: an
# option given where it does not apply is refused (exit 2, one line naming
# it and why) or noted, never ignored; JSON "plan" echoes what was asked
# and what ran; every substitution is said. Also the command line's
# manners: -h, one-line usage errors, info on any input, binary input never
# echoed, --skip-bad-lines, --json on a failing graph, manifest-relative
# paths, vertices against id_range, and help, the option table and the
# docs listing the same options. Needs nothing outside the repository.
# Ends with "N passed, N failed".
set -u
B=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# check, num, same
. "$SRC/tests/lib.sh"
rc_of() { "$@" >"$T/out" 2>"$T/err"; echo $?; }
tc() { "$B/tristream" count --quiet --json "$@"; }
# a JSON field of stdin, by a Python expression on d ("" if none)
# (several, comma-separated: one a line)
jq() { python3 -c "import json,sys; d=json.load(sys.stdin); r=($1); print(*(r if isinstance(r, tuple) else (r,)), sep='\n')" 2>/dev/null; }
# stderr is one line, naming $1 and ending with the pointer to the help
one_line() { [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "$1" "$T/err" && grep -q "; see tristream ${2:-count} --help$" "$T/err"; }
# a file is UTF-8 text with no control bytes but tabs and line ends
printable() { python3 -c "
import sys; t = open(sys.argv[1], 'rb').read().decode('utf-8')
sys.exit(any(ord(c) < 32 and c not in '\t\n' or 127 <= ord(c) < 160 for c in t))" "$1"; }
refused() { # description, text the message must hold, count args...
	local what=$1 why=$2; shift 2
	check "$what: exit 2" [ "$(rc_of "$B/tristream" count --quiet "$@")" = 2 ]
	check "$what: one line saying why" one_line "$why"
	check "$what: no count" [ ! -s "$T/out" ]
}

gzip -dc "$SRC/tests/data/karate.txt.gz" >"$T/karate.txt"
"$B/tristream-convert" --quiet "$T/karate.txt" "$T/karate.tsg"
"$B/tristream-gen" --quiet --webgraph crawl --vertices 3000 --seed 5 "$T/crawl"
"$B/tristream-gen" --quiet rmat --scale 14 --seed 3 "$T/hm.tsg"
K="$T/karate.tsg"
"$B/tristream-convert" --quiet "$T/crawl" "$T/crawl.tsg"
cref=$("$B/tests/brute" "$T/crawl.tsg")
hmref=$("$B/tests/brute" "$T/hm.tsg")
check "reference counts" eval 'num "$cref" && num "$hmref"'
cuda=0
"$B/tristream" --version | grep -q CUDA && cuda=1

# --- options that once were taken and ignored: refused now, naming why
refused "--orient with --layout lstc" "--orient does not apply to --layout lstc" --orient two-pass --layout lstc "$K"
refused "--pin-host with --layout lstc" "--pin-host does not apply to --layout lstc" --pin-host on --layout lstc "$K"
refused "--pin-host with --device cpu" "--pin-host applies to the GPU: not with --device cpu" --pin-host on --device cpu "$K"
refused "--gpu-mem with --device cpu" "--gpu-mem applies to the GPU: not with --device cpu" --gpu-mem 1G --device cpu "$K"
refused "--gpu with --device cpu" "--gpu applies to the GPU: not with --device cpu" --gpu 1 --device cpu "$K"
refused "--gpu-mem with --plan-only" "not with --plan-only" --gpu-mem 1G --plan-only "$K"
refused "--plan-only with --device gpu" "--plan-only" --plan-only --device gpu "$K"
refused "--tile with --kernel trust" "--tile shapes --kernel lstc, lstc-paper and mid-hash.*not --kernel trust" --tile 128 --kernel trust "$K"
refused "--decode-first on a .tsg" "--decode-first applies to WebGraph crawls: .*karate.tsg is a .tsg file" --decode-first "$K"
refused "--no-transpose on a .tsg" "--no-transpose applies to WebGraph crawls" --no-transpose "$K"
refused "--no-transpose on text" "--no-transpose applies to WebGraph crawls: .*is a text edge list" --no-transpose "$T/karate.txt"
refused "--skip-bad-lines on a .tsg" "--skip-bad-lines applies to text edge lists" --skip-bad-lines "$K"
refused "--skip-bad-lines on a crawl" "--skip-bad-lines applies to text edge lists: .*is a WebGraph crawl" --skip-bad-lines "$T/crawl"
refused "--scratch-dir on a .tsg without --host-mem" "--scratch-dir applies to crawls, text and --host-mem" --scratch-dir "$T" "$K"
refused "--batches with --partitions" "--batches applies to the arrival layout, --partitions to the block and lstc layouts" --batches 3 --partitions 2 "$K"
refused "--batches with --k 4" "--batches does not apply to the lstc layout" --batches 3 --k 4 "$K"
refused "--verify (info's) on count" "unknown option '--verify'" --verify "$K"
# kept for scripts that sweep GPU kernels on either device: a note, and it counts
for a in "--tile 128" "--kernel trust" "--kernel skiff --cta-policy warp-index"; do
	out=$(tc --device cpu $a "$K")
	check "$a with --device cpu: counted" same "$(echo "$out" | jq 'd["triangles"]')" 45
	check "$a with --device cpu: the note says it was not used" python3 -c "
import json, sys; d = json.loads(sys.argv[1]); assert 'applies to the GPU: not used with --device cpu' in d['note'], d" "$out"
done
"$B/tristream" count --device cpu --tile 128 "$K" >/dev/null 2>"$T/err"
check "... and so does stderr" grep -q "note: --tile applies to the GPU: not used with --device cpu" "$T/err"
# --io reads a .tsg: text made into lists in memory reads none, and says so
out=$(tc --device cpu --io uring "$T/karate.txt")
check "--io uring on text: counted" same "$(echo "$out" | jq 'd["triangles"]')" 45
check "--io uring on text: the note says it was not used, the plan has no io" python3 -c "
import json, sys; d = json.loads(sys.argv[1])
assert '--io uring applies to .tsg files: not used' in d['note'] and 'io' not in d['plan'], d" "$out"
# info reads no .tsg of text either: a note, stderr and JSON, not silence
"$B/tristream" info --json --io uring "$T/karate.txt" >"$T/info.json" 2>"$T/err"
check "info --io uring on text: exit 0, the note says it was not used" python3 -c "
import json; d = json.load(open('$T/info.json'))
assert d['edges'] == 78 and 'io' not in d, d
assert '--io uring applies to .tsg files: not used' in d['note'], d"
check "... and so does stderr" grep -q "note: --io uring applies to .tsg files" "$T/err"
"$B/tristream" info --json --io pread "$K" >"$T/info.json" 2>"$T/err"
check "info --io pread on a .tsg: read so, no note" python3 -c "
import json; d = json.load(open('$T/info.json'))
assert d['io'] == 'pread' and 'note' not in d, d"
# --read in one process: what each mode would have shared, said rightly
for m in all host; do
	out=$(tc --device cpu --read $m "$K")
	check "--read $m, one process: counted" same "$(echo "$out" | jq 'd["triangles"]')" 45
	want="--read all makes every rank read every list: one process does so anyway"
	[ $m = host ] && want="--read host shares the reading among the ranks of a host: one process reads every list"
	check "--read $m, one process: the note says what it means" python3 -c "
import json, sys; d = json.loads(sys.argv[1]); assert sys.argv[2] in d['note'], d" "$out" "$want"
done
# an input's option in a run of several graphs: a note on the graphs it does not fit
tc --device cpu --no-transpose "$K" "$T/crawl" >"$T/two.json" 2>"$T/err"
check "--no-transpose on a .tsg and a crawl: exit 0" [ $? = 0 ]
check "... the .tsg's line notes it, the crawl's does not, both counted" python3 -c "
import json
a, b = [json.loads(l) for l in open('$T/two.json')]
assert a['triangles'] == 45 and b['triangles'] == $cref, (a, b)
assert '--no-transpose applies to WebGraph crawls: not used for' in a['note'], a
assert '--no-transpose' not in b.get('note', ''), b
assert b['input']['transpose_merged'] is False and b['plan']['input']['given'] is True, b"

# --- what --host-mem changes when it spills: recorded and said
tc --device cpu --threads 2 --io pread --orient one-pass --host-mem 4M "$T/hm.tsg" >"$T/hm.json" 2>"$T/err"
check "--host-mem spill with --io pread --orient one-pass: counted" same "$(jq 'd["triangles"]' <"$T/hm.json")" "$hmref"
check "... plan: io asked pread, mmap ran, and why" python3 -c "
import json; d = json.load(open('$T/hm.json')); p = d['plan']
assert p['io']['asked'] == 'pread' and p['io']['given'] and p['io']['chosen'] == 'mmap', p['io']
assert 'host-mem spills' in p['io']['reason'], p['io']
assert p['orient']['asked'] == 'one-pass' and p['orient']['chosen'] == 'two-pass', p['orient']
assert d['io'] == 'mmap' and d['orient'] == 'two-pass' and d['host_mem']['mode'] == 'spill', d
assert '--io pread: mmap instead' in d['note'] and '--orient one-pass: two-pass instead' in d['note'], d['note']
assert p['scratch_dir']['chosen'] == '$T' and p['scratch_dir']['reason'] == \"the graph's directory\", p"
"$B/tristream" count --device cpu --threads 2 --io pread --host-mem 4M "$T/hm.tsg" >/dev/null 2>"$T/err"
check "... and stderr says so" grep -q "note: --io pread: mmap instead" "$T/err"
tc --device cpu --threads 2 --host-mem 1G "$T/hm.tsg" >"$T/hm.json"
check "--host-mem with room: nothing substituted" python3 -c "
import json; d = json.load(open('$T/hm.json')); p = d['plan']
assert d['host_mem']['mode'] == 'in-memory' and 'reason' not in p['orient'] and 'instead' not in d.get('note', ''), d"
# a scratch directory nothing went to is not shown as chosen, and a given one
# is a note: --host-mem with room, text made lists in memory
mkdir -p "$T/scr"
tc --device cpu --threads 2 --host-mem 1G --scratch-dir "$T/scr" "$T/hm.tsg" >"$T/hm.json"
check "--host-mem with room, --scratch-dir: counted, not in the plan, said" python3 -c "
import json; d = json.load(open('$T/hm.json')); p = d['plan']
assert d['triangles'] == $hmref and d['host_mem']['mode'] == 'in-memory', d
assert 'scratch_dir' not in p and 'scratch_dir' not in d['host_mem'], d
assert '--scratch-dir: not used, nothing was spilled (--host-mem had room)' in d['note'], d"
tc --device cpu --threads 2 --host-mem 1G "$T/hm.tsg" >"$T/hm.json"
check "--host-mem with room, no --scratch-dir: no scratch directory, no note of it" python3 -c "
import json; d = json.load(open('$T/hm.json'))
assert 'scratch_dir' not in d['plan'] and 'scratch' not in d.get('note', ''), d"
tc --device cpu --scratch-dir "$T/scr" "$T/karate.txt" >"$T/k.json"
check "text in memory, --scratch-dir: counted, said not used" python3 -c "
import json; d = json.load(open('$T/k.json'))
assert d['triangles'] == 45 and 'scratch_dir' not in d['plan'], d
assert '--scratch-dir: not used, nothing was spilled (the input fit in memory)' in d['note'], d"
tc --device cpu --threads 2 --host-mem 4M --scratch-dir "$T/scr" "$T/hm.tsg" >"$T/hm.json"
check "--host-mem spilling, --scratch-dir: in the plan, no such note" python3 -c "
import json; d = json.load(open('$T/hm.json')); p = d['plan']
assert d['triangles'] == $hmref and d['host_mem']['mode'] == 'spill', d
assert p['scratch_dir']['chosen'] == '$T/scr' and 'not used' not in d.get('note', ''), d"

# --- the JSON plan: what was asked, whether given, what ran, why
plan() { tc "$@" | jq 'json.dumps(d["plan"])'; }
check "plan: every count has one, with device, layout, kernel and input" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
for k in ('device', 'layout', 'kernel', 'input'): assert 'asked' in p[k] and 'chosen' in p[k] and 'given' in p[k], (k, p)
assert p['options'] == ['device', 'json', 'quiet'], p['options']
assert p['device'] == {'asked': 'cpu', 'given': True, 'chosen': 'cpu'}, p['device']
assert p['layout']['asked'] == 'auto' and not p['layout']['given'] and p['layout']['chosen'] == 'block' and p['layout']['reason'], p['layout']
assert p['input']['asked'] == 'tsg' and p['input']['chosen'] == 'opened', p" "$(plan --device cpu "$K")"
check "plan: --batches asks for the arrival layout, and says so" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['layout'] == {'asked': 'auto', 'given': False, 'chosen': 'arrival', 'reason': '--batches applies to the arrival layout'}, p['layout']
assert p['batches']['asked'] == '3' and p['batches']['given'] and p['batches']['chosen'] == '3' and 'partitions' not in p, p" "$(plan --device cpu --batches 3 "$K")"
check "plan: --orient asks for the block layout" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['layout']['chosen'] == 'block' and p['layout']['reason'] == '--orient applies to the block layout', p
assert p['orient'] == {'asked': 'two-pass', 'given': True, 'chosen': 'two-pass'}, p" "$(plan --device cpu --orient two-pass "$K")"
check "plan: --k 4 counts on LSTC parts, and says why" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['layout']['chosen'] == 'lstc' and 'k-cliques' in p['layout']['reason'], p" "$(plan --device cpu --k 4 "$K")"
check "plan: --layout lstc, the kernel of the CPU" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['layout'] == {'asked': 'lstc', 'given': True, 'chosen': 'lstc'}, p
assert p['kernel']['asked'] == 'cpu-merge' and p['kernel']['given'] and p['kernel']['chosen'] == 'cpu-merge', p
assert p['partitions'] == {'asked': '3', 'given': True, 'chosen': '3 parts'}, p" "$(plan --device cpu --layout lstc --partitions 3 --cpu-kernel merge "$K")"
check "plan: a crawl decoded while counted, said so" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['input']['asked'] == 'webgraph' and p['input']['chosen'] == 'decoded while counting, merged with its transpose', p
assert 'scratch_dir' not in p, p" "$(plan --device cpu --layout arrival "$T/crawl")"  # nothing went there
check "plan: a crawl decoded first, and why" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['input']['chosen'] == 'decoded whole, merged with its transpose' and p['input']['reason'] == '--decode-first', p" "$(plan --device cpu --layout arrival --decode-first "$T/crawl")"
# a crawl's ids are local: auto orients it in two passes (faster and a
# quarter less memory than one pass and a copy, bench/orient_crawl.sh)
check "plan: a crawl on the CPU's block layout, two passes, and why" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['layout']['chosen'] == 'block' and p['orient']['asked'] == 'auto' and not p['orient']['given'], p
assert p['orient']['chosen'] == 'two-pass' and 'a crawl: its ids are local' in p['orient']['reason'], p" "$(plan --device cpu "$T/crawl")"
check "plan: --orient one-pass on a crawl, as asked, no reason" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['orient'] == {'asked': 'one-pass', 'given': True, 'chosen': 'one-pass'}, p" "$(plan --device cpu --orient one-pass "$T/crawl")"
check "plan: a .tsg on the CPU's block layout, one pass" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['orient'] == {'asked': 'auto', 'given': False, 'chosen': 'one-pass'}, p" "$(plan --device cpu --layout block "$K")"
if [ $cuda = 0 ]; then
	check "plan: device auto without CUDA is the CPU, and says why" python3 -c "
import json, sys; p = json.loads(sys.argv[1])
assert p['device']['asked'] == 'auto' and not p['device']['given'] and p['device']['chosen'] == 'cpu', p
assert 'no CUDA backend' in p['device']['reason'], p" "$(plan "$K")"
	check "--device gpu without CUDA: exit 6" [ "$(rc_of "$B/tristream" count --device gpu "$K")" = 6 ]
	check "--device gpu without CUDA: 'no usable GPU', then why" grep -q "error: no usable GPU: this build of tristream has no CUDA backend" "$T/err"
fi

# --- --checkpoint on the CPU: several units, so that it saves something
rm -f "$T/ck"
tc --device cpu --checkpoint "$T/ck" "$T/hm.tsg" >"$T/ck.json"
check "--checkpoint on the CPU: counted" same "$(jq 'd["triangles"]' <"$T/ck.json")" "$hmref"
check "--checkpoint on the CPU: 6 blocks, 21 units recorded, and why" python3 -c "
import json; d = json.load(open('$T/ck.json')); p = d['plan']['partitions']
assert d['partitions'] == 21 and d['blocks'] == 6 and d['checkpoint']['units_recorded'] == 21, d
assert p['asked'] == 'auto' and not p['given'] and p['chosen'] == '6 blocks, 21 units' and '--checkpoint' in p['reason'], p"
rm -f "$T/ck"
# --device auto settling on the CPU (on a GPU host the rule takes the CPU
# for so small a graph): the same units. Without a GPU the device is known
# before the plan, so this passed before plan_device cut the units too:
# tests/gpu/inputs.sh checks that path on a GPU host
tc --checkpoint "$T/ck" "$T/hm.tsg" >"$T/ck.json"
check "--checkpoint, --device auto on the CPU: 21 units recorded, and why" python3 -c "
import json; d = json.load(open('$T/ck.json')); p = d['plan']['partitions']
assert d['device'] == 'cpu' and d['triangles'] == $hmref and d['checkpoint']['units_recorded'] == 21, d
assert p['chosen'] == '6 blocks, 21 units' and '--checkpoint' in p['reason'], p"
rm -f "$T/ck"
tc --device cpu --layout lstc --checkpoint "$T/ck" "$K" >"$T/ck.json"
check "--checkpoint on the CPU, lstc layout: 8 parts" python3 -c "
import json; d = json.load(open('$T/ck.json'))
assert d['triangles'] == 45 and d['partitions'] == 8 and d['checkpoint']['units_recorded'] == 8, d"
rm -f "$T/ck"
tc --device cpu --partitions 1 --checkpoint "$T/ck" "$K" >"$T/ck.json"
check "--checkpoint with one unit asked for: the note says it saved nothing until done" sh -c "grep -q 'checkpoint: the count was one unit' $T/ck.json"
# a finished checkpoint is replayed, no device opened: a GPU asked for is
# not checked, and the note says so (before: exit 0 and silence)
if [ $cuda = 1 ]; then
	rm -f "$T/ck"
	tc --checkpoint "$T/ck" "$K" >/dev/null
	tc --gpu 5 --checkpoint "$T/ck" "$K" >"$T/ck.json" 2>"$T/err"
	check "a finished checkpoint, --gpu 5: replayed, the note says the GPU was not checked" python3 -c "
import json; d = json.load(open('$T/ck.json'))
assert d['triangles'] == 45 and d['checkpoint']['finished_earlier'], d
assert '--gpu: not used, the checkpoint holds the finished count (no GPU opened, none checked)' in d['note'], d"
else
	skip "a finished checkpoint with --gpu: no CUDA in this build"
fi

# --- -h wherever --help is, and usage errors in one line
for c in "count" "info" "compress" "decompress" "reorder"; do
	check "tristream $c -h: exit 0, the usage" sh -c "$B/tristream $c -h | grep -q '^usage: tristream'"
	check "tristream $c -h is tristream $c --help" sh -c "[ \"\$($B/tristream $c -h)\" = \"\$($B/tristream $c --help)\" ]"
done
check "tristream -h" sh -c "$B/tristream -h | grep -q '^usage: tristream <command>'"
for t in convert gen; do
	check "tristream-$t -h: exit 0, the usage" sh -c "$B/tristream-$t -h | grep -q '^usage: tristream-$t'"
	check "tristream-$t --bogus: exit 2, one line" eval '[ "$(rc_of "$B/tristream-$t" --bogus)" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "unknown option .--bogus.; see tristream-$t --help" "$T/err"'
done
check "count --bogus: exit 2" [ "$(rc_of "$B/tristream" count --bogus "$K")" = 2 ]
check "count --bogus: one line" one_line "unknown option '--bogus'"
check "count --orient sideways: exit 2" [ "$(rc_of "$B/tristream" count --orient sideways "$K")" = 2 ]
check "count --orient sideways: one line" one_line "--orient takes one-pass or two-pass, not 'sideways'"
check "count --partitions (no value): exit 2" [ "$(rc_of "$B/tristream" count --partitions)" = 2 ]
check "count --partitions (no value): one line" one_line "--partitions needs a value"
check "count with no graph: one line" sh -c "[ \$($B/tristream count 2>&1 >/dev/null | wc -l) = 1 ]"
check "info --bogus: exit 2, one line" eval '[ "$(rc_of "$B/tristream" info --bogus "$K")" = 2 ] && one_line "unknown option" info'
check "info with two graphs: one line" eval '[ "$(rc_of "$B/tristream" info "$K" "$K")" = 2 ] && one_line "exactly one GRAPH" info'
check "compress with no files: one line" eval '[ "$(rc_of "$B/tristream" compress)" = 2 ] && one_line "give IN and OUT" compress'
check "an unknown command: one line" eval '[ "$(rc_of "$B/tristream" frobnicate)" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "see tristream --help" "$T/err"'
check "no command: one line" eval '[ "$(rc_of "$B/tristream")" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ]'

# --- info on any input count takes
ci=$("$B/tristream" info --json "$T/crawl.tsg" | jq 'd["edges"], d["vertices"]')
check "info on a crawl: the edges and vertices of its .tsg" [ "$("$B/tristream" info --json "$T/crawl" | jq 'd["edges"], d["vertices"]')" = "$ci" ]
check "info on a crawl: its format" sh -c "$B/tristream info $T/crawl | grep -q 'format: LAW WebGraph crawl, merged with its transpose'"
check "info on text: karate's 78 edges, 34 vertices" [ "$("$B/tristream" info --json "$T/karate.txt" | jq 'd["edges"], d["vertices"], d["input_format"]')" = "$(printf '78\n34\nedgelist')" ]
check "info on gzip text" [ "$("$B/tristream" info --json "$SRC/tests/data/karate.txt.gz" | jq 'd["edges"]')" = 78 ]
check "info --verify on text" sh -c "$B/tristream info --verify $T/karate.txt | grep -q 'symmetry: ok (exact'"

# --- a crawl's .graph without its .properties, and binary input: named, never echoed
mkdir -p "$T/noprop"
cp "$T/crawl.graph" "$T/noprop/"
for c in count info; do
	check "$c on BASE.graph without .properties: exit 3" [ "$(rc_of "$B/tristream" $c "$T/noprop/crawl.graph")" = 3 ]
	check "$c on BASE.graph without .properties: said" grep -q "looks like a WebGraph crawl's lists, but .*noprop/crawl.properties.*is missing" "$T/err"
	check "$c on BASE.graph without .properties: nothing but text on stderr" printable "$T/err"
done
head -c 5000 /dev/urandom >"$T/garbage.bin"
printf '\x00\x01\x02' >>"$T/garbage.bin"
for c in count info; do
	check "$c on a binary file: exit 3" [ "$(rc_of "$B/tristream" $c "$T/garbage.bin")" = 3 ]
	check "$c on a binary file: said" grep -q "is not a .tsg file, a WebGraph crawl or a text edge list (its first bytes are binary)" "$T/err"
	check "$c on a binary file: nothing but text on stderr" printable "$T/err"
done
# a binary file that passes for text at its start, gzip'd: the line quoted, its bytes made safe
{ printf '0 1\n1 2\n'; head -c 3000 /dev/urandom | tr -d '\n'; printf '\n'; } | gzip >"$T/late.gz"
# every kind of ill-formed UTF-8 (overlong, surrogate, past U+10FFFF, C1 control, stray continuation) made '?', a real é kept
printf '0 1\n1 x\xc0\x80\xed\xa0\x80\xc2\x85\xf5\x80\xe0\x80\x80\xf4\x90\x80\x80\x80 \xc3\xa9\n' >"$T/illformed.txt"
check "ill-formed UTF-8 in a quoted line: exit 3" [ "$(rc_of "$B/tristream" count --device cpu "$T/illformed.txt")" = 3 ]
check "ill-formed UTF-8 in a quoted line: nothing but text on stderr" printable "$T/err"
check "ill-formed UTF-8 in a quoted line: each bad byte a '?', a real é kept" grep -q "'1 x????????????????? é'" "$T/err"
check "binary after a text start: exit 3" [ "$(rc_of "$B/tristream" count --device cpu "$T/late.gz")" = 3 ]
check "binary after a text start: nothing but text on stderr" printable "$T/err"
rc=$(rc_of "$B/tristream" count --quiet --json --device cpu "$T/late.gz")
check "binary after a text start, --json: exit 3, a JSON object a parser reads" eval '[ $rc = 3 ] && [ "$(jq "d[\"exit_code\"]" <"$T/out")" = 3 ]'

# --- --skip-bad-lines: SNAP's ego-Facebook layout (a vertex-count line, a
# weight column, a last line "-1" with no line end), counted directly
printf '4\n0 1 1\n1 2 1\n2 0 1\n2 3 1\n3 0 1\n-1' >"$T/fb.txt"
check "facebook layout without --skip-bad-lines: exit 3" [ "$(rc_of "$B/tristream" count --device cpu "$T/fb.txt")" = 3 ]
check "... the bad line named" grep -q "fb.txt:7: malformed edge line.*'-1'" "$T/err"
out=$(tc --device cpu --skip-bad-lines "$T/fb.txt")
check "facebook layout with --skip-bad-lines: 2 triangles" same "$(echo "$out" | jq 'd["triangles"]')" 2
check "... one bad line, in the JSON and the note" python3 -c "
import json, sys; d = json.loads(sys.argv[1])
assert d['input']['bad_lines'] == 1 and '1 line of edgelist that is not an edge skipped' in d['note'] and d['vertices'] == 4, d" "$out"
check "... and on stderr" sh -c "$B/tristream count --device cpu --skip-bad-lines $T/fb.txt 2>&1 >/dev/null | grep -q 'note: --skip-bad-lines: 1 line'"

# --- --json on one failing graph: an object with the error
check "--json, a missing graph: exit 3" [ "$(rc_of "$B/tristream" count --quiet --json "$T/none.tsg")" = 3 ]
check "--json, a missing graph: one JSON object naming it" python3 -c "
import json; rows = [json.loads(l) for l in open('$T/out')]
assert len(rows) == 1 and rows[0]['exit_code'] == 3 and 'none.tsg' in rows[0]['error'] and 'triangles' not in rows[0], rows"
rc=$(rc_of "$B/tristream" count --quiet --json --decode-first "$K")
check "--json, an option the graph does not take: exit 2, a JSON object" eval '[ $rc = 2 ] && [ "$(jq "d[\"exit_code\"]" <"$T/out")" = 2 ]'

# --- a manifest's relative paths are its directory's
mkdir -p "$T/m/sub" "$T/elsewhere"
cp "$K" "$T/m/sub/k.tsg"
printf '# relative to this file\nsub/k.tsg\n%s\n' "$T/crawl" >"$T/m/list.txt"
check "manifest: a relative path from the manifest's folder, an absolute one as it is" [ "$(cd "$T/elsewhere" && "$B/tristream" count --quiet --json --device cpu --manifest ../m/list.txt | python3 -c 'import json,sys; print(" ".join(str(json.loads(l).get("triangles")) for l in sys.stdin))')" = "45 $cref" ]
check "manifest: the graph named by its path from here" sh -c "cd $T/elsewhere && $B/tristream count --quiet --json --device cpu --manifest ../m/list.txt | head -1 | grep -q '\"graph\":\"../m/sub/k.tsg\"'"

# --- vertices: those with an edge; the ids' range beside them
printf '10 20\n20 30\n30 10\n' >"$T/sparse.txt"
check "count: vertices 3, id_range 31" [ "$(tc --device cpu "$T/sparse.txt" | jq 'd["vertices"], d["id_range"], d["triangles"]')" = "$(printf '3\n31\n1')" ]
check "info: vertices 3, id_range 31" [ "$("$B/tristream" info --json "$T/sparse.txt" | jq 'd["vertices"], d["id_range"]')" = "$(printf '3\n31')" ]
check "count text: 3 vertices, the ids' range said" sh -c "$B/tristream count --quiet --device cpu $T/sparse.txt | grep -q '^graph: 3 vertices, 3 edges (ids 0 .. 30)$'"
check "karate: vertices = id_range = 34" [ "$(tc --device cpu "$K" | jq 'd["vertices"], d["id_range"]')" = "$(printf '34\n34')" ]
check "ranks: 1 without mpirun" [ "$(tc --device cpu "$K" | jq 'd["ranks"]')" = 1 ]
if command -v mpirun >/dev/null && ldd "$B/tristream" | grep -q libmpi; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	check "mpirun -n 1: ranks 1" [ "$(mpirun -n 1 --oversubscribe "$B/tristream" count --quiet --json --device cpu "$K" | jq 'd["ranks"]')" = 1 ]
else
	skip "no mpirun, or a build without MPI: mpirun -n 1 not tried"
fi

# --- help, the option table and the docs name the same options
"$B/tristream" count --help >"$T/help.txt"
python3 - "$SRC/src/options.c" "$T/help.txt" >"$T/table.txt" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
names = re.findall(r'\[COPT_\w+\] = \{ COPT_\w+, "([a-z-]+)"', src)
print("\n".join(names))
PY
check "the option table has its options (at least 40)" [ "$(wc -l <"$T/table.txt")" -ge 40 ]
while read -r o; do
	check "count --help lists --$o" grep -q -- "^  --$o\( \|,\|$\)" "$T/help.txt"
done <"$T/table.txt"
check "count --help lists --kclique-scheme and --kclique-group" sh -c "grep -q -- '--kclique-scheme' $T/help.txt && grep -q -- '--kclique-group' $T/help.txt"
check "count --help lists no option the table lacks" [ "$(grep -o -- '^  --[a-z-]*' "$T/help.txt" | sed 's/^  --//' | sort)" = "$(sort "$T/table.txt")" ]
check "--scratch-dir's default is described once" [ "$(grep -c 'TMPDIR' "$T/help.txt")" = 1 ]
docs=("$SRC/README.md" "$SRC"/docs/*.md)
for o in $(grep -o -- '^  --[a-z-]*' "$T/help.txt" | sed 's/^  --//'); do
	check "README.md or docs/ name count's --$o" grep -qE -- "--$o([^a-z-]|$)" "${docs[@]}"
done
finish_checks
