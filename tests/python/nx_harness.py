"""A pytest plugin for running NetworkX's own tests against the backend
(tests/python.sh, -p nx_harness).

NetworkX's harness for a backend (networkx.utils.backends,
_convert_and_call_for_tests) imports numpy and ``scipy.sparse.sparray`` on
every dispatched call, only to check the type of results. SciPy before
1.11 (Debian 12 has 1.10.1) names that base class
``scipy.sparse._arrays._sparray``: it is given its later public name here,
and the run's header says so. Nothing else of NetworkX or SciPy changes.

The plugin also counts the calls that reached the backend's functions and
prints them at the end; a run in which none did fails (it would have
tested NetworkX against itself)."""

import collections

import scipy.sparse

_calls = collections.Counter()
_aliased = False

if not hasattr(scipy.sparse, "sparray"):
    from scipy.sparse import _arrays

    scipy.sparse.sparray = _arrays._sparray
    _aliased = True


def pytest_report_header(config):
    if _aliased:
        return [f"tristream: scipy {scipy.__version__} lacks scipy.sparse.sparray: aliased to "
                "scipy.sparse._arrays._sparray for NetworkX's backend harness"]
    return []


def pytest_configure(config):
    from tristream import nx_backend

    for name in ("triangles", "transitivity", "clustering", "average_clustering"):
        fn = getattr(nx_backend.BackendInterface, name)

        def counted(*args, _fn=fn, _name=name, **kwargs):
            _calls[_name] += 1
            return _fn(*args, **kwargs)

        setattr(nx_backend.BackendInterface, name, staticmethod(counted))


def pytest_terminal_summary(terminalreporter):
    total = sum(_calls.values())
    terminalreporter.write_line(
        "tristream backend calls: " +
        ", ".join(f"{k} {v}" for k, v in sorted(_calls.items())) + f" ({total} in all)")


def pytest_sessionfinish(session, exitstatus):
    if sum(_calls.values()) == 0 and exitstatus == 0:
        session.exitstatus = 1
