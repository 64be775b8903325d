#!/usr/bin/env bash
# tests/python.sh BUILD_DIR SOURCE_ROOT [package|networkx] - the Python
# package (python/tristream, docs/PYTHON.md) as a user installs it:
#   1. an interpreter with pytest: $TRISTREAM_PYTHON, else the first of
#      /usr/bin/python3 (Debian's python3-pytest, python3-numpy) and the
#      python3 on PATH that imports pytest; the run names it. None: exit 77.
#   2. `pip install --no-build-isolation --no-index .` of SOURCE_ROOT into a
#      fresh venv (--system-site-packages, so numpy and pytest come along),
#      its library built by the build backend's meson step in BUILD_DIR (already
#      built: ninja has nothing to do).
#   package:  tests/python (the package's own tests; NetworkX's are skipped
#             there, with the reason, where NetworkX >= 3.2 is not found).
#   networkx: NetworkX >= 3.2 (importable by that interpreter, or else
#             found in another python3 of the same X.Y on this machine: it
#             is pure Python, so its folder and dist-info are linked onto
#             PYTHONPATH; the run names where from), then
#             tests/python/test_networkx.py and NetworkX's own tests of
#             these functions (networkx/algorithms/tests/test_cluster.py)
#             with the backend, as NetworkX documents (NETWORKX_TEST_BACKEND,
#             no fall-back: what tristream does not do is xfailed, visibly).
#             Its harness needs numpy and scipy (Debian's python3-scipy).
#             Any of them missing: exit 77, saying which.
# pytest prints "N passed"; the script ends with "N passed, N failed" over
# its steps.
set -u
B=$(cd "$1" && pwd)
S=$(cd "$2" && pwd)
mode=${3:-package}
# check, skip, finish_checks
. "$S/tests/lib.sh"
step() { check "$@"; }
# what this script needs cannot be had here: the whole of it skipped (77)
skip_all() { skip "$@"; finish_checks; }

py=
for c in ${TRISTREAM_PYTHON:-} /usr/bin/python3 $(type -ap python3); do
	if [ -x "$c" ] && "$c" -c 'import pytest' 2>/dev/null; then py=$c; break; fi
done
[ -n "$py" ] || skip_all "no python3 here imports pytest (apt-get install python3-pytest)"
pyver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
echo "python: $py ($("$py" -c 'import sys; print(sys.version.split()[0])'), pytest" \
	"$("$py" -c 'import pytest; print(pytest.__version__)'), numpy" \
	"$("$py" -c 'import numpy; print(numpy.__version__)' 2>/dev/null || echo 'absent: lists, not arrays'))"

T=$(mktemp -d "${TMPDIR:-/tmp}/tristream-python.XXXXXX")
trap 'rm -rf "$T"' EXIT

# NetworkX >= 3.2: this interpreter's, else another python3's of the same X.Y
nx_path=
if [ "$mode" = networkx ]; then
	probe='import sys, networkx as nx, os
v = tuple(int(x) for x in nx.__version__.split(".")[:2])
print("%d.%d" % sys.version_info[:2], nx.__version__, os.path.dirname(nx.__path__[0]) if v >= (3, 2) else "")'
	nxv= dir=
	for c in "$py" $(type -ap python3 python3."${pyver#*.}") /usr/local/bin/python3; do
		read -r v nxv dir < <("$c" -c "$probe" 2>/dev/null) || continue
		[ "$v" = "$pyver" ] && [ -n "$dir" ] || continue
		if [ "$c" = "$py" ]; then
			echo "networkx: $nxv, importable by $py"
		else
			mkdir -p "$T/nx"
			ln -s "$dir/networkx" "$T/nx/networkx"
			for d in "$dir"/networkx-"$nxv".dist-info; do [ -d "$d" ] && ln -s "$d" "$T/nx/"; done
			nx_path=$T/nx
			echo "networkx: $nxv from $c's $dir (pure Python, linked onto PYTHONPATH for $py)"
		fi
		break
	done
	[ -n "$nxv" ] && [ -n "${dir:-}" ] ||
		skip_all "no networkx >= 3.2 for Python $pyver on this machine (Debian 12's python3-networkx is 2.8.8, without backends)"
	"$py" -c 'import numpy' 2>/dev/null || skip_all "numpy is missing (apt-get install python3-numpy): NetworkX's backend harness imports it"
	"$py" -c 'import scipy.sparse' 2>/dev/null || skip_all "scipy is missing (apt-get install python3-scipy): NetworkX's backend harness imports it"
fi

# the package as a user installs it, in a venv of its own
if ! "$py" -m venv --system-site-packages "$T/venv" >"$T/venv.log" 2>&1; then
	cat "$T/venv.log"
	skip_all "$py cannot make a venv (apt-get install python3-venv)"
fi
vpy=$T/venv/bin/python
step "pip install --no-build-isolation --no-index ." \
	env TRISTREAM_BUILD_DIR="$B" "$vpy" -m pip install -q --no-build-isolation --no-index \
	--no-deps "$S"
[ "$fail" = 0 ] || finish_checks
step "the installed package carries its library" test -f "$T"/venv/lib/python*/site-packages/tristream/libtristream.so

export TRISTREAM_BIN=$B
unset TRISTREAM_LIB
cd "$T" # not the source tree: the installed package is the one imported
if [ "$mode" = package ]; then
	step "pytest tests/python" "$vpy" -m pytest -p no:cacheprovider -q -rs "$S/tests/python" \
		--ignore="$S/tests/python/test_networkx.py" # the networkx mode runs it
else
	export PYTHONPATH=${nx_path:+$nx_path:}$S/tests/python
	step "pytest tests/python/test_networkx.py" "$vpy" -m pytest -p no:cacheprovider -q -rs \
		"$S/tests/python/test_networkx.py"
	# NetworkX's own tests of triangles, transitivity, clustering and
	# average_clustering (and of the rest of the module, xfailed) with the backend
	step "NetworkX's test_cluster.py against the backend" env NETWORKX_TEST_BACKEND=tristream \
		"$vpy" -m pytest -p no:cacheprovider -p nx_harness -q -rx --pyargs \
		networkx.algorithms.tests.test_cluster
fi
finish_checks
[ "$fail" = 0 ]
