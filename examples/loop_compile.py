"""Compile time and run time of one loop under jax.jit, against its trip count, written four ways.

The exercise of the lesson "Loops under jit": a small update, ``x * 0.9 + sin(x)`` on a
float32 vector, is applied n times, written as

* ``python loop``: a Python ``for`` loop, which tracing unrolls into n copies of the update;
* ``fori_loop``: ``jax.lax.fori_loop`` with Python-int bounds (one loop body; JAX makes it a scan);
* ``scan``: ``jax.lax.scan`` run for n steps;
* ``scan unroll=8``: the same scan, with XLA asked to put 8 steps in each pass of its loop.

For each trip count n it counts the equations of each way's jaxpr (those inside a loop body
included), checks that the four ways agree, and times every way at every n in two measurements:

* ``cold``: the first call of a freshly jitted function (tracing, compiling and running);
* ``warm``: later calls, after a warm-up, which reuse the compiled program.

Each measurement is one ``timing.compare``: all its variants (every way at every n) interleaved,
round by round, so that the machine's drift hits them alike. Tables give the median with the
spread (fastest to slowest); ``verdicts`` says, under ``timing.py``'s rule, which way was faster
than which, at the largest n (warm) and from the smallest to the largest n (cold).

    python examples/loop_compile.py --lengths 10 100 1000 --plot loop_compile.png

writes loop_compile.ko.png and loop_compile.en.png: the same measurements, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, legend_below, new_figure, plot_medians, save, say, write_plot  # noqa: E402
from timing import Comparison, Timing, compare, device, machine, ratio_text  # noqa: E402

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


def variant(way: str, n: int) -> str:
    """The name of one way at one trip count in a measurement.

    >>> variant("scan", 30)
    'scan n=30'
    """
    return f"{way} n={n}"


def measure(lengths, size: int = 1000, rounds: int = 6, warm_rounds: int = 25) -> dict[str, Comparison]:
    """Check that the four ways agree at every n, then measure them: ``{"cold": …, "warm": …}``,
    each a ``Comparison`` of every way at every n (``variant(way, n)``), interleaved, in
    ``rounds`` (cold) and ``warm_rounds`` (warm) rounds.

    A cold call jits a new function each time (no cache has it), so it needs no warm-up.

    >>> m = measure([4], size=8, rounds=6, warm_rounds=6)
    >>> sorted(m), sorted(m["warm"].samples) == sorted(variant(way, 4) for way in WAYS)
    (['cold', 'warm'], True)
    """
    x = jnp.linspace(-1.0, 1.0, size, dtype=jnp.float32)
    compiled = {(way, n): jax.jit(make_loop(way, n)) for n in lengths for way in WAYS}
    for n in lengths:
        reference = compiled["python loop", n](x)
        for way in WAYS:
            assert np.allclose(compiled[way, n](x), reference, rtol=1e-4, atol=1e-5), \
                f"{way} disagrees with the Python loop at n = {n}"
    cold = compare({variant(way, n): (lambda way=way, n=n: jax.jit(make_loop(way, n))(x))
                    for n in lengths for way in WAYS}, rounds=rounds, warmup=0)
    warm = compare({variant(way, n): (lambda fn=compiled[way, n]: fn(x))
                    for n in lengths for way in WAYS}, rounds=warm_rounds)
    return {"cold": cold, "warm": warm}


def by_length(comparison: Comparison, lengths) -> dict[int, dict[str, Timing]]:
    """``{n: {way: Timing}}`` from a measurement of every way at every n.

    >>> c = Comparison({variant(way, 10): [0.001, 0.002] for way in WAYS})
    >>> by_length(c, [10])[10]["scan"].median
    0.0015
    """
    return {n: {way: comparison.timing(variant(way, n)) for way in WAYS} for n in lengths}


def format_table(rows: dict[int, dict], unit: str = "ms") -> str:
    """A plain-text table, one row per trip count n and one column per way.

    Cells are median milliseconds with the spread, fastest to slowest (``unit="ms"``, values are
    Timings), or plain counts (``unit="eqns"``, values are ints).

    >>> print(format_table({10: {way: Timing([0.001, 0.003]) for way in WAYS}}))  # doctest: +NORMALIZE_WHITESPACE
          n             python loop               fori_loop                    scan           scan unroll=8
         10     2.00 ms (1.00–3.00)     2.00 ms (1.00–3.00)     2.00 ms (1.00–3.00)     2.00 ms (1.00–3.00)
    >>> print(format_table({10: {way: 4 for way in WAYS}}, unit="eqns"))  # doctest: +NORMALIZE_WHITESPACE
          n        python loop eqns          fori_loop eqns               scan eqns      scan unroll=8 eqns
         10                       4                       4                       4                       4
    """
    width = 26
    lines = [f"{'n':>7}" + "".join(f"{way + (' eqns' if unit == 'eqns' else ''):>{width}}" for way in WAYS)]
    for n, cells in rows.items():
        text = (str(cells[way]) for way in WAYS)  # a Timing prints as "median ms (fastest–slowest)"
        lines.append(f"{n:>7}" + "".join(f"{cell:>{width}}" for cell in text))
    return "\n".join(lines)


def fastest(comparison: Comparison, names) -> str | None:
    """The one of ``names`` that separates as faster than every other under ``timing.py``'s rule,
    or None if none does.

    >>> c = Comparison({"a": [1.0, 1.1, 0.9, 1.0, 1.2, 1.0], "b": [2.0, 2.1, 2.2, 1.9, 2.4, 2.0],
    ...                 "c": [3.0, 3.1, 3.2, 2.9, 3.4, 3.0]})
    >>> fastest(c, ["a", "b", "c"]), fastest(c, ["b", "c"])
    ('a', 'b')
    >>> fastest(Comparison({"a": [1, 2, 1, 2, 1, 2], "b": [2, 1, 2, 1, 2, 1]}), ["a", "b"]) is None
    True
    """
    for name in names:
        if all(comparison.verdict(name, other).interval[1] < 1 for other in names if other != name):
            return name
    return None


def verdicts(measured: dict[str, Comparison], lengths) -> list[str]:
    """Lines that say, under ``timing.py``'s rule, how the ways compared: warm at the largest n,
    and each way's cold call at the largest n against the smallest.

    >>> ms = [1e-3, 1.1e-3, 0.9e-3, 1e-3, 1.2e-3, 1e-3]
    >>> warm = Comparison({variant(way, n): [t * (2 if way == "python loop" else 1) for t in ms]
    ...                    for n in (4, 8) for way in WAYS})
    >>> cold = Comparison({variant(way, n): [t * (n if way == "python loop" else 1) for t in ms]
    ...                    for n in (4, 8) for way in WAYS})
    >>> lines = verdicts({"cold": cold, "warm": warm}, [4, 8])
    >>> lines[2].startswith("warm, n = 8: scan(unroll=8) and scan took about the same time")
    True
    >>> for line in lines[:2] + lines[3:]:
    ...     print(line.split(" (median")[0])
    warm, n = 8: no way separates from all three others
    warm, n = 8: the Python loop was 2.00× slower than scan
    cold, python loop: n = 8 against n = 4: slower, median ratio 2.00
    cold, scan: n = 8 against n = 4: same, median ratio 1.00
    """
    smallest, largest = min(lengths), max(lengths)
    warm = measured["warm"]
    names = [variant(way, largest) for way in WAYS]
    winner = fastest(warm, names)
    lines = [f"warm, n = {largest}: " + (f"{winner} separates from each other way" if winner else
                                          "no way separates from all three others")]
    for a, b in (("python loop", "scan"), ("scan unroll=8", "scan")):
        lines.append(f"warm, n = {largest}: " + warm.sentences(variant(a, largest), variant(b, largest),
                                                               way_labels(largest))["en"])
    for way in ("python loop", "scan"):
        v = measured["cold"].verdict(variant(way, largest), variant(way, smallest))
        lines.append(f"cold, {way}: n = {largest} against n = {smallest}: {v.outcome}, "
                     f"median ratio {ratio_text(v.factor)}")
    return lines


def way_labels(n: int) -> dict[str, dict[str, str]]:
    """Each way's name at trip count ``n``, for ``Comparison.sentences``, in Korean and English
    (plain text: a page glues them as text, never markup).

    >>> way_labels(8)["scan unroll=8 n=8"]
    {'ko': 'scan(unroll=8) 쪽', 'en': 'scan(unroll=8)'}
    """
    korean = {"python loop": "Python 반복문", "fori_loop": "fori_loop 쪽", "scan": "scan 쪽",
              "scan unroll=8": "scan(unroll=8) 쪽"}
    english = {"python loop": "the Python loop", "fori_loop": "fori_loop", "scan": "scan",
               "scan unroll=8": "scan(unroll=8)"}
    return {variant(way, n): {"ko": korean[way], "en": english[way]} for way in WAYS}


def plot(results: dict[int, dict[str, Timing]], path: str, language: str = "en") -> None:
    """Write a log-log plot of median time against trip count, cold dashed and warm solid, one
    colour per way (``results``: ``{n: {"<way> cold" or "<way> warm": Timing}}``), labelled in
    ``language``."""
    import matplotlib.pyplot as plt

    fig, ax = new_figure()
    keys = [f"{way} {kind}" for kind in ("cold", "warm") for way in WAYS]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"][:len(WAYS)]
    ax.set_prop_cycle(color=colors * 2)  # one colour per way, for its cold and its warm line
    names = {"python loop": say(language, "Python 반복문", "Python for"), "scan unroll=8": "scan(unroll=8)"}
    labels = {f"{way} warm": names.get(way, way) for way in WAYS}
    labels.update({f"{way} cold": "_nolegend_" for way in WAYS})  # one legend entry per way
    plot_medians(ax, results, keys, labels=labels, dashed={key for key in keys if key.endswith("cold")},
                 language=language)
    ax.set_xscale("log")
    ax.set_xlabel(say(language, "반복 횟수 n", "trip count n"))
    ax.set_title(say(language, "콜드 호출(점선)과 웜 호출(실선)", "cold calls (dashed), warm calls (solid)")
                 + f"\n{device()}")
    legend_below(fig, ax)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=list(DEFAULT_LENGTHS),
                        help="trip counts n to time (default: %(default)s)")
    parser.add_argument("--size", type=int, default=1000, help="length of the float32 vector (default: 1000)")
    parser.add_argument("--rounds", type=int, default=6,
                        help="interleaved rounds of the cold measurement, 6 or more (default: 6)")
    parser.add_argument("--warm-rounds", type=int, default=25,
                        help="interleaved rounds of the warm measurement, 6 or more (default: 25)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    lengths = sorted(set(args.lengths))
    print(f"{machine()}; vector of {args.size} float32; every way at every n measured interleaved, "
          f"{args.rounds} rounds cold (a fresh function each round), {args.warm_rounds} warm")
    sizes = jaxpr_sizes(lengths, args.size)
    print("jaxpr equations (loop bodies included)\n" + format_table(sizes, unit="eqns"))
    measured = measure(lengths, args.size, args.rounds, args.warm_rounds)
    cold, warm = by_length(measured["cold"], lengths), by_length(measured["warm"], lengths)
    print("\ncold: trace + compile + run, median (fastest–slowest)\n" + format_table(cold))
    print("\nwarm: run only, median (fastest–slowest)\n" + format_table(warm))
    print("\n" + "\n".join(verdicts(measured, lengths)))
    results = {n: {f"{way} {kind}": table[n][way] for kind, table in (("cold", cold), ("warm", warm))
                   for way in WAYS} for n in lengths}
    write_plot(plot, args.plot, results)
    return measured, sizes


if __name__ == "__main__":
    measured, sizes = main()
