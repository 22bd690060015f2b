"""Streams of random numbers from split keys: how correlated they are, and how fast they come.

The experiment of the lesson "Random numbers", in two parts.

**Correlations.** ``--streams`` keys each give a stream of ``--length`` standard
normal numbers (``jax.random.normal``, one stream per key, under ``jax.vmap``), the keys made three ways:

* ``split``: ``jax.random.split(key, N)``, the way the lesson teaches (with the default
  ``jax_threefry_partitionable=True`` these are the keys ``jax.random.fold_in(key, i)``, i < N);
* ``seeds``: ``jax.random.key(i)``, consecutive seeds;
* ``reused``: a negative control in which streams 2i and 2i + 1 share one key (the bug).

The program computes the correlation r of every pair of streams. For two independent streams of n
normal numbers, r is close to normal with mean 0 and standard deviation 1/sqrt(n), so sqrt(n)·r
should look like a standard normal number: its spread over all pairs near 1, and its largest size
over the M pairs below the bound z that a union bound sets, P(any |sqrt(n)·r| > z) ≤ M·P(|Z| > z)
= ``FALSE_ALARM``. A method passes when its largest |r| is below z/sqrt(n); independent streams
fail by chance with probability at most ``FALSE_ALARM``, while the reused keys fail with r = 1.

**Throughput.** float32 standard normal numbers per second from a jitted ``jax.random.normal`` with a
key of each implementation (``threefry2x32``, the default; ``rbg``; ``unsafe_rbg``) on the default
device, and from NumPy's ``np.random.default_rng().standard_normal`` on the CPU, all measured
interleaved in one ``timing.compare``.

    python examples/random_streams.py --streams 64 --length 10000 --plot random_streams.png

writes random_streams.ko.png and random_streams.en.png: the histogram of sqrt(n)·r for split keys,
labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
from functools import partial
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import Comparison, compare, device, machine, ratio_text  # noqa: E402

METHODS = ("split", "seeds", "reused")
IMPLS = ("threefry2x32", "rbg", "unsafe_rbg")
NUMPY = "numpy"
FALSE_ALARM = 1e-6  # chance that independent streams fail the bound (a union bound over all pairs)


def stream_keys(method: str, n_streams: int, seed: int = 0) -> jax.Array:
    """``n_streams`` typed keys made the way ``method`` (one of ``METHODS``) says.

    >>> keys = stream_keys("split", 4)
    >>> keys.shape, str(keys.dtype)
    ((4,), 'key<fry>')
    >>> data = jax.random.key_data(stream_keys("reused", 4))
    >>> bool((data[0] == data[1]).all()), bool((data[0] == data[2]).all())
    (True, False)
    """
    key = jax.random.key(seed)
    if method == "split":
        return jax.random.split(key, n_streams)
    if method == "seeds":
        return jax.vmap(jax.random.key)(jnp.arange(seed, seed + n_streams))
    if method == "reused":
        return jnp.repeat(jax.random.split(key, (n_streams + 1) // 2), 2)[:n_streams]
    raise ValueError(f"method must be one of {METHODS}, not {method!r}")


@partial(jax.jit, static_argnums=1)
def streams(keys: jax.Array, length: int) -> jax.Array:
    """One stream of ``length`` standard normal float32 numbers per key: shape (len(keys), length).

    >>> s = streams(stream_keys("split", 3), 5)
    >>> s.shape, bool((s[0] != s[1]).any())
    ((3, 5), True)
    """
    return jax.vmap(lambda key: jax.random.normal(key, (length,)))(keys)


def pair_correlations(samples) -> np.ndarray:
    """The correlation of every pair of rows of ``samples`` (the upper triangle of the matrix).

    >>> pair_correlations(np.array([[1.0, 2, 3], [2.0, 4, 6], [3.0, 2, 1]])).round(6).tolist()
    [1.0, -1.0, -1.0]
    """
    matrix = np.corrcoef(np.asarray(samples, dtype=np.float64))
    return matrix[np.triu_indices(len(matrix), k=1)]


def union_bound(n_pairs: int, false_alarm: float = FALSE_ALARM) -> float:
    """The z with ``n_pairs`` · P(|Z| > z) = ``false_alarm`` for a standard normal Z: the largest
    |sqrt(n)·r| of that many pairs of independent streams exceeds it with probability at most
    ``false_alarm``.

    >>> round(union_bound(1, 0.05), 2)  # one pair: the familiar two-sided 95% point
    1.96
    >>> round(union_bound(2016), 2)
    6.22
    """
    return statistics.NormalDist().inv_cdf(1 - false_alarm / (2 * n_pairs))


@dataclasses.dataclass
class Correlations:
    """What the pairs of streams of one method showed."""

    method: str
    streams: int
    length: int
    r: np.ndarray  # the correlation of every pair

    @property
    def pairs(self) -> int:
        return len(self.r)

    @property
    def max_abs(self) -> float:
        return float(np.abs(self.r).max())

    @property
    def spread(self) -> float:
        """The standard deviation of sqrt(n)·r over the pairs: near 1 for independent streams."""
        return float(np.std(self.r) * math.sqrt(self.length))

    @property
    def bound(self) -> float:
        """The largest |r| that independent streams exceed with probability at most ``FALSE_ALARM``."""
        return union_bound(self.pairs) / math.sqrt(self.length)

    @property
    def passes(self) -> bool:
        return self.max_abs < self.bound


def measure_correlations(n_streams: int, length: int, methods=METHODS) -> dict[str, Correlations]:
    """``{method: Correlations}`` for streams of ``length`` numbers from ``n_streams`` keys.

    >>> c = measure_correlations(8, 2000)
    >>> c["split"].pairs, c["split"].passes, c["reused"].passes, round(c["reused"].max_abs, 4)
    (28, True, False, 1.0)
    """
    return {method: Correlations(method, n_streams, length,
                                 pair_correlations(streams(stream_keys(method, n_streams), length)))
            for method in methods}


def correlation_table(results: dict[str, Correlations]) -> str:
    """One line per method: pairs, the largest |r|, 1/sqrt(n), the spread of sqrt(n)·r, the bound.

    >>> r = Correlations("split", 2, 100, np.array([0.1, -0.1]))
    >>> print(correlation_table({"split": r}))  # doctest: +NORMALIZE_WHITESPACE
    method    pairs   max |r|   1/sqrt(n)   spread of sqrt(n)·r   bound on max |r|   passes
    split         2    0.1000      0.1000                 1.000             0.5026      yes
    """
    lines = [f"{'method':<8}{'pairs':>7}{'max |r|':>10}{'1/sqrt(n)':>12}{'spread of sqrt(n)·r':>22}"
             f"{'bound on max |r|':>19}{'passes':>9}"]
    for name, c in results.items():
        lines.append(f"{name:<8}{c.pairs:>7,}{c.max_abs:>10.4f}{1 / math.sqrt(c.length):>12.4f}"
                     f"{c.spread:>22.3f}{c.bound:>19.4f}{'yes' if c.passes else 'no':>9}")
    return "\n".join(lines)


def generators(size: int, seed: int = 0) -> dict[str, callable]:
    """Zero-argument calls that each make ``size`` standard normal float32 numbers: one per key
    implementation (jitted, on the default device) and NumPy's ``Generator`` (``NUMPY``).

    Each JAX call reuses its key, so it returns the same numbers every time: only its time matters
    here, and no result is used.

    >>> calls = generators(4)
    >>> sorted(calls) == sorted(IMPLS + (NUMPY,)), [np.asarray(call()).shape for call in calls.values()]
    (True, [(4,), (4,), (4,), (4,)])
    """
    calls = {}
    for impl in IMPLS:
        key = jax.random.key(seed, impl=impl)
        sample = jax.jit(lambda key: jax.random.normal(key, (size,), jnp.float32))
        calls[impl] = lambda sample=sample, key=key: sample(key)
    rng = np.random.default_rng(seed)
    calls[NUMPY] = lambda: rng.standard_normal(size, dtype=np.float32)
    return calls


def measure_throughput(size: int, rounds: int = 9) -> Comparison:
    """Every generator of ``generators(size)`` timed in ``rounds`` interleaved rounds.

    >>> c = measure_throughput(16, rounds=6)
    >>> sorted(c.samples) == sorted(IMPLS + (NUMPY,)), c.rounds
    (True, 6)
    """
    return compare(generators(size), rounds=rounds)


def rate(comparison: Comparison, name: str, size: int) -> float:
    """Numbers per second at the median time of ``name``.

    >>> rate(Comparison({"a": [0.5, 1.0, 2.0]}), "a", 10)
    10.0
    """
    return size / comparison.timing(name).median


def throughput_table(comparison: Comparison, size: int) -> str:
    """One line per generator: median time (fastest–slowest) and millions of numbers per second.

    >>> print(throughput_table(Comparison({"numpy": [0.001, 0.002, 0.003]}), 10**6))  # doctest: +NORMALIZE_WHITESPACE
    generator       time, median (fastest–slowest)   M numbers/s
    numpy                          2.00 ms (1.00–3.00)           500
    """
    lines = [f"{'generator':<14}{'time, median (fastest–slowest)':>34}{'M numbers/s':>14}"]
    for name in comparison.samples:
        millions = ratio_text(rate(comparison, name, size) / 1e6)
        lines.append(f"{name:<14}{str(comparison.timing(name)):>34}{millions:>14}")
    return "\n".join(lines)


def rate_verdicts(comparison: Comparison, size: int) -> list[str]:
    """Lines that say, under ``timing.py``'s rule, how each key implementation's rate compared with
    NumPy's and with the default threefry2x32's.

    >>> c = Comparison({name: [1e-3 * (2 if name == NUMPY else 1)] * 6 for name in IMPLS + (NUMPY,)})
    >>> print(rate_verdicts(c, 10**6)[0].split(" (")[0])
    threefry2x32 reached 2.00× the M numbers/s of numpy
    """
    work = {name: size / 1e6 for name in comparison.samples}
    labels = {name: {"ko": f"{name} 쪽", "en": name} for name in comparison.samples}
    pairs = [(impl, NUMPY) for impl in IMPLS] + [(impl, IMPLS[0]) for impl in IMPLS[1:]]
    return [comparison.rate_sentences(a, b, work, "M numbers/s", labels)["en"] for a, b in pairs]


def plot(result: Correlations, path: str, language: str = "en") -> None:
    """Write a histogram of sqrt(n)·r over the pairs of ``result`` with the standard normal density
    and the bound, labelled in ``language``."""
    fig, ax = new_figure()
    scaled = result.r * math.sqrt(result.length)
    z = union_bound(result.pairs)
    edge = max(z, float(np.abs(scaled).max())) * 1.05
    ax.hist(scaled, bins=40, range=(-edge, edge), density=True, alpha=0.6,
            label=say(language, f"쌍 {result.pairs:,}개의 √n·r", f"√n·r of {result.pairs:,} pairs"))
    grid = np.linspace(-edge, edge, 400)
    ax.plot(grid, np.exp(-grid**2 / 2) / math.sqrt(2 * math.pi),
            label=say(language, "표준 정규 분포", "standard normal density"))
    for sign in (-1, 1):
        ax.axvline(sign * z, color="black", linestyle="--",
                   label=say(language, "합집합 한계", "union bound") if sign > 0 else "_nolegend_")
    ax.set_xlabel(say(language, "√n × 상관계수 r", "√n × correlation r"))
    ax.set_ylabel(say(language, "밀도", "density"))
    ax.set_title(say(language, f"split 키 {result.streams}개의 흐름, n = {result.length:,}",
                     f"streams of {result.streams} split keys, n = {result.length:,}")
                 + f"\n{device()}")
    legend_below(fig, ax, columns=3)
    save(fig, path)


def default_size() -> int:
    """Numbers per call in the throughput measurement: small on a CPU, large on an accelerator.

    >>> default_size() in (2**20, 2**26)
    True
    """
    return 2**20 if jax.default_backend() == "cpu" else 2**26


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=64, help="number of keys and streams (default: 64)")
    parser.add_argument("--length", type=int, default=10_000, help="numbers in each stream (default: 10000)")
    parser.add_argument("--size", type=int, default=None,
                        help="numbers per call in the throughput measurement (default: 2**20 on a CPU, "
                             "2**26 on an accelerator)")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds, 6 or more (default: 15)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    size = args.size or default_size()
    print(f"{machine()}; default PRNG implementation {jax.config.jax_default_prng_impl}, "
          f"jax_threefry_partitionable={jax.config.jax_threefry_partitionable}")
    correlations = measure_correlations(args.streams, args.length)
    print(f"\ncorrelations of {args.streams} streams of {args.length:,} standard normal numbers "
          f"(bound: P(independent streams exceed it) <= {FALSE_ALARM:g})\n" + correlation_table(correlations))
    throughput = measure_throughput(size, args.rounds)
    print(f"\n{size:,} float32 normal numbers per call, {args.rounds} interleaved rounds "
          f"(JAX on {device()}, NumPy on the host CPU)\n" + throughput_table(throughput, size))
    print("\n" + "\n".join(rate_verdicts(throughput, size)))
    write_plot(plot, args.plot, correlations["split"])
    return correlations, throughput, size


if __name__ == "__main__":
    correlations, throughput, size = main()
