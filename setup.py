"""Puts libtristream.so into the Python package (metadata: pyproject.toml).

    python3 -m pip install --no-build-isolation .

The library comes from, in this order:
  - TRISTREAM_LIB=/path/to/libtristream.so: that file, as built;
  - TRISTREAM_LIB=none: no library in the package (it is then found at run
    time: TRISTREAM_LIB, or the loader's path after `meson install`);
  - else meson builds it here, in TRISTREAM_BUILD_DIR (default build-python/),
    configured once with TRISTREAM_MESON_OPTIONS (default: none, so
    -Dcuda=auto: the CUDA backend where nvcc is found).
Nothing is downloaded: meson, ninja and the -dev packages README lists do it.
"""

import os
import shlex
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))


def built_library():
    """The path of a libtristream.so to ship, or None."""
    given = os.environ.get("TRISTREAM_LIB", "")
    if given.lower() == "none":
        return None
    if given:
        if not os.path.isfile(given):
            raise SystemExit(f"TRISTREAM_LIB={given}: no such file")
        return given
    build = os.environ.get("TRISTREAM_BUILD_DIR") or os.path.join(ROOT, "build-python")
    if not os.path.isabs(build):
        build = os.path.join(ROOT, build)
    if not os.path.isfile(os.path.join(build, "build.ninja")):
        opts = shlex.split(os.environ.get("TRISTREAM_MESON_OPTIONS", ""))
        subprocess.run(["meson", "setup", build, ROOT, *opts], check=True)
    # the library alone (its target name is its file's)
    ninja = subprocess.run(["ninja", "-C", build, "-t", "targets", "all"], check=True,
                           capture_output=True, text=True).stdout
    target = next((t.split(":")[0] for t in ninja.splitlines()
                   if t.startswith("libtristream.so") and ".p/" not in t.split(":")[0]),
                  None)
    if target is None:
        raise SystemExit(f"{build}: meson defines no libtristream.so")
    subprocess.run(["ninja", "-C", build, target], check=True)
    lib = os.path.join(build, target)
    if not os.path.isfile(lib):
        raise SystemExit(f"{build}: libtristream.so was not built")
    return lib


class BuildPy(build_py):
    def run(self):
        super().run()
        lib = built_library()
        if lib:
            dest = os.path.join(self.build_lib, "tristream", "libtristream.so")
            shutil.copyfile(lib, dest)
            os.chmod(dest, 0o755)


class BinaryDistribution(Distribution):
    """A wheel with a shared library in it is for this platform only."""

    def has_ext_modules(self):
        return True


# setuptools' own files go under build-python/ (ignored by git), not into
# build/, which is meson's build folder in README's commands
os.makedirs(os.path.join(ROOT, "build-python", "egg-info"), exist_ok=True)
setup(cmdclass={"build_py": BuildPy}, distclass=BinaryDistribution,
      options={"build": {"build_base": os.path.join(ROOT, "build-python", "setuptools")},
               "egg_info": {"egg_base": os.path.join(ROOT, "build-python", "egg-info")}})
