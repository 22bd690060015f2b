"""What the notebook kernel runs on: probed before the build, recorded after each page.

The Sphinx process never imports JAX (on a GPU the first process to touch JAX takes most of the
device memory). Instead a short subprocess with the kernel's own Python tells the backend and
device kind before anything executes, which keys the execution cache; and every page with code
ends with an injected hidden cell whose glued record says where its outputs were really made.

The kernels and the probe are started by the Sphinx process and inherit its environment, so the
build sets JAX's GPU memory settings there (``set_kernel_memory_settings``), for them to read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from ..core import flags, paths
from ..core.words import slug

PROVENANCE_KEY = "learnjax_provenance"
REQUIRE_ACCELERATOR = flags.REQUIRE_ACCELERATOR


def accelerator_required(environ=os.environ) -> bool:
    """Whether the build must show a GPU's outputs only (``LEARNJAX_REQUIRE_ACCELERATOR``, see ``core.flags``).

    >>> accelerator_required({"LEARNJAX_REQUIRE_ACCELERATOR": "true"}), accelerator_required({})
    (True, False)
    """
    return flags.flag(REQUIRE_ACCELERATOR, environ)


_RECORD = """\
import datetime as _dt, json as _json
import jax as _jax, jaxlib as _jaxlib
_record = {
    "backend": _jax.default_backend(),
    "device_kind": _jax.devices()[0].device_kind,
    "device_count": _jax.device_count(),
    "jax": _jax.__version__,
    "jaxlib": _jaxlib.__version__,
    "ran_at": _dt.datetime.now(_dt.timezone.utc).isoformat(),
}
"""

# JAX reads these when a process starts its GPU backend. By default the first process to touch the GPU
# takes 75% of its memory at once (preallocation); with it off, each kernel takes what its arrays need,
# so kernels that run one after another, or at once, and the probe before them, never starve each other.
KERNEL_MEMORY_SETTINGS = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
# XLA_CLIENT_MEM_FRACTION is the fraction's current name; jaxlib 0.10 still reads the older one.
MEMORY_VARIABLES = ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_MEM_FRACTION",
                    "XLA_PYTHON_CLIENT_ALLOCATOR")

# The probe also reports the memory settings it found: the kernels get the same environment.
PROBE_CODE = _RECORD + f"""import os as _os
_record["memory_settings"] = {{_k: _os.environ[_k] for _k in {MEMORY_VARIABLES!r} if _k in _os.environ}}
print(_json.dumps(_record))
"""


KIT_PATH = [paths.KIT, paths.EXAMPLES]


def set_kernel_path(environ=os.environ) -> str:
    """Put the lesson kit (``docs/_kit``) and ``examples/`` first on the kernels' ``PYTHONPATH``; return it.

    A page's hidden cells import ``lesson_kit`` and the programs with no ``sys.path`` line.

    >>> set_kernel_path({"PYTHONPATH": "/elsewhere"}).split(os.pathsep)[-1]
    '/elsewhere'
    """
    entries = [str(path) for path in KIT_PATH]
    entries += [entry for entry in environ.get("PYTHONPATH", "").split(os.pathsep) if entry and entry not in entries]
    environ["PYTHONPATH"] = os.pathsep.join(entries)
    return environ["PYTHONPATH"]


def set_kernel_memory_settings(environ=os.environ) -> dict[str, str]:
    """Give the kernels started from this process JAX's memory settings and the kit's path; return
    the memory settings in force.

    A setting already in the environment is kept (``XLA_PYTHON_CLIENT_MEM_FRACTION=.5``, say), so a
    machine that needs another one can have it.

    >>> environ = {"XLA_PYTHON_CLIENT_MEM_FRACTION": ".5"}
    >>> set_kernel_memory_settings(environ)
    {'XLA_PYTHON_CLIENT_PREALLOCATE': 'false', 'XLA_PYTHON_CLIENT_MEM_FRACTION': '.5'}
    >>> set_kernel_memory_settings({"XLA_PYTHON_CLIENT_PREALLOCATE": "true"})
    {'XLA_PYTHON_CLIENT_PREALLOCATE': 'true'}
    """
    for name, value in KERNEL_MEMORY_SETTINGS.items():
        environ.setdefault(name, value)
    set_kernel_path(environ)
    return {name: environ[name] for name in MEMORY_VARIABLES if name in environ}


def jax_modules(modules=None) -> list[str]:
    """The JAX modules imported in this process; the Sphinx process must have none.

    >>> jax_modules({"sphinx": None, "jax": None, "jaxlib.xla_client": None, "jaxtyping": None})
    ['jax', 'jaxlib.xla_client']
    """
    names = sys.modules if modules is None else modules
    return sorted(name for name in names if name.split(".")[0] in ("jax", "jaxlib"))

def provenance_cell(programs: list[str]) -> str:
    """The hidden last cell of a page: glues the kernel's record, and the programs the page runs.

    ``programs`` (``name sha256`` lines) are written into the cell's code, which myst-nb's cache
    hashes: editing a program the page runs re-executes the page.

    >>> "examples/a.py 0123" in provenance_cell(["examples/a.py 0123"])
    True
    """
    return f"""

```{{code-cell}} ipython3
:tags: [remove-cell, learnjax-provenance]
{_RECORD}_record["programs"] = {programs!r}
from myst_nb import glue as _glue
_glue("{PROVENANCE_KEY}", _json.dumps(_record), display=False)
```
"""


class ProbeError(RuntimeError):
    """The kernel's Python could not report its JAX backend."""


def kernel_python(kernel_name: str = "python3") -> str:
    """The Python executable that Jupyter starts for ``kernel_name``."""
    import sys

    from jupyter_client.kernelspec import KernelSpecManager

    python = KernelSpecManager().get_kernel_spec(kernel_name).argv[0]
    # jupyter_client starts a kernelspec that names plain "python" with its own interpreter
    if python in {"python", f"python{sys.version_info[0]}", f"python{sys.version_info[0]}.{sys.version_info[1]}"}:
        return sys.executable
    return python


def probe(python: str, timeout: float = 300) -> dict:
    """Run the provenance record in ``python`` and return it (backend, device kind, versions)."""
    result = subprocess.run([python, "-c", PROBE_CODE], capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise ProbeError(f"{python} could not import JAX and list its devices:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def machine_key(record: dict) -> str:
    """A folder name for the execution cache of one backend and device kind.

    >>> machine_key({"backend": "gpu", "device_kind": "NVIDIA H100 80GB HBM3"})
    'gpu-nvidia-h100-80gb-hbm3'
    >>> machine_key({"backend": "cpu", "device_kind": "cpu"})
    'cpu-cpu'
    """
    kind = slug(record["device_kind"])
    return f"{record['backend']}-{kind}"


def glued_value(entry: dict):
    """The Python value of one glued entry (myst-nb's ``.glue.json``), from its ``text/plain`` repr.

    >>> glued_value({"data": {"text/plain": "'1,234.5'"}}), glued_value({"data": {"text/plain": "42"}})
    ('1,234.5', 42)
    >>> glued_value({"data": {"text/plain": "<Figure size 640x480>"}})
    '<Figure size 640x480>'
    """
    import ast

    text = entry.get("data", {}).get("text/plain", "")
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def glued_record(glue: dict) -> dict | None:
    """The provenance record among a page's glued values, or None when it has none.

    >>> glued_record({PROVENANCE_KEY: {"data": {"text/plain": repr('{"backend": "cpu"}')}}})
    {'backend': 'cpu'}
    """
    entry = glue.get(PROVENANCE_KEY)
    return None if entry is None else json.loads(glued_value(entry))
