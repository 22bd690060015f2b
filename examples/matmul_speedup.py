"""Matrix multiplication in NumPy, in jax.numpy without jit, and under jax.jit (cold and warm).

The exercise of the lesson "NumPy on accelerators, and XLA": for each size n it times an n×n
float32 matmul four ways and prints a table:

* ``numpy``: NumPy on the CPU;
* ``jnp``: ``jnp.matmul`` called directly (JAX dispatches the one operation on its own);
* ``jit cold``: the first call of a freshly jitted function (tracing + compiling + running);
* ``jit warm``: later calls, which reuse the compiled program.

Every timing blocks on the result before reading the clock (``block_until_ready``), is repeated
after a warm-up, and is reported as the median with the spread (min to max) of the runs.

    python examples/matmul_speedup.py --sizes 64 256 1024 2048 --plot matmul.png
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

DEFAULT_SIZES = (64, 128, 256, 512, 1024, 2048)
METHODS = ("numpy", "jnp", "jit cold", "jit warm")


def matmul_flops(n: int) -> int:
    """Floating-point operations of an n×n by n×n matrix product (a multiply and an add each).

    >>> matmul_flops(2)
    16
    """
    return 2 * n**3


def benchmark_size(n: int, repeats: int = 5, seed: int = 0) -> dict[str, Timing]:
    """Time one n×n float32 matmul the four ways in ``METHODS``.

    >>> timings = benchmark_size(8, repeats=2)
    >>> sorted(timings) == sorted(METHODS)
    True
    """
    rng = np.random.default_rng(seed)
    a_np = rng.standard_normal((n, n), dtype=np.float32)
    b_np = rng.standard_normal((n, n), dtype=np.float32)
    a, b = jnp.asarray(a_np), jnp.asarray(b_np)
    matmul = jax.jit(jnp.matmul)
    return {
        "numpy": time_call(lambda: a_np @ b_np, repeats),
        "jnp": time_call(lambda: jnp.matmul(a, b), repeats),
        "jit cold": time_cold_jit(jnp.matmul, a, b),
        "jit warm": time_call(lambda: matmul(a, b), repeats),
    }


def run(sizes, repeats: int = 5) -> dict[int, dict[str, Timing]]:
    """Benchmark every size; returns ``{n: {method: Timing}}``."""
    return {n: benchmark_size(n, repeats) for n in sizes}


def format_table(results: dict[int, dict[str, Timing]]) -> str:
    """A plain-text table: median milliseconds per method, warm-jit GFLOP/s, speed-up over NumPy.

    >>> print(format_table({64: {m: Timing([0.001, 0.002]) for m in METHODS}}))  # doctest: +NORMALIZE_WHITESPACE
        n  numpy ms  jnp ms  jit cold ms  jit warm ms  jit warm GFLOP/s  numpy / jit warm
       64     1.500   1.500        1.500        1.500               0.3              1.00
    """
    header = f"{'n':>5}  {'numpy ms':>8}  {'jnp ms':>6}  {'jit cold ms':>11}  {'jit warm ms':>11}" \
             f"  {'jit warm GFLOP/s':>16}  {'numpy / jit warm':>16}"
    rows = [header]
    for n, timings in results.items():
        ms = {m: timings[m].median * 1e3 for m in METHODS}
        gflops = matmul_flops(n) / timings["jit warm"].median / 1e9
        speedup = timings["numpy"].median / timings["jit warm"].median
        rows.append(f"{n:>5}  {ms['numpy']:>8.3f}  {ms['jnp']:>6.3f}  {ms['jit cold']:>11.3f}"
                    f"  {ms['jit warm']:>11.3f}  {gflops:>16.1f}  {speedup:>16.2f}")
    return "\n".join(rows)


def plot(results: dict[int, dict[str, Timing]], path: str) -> None:
    """Write a log-log plot of median time against n, with min-max bars, labelled in both languages."""
    fig, ax = new_figure()
    plot_medians(ax, results, METHODS, dashed={"jit cold"})
    ax.set_xscale("log", base=2)
    ax.set_xlabel("행렬 크기 n · matrix size n (n×n float32)")
    ax.set_title(f"행렬 곱 · matmul on {device()}")
    ax.legend()
    save(fig, path)


def main(argv: list[str] | None = None) -> dict[int, dict[str, Timing]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES),
                        help="matrix sizes n to time (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per method (default: 5)")
    parser.add_argument("--plot", metavar="FILE", help="also write a PNG plot to FILE")
    args = parser.parse_args(argv)
    print(f"{machine()}; "
          f"median of {args.repeats} runs (jit cold: 3 fresh functions)")
    results = run(args.sizes, args.repeats)
    print(format_table(results))
    write_plot(plot, args.plot, results)
    return results


if __name__ == "__main__":
    results = main()
