"""A pytest plugin for running NetworkX's own tests against the backend
(tests/python.sh): NetworkX's harness for a backend
(networkx.utils.backends, _convert_and_call_for_tests) imports numpy and
``scipy.sparse.sparray`` on every dispatched call, only to check the type of
results. SciPy before 1.11 (Debian 12 has 1.10.1) names that base class
``scipy.sparse._arrays._sparray``: it is given its later public name here,
and the run says so. Nothing else of NetworkX or SciPy is changed."""

import scipy.sparse


def pytest_report_header(config):
    if getattr(scipy.sparse, "_tristream_alias", False):
        return [f"tristream: scipy {scipy.__version__} lacks scipy.sparse.sparray: "
                "aliased to scipy.sparse._arrays._sparray for NetworkX's backend harness"]
    return []


if not hasattr(scipy.sparse, "sparray"):
    from scipy.sparse import _arrays

    scipy.sparse.sparray = _arrays._sparray
    scipy.sparse._tristream_alias = True
