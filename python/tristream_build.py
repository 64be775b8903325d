"""The build backend of `pip install .` (PEP 517, in the tree: pyproject.toml
names it), so that an install needs pip alone: no setuptools, no wheel, no
download (an interpreter whose setuptools predates 70.1 cannot build a wheel
without the wheel package, which this machine's default python3 lacks).

It writes the wheel itself: the package python/tristream, libtristream.so
inside it, and the metadata of pyproject.toml's [project] table (entry
points included). The library comes from, in this order:
  - TRISTREAM_LIB=/path/to/libtristream.so: that file, as built;
  - TRISTREAM_LIB=none: no library in the package (found at run time:
    TRISTREAM_LIB, or the loader's path after `meson install`);
  - else meson builds it, in TRISTREAM_BUILD_DIR (default build-python/ at
    the root), configured once with TRISTREAM_MESON_OPTIONS (default none,
    so -Dcuda=auto); a folder already built is only brought up to date.
The wheel is tagged py3-none-PLATFORM: ctypes loads the library, so any
Python 3 of this platform takes it.
"""

import base64
import hashlib
import os
import shlex
import subprocess
import sysconfig
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "python", "tristream")


def _project():
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        raise SystemExit("building tristream's wheel needs Python 3.11 or later (tomllib); "
                         "or use TRISTREAM_LIB with PYTHONPATH=python (docs/PYTHON.md)")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _library():
    """The path of the libtristream.so to ship, or None."""
    given = os.environ.get("TRISTREAM_LIB", "")
    if given.lower() == "none":
        return None
    if given:
        if not os.path.isfile(given):
            raise SystemExit(f"TRISTREAM_LIB={given}: no such file")
        return given
    build = os.environ.get("TRISTREAM_BUILD_DIR") or os.path.join(ROOT, "build-python")
    build = os.path.join(ROOT, build)  # relative: to the root
    if not os.path.isfile(os.path.join(build, "build.ninja")):
        opts = shlex.split(os.environ.get("TRISTREAM_MESON_OPTIONS", ""))
        subprocess.run(["meson", "setup", build, ROOT, *opts], check=True)
    targets = subprocess.run(["ninja", "-C", build, "-t", "targets", "all"], check=True,
                             capture_output=True, text=True).stdout
    lib = next((t.split(":")[0] for t in targets.splitlines()
                if t.startswith("libtristream.so") and ".p/" not in t.split(":")[0]), None)
    if lib is None:
        raise SystemExit(f"{build}: meson defines no libtristream.so")
    subprocess.run(["ninja", "-C", build, lib], check=True)  # the library alone
    return os.path.join(build, lib)


def _metadata(p):
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}",
             f"Summary: {p.get('description', '')}",
             f"Requires-Python: {p.get('requires-python', '>=3')}"]
    if "license" in p and "text" in p["license"]:
        lines.append(f"License: {p['license']['text']}")
    for extra, reqs in p.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in reqs]
    return "\n".join(lines) + "\n"


def _entry_points(p):
    out = []
    for group, eps in p.get("entry-points", {}).items():
        out.append(f"[{group}]")
        out += [f"{name} = {target}" for name, target in eps.items()]
        out.append("")
    return "\n".join(out)


def _tag():
    return "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")


def _dist_info(p):
    return f"{p['name']}-{p['version']}.dist-info"


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    p = _project()
    d = os.path.join(metadata_directory, _dist_info(p))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w") as f:
        f.write(_metadata(p))
    with open(os.path.join(d, "entry_points.txt"), "w") as f:
        f.write(_entry_points(p))
    return _dist_info(p)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    p = _project()
    lib = _library()
    name = f"{p['name']}-{p['version']}-{_tag()}.whl"
    dist = _dist_info(p)
    record = []

    def add(z, arcname, data, mode=0o644):
        info = zipfile.ZipInfo(arcname, date_time=(2026, 1, 1, 0, 0, 0))
        info.external_attr = mode << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{arcname},sha256={digest},{len(data)}")

    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as z:
        for f in sorted(os.listdir(PACKAGE)):
            if f.endswith(".py"):
                with open(os.path.join(PACKAGE, f), "rb") as src:
                    add(z, f"tristream/{f}", src.read())
        if lib:
            with open(lib, "rb") as src:
                add(z, "tristream/libtristream.so", src.read(), 0o755)
        add(z, f"{dist}/METADATA", _metadata(p).encode())
        add(z, f"{dist}/entry_points.txt", _entry_points(p).encode())
        add(z, f"{dist}/top_level.txt", b"tristream\n")
        add(z, f"{dist}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: tristream_build\n"
                                 f"Root-Is-Purelib: false\nTag: {_tag()}\n").encode())
        record.append(f"{dist}/RECORD,,")
        z.writestr(zipfile.ZipInfo(f"{dist}/RECORD", date_time=(2026, 1, 1, 0, 0, 0)),
                   "\n".join(record) + "\n")
    return name
