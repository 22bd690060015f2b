"""What JAX's GPU memory settings change, read from the device's ``memory_stats()`` in fresh processes.

The lesson "Device memory": JAX reads its allocator settings (environment variables) once, when it
starts a GPU backend, so each setting is tried in a fresh child process. Each child starts JAX,
reads ``jax.devices()[0].memory_stats()`` before any computation, makes one small array, reads the
statistics again and prints them as one JSON line. The settings tried:

* ``default``: none of the variables set (JAX preallocates 75% of the GPU's memory at its first
  operation);
* ``XLA_PYTHON_CLIENT_PREALLOCATE=false``: no preallocation, memory taken as needed;
* ``XLA_CLIENT_MEM_FRACTION=.25``: the share of the GPU's memory JAX may use (its older name,
  ``XLA_PYTHON_CLIENT_MEM_FRACTION``, is still read);
* ``XLA_PYTHON_CLIENT_ALLOCATOR=platform``: no pool; memory allocated and freed on demand.

On the CPU, ``memory_stats()`` is ``None`` and the variables are not read: every child says so.

    python examples/allocator_settings.py
    python examples/allocator_settings.py --mib 16 --jobs 4   # children at once: on a CPU only

On a GPU keep ``--jobs 1`` (the default): a child that preallocates takes most of the GPU's memory,
and two at once would starve each other.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# The variables JAX's GPU client reads when it starts (jaxlib's generate_pjrt_gpu_plugin_options).
MEMORY_VARIABLES = ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_MEM_FRACTION",
                    "XLA_PYTHON_CLIENT_ALLOCATOR")
SETTINGS = {
    "default": {},
    "PREALLOCATE=false": {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"},
    "MEM_FRACTION=.25": {"XLA_CLIENT_MEM_FRACTION": ".25"},
    "ALLOCATOR=platform": {"XLA_PYTHON_CLIENT_ALLOCATOR": "platform"},
}
KEYS = ("bytes_in_use", "peak_bytes_in_use", "pool_bytes", "bytes_limit")

CHILD = """
import json, jax, jax.numpy as jnp

def stats():
    try:
        s = jax.devices()[0].memory_stats()
    except Exception as e:  # a backend may refuse to say
        return {"error": f"{type(e).__name__}: {e}"}
    return None if s is None else {k: int(v) for k, v in s.items()}

before = stats()                                       # JAX started, nothing computed yet
x = jax.block_until_ready(jnp.ones(NBYTES // 4, jnp.float32))
print(json.dumps({"backend": jax.default_backend(), "before": before, "after": stats(), "nbytes": x.nbytes}))
"""


def child_env(setting: dict[str, str], environ=None) -> dict[str, str]:
    """The environment of one child: this one without any memory variable, plus ``setting``.

    >>> env = child_env({"XLA_CLIENT_MEM_FRACTION": ".25"}, {"PATH": "/bin", "XLA_PYTHON_CLIENT_PREALLOCATE": "false"})
    >>> sorted(env.items())
    [('PATH', '/bin'), ('XLA_CLIENT_MEM_FRACTION', '.25')]
    """
    env = {k: v for k, v in (os.environ if environ is None else environ).items() if k not in MEMORY_VARIABLES}
    env.update(setting)
    return env


def parse_child(stdout: str) -> dict:
    """The child's report: the last line of its output, as JSON.

    >>> parse_child('a warning\\n{"backend": "cpu", "before": null, "after": null, "nbytes": 4}\\n')["backend"]
    'cpu'
    """
    return json.loads(stdout.strip().splitlines()[-1])


def run_child(setting: dict[str, str], nbytes: int, timeout: float = 120) -> dict:
    """Start JAX in a fresh process under ``setting``; its report, or an error with its stderr's tail."""
    code = CHILD.replace("NBYTES", str(nbytes))
    run = subprocess.run([sys.executable, "-c", code], env=child_env(setting), capture_output=True, text=True,
                         timeout=timeout)
    if run.returncode != 0:
        raise RuntimeError(f"child {setting} failed ({run.returncode}):\n{run.stderr[-2000:]}")
    return parse_child(run.stdout)


def size(n: int | None) -> str:
    """Bytes in MiB below 1 GiB, else GiB; a missing figure as a dash.

    >>> size(3 * 2**20), size(60 * 2**30), size(None)
    ('3.0 MiB', '60.00 GiB', '—')
    """
    if n is None:
        return "—"
    return f"{n / 2**20:,.1f} MiB" if n < 2**30 else f"{n / 2**30:,.2f} GiB"


def table(reports: dict[str, dict]) -> str:
    """One row per setting: the statistics after the small array was made (a dash where a key is absent).

    >>> print(table({"default": {"after": {"bytes_in_use": 2**20, "bytes_limit": 2**34}, "before": {}}}))
    setting                    bytes_in_use  peak_bytes_in_use     pool_bytes    bytes_limit
    default                         1.0 MiB                  —              —      16.00 GiB
    >>> print(table({"default": {"after": None, "before": None}}).splitlines()[1])
    default              memory_stats() is None
    """
    rows = [f"{'setting':<20} " + " ".join(f"{k:>{max(len(k), 14)}}" for k in KEYS)]
    for name, report in reports.items():
        after = report["after"]
        if after is None or "error" in after:
            rows.append(f"{name:<20} " + ("memory_stats() is None" if after is None else after["error"]))
        else:
            rows.append(f"{name:<20} " + " ".join(f"{size(after.get(k)):>{max(len(k), 14)}}" for k in KEYS))
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> dict[str, dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=float, default=4, help="size of the one array each child makes (default: 4)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="children run at once (default: 1; more only where no child preallocates, a CPU)")
    args = parser.parse_args(argv)
    nbytes = int(args.mib * 2**20) // 4 * 4
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {name: pool.submit(run_child, setting, nbytes) for name, setting in SETTINGS.items()}
        reports = {name: future.result() for name, future in futures.items()}
    backend = next(iter(reports.values()))["backend"]
    print(f"{len(reports)} fresh processes, backend {backend.upper()}, one array of {size(nbytes)} each; "
          "memory_stats() after it was made:")
    print(table(reports))
    return reports


if __name__ == "__main__":
    settings_reports = main()
