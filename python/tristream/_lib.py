"""ctypes bindings of libtristream.so (src/tristream.h), loaded on first use.

Where the library is looked for, in this order:
  1. the file named by the environment variable TRISTREAM_LIB;
  2. libtristream.so beside this package (``pip install .`` puts it there);
  3. the loader's own search (a ``meson install`` into a library directory,
     or LD_LIBRARY_PATH).
"""

import ctypes
import ctypes.util
import os
import threading

from . import errors

_lock = threading.Lock()
_lib = None

c_u64 = ctypes.c_uint64
c_u32 = ctypes.c_uint32
_p = ctypes.c_void_p


class Error(ctypes.Structure):
    """struct tristream_error"""

    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 1024)]


# name, result type, argument types
_SIGNATURES = [
    ("tristream_version", ctypes.c_char_p, []),
    ("tristream_api_version", ctypes.c_int, []),
    ("tristream_status_name", ctypes.c_char_p, [ctypes.c_int]),
    ("tristream_have_gpu", ctypes.c_int, []),
    ("tristream_gpu_count", ctypes.c_int, []),
    ("tristream_options_new", ctypes.c_int, [ctypes.POINTER(_p), ctypes.POINTER(Error)]),
    ("tristream_options_set", ctypes.c_int,
     [_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(Error)]),
    ("tristream_options_free", None, [_p]),
    ("tristream_graph_open", ctypes.c_int,
     [ctypes.c_char_p, ctypes.POINTER(_p), ctypes.POINTER(Error)]),
    ("tristream_graph_from_csr", ctypes.c_int,
     [c_u64, _p, _p, ctypes.POINTER(_p), ctypes.POINTER(Error)]),
    ("tristream_graph_from_edges", ctypes.c_int,
     [c_u64, _p, _p, c_u64, ctypes.POINTER(_p), ctypes.POINTER(Error)]),
    ("tristream_graph_vertices", c_u64, [_p]),
    ("tristream_graph_edges", c_u64, [_p]),
    ("tristream_graph_degree", c_u64, [_p, c_u64]),
    ("tristream_graph_free", None, [_p]),
    ("tristream_stop_new", ctypes.c_int, [ctypes.POINTER(_p), ctypes.POINTER(Error)]),
    ("tristream_stop_request", None, [_p]),
    ("tristream_stop_reset", None, [_p]),
    ("tristream_stop_free", None, [_p]),
    ("tristream_count", ctypes.c_int,
     [_p, _p, _p, ctypes.POINTER(_p), ctypes.POINTER(Error)]),
    ("tristream_result_count", c_u64, [_p]),
    ("tristream_result_vertices", c_u64, [_p]),
    ("tristream_result_edges", c_u64, [_p]),
    ("tristream_result_per_vertex", ctypes.POINTER(c_u64), [_p]),
    ("tristream_result_clustering", ctypes.POINTER(ctypes.c_double), [_p]),
    ("tristream_result_transitivity", ctypes.c_double, [_p]),
    ("tristream_result_average_clustering", ctypes.c_double, [_p]),
    ("tristream_result_json", ctypes.c_char_p, [_p]),
    ("tristream_result_free", None, [_p]),
]

API_VERSION = 1


def _candidates():
    env = os.environ.get("TRISTREAM_LIB")
    if env:
        return [("TRISTREAM_LIB", env)]
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libtristream.so")
    found = [("beside the package", here)] if os.path.exists(here) else []
    name = ctypes.util.find_library("tristream")
    found.append(("the loader's search path", name or "libtristream.so.0"))
    return found


def lib():
    """The loaded library (loaded once, by the first caller)."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for where, path in _candidates():
            try:
                handle = ctypes.CDLL(path)
            except OSError as exc:
                tried.append(f"{path} ({where}): {exc}")
                continue
            for name, res, args in _SIGNATURES:
                fn = getattr(handle, name)
                fn.restype = res
                fn.argtypes = args
            if handle.tristream_api_version() != API_VERSION:
                tried.append(f"{path} ({where}): API version "
                             f"{handle.tristream_api_version()}, not {API_VERSION}")
                continue
            handle.path = path
            _lib = handle
            return _lib
        raise errors.LibraryNotFound(
            "libtristream.so could not be loaded; tried: " + "; ".join(tried) +
            ". Build it (meson setup build && ninja -C build) and set TRISTREAM_LIB to "
            "build/libtristream.so, or reinstall with pip install . (docs/PYTHON.md)")


def check(rc, err):
    """Raises the exception for status rc (0: nothing)."""
    if rc:
        msg = err.message.decode("utf-8", "replace") or lib().tristream_status_name(rc).decode()
        raise errors.from_code(rc, msg)
