"""Peak memory of an in-place update loop under jax.jit, with and without buffer donation.

The exercise of the lesson "State without mutation": a float32 vector, the state, goes through
``x = step(x, i)`` again and again, where ``step`` adds 1 to one element (``x.at[i].add(1.0)``).
JAX arrays are immutable, so without donation every call writes a whole new vector while the old
one is still alive; with ``donate_argnums=0`` the compiled program may write its output into the
input's buffer. The program compiles ``step`` both ways and reports, for each, where the figures
came from:

* ``memory_analysis``: the compiler's own account of one call (arguments + outputs − aliased bytes
  + temporaries), and the input/output aliases written in the compiled HLO (``input_output_alias``);
  a saving is credited to donation only if the HLO has the alias;
* ``live arrays``: the bytes of every array alive in the process (``jax.live_arrays()``), sampled
  after every call of the loop before the old state is dropped, the peak minus what was alive
  before the state was made; this works on every backend;
* ``peak_bytes_in_use``: the device allocator's peak (``memory_stats()``), only where the backend
  reports one (a GPU; ``None`` on the CPU). The peak never goes down within a process, so each
  variant runs in a fresh child process, with preallocation off.

    python examples/donation_memory.py --size 4194304 --steps 20 --plot donation_memory.png

writes donation_memory.ko.png and donation_memory.en.png: the same figures, labelled in Korean and
in English.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import machine  # noqa: E402

VARIANTS = ("copy", "donated")
SOURCES = ("memory_analysis", "live arrays", "peak_bytes_in_use")


def step(x, i):
    """One update of the state: add 1 to element ``i``; everything else is unchanged.

    >>> step(jnp.zeros(4), 2).tolist()
    [0.0, 0.0, 1.0, 0.0]
    """
    return x.at[i].add(1.0)


def jitted(variant: str):
    """``step`` under ``jax.jit``: ``"copy"`` as it is, ``"donated"`` with ``donate_argnums=0``.

    >>> x = jnp.zeros(4)
    >>> y = jitted("donated")(x, 1)
    >>> x.is_deleted(), y.tolist()
    (True, [0.0, 1.0, 0.0, 0.0])
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, not {variant!r}")
    return jax.jit(step, donate_argnums=0 if variant == "donated" else ())


def aliases(hlo_text: str) -> list[tuple[str, int, str]]:
    """The input/output aliases of a compiled HLO module: (output index, parameter, kind) each.

    >>> aliases("HloModule m, input_output_alias={ {}: (0, {}, may-alias) }, entry_computation_layout=…")
    [('{}', 0, 'may-alias')]
    >>> aliases("HloModule m, entry_computation_layout=…")
    []
    """
    header = hlo_text.split("\n", 1)[0]
    found = re.search(r"input_output_alias=\{(.*?)\}, entry_computation_layout", header)
    if found is None:
        return []
    return [(out, int(param), kind)
            for out, param, kind in re.findall(r"(\{[^}]*\}): \((\d+), \{[^}]*\}, ([\w-]+)\)", found.group(1))]


def entry_copies(hlo_text: str) -> int:
    """How many ``copy`` instructions the entry computation of a compiled HLO module has.

    >>> entry_copies("%f {\\n  %c = f32[2]{0} copy(%p)\\n}\\n\\nENTRY %main (x: f32[2]) -> f32[2] {\\n"
    ...              "  %x = f32[2]{0} parameter(0)\\n  ROOT %copy.1 = f32[2]{0} copy(%x)\\n}\\n")
    1
    """
    entry = hlo_text[hlo_text.index("\nENTRY "):]
    entry = entry[:entry.index("\n}")]
    return len(re.findall(r"= \S+ copy\(", entry))


def compiled_memory(variant: str, size: int) -> dict:
    """What the compiler says one call of ``variant`` needs, in bytes, and the HLO's aliases.

    ``peak`` is arguments + outputs − aliased bytes + temporaries: the bytes that must exist at once
    during the call.

    >>> copy, donated = compiled_memory("copy", 1024), compiled_memory("donated", 1024)
    >>> copy["alias"], donated["alias"], donated["aliases"]
    (0, 4096, [('{}', 0, 'may-alias')])
    >>> copy["peak"] - donated["peak"]
    4096
    >>> copy["entry_copies"], donated["entry_copies"]  # on this CPU: the whole input copied, then updated
    (1, 0)
    """
    compiled = jitted(variant).lower(jax.ShapeDtypeStruct((size,), jnp.float32), 0).compile()
    memory = compiled.memory_analysis()
    figures = {"argument": memory.argument_size_in_bytes, "output": memory.output_size_in_bytes,
               "alias": memory.alias_size_in_bytes, "temp": memory.temp_size_in_bytes}
    figures["peak"] = figures["argument"] + figures["output"] - figures["alias"] + figures["temp"]
    figures["aliases"] = aliases(compiled.as_text())
    figures["entry_copies"] = entry_copies(compiled.as_text())
    return figures


def live_bytes() -> int:
    """Bytes of every array alive in this process (deleted ones hold no buffer and are skipped)."""
    return sum(a.nbytes for a in jax.live_arrays() if not a.is_deleted())


def loop_live_peak(variant: str, size: int, steps: int) -> dict:
    """Run ``x = step(x, i)`` ``steps`` times; the peak of live bytes over the loop, sampled after
    each call while the old state may still be alive, minus what was alive before ``x`` was made.

    >>> loop_live_peak("copy", 1024, 3)
    {'peak': 8192, 'state': 4096, 'deleted': False, 'result_ok': True}
    >>> loop_live_peak("donated", 1024, 3)
    {'peak': 4096, 'state': 4096, 'deleted': True, 'result_ok': True}
    """
    update = jitted(variant)
    jax.block_until_ready(update(jnp.zeros(size, jnp.float32), 0))  # compile outside the loop
    gc.collect()
    before = live_bytes()
    x = jnp.zeros(size, jnp.float32)
    peak, deleted = 0, []
    for i in range(steps):
        new = jax.block_until_ready(update(x, i % size))
        peak = max(peak, live_bytes() - before)   # the old x is still bound here
        deleted.append(x.is_deleted())
        x = new
    expected = np.zeros(size, np.float32)
    np.add.at(expected, np.arange(steps) % size, 1.0)
    result_ok = bool(np.array_equal(np.asarray(x), expected))
    return {"peak": peak, "state": size * 4, "deleted": all(deleted), "result_ok": result_ok}


def child_peak(variant: str, size: int, steps: int) -> dict:
    """In this (fresh) process: the allocator's peak bytes over the loop, minus what was in use
    before; ``{}`` where the backend reports no ``peak_bytes_in_use``."""
    stats = jax.devices()[0].memory_stats()
    if not stats or "peak_bytes_in_use" not in stats:
        return {}
    update = jitted(variant)
    jax.block_until_ready(update(jnp.zeros(8, jnp.float32), 0))  # start the runtime (a small compile)
    before = jax.devices()[0].memory_stats()["bytes_in_use"]
    x = jnp.zeros(size, jnp.float32)
    for i in range(steps):
        x = update(x, i % size)
    jax.block_until_ready(x)
    after = jax.devices()[0].memory_stats()
    return {"peak": after["peak_bytes_in_use"] - before, "state": size * 4}


def device_peaks(size: int, steps: int) -> dict[str, dict]:
    """``child_peak`` of each variant, each run in a fresh process with preallocation off; ``{}``
    where this backend keeps no allocator statistics (``memory_stats()`` is ``None`` on the CPU)."""
    stats = jax.devices()[0].memory_stats()
    if not stats or "peak_bytes_in_use" not in stats:
        return {}
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
    peaks = {}
    for variant in VARIANTS:
        run = subprocess.run([sys.executable, __file__, "--child", variant, "--size", str(size),
                              "--steps", str(steps)], env=env, capture_output=True, text=True, check=True)
        peaks[variant] = json.loads(run.stdout.strip().splitlines()[-1])
    return peaks


def mib(n: int) -> str:
    """Bytes as MiB, one way everywhere.

    >>> mib(3 * 2**20), mib(2**19)
    ('3.0 MiB', '0.5 MiB')
    """
    return f"{n / 2**20:,.1f} MiB"


def figures_by_source(compiled: dict, live: dict, device: dict) -> dict[str, dict[str, int]]:
    """``{source: {variant: bytes}}`` for every source that gave figures."""
    table = {"memory_analysis": {v: compiled[v]["peak"] for v in VARIANTS},
             "live arrays": {v: live[v]["peak"] for v in VARIANTS}}
    if device:
        table["peak_bytes_in_use"] = {v: device[v]["peak"] for v in VARIANTS}
    return table


def plot(table: dict[str, dict[str, int]], state_bytes: int, path: str, language: str = "en") -> None:
    """Bars of the peak bytes of each variant, grouped by where the figure came from."""
    fig, ax = new_figure()
    sources = list(table)
    width = 0.38
    names = {"copy": say(language, "기부 없음", "no donation"), "donated": say(language, "기부", "donated")}
    for k, variant in enumerate(VARIANTS):
        ax.bar([s + (k - 0.5) * width for s in range(len(sources))],
               [table[source][variant] / 2**20 for source in sources], width, label=names[variant])
    ax.axhline(state_bytes / 2**20, color="gray", linestyle="--", linewidth=1,
               label=say(language, "상태 한 벌", "one copy of the state"))
    ticks = {"memory_analysis": "memory_analysis()", "live arrays": "live_arrays()",
             "peak_bytes_in_use": "memory_stats()"}
    ax.set_xticks(range(len(sources)), [ticks[s] for s in sources], fontsize=11)
    ax.set_ylabel(say(language, "최대 메모리 (MiB)", "peak memory (MiB)"))
    ax.set_title(say(language, "상태를 갱신하는 루프의 최대 메모리", "peak memory of the update loop")
                 + f"\n{jax.default_backend().upper()}, jax {jax.__version__}")
    ax.grid(True, axis="y", alpha=0.3)
    legend_below(fig, ax, columns=3)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=2**22,
                        help="length of the float32 state vector (default: %(default)s)")
    parser.add_argument("--steps", type=int, default=20, help="calls of step in the loop (default: 20)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    parser.add_argument("--child", choices=VARIANTS, help=argparse.SUPPRESS)  # one run of device_peaks
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child_peak(args.child, args.size, args.steps)))
        return None
    print(f"{machine()}; state: {args.size:,} float32 ({mib(args.size * 4)}), {args.steps} steps of "
          "x = step(x, i)")
    compiled = {v: compiled_memory(v, args.size) for v in VARIANTS}
    for v in VARIANTS:
        c = compiled[v]
        print(f"memory_analysis, {v:<8} arguments {mib(c['argument'])}, outputs {mib(c['output'])}, "
              f"aliased {mib(c['alias'])}, temporaries {mib(c['temp'])} -> one call needs {mib(c['peak'])}; "
              f"input_output_alias in the HLO: {c['aliases'] or 'none'}")
    live = {v: loop_live_peak(v, args.size, args.steps) for v in VARIANTS}
    for v in VARIANTS:
        print(f"live arrays,     {v:<8} peak over the loop {mib(live[v]['peak'])}; old state deleted after "
              f"each call: {live[v]['deleted']}; result right: {live[v]['result_ok']}")
    device = device_peaks(args.size, args.steps)
    if device:
        for v in VARIANTS:
            print(f"peak_bytes_in_use, {v:<8} {mib(device[v]['peak'])} (fresh process, preallocation off)")
    else:
        print(f"peak_bytes_in_use: not reported by the {jax.default_backend().upper()} backend "
              "(memory_stats() is None)")
    table = figures_by_source(compiled, live, device)
    write_plot(plot, args.plot, table, args.size * 4)
    return {"compiled": compiled, "live": live, "device": device, "table": table,
            "size": args.size, "steps": args.steps}


if __name__ == "__main__":
    donation = main()
