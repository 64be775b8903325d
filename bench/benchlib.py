"""bench/benchlib.py - what the GPU benchmark scripts share: running the
tristream CLI for its --json result, taking options off argv, and making
the R-MAT graphs every table is measured on (edge factor 16, seed 1)."""
import json, os, subprocess, tempfile, time

# mpirun as root on the device, more ranks than cores where asked
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")

def run_json(cmd):
    """Runs cmd and returns its stdout parsed as JSON; a failure raises with stderr."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: rc {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)

def take_opt(args, name, conv, default):
    """Removes `name VALUE` from args and returns conv(VALUE), or default if absent."""
    if name not in args:
        return default
    i = args.index(name)
    val = args[i + 1]
    del args[i:i + 2]
    return conv(val)

def gen_rmat(build, path, scale):
    """Writes R-MAT `scale` (edge factor 16, seed 1) to path with tristream-gen."""
    subprocess.run([os.path.join(build, "tristream-gen"), "--quiet", "rmat", "--scale",
                    str(scale), "--seed", "1", path], check=True)

def rmat_graphs(build, scales):
    """Yields (scale, path) for each R-MAT scale in turn, each graph generated
    in a temporary directory that is removed when the iteration ends."""
    with tempfile.TemporaryDirectory() as tmp:
        for scale in scales:
            path = os.path.join(tmp, f"rmat{scale}.tsg")
            gen_rmat(build, path, scale)
            yield scale, path

def timed(cmd, env=None):
    """Runs cmd; returns (its JSON, or an error dict with its stderr's tail, wall seconds)."""
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - t
    if p.returncode != 0:
        return {"error": p.returncode, "stderr": p.stderr.strip()[-400:]}, wall
    return json.loads(p.stdout), wall

def drop_caches():
    """Empties the page cache (root only), so the next read is cold."""
    subprocess.run(["sync"], check=False)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")

def print_table(header, rows):
    """Prints a Markdown table: header a list of column names, rows lists
    (or tuples) of cells, each printed with str()."""
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(x) for x in row) + " |")
