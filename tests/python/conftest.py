"""Fixtures of the Python package's tests (tests/python.sh runs them).

TRISTREAM_BIN, where set, is the meson build folder with the tristream
programs (the CLI to compare with, tristream-gen and tristream-convert to
make files); the reference counts are reference.py's."""

import os

import pytest


@pytest.fixture
def bindir():
    d = os.environ.get("TRISTREAM_BIN")
    if not d or not os.path.isfile(os.path.join(d, "tristream")):
        pytest.skip("TRISTREAM_BIN (the meson build folder with the tristream programs) "
                    "is not set: the CLI comparisons need it")
    return d

