"""The Python package against independent references (reference.py's brute
force, closed forms) and the command line on the same files."""

import json
import math
import os
import subprocess
import sys
import textwrap

import pytest

import tristream
from reference import brute, random_edges, run

try:
    import numpy as np
except ImportError:
    np = None


def as_list(x):
    return x.tolist() if hasattr(x, "tolist") else list(x)


def nx_clustering(t, d):
    """NetworkX's c(v) from exact integers: 2t / (d (d - 1)), 0 where t = 0."""
    return 0 if t == 0 else (2 * t) / (d * (d - 1))


def test_version():
    assert tristream.version() == tristream.__version__
    assert isinstance(tristream.have_gpu(), bool)
    assert tristream.gpu_count() >= 0


def test_complete_graphs_closed_forms():
    for n in (3, 4, 5, 9):
        src = [u for u in range(n) for v in range(u + 1, n)]
        dst = [v for u in range(n) for v in range(u + 1, n)]
        g = tristream.Graph.from_edges(src, dst)
        assert g.number_of_nodes() == n
        assert g.number_of_edges() == n * (n - 1) // 2
        assert tristream.count(g) == math.comb(n, 3)
        for k in range(4, n + 1):
            assert tristream.count(g, k=k) == math.comb(n, k), (n, k)
        assert as_list(tristream.triangles(g)) == [math.comb(n - 1, 2)] * n
        assert as_list(tristream.clustering(g)) == [1.0] * n
        assert tristream.transitivity(g) == 1.0
        assert tristream.average_clustering(g) == 1.0


@pytest.mark.parametrize("seed", range(6))
def test_random_graphs_match_brute_force(seed):
    n = [1, 2, 40, 97, 200, 300][seed]
    edges = random_edges(n, 4 * n, seed)
    tri, deg = brute(n, edges)
    g = tristream.Graph.from_edges([u for u, _ in edges], [v for _, v in edges], n)
    r = tristream.report(g, per_vertex=True)
    assert r.count == sum(tri) // 3
    assert r.vertices == n
    assert r.edges == sum(deg) // 2
    assert as_list(r.per_vertex) == tri
    # NetworkX's definitions from exact integers, to the last bit
    assert as_list(r.clustering) == [float(nx_clustering(t, d)) for t, d in zip(tri, deg)]
    triples = sum(d * (d - 1) // 2 for d in deg)
    assert r.report["triples"] == triples
    want = 0 if triples == 0 else (3 * (sum(tri) // 3)) / triples
    assert r.transitivity == want
    allc = [nx_clustering(t, d) for t, d in zip(tri, deg)]
    assert tristream.average_clustering(g) == pytest.approx(sum(allc) / n, abs=1e-12)
    # the report's average: over the vertices with an edge
    withe = [c for c, d in zip(allc, deg) if d > 0]
    assert r.average_clustering == pytest.approx(sum(withe) / len(withe) if withe else 0,
                                                 abs=1e-12)


def test_csr_and_edges_agree_and_one_direction_is_enough():
    n = 150
    edges = random_edges(n, 600, 11)
    tri, _ = brute(n, edges)
    rows = [[] for _ in range(n)]
    for u, v in edges:  # each pair once, in one direction: the CSR is not symmetric
        rows[u].append(v)
    off = [0]
    for r in rows:
        off.append(off[-1] + len(r))
    adj = [v for r in rows for v in r]
    g = tristream.Graph.from_csr(off, adj)
    assert as_list(tristream.triangles(g)) == tri
    if np is not None:
        g2 = tristream.Graph.from_csr(np.array(off), np.array(adj))
        assert as_list(tristream.triangles(g2)) == tri


def test_graph_counts_again_with_other_options():
    edges = random_edges(120, 900, 5)
    tri, _ = brute(120, edges)
    g = tristream.Graph.from_edges([u for u, _ in edges], [v for _, v in edges], 120)
    want = sum(tri) // 3
    for opts in ({}, {"device": "cpu"}, {"threads": 1}, {"partitions": 3},
                 {"layout": "lstc"}, {"layout": "arrival", "device": "cpu"},
                 {"cpu_kernel": "merge"}, {"cpu_kernel": "wedge"}):
        assert tristream.count(g, **opts) == want, opts


def test_isolated_vertices_kept():
    g = tristream.Graph.from_edges([0, 1, 2], [1, 2, 0], n=6)
    assert g.number_of_nodes() == 6
    assert as_list(tristream.triangles(g)) == [1, 1, 1, 0, 0, 0]
    assert tristream.average_clustering(g) == 0.5  # NetworkX's: every vertex counts


def test_empty_graphs():
    g = tristream.Graph.from_edges([], [], n=0)
    assert tristream.count(g) == 0
    assert tristream.transitivity(g) == 0
    with pytest.raises(ZeroDivisionError):
        tristream.average_clustering(g)
    g = tristream.Graph.from_edges([], [], n=5)
    assert as_list(tristream.triangles(g)) == [0] * 5


def test_report_is_the_cli_json(tmp_path, bindir):
    p = tmp_path / "g.txt"
    edges = random_edges(300, 2000, 3)
    p.write_text("".join(f"{u} {v}\n" for u, v in edges))
    tri, deg = brute(300, edges)
    r = tristream.report(str(p), device="cpu", per_vertex=True)
    cli = json.loads(run([os.path.join(bindir, "tristream"), "count", "--json", "--quiet",
                          "--device", "cpu", "--clustering",
                          str(p)]).stdout)
    assert r.count == cli["triangles"] == sum(tri) // 3
    # the CLI also echoes its command line's plan, which a library call has not
    assert set(r.report) == set(cli) - {"plan"}
    for key in ("triangles", "vertices", "edges", "triples", "input_format", "layout",
                "partitions", "blocks", "device"):
        assert r.report[key] == cli[key], key
    # a text file's ids are its own: vertex v is line id v
    assert as_list(r.per_vertex)[: len(tri)] == tri[: r.vertices]


def test_tsg_file_and_path_like(tmp_path, bindir):
    f = tmp_path / "r.tsg"
    run([os.path.join(bindir, "tristream-gen"), "--quiet", "rmat", "--scale", "10", str(f)])
    cli = json.loads(run([os.path.join(bindir, "tristream"), "count", "--json", "--quiet",
                          str(f)]).stdout)
    assert tristream.count(f) == cli["triangles"]
    assert tristream.count(str(f), k=4) == json.loads(run(
        [os.path.join(bindir, "tristream"), "count", "--json", "--quiet", "--k", "4",
         str(f)]).stdout)["cliques"]
    g = tristream.Graph(f)
    assert g.path == str(f) and not g.in_memory
    assert tristream.count(g) == tristream.count(g) == cli["triangles"]


def test_a_file_name_that_is_not_utf8(tmp_path):
    p = os.path.join(os.fsencode(tmp_path), b"g\xff.txt")
    with open(p, "w") as f:
        f.write("0 1\n1 2\n2 0\n")
    r = tristream.report(os.fsdecode(p))
    assert r.count == 1 and r.report["graph"] == os.fsdecode(p)
    assert tristream.count(p) == 1  # bytes too


def test_errors_carry_exit_codes(tmp_path):
    missing = str(tmp_path / "missing.tsg")
    with pytest.raises(tristream.InputError) as e:
        tristream.count(missing)
    assert e.value.code == 3 and missing in str(e.value) and "bad input" in str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, tristream.TristreamError)
    bad = tmp_path / "bad.txt"
    bad.write_text("0 1\n1 two\n")
    with pytest.raises(tristream.InputError) as e:
        tristream.count(str(bad))
    assert str(bad) in str(e.value)
    g = tristream.Graph.from_edges([0], [1])
    with pytest.raises(tristream.UsageError) as e:
        tristream.count(g, device="tpu")
    assert e.value.code == 2 and "tpu" in str(e.value)
    with pytest.raises(tristream.UsageError):
        tristream.count(g, k=2)
    with pytest.raises(tristream.UsageError):
        tristream.count(g, no_such_option=1)
    with pytest.raises(tristream.UsageError):
        tristream.count(g, k=4, per_vertex=True)
    with pytest.raises(tristream.UsageError):
        tristream.count(g, k=4, layout="block")
    with pytest.raises(tristream.InputError) as e:
        tristream.Graph.from_edges([0, 5], [1, 2], n=4)
    assert "vertex 5" in str(e.value)
    with pytest.raises(tristream.UsageError):
        tristream.Graph.from_edges([0, 1], [1])
    with pytest.raises(tristream.UsageError):
        tristream.Graph.from_edges([-1], [1])
    with pytest.raises(tristream.InputError):
        tristream.Graph.from_csr([0, 2, 1], [1, 0])
    with pytest.raises(tristream.InputError) as e:
        tristream.Graph.from_csr([0, 1, 2], [1, 7])
    assert "adj entry 1: vertex 7" in str(e.value)
    with pytest.raises(tristream.UsageError):
        tristream.Graph.from_csr([0, 1, 5], [1, 0])
    with pytest.raises(tristream.UsageError):
        tristream.count(3.5)
    if not tristream.have_gpu():
        with pytest.raises(tristream.DeviceError) as e:
            tristream.count(g, device="gpu")
        assert e.value.code == 6


def test_stop_requested_before_the_count_raises_keyboard_interrupt():
    g = tristream.Graph.from_edges([0, 1, 2], [1, 2, 0])
    c = tristream._Count(g._lib, g, {"device": "cpu"}, False)
    g._lib.tristream_stop_request(c.stop)
    with pytest.raises(KeyboardInterrupt, match="stopped before it was done"):
        c.run()


CTRL_C_CHILD = textwrap.dedent("""
    import json, os, signal, sys, threading
    import tristream
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        print("finished", tristream.count(sys.argv[1], device="cpu", **json.loads(sys.argv[2])))
    except KeyboardInterrupt as e:
        print("interrupted:", e)
        c = getattr(e, "_tristream_count", None)
        if c is not None:  # left on its thread: how it ended
            c.done.wait()
            print("left, then ended with status", c.rc)
    """)


@pytest.fixture(scope="module")
def rmat20(tmp_path_factory):
    d = os.environ.get("TRISTREAM_BIN")
    if not d:
        pytest.skip("TRISTREAM_BIN is not set: no tristream-gen to make R-MAT 20")
    f = tmp_path_factory.mktemp("ctrlc") / "r20.tsg"
    run([os.path.join(d, "tristream-gen"), "--quiet", "rmat", "--scale", "20", str(f)])
    return f


def test_ctrl_c_stops_a_count_between_units(rmat20):
    """A real SIGINT half a second into a count of R-MAT 20 in 36 units
    (about 2 s on 2 cores): the engine stops between units, status 8, which
    only a stop makes (at once, or once control came back), and
    KeyboardInterrupt is raised."""
    out = subprocess.run([sys.executable, "-c", CTRL_C_CHILD, str(rmat20),
                          json.dumps({"partitions": 8})], capture_output=True, text=True,
                         env=os.environ)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines and lines[0].startswith("interrupted: tristream:"), out.stdout + out.stderr
    assert lines[0].endswith("the count stopped before it was done") or \
        lines[1:] == ["left, then ended with status 8"], out.stdout


def test_ctrl_c_returns_during_a_single_unit(rmat20):
    """The CPU's default plan is one unit, which a stop cannot cut: Ctrl-C
    gives control back after the grace period with KeyboardInterrupt, and
    the count ends on its own thread (finished, or stopped)."""
    out = subprocess.run([sys.executable, "-c", CTRL_C_CHILD, str(rmat20), "{}"],
                         capture_output=True, text=True, env=os.environ)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines and lines[0].startswith("interrupted: tristream:"), out.stdout + out.stderr
    if "asked to stop" in lines[0]:
        assert lines[1] in ("left, then ended with status 0",
                            "left, then ended with status 8"), out.stdout


def test_without_numpy_results_are_lists():
    child = textwrap.dedent("""
        import sys
        sys.modules["numpy"] = None  # as if it were not installed
        import tristream
        g = tristream.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3])
        t = tristream.triangles(g)
        c = tristream.clustering(g)
        print(type(t).__name__, t, type(c).__name__, c)
        """)
    out = run([sys.executable, "-c", child], env=os.environ)
    assert out.stdout.strip() == "list [1, 1, 1, 0] list [1.0, 1.0, 0.3333333333333333, 0.0]"


@pytest.mark.skipif(np is None, reason="numpy is not installed: arrays not checked")
def test_with_numpy_results_are_arrays():
    g = tristream.Graph.from_edges(np.array([0, 1, 2]), np.array([1, 2, 0]))
    t = tristream.triangles(g)
    assert isinstance(t, np.ndarray) and t.dtype == np.uint64 and t.tolist() == [1, 1, 1]


def test_library_not_found_is_clear(tmp_path):
    child = "import tristream; tristream.count('x')"
    env = dict(os.environ, TRISTREAM_LIB=str(tmp_path / "nope.so"))
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env)
    assert out.returncode != 0
    assert "LibraryNotFound" in out.stderr and "nope.so" in out.stderr
