"""Time-to-return against time-to-ready of one JAX operation, and the cost of converting its result to NumPy.

The exercise of the lesson "Host and device": for each size n it multiplies two n×n
float32 matrices with ``jnp.dot`` and measures three things:

* ``return``: how long the call takes to hand back a ``jax.Array``. With asynchronous dispatch the
  work may still be running when it returns. It is clocked inside the call, around the call alone;
  the work is then waited for off this clock, so it never spills into the next measurement;
* ``ready``: how long until the result exists (the call, then ``jax.block_until_ready``): the site's
  timing method, and the time the work really takes;
* ``to numpy``: how long ``np.asarray`` takes on a result that is already ready, clocked around the
  conversion alone. On an accelerator this copies the result from device to host memory; on the CPU
  backend it may hand back a view of the same memory, with no copy at all (the program checks which
  and says so).

Every measure of every size is measured together, interleaved, by ``timing.compare``: a machine that
drifts during the run hits them all alike, so sizes and measures may be set side by side. Each figure
is the median of the rounds with its spread (fastest to slowest), and whether "ready" and "return"
separate is decided by ``Comparison.verdict`` under the site's rule (``timing.py``).

    python examples/dispatch_timing.py --sizes 64 256 1024 --plot dispatch.png

writes dispatch.ko.png and dispatch.en.png: the same measurements, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, new_figure, plot_medians, save, say, write_plot  # noqa: E402
from timing import Comparison, Timing, compare, machine, ratio_text  # noqa: E402

CPU_SIZES = (64, 128, 256, 512, 1024)
ACCELERATOR_SIZES = (256, 512, 1024, 2048, 4096, 8192)
MEASURES = ("return", "ready", "to numpy")


def default_sizes() -> tuple[int, ...]:
    """Small sizes on the CPU backend, larger ones on an accelerator.

    >>> default_sizes() == (CPU_SIZES if jax.default_backend() == "cpu" else ACCELERATOR_SIZES)
    True
    """
    return CPU_SIZES if jax.default_backend() == "cpu" else ACCELERATOR_SIZES


def name(measure: str, n: int) -> str:
    """The name of one measure at one size in the comparison.

    >>> name("ready", 64)
    'ready n=64'
    """
    return f"{measure} n={n}"


def returned_call(call, log: list) -> Callable:
    """A call for ``compare`` that clocks ``call()`` only until it returns, into ``log``.

    ``compare`` then waits for the result, off this clock, before it runs anything else.

    >>> log = []
    >>> out = returned_call(lambda: jnp.ones(3) * 2, log)()
    >>> len(log), float(out[0])
    (1, 2.0)
    """
    def timed():
        start = time.perf_counter()
        out = call()
        log.append(time.perf_counter() - start)
        return out
    return timed


def conversion_call(make, log: list) -> Callable:
    """A call for ``compare`` that makes a fresh result with ``make()``, waits for it, and clocks
    ``np.asarray`` on it alone, into ``log``.

    A fresh array every time, because JAX keeps the host copy of an array it converted and hands it
    back the next time.

    >>> log = []
    >>> host = conversion_call(lambda: jnp.ones((4, 4)), log)()
    >>> len(log), type(host).__name__
    (1, 'ndarray')
    """
    def timed():
        out = jax.block_until_ready(make())
        start = time.perf_counter()
        host = np.asarray(out)
        log.append(time.perf_counter() - start)
        return host
    return timed


def run(sizes, rounds: int = 9, seed: int = 0) -> Comparison:
    """Measure every measure of every size together, in ``rounds`` interleaved rounds.

    Returns one ``Comparison`` whose variants are named by ``name(measure, n)``; for ``return`` and
    ``to numpy`` its samples are the clocks inside the calls (their warm-ups left out).

    ``compare`` shuffles the order of the variants afresh each round, so no small size's call always
    follows the largest matrix product (which leaves the machine busy, caches and threads, for a
    moment): which call follows which varies from round to round, and the medians see through it.

    >>> c = run([8, 16], rounds=6)
    >>> sorted(c.samples) == sorted(name(m, n) for m in MEASURES for n in (8, 16)), c.rounds
    (True, 6)
    """
    calls, inner = {}, {}
    for n in sorted(sizes, reverse=True):
        a = jax.random.normal(jax.random.key(seed), (n, n), dtype=jnp.float32)
        b = jax.random.normal(jax.random.key(seed + 1), (n, n), dtype=jnp.float32)

        def dot(a=a, b=b):
            return jnp.dot(a, b)

        inner[name("return", n)], inner[name("to numpy", n)] = [], []
        calls[name("return", n)] = returned_call(dot, inner[name("return", n)])
        calls[name("ready", n)] = dot
        calls[name("to numpy", n)] = conversion_call(dot, inner[name("to numpy", n)])
    measured = compare(calls, rounds=rounds)
    return Comparison({variant: inner[variant][-rounds:] if variant in inner else samples
                       for variant, samples in measured.samples.items()})


def by_size(comparison: Comparison, sizes) -> dict[int, dict[str, Timing]]:
    """``{n: {measure: Timing}}``, for tables and plots.

    >>> c = Comparison({name(m, 8): [0.001] * 6 for m in MEASURES})
    >>> by_size(c, [8])[8]["ready"].median
    0.001
    """
    return {n: {m: comparison.timing(name(m, n)) for m in MEASURES} for n in sizes}


def ready_against_return(comparison: Comparison, n: int) -> str:
    """How "ready" compared with "return" at size n, under the site's rule, in a few words.

    >>> c = Comparison({name("ready", 8): [4.0, 4.1, 3.9, 4.0, 4.2, 4.0], name("return", 8): [1.0] * 6})
    >>> ready_against_return(c, 8)
    '4.00× slower'
    >>> same = Comparison({name("ready", 8): [1, 2, 1, 2, 1, 2], name("return", 8): [2, 1, 2, 1, 2, 1]})
    >>> ready_against_return(same, 8)
    'same (ratio 1.25)'
    """
    verdict = comparison.verdict(name("ready", n), name("return", n))
    if verdict.outcome == "same":
        return f"same (ratio {ratio_text(verdict.factor)})"
    return f"{ratio_text(verdict.factor)}× {verdict.outcome}"


def format_table(comparison: Comparison, sizes, copies: bool = True) -> str:
    """A plain-text table: each measure's median and spread (ms), how "ready" compared with "return",
    and the conversion's GB/s.

    The GB/s column is left blank (``-``) when ``np.asarray`` made no copy: then it measures no transfer.

    >>> fake = Comparison({name("return", 64): [0.001] * 6, name("ready", 64): [0.004] * 6,
    ...                    name("to numpy", 64): [0.002] * 6})
    >>> print(format_table(fake, [64]))  # doctest: +NORMALIZE_WHITESPACE
        n  return                     ready                      ready vs return    to numpy                     GB/s
       64  1.00 ms (1.00–1.00)        4.00 ms (4.00–4.00)        4.00× slower       2.00 ms (2.00–2.00)          0.00819
    >>> print(format_table(fake, [64], copies=False).splitlines()[1])  # doctest: +NORMALIZE_WHITESPACE
       64  1.00 ms (1.00–1.00)        4.00 ms (4.00–4.00)        4.00× slower       2.00 ms (2.00–2.00)          -
    """
    rows = [f"{'n':>5}  {'return':<26} {'ready':<26} {'ready vs return':<18} {'to numpy':<28} GB/s"]
    for n, timings in by_size(comparison, sizes).items():
        gbps = ratio_text(n * n * 4 / timings["to numpy"].median / 1e9) if copies else "-"
        rows.append(f"{n:>5}  {timings['return']!s:<26} {timings['ready']!s:<26} "
                    f"{ready_against_return(comparison, n):<18} {timings['to numpy']!s:<28} {gbps}")
    return "\n".join(rows)


def plot(results: dict[int, dict[str, Timing]], path: str, language: str = "en") -> None:
    """Write a log-log plot of median time against n, with min-max bars, labelled in ``language``."""
    labels = {"return": say(language, "반환까지", "time to return"),
              "ready": say(language, "준비까지", "time to ready"),
              "to numpy": say(language, "NumPy 변환", "to NumPy")}
    fig, ax = new_figure()
    plot_medians(ax, results, MEASURES, labels, language=language)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(say(language, "행렬 크기 n (n×n float32, jnp.dot)", "matrix size n (n×n float32, jnp.dot)"))
    kind, backend = jax.devices()[0].device_kind, jax.default_backend().upper()
    where = backend if kind.upper() == backend else f"{kind} ({backend})"
    ax.set_title(say(language, f"비동기 디스패치, {where}", f"asynchronous dispatch on {where}"))
    ax.legend()
    save(fig, path)


def numpy_view_shares_buffer(x: jax.Array) -> bool:
    """Whether ``np.asarray(x)`` points at x's own buffer (no copy) rather than at a host copy.

    On the CPU backend, where the doctests run, the device memory is host memory and no copy is made:

    >>> numpy_view_shares_buffer(jnp.arange(4.0))
    True
    """
    host = np.asarray(x)
    return host.__array_interface__["data"][0] == x.unsafe_buffer_pointer()


def main(argv: list[str] | None = None) -> Comparison:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+",
                        help=f"matrix sizes n to time (default: {list(CPU_SIZES)} on CPU, "
                             f"{list(ACCELERATOR_SIZES)} on an accelerator)")
    parser.add_argument("--rounds", type=int, default=9,
                        help="interleaved rounds, each timing every measure of every size once (default: 9)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    sizes = args.sizes or list(default_sizes())
    copies = not numpy_view_shares_buffer(jnp.ones((4, 4)))
    print(f"{machine()}; {args.rounds} interleaved rounds, median (fastest–slowest); "
          f"np.asarray {'copies to host' if copies else 'makes a view, no copy'}")
    comparison = run(sizes, args.rounds)
    print(format_table(comparison, sizes, copies))
    write_plot(plot, args.plot, by_size(comparison, sizes))
    return comparison


if __name__ == "__main__":
    comparison = main()
