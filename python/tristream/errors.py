"""tristream's errors as Python exceptions.

Each status of the library (the command line's exit codes, README) is an
exception class; every one derives from TristreamError, whose ``code`` is
the exit code and ``meaning`` its name, and from the built-in exception
nearest in meaning, so ``except ValueError`` or ``except MemoryError``
catch them too.
"""


class TristreamError(Exception):
    """A count or a graph failed; ``code`` is the command line's exit code."""

    code = 1
    meaning = "error"

    def __init__(self, message=""):
        super().__init__(message)
        self.message = message

    def __str__(self):
        return f"{self.message} (exit code {self.code}: {self.meaning})"


class UsageError(TristreamError, ValueError):
    """A bad option, value or argument (exit code 2)."""

    code, meaning = 2, "usage error"


class InputError(TristreamError, ValueError):
    """Malformed, corrupt or unsupported input (exit code 3)."""

    code, meaning = 3, "bad input"


class OutOfMemory(TristreamError, MemoryError):
    """Host or device memory exhausted (exit code 4)."""

    code, meaning = 4, "out of memory"


class IOFailure(TristreamError, OSError):
    """A read or write failed (exit code 5)."""

    code, meaning = 5, "I/O error"


class DeviceError(TristreamError, RuntimeError):
    """No usable GPU, or a CUDA error (exit code 6)."""

    code, meaning = 6, "device error"


class InternalError(TristreamError, RuntimeError):
    """An invariant failed: a bug in tristream, never bad input (exit code 7)."""

    code, meaning = 7, "internal error"


class Interrupted(TristreamError):
    """The count was stopped before it was done (exit code 8)."""

    code, meaning = 8, "interrupted"


class CountOverflow(TristreamError, OverflowError):
    """A count passes 2^64 - 1 (exit code 9)."""

    code, meaning = 9, "count overflow"


class LibraryNotFound(TristreamError, ImportError):
    """libtristream.so could not be loaded (no exit code of the command line)."""

    code, meaning = 127, "library not found"


_BY_CODE = {c.code: c for c in (UsageError, InputError, OutOfMemory, IOFailure, DeviceError,
                                 InternalError, Interrupted, CountOverflow)}


def from_code(code, message):
    """The exception for a status code."""
    cls = _BY_CODE.get(code)
    if cls is None:
        exc = TristreamError(message)
        exc.code = code
        return exc
    return cls(message)
