"""After how many calls does jax.jit pay for its compilation? The break-even call count of a matmul.

The exercise of the lesson "Timing JAX correctly": for each size n it measures an n×n float32
matmul three ways, together, with ``compare`` from ``timing.py`` (interleaved rounds after a
warm-up): ``jnp.matmul`` called directly; a jitted matmul cold (a freshly jitted function in every
round: tracing, compiling and running); and warm (one jitted function, compiled once). In each round,

* N calls through jit cost ``cold + (N - 1) * warm``;
* N calls of jnp cost ``N * jnp``;

so jit has paid off after the smallest N with ``cold + (N - 1) * warm <= N * jnp``, that is
``N >= (cold - warm) / (jnp - warm)``: what the first call costs extra, divided by what each later
call saves. Both are taken as medians over the rounds of the paired differences.

That count means something only where warm jit and jnp separate under the site's rule
(``Comparison.verdict`` in ``timing.py``). Where warm jit came out the faster of the two, the program
gives the count; where it came out the slower, jit never pays off; where the two did not separate,
what a call saves is lost in the noise and there is no count to give.

    python examples/jit_payoff.py --sizes 64 256 1024 2048 --plot jit_payoff.png

writes jit_payoff.ko.png and jit_payoff.en.png: the same measurements, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, legend_below, new_figure, plot_medians, save, say, write_plot  # noqa: E402
from timing import Comparison, compare, device, machine, ratio_text  # noqa: E402

DEFAULT_SIZES = (64, 256, 1024, 2048)
SHOWN = ("jnp", "jit cold", "jit warm")


def measure(n: int, rounds: int = 9, seed: int = 0) -> Comparison:
    """Time an n×n float32 matmul through ``jnp``, jit cold and jit warm, interleaved in ``rounds``.

    >>> c = measure(8, rounds=6)
    >>> sorted(c.samples) == sorted(SHOWN), c.rounds
    (True, 6)
    """
    rng = np.random.default_rng(seed)
    a = jnp.asarray(rng.standard_normal((n, n), dtype=np.float32))
    b = jnp.asarray(rng.standard_normal((n, n), dtype=np.float32))
    matmul = jax.jit(jnp.matmul)
    return compare({
        "jnp": lambda: jnp.matmul(a, b),
        "jit cold": lambda: jax.jit(lambda p, q: jnp.matmul(p, q))(a, b),  # a new function: compiles
        "jit warm": lambda: matmul(a, b),
    }, rounds=rounds)


def break_even_calls(extra: float, saved: float) -> float:
    """Smallest number of calls N after which jit costs no more than jnp: ``extra`` seconds paid once
    by the first call (cold − warm), ``saved`` seconds saved by every call (jnp − warm).

    >>> break_even_calls(extra=0.25, saved=0.125)  # 0.25 s extra once, 0.125 s saved per call
    2
    >>> break_even_calls(extra=-0.01, saved=0.25)  # nothing to pay back: the first call already wins
    1
    >>> break_even_calls(extra=0.25, saved=0.0)
    inf
    """
    if saved <= 0:
        return math.inf
    return max(1, math.ceil(extra / saved - 1e-9))  # 1e-9: so that 2.0000000000000004 counts as 2


def paired_median(c: Comparison, a: str, b: str) -> float:
    """The median over the rounds of (time of ``a`` − time of ``b``), in seconds.

    >>> paired_median(Comparison({"x": [3.0, 5.0, 4.0], "y": [1.0, 1.0, 3.0]}), "x", "y")
    2.0
    """
    return statistics.median(x - y for x, y in zip(c.samples[a], c.samples[b], strict=True))


def break_even(c: Comparison) -> float | None:
    """The break-even call count of one size: a number, ``math.inf`` (never) where warm jit was the
    slower under the rule, or ``None`` where warm jit and jnp did not separate.

    >>> rounds = {"jit cold": [0.5] * 7, "jit warm": [0.25] * 7, "jnp": [0.375, 0.4, 0.375, 0.35, 0.375, 0.375, 0.4]}
    >>> break_even(Comparison(rounds))
    2
    >>> break_even(Comparison({**rounds, "jnp": [0.2] * 7}))
    inf
    >>> break_even(Comparison({**rounds, "jnp": [0.2, 0.3] * 3 + [0.25]})) is None
    True
    """
    outcome = c.verdict("jit warm", "jnp").outcome
    if outcome == "same":
        return None
    if outcome == "slower":
        return math.inf
    return break_even_calls(paired_median(c, "jit cold", "jit warm"), paired_median(c, "jnp", "jit warm"))


def calls_text(calls: float | None) -> str:
    """A break-even call count for a table or a plot: a number, 'never', or '-' (not separated).

    >>> calls_text(1234), calls_text(math.inf), calls_text(None)
    ('1,234', 'never', '-')
    """
    return "-" if calls is None else "never" if math.isinf(calls) else f"{calls:,}"


def payoff_table(results: dict[int, Comparison]) -> str:
    """A plain-text table: each way's median and spread in ms; warm jit against jnp under the rule
    (the median of the ratios of their times, its 95% interval, the outcome); the break-even count.

    >>> rounds = {"jnp": [0.003] * 7, "jit cold": [0.011] * 7, "jit warm": [0.001, 0.002] * 3 + [0.001]}
    >>> print(payoff_table({64: Comparison(rounds)}))
       n  jnp ms               jit cold ms          jit warm ms          warm/jnp  interval     outcome  break-even
      64  3.00 ms (3.00–3.00)  11.0 ms (11.0–11.0)  1.00 ms (1.00–2.00)     0.333  0.333–0.667  faster            5
    """
    header = ["n", *(f"{key} ms" for key in SHOWN), "warm/jnp", "interval", "outcome", "break-even"]
    right = {0, 4, 7}  # columns of single numbers, aligned right
    rows = [header]
    for n, c in results.items():
        verdict = c.verdict("jit warm", "jnp")
        low, high = verdict.interval
        rows.append([str(n), *(str(c.timing(key)) for key in SHOWN),
                     ratio_text(statistics.median(c.ratios("jit warm", "jnp"))),
                     f"{ratio_text(low)}–{ratio_text(high)}", verdict.outcome, calls_text(break_even(c))])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return "\n".join("  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                               for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
                     for row in rows)


def plot_payoff(results: dict[int, Comparison], path: str, language: str = "en") -> None:
    """Write median time against n, with fastest-slowest bars, each size marked with its break-even
    count, labelled in ``language``.

    >>> import os, tempfile
    >>> c = Comparison({"jnp": [0.003] * 6, "jit cold": [0.011] * 6, "jit warm": [0.001] * 6})
    >>> path = os.path.join(tempfile.mkdtemp(), "payoff.png")
    >>> plot_payoff({64: c, 128: c}, path, "ko")
    >>> os.path.getsize(path) > 0
    True
    """
    from matplotlib.ticker import NullLocator

    fig, ax = new_figure()
    labels = {"jnp": say(language, "jnp (jit 없이)", "jnp (no jit)"),
              "jit cold": say(language, "jit 콜드", "jit cold"), "jit warm": say(language, "jit 웜", "jit warm")}
    timings = {n: {key: c.timing(key) for key in SHOWN} for n, c in results.items()}
    plot_medians(ax, timings, SHOWN, labels=labels, dashed={"jit cold"}, language=language)
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(results), [f"{n}\nN = {calls_text(break_even(c))}" for n, c in results.items()], minor=False)
    ax.xaxis.set_minor_locator(NullLocator())
    ax.margins(x=0.08)
    ax.set_xlabel(say(language, "행렬 크기 n (n×n float32)\nN: 손익분기 호출 수 (-: 가려지지 않음)",
                      "matrix size n (n×n float32)\nN: break-even calls (-: not separated)"))
    ax.set_title(say(language, f"jit의 손익분기, {device()}의 행렬 곱", f"jit break-even, matmul on {device()}"))
    legend_below(fig, ax, columns=3)   # under the axes: inside, it hid the cold call's point on a GPU
    save(fig, path)


def main(argv: list[str] | None = None) -> dict[int, Comparison]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES),
                        help="matrix sizes n to time (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=9,
                        help="interleaved rounds per size, at least 6 (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    print(f"{machine()}; {args.rounds} interleaved rounds per size (jit cold: a fresh function each round); "
          "median (fastest–slowest)")
    results = {n: measure(n, args.rounds) for n in args.sizes}
    print(payoff_table(results))
    write_plot(plot_payoff, args.plot, results)
    return results


if __name__ == "__main__":
    results = main()
