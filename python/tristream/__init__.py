"""tristream from Python: exact triangle and k-clique counts, per-vertex
triangles and clustering, on the CPU or a GPU, for graphs larger than the
GPU's memory.

    import tristream
    tristream.count("web.tsg")                 # triangles
    tristream.count("web.tsg", k=4)            # 4-cliques
    tristream.transitivity("edges.txt")        # NetworkX's definition
    g = tristream.Graph.from_edges([0, 1, 2], [1, 2, 0])
    tristream.triangles(g)                     # per vertex: [1, 1, 1]

A graph is a path (a .tsg file, a WebGraph crawl, a text edge list: what
``tristream count`` reads), a :class:`Graph` built from arrays, or a
NetworkX graph (converted to a :class:`Graph`; per-vertex results are then
dicts keyed by node). Options are the command line's count options, with
``_`` for ``-``: ``device="cpu"``, ``gpu_mem="8G"``, ``threads=4``,
``layout="block"``... (docs/PYTHON.md). Errors raise
:class:`TristreamError` subclasses carrying the exit code. Ctrl-C asks a
count to stop at its next safe point and raises KeyboardInterrupt once it
has, or after STOP_GRACE_S (or a second Ctrl-C), leaving the count to end
on its own thread.

The library is libtristream.so (src/tristream.h), found as _lib.py says.
"""

import array as _array
import ctypes
import json
import os
import threading

from . import _lib
from .errors import (CountOverflow, DeviceError, InputError, InternalError, Interrupted,
                     IOFailure, LibraryNotFound, OutOfMemory, TristreamError, UsageError)

try:  # optional: per-vertex results are numpy arrays where it is present
    import numpy as _np
except ImportError:  # pragma: no cover - depends on the machine
    _np = None

__version__ = "0.1.0"

# After Ctrl-C, how long a count is given to reach a safe point and stop
# before control returns without it (the count then ends on its thread).
STOP_GRACE_S = 1.0

__all__ = [
    "Graph", "count", "triangles", "clustering", "transitivity", "average_clustering",
    "report", "Result", "version", "have_gpu", "gpu_count", "TristreamError", "UsageError",
    "InputError", "OutOfMemory", "IOFailure", "DeviceError", "InternalError", "Interrupted",
    "CountOverflow", "LibraryNotFound",
]


def version():
    """The library's version."""
    return _lib.lib().tristream_version().decode()


def have_gpu():
    """Whether the library was built with the CUDA backend."""
    return bool(_lib.lib().tristream_have_gpu())


def gpu_count():
    """The GPUs the library sees (0 without the CUDA backend)."""
    return int(_lib.lib().tristream_gpu_count())


def _buffer(values, ctype):
    """A C array of values (numpy array, array.array, list...), and what
    keeps it alive."""
    if isinstance(values, _array.array) and values.typecode in "BHILQ" and \
            values.itemsize == ctypes.sizeof(ctype):  # unsigned, as wide: no copy
        arr = (ctype * len(values)).from_buffer(values) if len(values) else (ctype * 1)()
        return ctypes.cast(arr, ctypes.c_void_p), (arr, values)
    if _np is not None and isinstance(values, _np.ndarray):
        dtype = _np.uint64 if ctype is _lib.c_u64 else _np.uint32
        if values.size and (values.min() < 0 or values.max() > _np.iinfo(dtype).max):
            raise UsageError("ids and offsets must be non-negative and fit "
                             f"{_np.dtype(dtype).name}")
        arr = _np.ascontiguousarray(values, dtype=dtype)
        return arr.ctypes.data_as(ctypes.c_void_p), arr
    if not isinstance(values, (list, tuple)):
        values = list(values)
    limit = (1 << (8 * ctypes.sizeof(ctype))) - 1
    try:
        if values and (min(values) < 0 or max(values) > limit):
            raise UsageError(f"ids and offsets must be in 0 .. {limit}, not "
                             f"{min(values) if min(values) < 0 else max(values)}")
        arr = (ctype * len(values))(*values)
    except (TypeError, OverflowError) as exc:
        raise UsageError(f"ids and offsets must be non-negative integers: {exc}") from None
    return ctypes.cast(arr, ctypes.c_void_p), arr


class Graph:
    """A graph tristream counts: a file (read by each count) or one built
    in memory from arrays as a simple undirected graph on 0 .. n-1."""

    def __init__(self, path):
        """The graph in the file path (.tsg, WebGraph crawl, text edges)."""
        lib = _lib.lib()
        self._h = ctypes.c_void_p()
        self.path = os.fspath(path)
        err = _lib.Error()
        _lib.check(lib.tristream_graph_open(os.fsencode(self.path), ctypes.byref(self._h),
                                            ctypes.byref(err)), err)
        self._lib = lib

    @classmethod
    def _adopt(cls, handle, lib):
        g = cls.__new__(cls)
        g._h, g._lib, g.path = handle, lib, None
        return g

    @classmethod
    def from_csr(cls, offsets, adj, n=None):
        """From CSR arrays: the neighbours of v are adj[offsets[v]:offsets[v+1]].
        Every pair makes an undirected edge (one direction is enough);
        self-loops and repeats are dropped. n defaults to len(offsets) - 1."""
        lib = _lib.lib()
        n = len(offsets) - 1 if n is None else n
        if n < 0 or len(offsets) != n + 1:
            raise UsageError(f"offsets must have n + 1 = {n + 1} entries, not {len(offsets)}")
        if int(offsets[n]) > len(adj):
            raise UsageError(f"offsets[n] = {int(offsets[n])} passes the end of adj "
                             f"({len(adj)} entries)")
        off, keep_off = _buffer(offsets, _lib.c_u64)
        nb, keep_adj = _buffer(adj, _lib.c_u32)
        h = ctypes.c_void_p()
        err = _lib.Error()
        _lib.check(lib.tristream_graph_from_csr(n, off, nb, ctypes.byref(h), ctypes.byref(err)),
                   err)
        del keep_off, keep_adj
        return cls._adopt(h, lib)

    @classmethod
    def from_edges(cls, src, dst, n=None):
        """From edge arrays: (src[i], dst[i]) is an undirected edge; self-loops
        and repeats are dropped. n defaults to the largest id + 1."""
        lib = _lib.lib()
        if len(src) != len(dst):
            raise UsageError(f"src and dst differ in length ({len(src)}, {len(dst)})")
        if n is None:
            n = 1 + max(int(max(src, default=-1)), int(max(dst, default=-1))) \
                if _np is None or not isinstance(src, _np.ndarray) or len(src) == 0 \
                else 1 + int(max(src.max(), _np.asarray(dst).max()))
        s, keep_s = _buffer(src, _lib.c_u32)
        d, keep_d = _buffer(dst, _lib.c_u32)
        h = ctypes.c_void_p()
        err = _lib.Error()
        _lib.check(lib.tristream_graph_from_edges(n, s, d, len(src), ctypes.byref(h),
                                                  ctypes.byref(err)), err)
        del keep_s, keep_d
        return cls._adopt(h, lib)

    @property
    def in_memory(self):
        return self.path is None

    def number_of_nodes(self):
        """Vertices of a graph from arrays (a file's: count it, Result.vertices)."""
        return int(self._lib.tristream_graph_vertices(self._h)) if self.in_memory else None

    def number_of_edges(self):
        """Undirected edges of a graph from arrays, after loops and repeats went."""
        return int(self._lib.tristream_graph_edges(self._h)) if self.in_memory else None

    def degree(self, v):
        return int(self._lib.tristream_graph_degree(self._h, v))

    def __repr__(self):
        if self.in_memory:
            return f"<tristream.Graph {self.number_of_nodes()} vertices, " \
                   f"{self.number_of_edges()} edges>"
        return f"<tristream.Graph {self.path!r}>"

    def __del__(self):
        h, self._h = getattr(self, "_h", None), None
        if h:
            self._lib.tristream_graph_free(h)


class Result:
    """What one count gives: ``count`` (triangles or k-cliques),
    ``vertices``, ``edges``, with per-vertex ``per_vertex`` (triangles by
    id), ``clustering`` (local, by id), ``transitivity`` and
    ``average_clustering`` (over the vertices with an edge, the report's),
    and ``report``, the dict ``tristream count --json`` prints."""

    def __init__(self, lib, h, per_vertex):
        self.count = int(lib.tristream_result_count(h))
        self.vertices = int(lib.tristream_result_vertices(h))
        self.edges = int(lib.tristream_result_edges(h))
        # a file name that is not UTF-8 is in the report as its bytes
        self.report = json.loads(lib.tristream_result_json(h).decode("utf-8", "surrogateescape"))
        self.per_vertex = self.clustering = None
        self.transitivity = self.average_clustering = None
        if per_vertex:
            n = self.vertices
            pv = lib.tristream_result_per_vertex(h)
            cl = lib.tristream_result_clustering(h)
            if _np is not None:
                self.per_vertex = _np.ctypeslib.as_array(pv, (n,)).copy() if n else \
                    _np.zeros(0, _np.uint64)
                self.clustering = _np.ctypeslib.as_array(cl, (n,)).copy() if n else \
                    _np.zeros(0, _np.float64)
            else:
                self.per_vertex = pv[:n]
                self.clustering = cl[:n]
            self.transitivity = float(lib.tristream_result_transitivity(h))
            self.average_clustering = float(lib.tristream_result_average_clustering(h))

    def __repr__(self):
        return f"<tristream.Result count={self.count} vertices={self.vertices} " \
               f"edges={self.edges}>"


def _option_value(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


def _options(lib, opts):
    h = ctypes.c_void_p()
    err = _lib.Error()
    _lib.check(lib.tristream_options_new(ctypes.byref(h), ctypes.byref(err)), err)
    try:
        for name, value in opts.items():
            if value is None:
                continue
            _lib.check(lib.tristream_options_set(h, name.replace("_", "-").encode(),
                                                 _option_value(value).encode(),
                                                 ctypes.byref(err)), err)
    except BaseException:
        lib.tristream_options_free(h)
        raise
    return h


class _Count:
    """One tristream_count on a thread of its own, so that the caller's
    thread stays free to take Ctrl-C (KeyboardInterrupt) and ask it to stop."""

    def __init__(self, lib, graph, opts, per_vertex):
        self.lib, self.graph, self.per_vertex = lib, graph, per_vertex
        self.opts = _options(lib, opts)
        self.stop = ctypes.c_void_p()
        err = _lib.Error()
        rc = lib.tristream_stop_new(ctypes.byref(self.stop), ctypes.byref(err))
        if rc:
            lib.tristream_options_free(self.opts)
            _lib.check(rc, err)
        self.res = ctypes.c_void_p()
        self.err = _lib.Error()
        self.rc = None
        self.done = threading.Event()
        self.abandoned = False
        self.lock = threading.Lock()

    def _work(self):
        rc = self.lib.tristream_count(self.graph._h, self.opts, self.stop,
                                      ctypes.byref(self.res), ctypes.byref(self.err))
        with self.lock:
            self.rc = rc
            self.done.set()
            if self.abandoned:  # the caller went: what it made is freed here
                self._free()

    def _free(self):
        self.lib.tristream_result_free(self.res)
        self.lib.tristream_options_free(self.opts)
        self.lib.tristream_stop_free(self.stop)
        self.res = self.opts = self.stop = None

    def run(self):
        t = threading.Thread(target=self._work, name="tristream-count", daemon=True)
        t.start()
        try:
            try:
                while not self.done.wait(0.1):
                    pass
            except KeyboardInterrupt:
                # Ctrl-C: the engine is asked to stop at its next safe point
                # (between units); where it has not within STOP_GRACE_S (a
                # unit can be long: on the CPU a count is one unless
                # partitions are given), or at a second Ctrl-C, control
                # comes back at once and the count ends on its own thread
                self.lib.tristream_stop_request(self.stop)
                try:
                    stopped = self.done.wait(STOP_GRACE_S)
                except KeyboardInterrupt:
                    stopped = False
                with self.lock:
                    if not stopped and not self.done.is_set():
                        self.abandoned = True
                        exc = KeyboardInterrupt(
                            "tristream: asked to stop; the count ends at its next safe point "
                            "on a thread of its own, its result dropped")
                        exc._tristream_count = self  # its done and rc, for tests
                        raise exc from None
                if self.rc == Interrupted.code:
                    raise KeyboardInterrupt(
                        "tristream: the count stopped before it was done") from None
                raise  # it was done anyway: the Ctrl-C as it came
            if self.rc == Interrupted.code:  # a stop requested by other means
                raise KeyboardInterrupt("tristream: the count stopped before it was done")
            _lib.check(self.rc, self.err)
            return Result(self.lib, self.res, self.per_vertex)
        finally:
            with self.lock:
                if not self.abandoned:
                    t.join()
                    self._free()


def _as_graph(g):
    """(Graph, nodes) for a path, a Graph or a NetworkX graph; nodes is the
    NetworkX graph's node list (id i is nodes[i]), else None."""
    if isinstance(g, Graph):
        return g, None
    if isinstance(g, (str, bytes, os.PathLike)):
        return Graph(os.fsdecode(g)), None
    if hasattr(g, "adj") and hasattr(g, "is_directed"):
        from .nx_backend import TristreamGraph
        try:
            tg = TristreamGraph.from_networkx(g)
        except NotImplementedError as exc:  # directed, or a multigraph
            raise UsageError(str(exc)) from None
        return tg.graph, tg.nodes
    if hasattr(g, "__networkx_backend__") and getattr(g, "__networkx_backend__") == "tristream":
        return g.graph, g.nodes
    raise UsageError(f"a graph is a path, a tristream.Graph or a NetworkX graph, not "
                     f"{type(g).__name__}")


def _run(g, per_vertex=False, **opts):
    graph, nodes = _as_graph(g)
    if per_vertex:
        opts["per_vertex"] = True
    r = _Count(graph._lib, graph, opts, per_vertex).run()
    return r, graph, nodes


def report(g, **opts):
    """Counts g and returns the full Result (report dict in ``.report``)."""
    per_vertex = bool(opts.pop("per_vertex", False))
    return _run(g, per_vertex, **opts)[0]


def count(g, k=3, device="auto", gpu_mem=None, **opts):
    """Triangles of g (k = 3), or its k-cliques (3 <= k <= 32).
    device: "auto" (the GPU where it pays), "cpu" or "gpu"; gpu_mem: the
    device memory budget ("8G", or bytes). Other options: docs/PYTHON.md."""
    return _run(g, k=k, device=device, gpu_mem=gpu_mem, **opts)[0].count


def _by_node(values, nodes, zero_int=False):
    if nodes is None:
        return values
    if zero_int:
        return {v: (x if x else 0) for v, x in zip(nodes, values.tolist()
                                                  if hasattr(values, "tolist") else values)}
    return dict(zip(nodes, values.tolist() if hasattr(values, "tolist") else values))


def triangles(g, **opts):
    """Each vertex's triangles: a numpy array by id (a list without numpy),
    or for a NetworkX graph a dict keyed by node."""
    r, _, nodes = _run(g, True, **opts)
    return _by_node(r.per_vertex, nodes)


def clustering(g, **opts):
    """Each vertex's local clustering 2 t(v) / (d(v) (d(v) - 1)), 0 where
    d(v) < 2 (NetworkX's definition): by id, or by node for NetworkX."""
    r, _, nodes = _run(g, True, **opts)
    return _by_node(r.clustering, nodes, zero_int=True)


def transitivity(g, **opts):
    """3 x triangles / connected triples (NetworkX's definition), 0 without any."""
    r, _, _ = _run(g, True, **opts)
    return r.transitivity


def average_clustering(g, **opts):
    """The mean local clustering: over every vertex of a Graph from arrays or
    a NetworkX graph (NetworkX's average_clustering); over the vertices that
    have an edge for a file (an edge list names no others; the report's)."""
    r, graph, nodes = _run(g, True, **opts)
    if not graph.in_memory:
        return r.average_clustering
    cl = r.clustering.tolist() if hasattr(r.clustering, "tolist") else r.clustering
    if not cl:
        raise ZeroDivisionError("average_clustering of a graph without vertices")
    return sum(cl) / len(cl)
