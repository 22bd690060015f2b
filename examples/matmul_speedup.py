"""Matrix multiplication in NumPy, in jax.numpy without jit, and under jax.jit (cold and warm).

The exercise of the lesson "XLA and operator fusion": for each size n it times an n×n float32
matmul four ways and prints a table:

* ``numpy``: NumPy on the CPU;
* ``jnp``: ``jnp.matmul`` called directly (JAX dispatches the one operation on its own);
* ``jit cold``: the first call of a freshly jitted function (tracing + compiling + running);
* ``jit warm``: later calls of one jitted function, which reuse the compiled program.

The four are measured together, interleaved, with ``timing.compare``: after a warm-up call each,
every round runs each of them once, in a rotating order, so that a machine that slows down or
speeds up during the measurement hits them all alike (every ``jit cold`` call jits a new function,
so each is a first call). Every call blocks on its result before the clock is read. The table
shows each one's median with its spread (fastest to slowest), and says under the site's rule
(``timing.py``) whether the warm jit call and NumPy separated at that size, and which was faster.

On an NVIDIA GPU with TF32 (A100, H100), JAX's default precision lets XLA compute these float32
products in TF32, while NumPy computes in float32: ``--precision highest`` runs JAX's three in
float32 throughout (``jax.default_matmul_precision``).

    python examples/matmul_speedup.py --sizes 64 256 1024 2048 --plot matmul.png

writes matmul.ko.png and matmul.en.png: the same measurements, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, new_figure, plot_medians, save, say, write_plot  # noqa: E402
from timing import MIN_ROUNDS, Comparison, Timing, compare, device, machine  # noqa: E402

DEFAULT_SIZES = (64, 128, 256, 512, 1024, 2048)
METHODS = ("numpy", "jnp", "jit cold", "jit warm")
LABELS = {"jit warm": {"ko": "jit 웜 호출", "en": "the warm jit call"},
          "numpy": {"ko": "NumPy 코드", "en": "NumPy"}}


def matmul_flops(n: int) -> int:
    """Floating-point operations of an n×n by n×n matrix product (a multiply and an add each).

    >>> matmul_flops(2)
    16
    """
    return 2 * n**3


class SizeTimings(dict):
    """``{method: Timing}`` of one size, and, as ``comparison``, the one interleaved measurement they
    come from (``comparison.verdict("jit warm", "numpy")`` says whether the two separated).

    >>> c = Comparison({m: [0.001, 0.002, 0.001, 0.002, 0.001, 0.002] for m in METHODS})
    >>> timings = SizeTimings(c)
    >>> timings["numpy"].median, timings.comparison is c
    (0.0015, True)
    """

    def __init__(self, comparison: Comparison):
        super().__init__((method, comparison.timing(method)) for method in METHODS)
        self.comparison = comparison


def benchmark_size(n: int, repeats: int = 9, seed: int = 0) -> dict[str, Timing]:
    """Time one n×n float32 matmul the four ways in ``METHODS``, interleaved, in ``repeats`` rounds
    (at least ``MIN_ROUNDS``, the fewest with which two variants can separate).

    >>> timings = benchmark_size(8, repeats=2)
    >>> sorted(timings) == sorted(METHODS), len(timings["numpy"].samples)
    (True, 6)
    >>> timings.comparison.verdict("jit warm", "numpy").outcome in ("faster", "slower", "same")
    True
    """
    rng = np.random.default_rng(seed)
    a_np = rng.standard_normal((n, n), dtype=np.float32)
    b_np = rng.standard_normal((n, n), dtype=np.float32)
    a, b = jnp.asarray(a_np), jnp.asarray(b_np)
    matmul = jax.jit(jnp.matmul)
    comparison = compare({
        "numpy": lambda: a_np @ b_np,
        "jnp": lambda: jnp.matmul(a, b),
        "jit cold": lambda: jax.jit(lambda p, q: jnp.matmul(p, q))(a, b),  # a new function: compiled anew
        "jit warm": lambda: matmul(a, b),
    }, rounds=max(repeats, MIN_ROUNDS))
    return SizeTimings(comparison)


def run(sizes, repeats: int = 9) -> dict[int, dict[str, Timing]]:
    """Benchmark every size; returns ``{n: {method: Timing}}`` (each a ``SizeTimings``)."""
    return {n: benchmark_size(n, repeats) for n in sizes}


def verdict_text(timings: dict[str, Timing]) -> str:
    """How the warm jit call compared with NumPy at one size, as the site's rule words it.

    >>> c = Comparison({"numpy": [2.0, 2.1, 2.2, 1.9, 2.4, 2.0, 2.2], "jnp": [1.0] * 7,
    ...                 "jit cold": [9.0] * 7, "jit warm": [1.0, 1.1, 0.9, 1.0, 1.2, 1.0, 1.1]})
    >>> print(verdict_text(SizeTimings(c)).split(" (")[0])
    the warm jit call was 2.00× faster than NumPy
    """
    return timings.comparison.sentences("jit warm", "numpy", LABELS)["en"]


def format_table(results: dict[int, dict[str, Timing]]) -> str:
    """A plain-text table: per size, each method's median and spread in milliseconds, the FLOP/s of
    the warm calls, and how the warm jit call compared with NumPy.

    >>> c = Comparison({"numpy": [0.002] * 6, "jnp": [0.001] * 6, "jit cold": [0.01] * 6, "jit warm": [0.001] * 6})
    >>> print(format_table({64: SizeTimings(c)}).split(" (median")[0])  # doctest: +NORMALIZE_WHITESPACE
        n  method     ms: median (fastest–slowest)   GFLOP/s
       64  numpy      2.00 ms (2.00–2.00)                0.3
           jnp        1.00 ms (1.00–1.00)                0.5
           jit cold   10.0 ms (10.0–10.0)
           jit warm   1.00 ms (1.00–1.00)                0.5
           the warm jit call was 2.00× faster than NumPy
    """
    rows = [f"{'n':>5}  {'method':<9}  {'ms: median (fastest–slowest)':<30} {'GFLOP/s':>8}"]
    for n, timings in results.items():
        for i, method in enumerate(METHODS):
            rate = "" if method == "jit cold" else f"{matmul_flops(n) / timings[method].median / 1e9:,.1f}"
            rows.append(f"{n if i == 0 else '':>5}  {method:<9}  {str(timings[method]):<30} {rate:>8}")
        if hasattr(timings, "comparison"):
            rows.append(f"{'':>5}  {verdict_text(timings)}")
    return "\n".join(rows)


def plot(results: dict[int, dict[str, Timing]], path: str, language: str = "en") -> None:
    """Write a log-log plot of median time against n, with min-max bars, labelled in ``language``."""
    fig, ax = new_figure()
    labels = {"numpy": "NumPy", "jnp": say(language, "jnp (jit 없이)", "jnp (no jit)"),
              "jit cold": say(language, "jit 콜드", "jit cold"), "jit warm": say(language, "jit 웜", "jit warm")}
    plot_medians(ax, results, METHODS, labels=labels, dashed={"jit cold"}, language=language)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(say(language, "행렬 크기 n (n×n float32)", "matrix size n (n×n float32)"))
    ax.set_title(say(language, f"행렬 곱, {device()}", f"matmul on {device()}"))
    ax.legend()
    save(fig, path)


def main(argv: list[str] | None = None) -> dict[int, dict[str, Timing]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES),
                        help="matrix sizes n to time (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=9,
                        help=f"interleaved rounds per size, at least {MIN_ROUNDS} (default: 9)")
    parser.add_argument("--precision", choices=("default", "highest"), default="default",
                        help="JAX's matmul precision: 'highest' keeps float32 products in float32 on a GPU "
                             "with TF32 (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    rounds = max(args.repeats, MIN_ROUNDS)
    print(f"{machine()}; JAX matmul precision {args.precision}; "
          f"{rounds} interleaved rounds per size after a warm-up (jit cold: a new function every call)")
    highest = jax.default_matmul_precision("highest") if args.precision == "highest" else contextlib.nullcontext()
    with highest:
        results = run(args.sizes, rounds)
    print(format_table(results))
    write_plot(plot, args.plot, results)
    return results


if __name__ == "__main__":
    results = main()
