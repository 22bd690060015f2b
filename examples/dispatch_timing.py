"""Time-to-return against time-to-ready of one JAX operation, and the cost of converting its result to NumPy.

The exercise of the lesson "JAX as accelerated NumPy": for each size n it multiplies two n×n float32
matrices with ``jnp.dot`` and measures three things:

* ``return``: how long the call takes to hand back a ``jax.Array``. With asynchronous dispatch the
  work may still be running when it returns;
* ``ready``: how long until the result exists (the call, then ``jax.block_until_ready``): the site's
  timing method, and the time the work really takes;
* ``to numpy``: how long ``np.asarray`` takes on a result that is already ready. On an accelerator this
  copies the result from device to host memory; on the CPU backend it may hand back a view of the
  same memory, with no copy at all (the program checks which and says so).

Each figure is the median of several runs after a warm-up, with the spread (min to max).

    python examples/dispatch_timing.py --sizes 64 256 1024 --plot dispatch.png
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import new_figure, plot_medians, save, write_plot  # noqa: E402
from timing import Timing, machine, time_call  # noqa: E402

CPU_SIZES = (64, 128, 256, 512, 1024)
ACCELERATOR_SIZES = (256, 512, 1024, 2048, 4096, 8192)
MEASURES = ("return", "ready", "to numpy")


def default_sizes() -> tuple[int, ...]:
    """Small sizes on the CPU backend, larger ones on an accelerator.

    >>> default_sizes() == (CPU_SIZES if jax.default_backend() == "cpu" else ACCELERATOR_SIZES)
    True
    """
    return CPU_SIZES if jax.default_backend() == "cpu" else ACCELERATOR_SIZES


def time_to_return(call, repeats: int = 5, warmup: int = 1) -> Timing:
    """Seconds until ``call()`` returns, without waiting for its result; blocks only after reading the clock.

    >>> t = time_to_return(lambda: jnp.ones(3) * 2, repeats=3)
    >>> len(t.samples), all(s > 0 for s in t.samples)
    (3, True)
    """
    for _ in range(warmup):
        jax.block_until_ready(call())
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = call()
        samples.append(time.perf_counter() - start)
        jax.block_until_ready(out)  # let the work finish before the next call, outside the clock
    return Timing(samples)


def time_to_numpy(make, repeats: int = 5) -> Timing:
    """Seconds of ``np.asarray`` on a fresh, ready result of ``make()`` each time.

    A fresh array per run, because JAX may keep the host copy of an array and hand it back the next
    time; each result is freed outside the clock.

    >>> t = time_to_numpy(lambda: jnp.ones((4, 4)), repeats=2)
    >>> len(t.samples)
    2
    """
    samples = []
    for _ in range(repeats):
        out = jax.block_until_ready(make())
        start = time.perf_counter()
        host = np.asarray(out)
        samples.append(time.perf_counter() - start)
        del host, out
    return Timing(samples)


def numpy_view_shares_buffer(x: jax.Array) -> bool:
    """Whether ``np.asarray(x)`` points at x's own buffer (no copy) rather than at a host copy.

    On the CPU backend, where the doctests run, the device memory is host memory and no copy is made:

    >>> numpy_view_shares_buffer(jnp.arange(4.0))
    True
    """
    host = np.asarray(x)
    return host.__array_interface__["data"][0] == x.unsafe_buffer_pointer()


def benchmark_size(n: int, repeats: int = 5, seed: int = 0) -> dict[str, Timing]:
    """Time ``jnp.dot`` of two n×n float32 matrices the three ways in ``MEASURES``.

    >>> timings = benchmark_size(8, repeats=2)
    >>> sorted(timings) == sorted(MEASURES)
    True
    """
    a = jax.random.normal(jax.random.key(seed), (n, n), dtype=jnp.float32)
    b = jax.random.normal(jax.random.key(seed + 1), (n, n), dtype=jnp.float32)
    return {
        "return": time_to_return(lambda: jnp.dot(a, b), repeats),
        "ready": time_call(lambda: jnp.dot(a, b), repeats),
        "to numpy": time_to_numpy(lambda: jnp.dot(a, b), repeats),
    }


def run(sizes, repeats: int = 5) -> dict[int, dict[str, Timing]]:
    """Benchmark every size; returns ``{n: {measure: Timing}}``."""
    return {n: benchmark_size(n, repeats) for n in sizes}


def format_table(results: dict[int, dict[str, Timing]], copies: bool = True) -> str:
    """A plain-text table of median milliseconds, the ready/return ratio, and the conversion's GB/s.

    The GB/s column is left blank (``-``) when ``np.asarray`` made no copy: then it measures no transfer.

    >>> fake = {64: {"return": Timing([0.001]), "ready": Timing([0.004]), "to numpy": Timing([0.002])}}
    >>> print(format_table(fake))  # doctest: +NORMALIZE_WHITESPACE
        n  return ms  ready ms  ready / return  to numpy ms  to numpy GB/s
       64     1.0000    4.0000            4.00       2.0000           0.01
    >>> print(format_table(fake, copies=False).splitlines()[1])  # doctest: +NORMALIZE_WHITESPACE
       64     1.0000    4.0000            4.00       2.0000              -
    """
    header = f"{'n':>5}  {'return ms':>9}  {'ready ms':>8}  {'ready / return':>14}  {'to numpy ms':>11}" \
             f"  {'to numpy GB/s':>13}"
    rows = [header]
    for n, timings in results.items():
        ms = {m: timings[m].median * 1e3 for m in MEASURES}
        ratio = timings["ready"].median / timings["return"].median
        gbps = f"{n * n * 4 / timings['to numpy'].median / 1e9:.2f}" if copies else "-"
        rows.append(f"{n:>5}  {ms['return']:>9.4f}  {ms['ready']:>8.4f}  {ratio:>14.2f}  {ms['to numpy']:>11.4f}"
                    f"  {gbps:>13}")
    return "\n".join(rows)


def plot(results: dict[int, dict[str, Timing]], path: str) -> None:
    """Write a log-log plot of median time against n, with min-max bars, labelled in both languages."""
    labels = {"return": "반환까지 · time to return", "ready": "준비까지 · time to ready",
              "to numpy": "NumPy 변환 · to NumPy"}
    fig, ax = new_figure()
    plot_medians(ax, results, MEASURES, labels)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("행렬 크기 n · matrix size n (n×n float32, jnp.dot)")
    ax.set_title(f"비동기 디스패치 · asynchronous dispatch on {jax.devices()[0].device_kind} "
                 f"({jax.default_backend()})")
    ax.legend()
    save(fig, path)


def main(argv: list[str] | None = None) -> dict[int, dict[str, Timing]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+",
                        help=f"matrix sizes n to time (default: {list(CPU_SIZES)} on CPU, "
                             f"{list(ACCELERATOR_SIZES)} on an accelerator)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per measure (default: 5)")
    parser.add_argument("--plot", metavar="FILE", help="also write a PNG plot to FILE")
    args = parser.parse_args(argv)
    sizes = args.sizes or list(default_sizes())
    copies = not numpy_view_shares_buffer(jnp.ones((4, 4)))
    print(f"{machine()}; "
          f"median of {args.repeats} runs; np.asarray {'copies to host' if copies else 'makes a view, no copy'}")
    results = run(sizes, args.repeats)
    print(format_table(results, copies))
    write_plot(plot, args.plot, results)
    return results


if __name__ == "__main__":
    results = main()
