"""Compile time and run time of one loop under jax.jit, against its trip count, written four ways.

The exercise of the lesson "Control flow under jit": a small update, ``x * 0.9 + sin(x)`` on a
float32 vector, is applied n times, written as

* ``python loop``: a Python ``for`` loop, which tracing unrolls into n copies of the update;
* ``fori_loop``: ``jax.lax.fori_loop`` with Python-int bounds (one loop body; JAX makes it a scan);
* ``scan``: ``jax.lax.scan`` run for n steps;
* ``scan unroll=8``: the same scan, with XLA asked to put 8 steps in each pass of its loop.

For each trip count n it counts the equations of each way's jaxpr (those inside a loop body
included), checks that the four ways agree, and times each way twice:

* ``cold``: the first call of a freshly jitted function (tracing, compiling and running);
* ``warm``: later calls, after a warm-up, which reuse the compiled program.

Every timing blocks on the result before reading the clock (``block_until_ready``) and is reported
as the median with the spread (min to max) of the runs.

    python examples/loop_compile.py --lengths 10 100 1000 --plot loop_compile.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import new_figure, plot_medians, save, write_plot  # noqa: E402
from timing import Timing, device, machine, time_call, time_cold_jit  # noqa: E402

DEFAULT_LENGTHS = (10, 30, 100, 300, 1000)
WAYS = ("python loop", "fori_loop", "scan", "scan unroll=8")
UNROLL = 8


def step(x):
    """One update of the loop: three operations (a multiply, a sine, an add).

    >>> step(jnp.zeros(2)).tolist()
    [0.0, 0.0]
    """
    return x * 0.9 + jnp.sin(x)


def make_loop(way: str, n: int):
    """A function that applies ``step`` n times, written the way ``way`` (one of ``WAYS``) says.

    >>> x = jnp.linspace(0.0, 1.0, 4)
    >>> outs = [make_loop(way, 5)(x) for way in WAYS]
    >>> all(np.allclose(outs[0], out, rtol=1e-5) for out in outs)
    True
    """
    if way == "python loop":
        def python_loop(x):
            for _ in range(n):  # runs while JAX traces: n copies of step in the jaxpr
                x = step(x)
            return x
        return python_loop
    if way == "fori_loop":
        return lambda x: jax.lax.fori_loop(0, n, lambda i, x: step(x), x)
    if way == "scan":
        return lambda x: jax.lax.scan(lambda x, _: (step(x), None), x, length=n)[0]
    if way == "scan unroll=8":
        return lambda x: jax.lax.scan(lambda x, _: (step(x), None), x, length=n, unroll=UNROLL)[0]
    raise ValueError(f"way must be one of {WAYS}, not {way!r}")


def count_eqns(jaxpr) -> int:
    """Equations in a jaxpr, counting once each those inside loop bodies and branches.

    >>> count_eqns(jax.make_jaxpr(step)(jnp.ones(3)))
    3
    >>> count_eqns(jax.make_jaxpr(make_loop("scan", 50))(jnp.ones(3)))  # the scan, and step inside it
    4
    """
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)  # a ClosedJaxpr holds its Jaxpr in .jaxpr
    total = 0
    for eqn in jaxpr.eqns:
        total += 1
        for value in eqn.params.values():
            for inner in value if isinstance(value, (tuple, list)) else (value,):
                if hasattr(getattr(inner, "jaxpr", inner), "eqns"):
                    total += count_eqns(inner)
    return total


def jaxpr_sizes(lengths, size: int = 1000) -> dict[int, dict[str, int]]:
    """``{n: {way: equations}}``: how big each way's jaxpr is for each trip count.

    >>> sizes = jaxpr_sizes([10, 20])
    >>> sizes[10]
    {'python loop': 30, 'fori_loop': 5, 'scan': 4, 'scan unroll=8': 4}
    >>> sizes[20]
    {'python loop': 60, 'fori_loop': 5, 'scan': 4, 'scan unroll=8': 4}
    """
    x = jnp.ones(size, jnp.float32)
    return {n: {way: count_eqns(jax.make_jaxpr(make_loop(way, n))(x)) for way in WAYS} for n in lengths}


def benchmark_length(n: int, size: int = 1000, repeats: int = 5) -> dict[str, Timing]:
    """Time each way cold and warm for trip count n, after checking that they agree.

    >>> timings = benchmark_length(4, size=8, repeats=2)
    >>> sorted(timings) == sorted(f"{way} {kind}" for way in WAYS for kind in ("cold", "warm"))
    True
    """
    x = jnp.linspace(-1.0, 1.0, size, dtype=jnp.float32)
    compiled = {way: jax.jit(make_loop(way, n)) for way in WAYS}
    reference = compiled["python loop"](x)
    for way, fn in compiled.items():
        assert np.allclose(fn(x), reference, rtol=1e-4, atol=1e-5), f"{way} disagrees with the Python loop"
    timings = {}
    for way in WAYS:
        timings[f"{way} cold"] = time_cold_jit(make_loop(way, n), x)
        timings[f"{way} warm"] = time_call(lambda fn=compiled[way]: fn(x), repeats)
    return timings


def run(lengths, size: int = 1000, repeats: int = 5) -> dict[int, dict[str, Timing]]:
    """Benchmark every trip count; returns ``{n: {"<way> cold" or "<way> warm": Timing}}``."""
    return {n: benchmark_length(n, size, repeats) for n in lengths}


def _ms(seconds: float) -> str:
    """Milliseconds with three significant digits, never in exponent form.

    >>> _ms(2.6608), _ms(0.0456), _ms(0.000081)
    ('2661', '45.6', '0.0810')
    """
    ms = seconds * 1e3
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.{max(0, 2 - int(np.floor(np.log10(ms))))}f}"


def format_table(rows: dict[int, dict], unit: str = "ms") -> str:
    """A plain-text table, one row per trip count n and one column per way.

    Cells are median milliseconds with the spread (``unit="ms"``, values are Timings) or plain
    counts (``unit="eqns"``, values are ints).

    >>> print(format_table({10: {way: Timing([0.001, 0.003]) for way in WAYS}}))  # doctest: +NORMALIZE_WHITESPACE
          n          python loop ms            fori_loop ms                 scan ms        scan unroll=8 ms
         10        2.00 (1.00-3.00)        2.00 (1.00-3.00)        2.00 (1.00-3.00)        2.00 (1.00-3.00)
    >>> print(format_table({10: {way: 4 for way in WAYS}}, unit="eqns"))  # doctest: +NORMALIZE_WHITESPACE
          n        python loop eqns          fori_loop eqns               scan eqns      scan unroll=8 eqns
         10                       4                       4                       4                       4
    """
    width = 24
    lines = [f"{'n':>7}" + "".join(f"{way + ' ' + unit:>{width}}" for way in WAYS)]
    for n, cells in rows.items():
        if unit == "ms":
            text = (f"{_ms(t.median)} ({_ms(t.fastest)}-{_ms(t.slowest)})" for t in (cells[way] for way in WAYS))
        else:
            text = (str(count) for count in (cells[way] for way in WAYS))
        lines.append(f"{n:>7}" + "".join(f"{cell:>{width}}" for cell in text))
    return "\n".join(lines)


def split(results: dict[int, dict[str, Timing]], kind: str) -> dict[int, dict[str, Timing]]:
    """The ``cold`` or ``warm`` timings alone, keyed by way: ``{n: {way: Timing}}``.

    >>> split({10: {"scan cold": Timing([1.0]), "scan warm": Timing([2.0])}}, "warm")[10]["scan"].median
    2.0
    """
    return {n: {key.rsplit(" ", 1)[0]: t for key, t in timings.items() if key.endswith(" " + kind)}
            for n, timings in results.items()}


def plot(results: dict[int, dict[str, Timing]], path: str) -> None:
    """Write a log-log plot of median time against trip count (cold dashed, warm solid), in both languages."""
    import matplotlib.pyplot as plt

    fig, ax = new_figure()
    keys = [f"{way} {kind}" for kind in ("cold", "warm") for way in WAYS]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"][:len(WAYS)]
    ax.set_prop_cycle(color=colors * 2)  # one colour per way, for its cold and its warm line
    plot_medians(ax, results, keys, dashed={key for key in keys if key.endswith("cold")})
    ax.set_xscale("log")
    ax.set_xlabel("반복 횟수 · trip count n")
    ax.set_title(f"반복문: 콜드(점선), 웜(실선) · loops: cold (dashed), warm (solid)\n"
                 f"{device()}")
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=list(DEFAULT_LENGTHS),
                        help="trip counts n to time (default: %(default)s)")
    parser.add_argument("--size", type=int, default=1000, help="length of the float32 vector (default: 1000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed warm calls per way (default: 5)")
    parser.add_argument("--plot", metavar="FILE", help="also write a PNG plot to FILE")
    args = parser.parse_args(argv)
    print(f"{machine()}; "
          f"vector of {args.size} float32; warm: median of {args.repeats} calls; cold: 3 fresh functions")
    sizes = jaxpr_sizes(args.lengths, args.size)
    print("jaxpr equations (loop bodies included)\n" + format_table(sizes, unit="eqns"))
    results = run(args.lengths, args.size, args.repeats)
    print("\ncold: trace + compile + run\n" + format_table(split(results, "cold")))
    print("\nwarm: run only\n" + format_table(split(results, "warm")))
    write_plot(plot, args.plot, results)
    return results, sizes


if __name__ == "__main__":
    results, sizes = main()
