"""After how many calls does jax.jit pay for its compilation? The break-even call count of a matmul.

The exercise of the lesson "Timing JAX correctly": for each size n it times an n×n float32 matmul
with ``benchmark_size`` from ``matmul_speedup.py``: ``jnp.matmul`` called directly, and a jitted
matmul cold (first call: tracing, compiling and running) and warm (later calls). Then it works out
when compiling pays for itself. With medians of the three figures,

* N calls through jit cost ``cold + (N - 1) * warm``;
* N calls of jnp cost ``N * jnp``;

so the break-even call count is the smallest N with ``cold + (N - 1) * warm <= N * jnp``, that is
``N >= (cold - warm) / (jnp - warm)``: the extra cost of the first call divided by what each later
call saves. If a warm jit call is not faster than jnp, it never pays off.

The ``jnp`` figure is warm too: ``jnp.matmul`` also compiles on its first call for a shape, and
``benchmark_size`` leaves that call out. Every timing blocks on its result before the clock is
read, and is the median of several runs after a warm-up, with the spread (min to max).

    python examples/jit_payoff.py --sizes 64 256 1024 2048 --plot jit_payoff.png
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import jax

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from matmul_speedup import benchmark_size  # noqa: E402
from plotting import new_figure, plot_medians, save, write_plot  # noqa: E402
from timing import Timing, machine  # noqa: E402

DEFAULT_SIZES = (64, 256, 1024, 2048)
SHOWN = ("jnp", "jit cold", "jit warm")


def break_even_calls(cold: float, warm: float, jnp: float) -> float:
    """Smallest number of calls N after which jit (``cold`` once, then ``warm``) costs no more than ``jnp``.

    Times are in seconds; the answer is a whole number of calls, or ``math.inf`` when a warm jit call
    is not faster than jnp (compiling never pays off).

    >>> break_even_calls(cold=0.5, warm=0.25, jnp=0.375)  # 0.25 s extra once, 0.125 s saved per call
    2
    >>> break_even_calls(cold=0.5, warm=0.25, jnp=0.25)
    inf
    >>> break_even_calls(cold=0.25, warm=0.25, jnp=0.5)  # nothing to pay back: the first call already wins
    1
    """
    if jnp <= warm:
        return math.inf
    calls = (cold - warm) / (jnp - warm)
    return max(1, math.ceil(calls - 1e-9))  # 1e-9: so that 2.0000000000000004 counts as 2


def ranges_overlap(a: Timing, b: Timing) -> bool:
    """Whether the spreads (fastest to slowest) of two timings overlap, so the runs cannot tell them apart.

    >>> ranges_overlap(Timing([1.0, 2.0]), Timing([1.5, 3.0])), ranges_overlap(Timing([1.0]), Timing([2.0]))
    (True, False)
    """
    return a.fastest <= b.slowest and b.fastest <= a.slowest


def break_even(timings: dict[str, Timing]) -> float:
    """The break-even call count of one size, from the medians of ``benchmark_size``'s timings.

    >>> break_even({"jit cold": Timing([0.5]), "jit warm": Timing([0.25]), "jnp": Timing([0.375])})
    2
    """
    return break_even_calls(timings["jit cold"].median, timings["jit warm"].median, timings["jnp"].median)


def calls_text(calls: float) -> str:
    """A break-even call count for a table or a plot: a number, or 'never'.

    >>> calls_text(12), calls_text(math.inf)
    ('12', 'never')
    """
    return "never" if math.isinf(calls) else f"{calls:,}"


def payoff_table(results: dict[int, dict[str, Timing]]) -> str:
    """A plain-text table: median milliseconds, what compiling costs and each call saves, and the break-even.

    >>> row = {"jnp": Timing([0.003]), "jit cold": Timing([0.011]), "jit warm": Timing([0.001, 0.004])}
    >>> print(payoff_table({64: row}))  # doctest: +NORMALIZE_WHITESPACE
        n   jnp ms  jit cold ms  jit warm ms  cold - warm ms  jnp - warm ms  break-even calls  ranges overlap
       64    3.000       11.000        2.500           8.500          0.500                17             yes
    """
    header = (f"{'n':>5}  {'jnp ms':>7}  {'jit cold ms':>11}  {'jit warm ms':>11}  {'cold - warm ms':>14}"
              f"  {'jnp - warm ms':>13}  {'break-even calls':>16}  {'ranges overlap':>14}")
    rows = [header]
    for n, timings in results.items():
        ms = {key: timings[key].median * 1e3 for key in SHOWN}
        overlap = "yes" if ranges_overlap(timings["jnp"], timings["jit warm"]) else "no"
        rows.append(f"{n:>5}  {ms['jnp']:>7.3f}  {ms['jit cold']:>11.3f}  {ms['jit warm']:>11.3f}"
                    f"  {ms['jit cold'] - ms['jit warm']:>14.3f}  {ms['jnp'] - ms['jit warm']:>13.3f}"
                    f"  {calls_text(break_even(timings)):>16}  {overlap:>14}")
    return "\n".join(rows)


def plot_payoff(results: dict[int, dict[str, Timing]], path: str) -> None:
    """Write median time against n, with min-max bars and each size marked with its break-even call count.

    >>> import os, tempfile
    >>> row = {"jnp": Timing([0.003]), "jit cold": Timing([0.011]), "jit warm": Timing([0.001])}
    >>> path = os.path.join(tempfile.mkdtemp(), "payoff.png")
    >>> plot_payoff({64: row, 128: row}, path)
    >>> os.path.getsize(path) > 0
    True
    """
    from matplotlib.ticker import NullLocator

    fig, ax = new_figure()
    labels = {"jnp": "jnp (jit 없이 · no jit)", "jit cold": "jit 콜드 · cold", "jit warm": "jit 웜 · warm"}
    plot_medians(ax, results, SHOWN, labels=labels, dashed={"jit cold"})
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(results), [f"{n}\nN = {calls_text(break_even(t))}" for n, t in results.items()], minor=False)
    ax.xaxis.set_minor_locator(NullLocator())
    ax.margins(x=0.08)
    ax.set_xlabel("행렬 크기 n · matrix size n (n×n float32);   N: 손익분기 호출 수 · break-even calls")
    ax.set_title(f"jit의 손익분기 · jit break-even, matmul on {jax.devices()[0].device_kind} "
                 f"({jax.default_backend()})")
    ax.legend(loc="upper left")
    save(fig, path)


def main(argv: list[str] | None = None) -> dict[int, dict[str, Timing]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES),
                        help="matrix sizes n to time (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=10, help="timed runs per method (default: 10)")
    parser.add_argument("--plot", metavar="FILE", help="also write a PNG plot to FILE")
    args = parser.parse_args(argv)
    print(f"{machine()}; "
          f"median of {args.repeats} runs (jit cold: 3 fresh functions)")
    results = {n: benchmark_size(n, args.repeats) for n in args.sizes}
    print(payoff_table(results))
    write_plot(plot_payoff, args.plot, results)
    return results


if __name__ == "__main__":
    results = main()
