"""The NetworkX backend "tristream" against NetworkX's own functions on the
same graphs (NetworkX >= 3.2, where backends dispatch; else skipped).
NetworkX's own test modules run against the backend from tests/python.sh."""

import random

import pytest

nx = pytest.importorskip("networkx")
if tuple(int(x) for x in nx.__version__.split(".")[:2]) < (3, 2):
    pytest.skip(f"networkx {nx.__version__} has no backends (3.2 and later do)",
                allow_module_level=True)
if "tristream" not in nx.utils.backends.backends:
    pytest.skip("the tristream backend is not registered with NetworkX: install the "
                "package (pip install .) so that its entry point is seen",
                allow_module_level=True)

import tristream  # noqa: E402
from tristream import nx_backend  # noqa: E402

FUNCS = ("triangles", "transitivity", "clustering", "average_clustering")


@pytest.fixture(autouse=True)
def quiet_cache_note():
    nx.config.warnings_to_ignore.add("cache")
    yield
    nx.config.warnings_to_ignore.discard("cache")


def graphs():
    rng = random.Random(7)
    yield "karate", nx.karate_club_graph()
    yield "empty", nx.empty_graph(5)
    yield "complete", nx.complete_graph(12)
    yield "gnp", nx.gnp_random_graph(300, 0.05, seed=3)
    yield "ba", nx.barabasi_albert_graph(500, 6, seed=4)
    g = nx.Graph()  # labels of several types, self-loops, isolated nodes
    labels = ["a", "b", (1, 2), 3.5, frozenset([1]), 10, True] + list(range(100, 160))
    g.add_nodes_from(labels)
    for _ in range(400):
        g.add_edge(rng.choice(labels), rng.choice(labels))
    yield "mixed-labels-loops", g


@pytest.mark.parametrize("name,G", list(graphs()), ids=[n for n, _ in graphs()])
def test_results_equal_networkx(name, G):
    for f in FUNCS:
        want = getattr(nx, f)(G) if not (f == "average_clustering" and len(G) == 0) else None
        got = getattr(nx, f)(G, backend="tristream")
        if isinstance(want, dict):
            assert list(got) == list(want), f  # same keys, same order
            for k in want:
                assert type(got[k]) is type(want[k]), (f, k)
                assert abs(got[k] - want[k]) <= 1e-12, (f, k, got[k], want[k])
                assert got[k] == want[k], (f, k)  # in fact to the last bit
        else:
            assert type(got) is type(want), f
            assert abs(got - want) <= 1e-12, (f, got, want)
            assert got == want, f


def test_nodes_subsets_and_single_nodes():
    G = nx.barabasi_albert_graph(200, 4, seed=1)
    G.add_node("alone")
    some = [0, 5, 7, 199, "alone", "missing", 5]
    for f in ("triangles", "clustering"):
        assert getattr(nx, f)(G, some, backend="tristream") == getattr(nx, f)(G, some)
        assert getattr(nx, f)(G, 5, backend="tristream") == getattr(nx, f)(G, 5)
        assert getattr(nx, f)(G, "alone", backend="tristream") == getattr(nx, f)(G, "alone")
        assert getattr(nx, f)(G, [], backend="tristream") == {}
        with pytest.raises(nx.NetworkXError):
            getattr(nx, f)(G, 3.25, backend="tristream")  # neither a node nor nodes
    for cz in (True, False):
        assert nx.average_clustering(G, some, count_zeros=cz, backend="tristream") == \
            nx.average_clustering(G, some, count_zeros=cz)


def test_unsupported_raise_or_fall_back():
    D = nx.gnp_random_graph(50, 0.2, seed=2, directed=True)
    M = nx.MultiGraph(nx.karate_club_graph())
    W = nx.karate_club_graph()
    # NetworkX's own refusals come first, with or without the backend
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.triangles(D, backend="tristream")
    # what tristream does not take: NotImplementedError when asked for by
    # name (NetworkX's protocol) ...
    with pytest.raises(NotImplementedError, match="tristream"):
        nx.clustering(M, backend="tristream")
    with pytest.raises(NotImplementedError, match="tristream"):
        nx.triangles(M, backend="tristream")
    with pytest.raises(NotImplementedError, match="tristream"):
        nx.clustering(D, backend="tristream")
    with pytest.raises(NotImplementedError, match="tristream"):
        nx.clustering(W, weight="weight", backend="tristream")
    # ... and NetworkX's own code where tristream is only a priority
    old = nx.config.backend_priority.algos
    try:
        nx.config.backend_priority.algos = ["tristream"]
        with pytest.raises(nx.NetworkXNotImplemented):  # NetworkX's own refusal
            nx.clustering(M)
        assert nx.clustering(D) == nx.clustering(D, backend="networkx")
        assert nx.clustering(W, weight="weight") == \
            nx.clustering(W, weight="weight", backend="networkx")
        assert nx.triangles(M) == nx.triangles(M, backend="networkx")
        assert nx.triangles(W) == nx.triangles(W, backend="networkx")  # tristream's
    finally:
        nx.config.backend_priority.algos = old


def test_priority_leaves_small_graphs_to_networkx(monkeypatch):
    calls = []
    conv = nx_backend.TristreamGraph.from_networkx
    monkeypatch.setattr(nx_backend.TristreamGraph, "from_networkx",
                        staticmethod(lambda g: calls.append(g) or conv(g)))
    small = nx.gnm_random_graph(300, nx_backend.SMALL_EDGES - 1, seed=1)
    large = nx.gnm_random_graph(3000, nx_backend.SMALL_EDGES, seed=1)
    old = nx.config.backend_priority.algos
    try:
        nx.config.backend_priority.algos = ["tristream"]
        assert nx.triangles(small) == nx.triangles(small, backend="networkx")
        assert calls == []  # NetworkX's own code ran
        assert nx.triangles(large) == nx.triangles(large, backend="networkx")
        assert calls == [large]
    finally:
        nx.config.backend_priority.algos = old
    assert nx.triangles(small, backend="tristream") == nx.triangles(small)  # asked for: runs
    assert len(calls) == 2


def test_converted_once_and_counted_once(monkeypatch):
    G = nx.barabasi_albert_graph(300, 5, seed=9)
    calls = {"convert": 0, "count": 0}
    conv, rep = nx_backend.TristreamGraph.from_networkx, tristream.report

    def counting_convert(g):
        calls["convert"] += 1
        return conv(g)

    def counting_report(*a, **k):
        calls["count"] += 1
        return rep(*a, **k)

    monkeypatch.setattr(nx_backend.TristreamGraph, "from_networkx", staticmethod(counting_convert))
    monkeypatch.setattr(tristream, "report", counting_report)
    want = {f: getattr(nx, f)(G) for f in FUNCS}
    for f in FUNCS:
        assert getattr(nx, f)(G, backend="tristream") == want[f]
    assert calls == {"convert": 1, "count": 1}
    G.add_edge(0, 299)  # NetworkX clears its cache on a change through its methods
    assert nx.triangles(G, backend="tristream") == nx.triangles(G)
    assert calls == {"convert": 2, "count": 2}


def test_tristream_functions_take_networkx_graphs():
    G = nx.karate_club_graph()
    assert tristream.count(G) == sum(nx.triangles(G).values()) // 3
    assert tristream.triangles(G) == nx.triangles(G)
    assert tristream.clustering(G) == nx.clustering(G)
    assert tristream.transitivity(G) == nx.transitivity(G)
    assert tristream.average_clustering(G) == nx.average_clustering(G)
    with pytest.raises(tristream.UsageError, match="undirected simple"):
        tristream.count(nx.DiGraph(G))
    with pytest.raises(tristream.UsageError, match="undirected simple"):
        tristream.count(nx.MultiGraph(G))


def test_backend_info():
    info = nx.utils.backends.backend_info["tristream"]
    assert set(FUNCS) <= set(info["functions"])
    assert nx.config.backends.tristream.device == "auto"


@pytest.mark.parametrize("relabel", ["identity", "shuffled", "dense", "sparse", "str",
                                     "past64bits", "negative"])
def test_every_way_of_mapping_nodes_to_ids(relabel):
    """Node labels take one of four ways to ids (nx_backend._ids): as they
    are, a table, a binary search, the dict; each must give NetworkX's."""
    G = nx.barabasi_albert_graph(400, 4, seed=5)
    order = list(G)
    random.Random(1).shuffle(order)
    maps = {"identity": lambda v: v, "dense": lambda v: 3 * v + 7,
            "sparse": lambda v: v * 1000003, "str": lambda v: f"n{v}",
            "past64bits": lambda v: 2 ** 70 + v, "negative": lambda v: -v - 1}
    if relabel == "shuffled":  # ints 0..n-1, but not in that order
        X = nx.Graph()
        X.add_nodes_from(order)
        X.add_edges_from(G.edges)
    else:
        X = nx.relabel_nodes(G, {v: maps[relabel](v) for v in G})
    for f in FUNCS:
        assert getattr(nx, f)(X, backend="tristream") == getattr(nx, f)(X), f
