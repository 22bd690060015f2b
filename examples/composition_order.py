"""Per-example gradients composed two ways: ``jit(vmap(grad))`` against ``vmap(jit(grad))``.

The exercise of the lesson "Composable transformations": for each batch size it builds the
per-example gradients of a linear model's squared-error loss in both orders, checks that they agree,
and compares the two orders twice, each time measured together, interleaved (``timing.compare``):

* cold: the first call of a freshly composed function (tracing, batching, compiling and running);
* warm: later calls of one composed function, after a warm-up.

It also counts, over a few calls of each order, how often Python ran the function that ``vmap``
maps, how often JAX traced ``loss_fn``, and how many XLA compilations happened: the counts explain
the timings. Every timing blocks on the result before reading the clock (``block_until_ready``) and
is reported as the median with the spread (fastest to slowest) of the rounds; which order was faster
is said by ``timing.py``'s rule, in its sentences.

    python examples/composition_order.py --batch-sizes 1 100 10000 --plot composition_order.png

writes composition_order.ko.png and composition_order.en.png: the same measurements, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, legend_below, new_figure, plot_medians, save, say, write_plot  # noqa: E402
from timing import Comparison, Timing, compare  # noqa: E402

DEFAULT_BATCH_SIZES = (1, 100, 10_000)
N_FEATURES = 3
IN_AXES = (None, 0, 0)  # params shared by every example; x and y mapped over their first axis
ORDERS = ("jit(vmap)", "vmap(jit)")
KINDS = ("cold", "warm")
METHODS = ("jit(vmap) cold", "jit(vmap) warm", "vmap(jit) cold", "vmap(jit) warm")
# How the verdict sentences of timing.py name each order (a Korean label ends in a Hangul word).
LABELS = {"jit(vmap)": {"ko": "jit(vmap) 순서", "en": "jit(vmap)"},
          "vmap(jit)": {"ko": "vmap(jit) 순서", "en": "vmap(jit)"}}

COUNTS: collections.Counter = collections.Counter()  # what ran, filled by the functions below


def loss_fn(params, x, y):
    """Squared error of a linear model; counts how often JAX traces it (Python runs it only then).

    >>> params = {"w": jnp.array([1.0, 2.0, 3.0]), "b": jnp.array(0.5)}
    >>> float(loss_fn(params, jnp.ones(3), jnp.array(6.0)))
    0.25
    """
    COUNTS["loss_fn traced"] += 1
    prediction = x @ params["w"] + params["b"]
    return jnp.mean((prediction - y) ** 2)


def _count_vmap_body(fn):
    """``fn``, counting each time Python runs it: that is when ``vmap`` traces its body."""

    def vmap_body(*args):
        COUNTS["vmap body run"] += 1
        return fn(*args)

    return vmap_body


def compose(order: str):
    """A fresh per-example-gradient function, composed in ``order`` (one of ``ORDERS``).

    >>> params, x, y = make_batch(4)
    >>> g = compose("vmap(jit)")(params, x, y)
    >>> g["w"].shape, g["b"].shape
    ((4, 3), (4,))
    """
    if order == "jit(vmap)":
        return jax.jit(jax.vmap(_count_vmap_body(jax.grad(loss_fn)), in_axes=IN_AXES))
    if order == "vmap(jit)":
        return jax.vmap(_count_vmap_body(jax.jit(jax.grad(loss_fn))), in_axes=IN_AXES)
    raise ValueError(f"order must be one of {ORDERS}, not {order!r}")


def make_batch(batch_size: int, seed: int = 0):
    """Parameters (a pytree) and a batch of ``batch_size`` examples, float32.

    >>> params, x, y = make_batch(5)
    >>> x.shape, y.shape, sorted(params)
    ((5, 3), (5,), ['b', 'w'])
    """
    rng = np.random.default_rng(seed)
    params = {"w": jnp.asarray(rng.standard_normal(N_FEATURES, dtype=np.float32)), "b": jnp.asarray(0.1, jnp.float32)}
    x = jnp.asarray(rng.standard_normal((batch_size, N_FEATURES), dtype=np.float32))
    y = jnp.asarray(rng.standard_normal(batch_size, dtype=np.float32))
    return params, x, y


_compiles = {"listening": False}


def _listen_for_compiles() -> None:
    """Count XLA compilations in ``COUNTS["compiles"]`` (JAX reports each one as an event)."""
    if _compiles["listening"]:
        return

    def on_event(name, _seconds, **_kwargs):
        if name == "/jax/core/compile/backend_compile_duration":
            COUNTS["compiles"] += 1

    jax.monitoring.register_event_duration_secs_listener(on_event)
    _compiles["listening"] = True


def count_work(order: str, batch_size: int = 100, calls: int = 3) -> dict[str, int]:
    """Call a freshly composed ``order`` ``calls`` times; count what ran.

    >>> count_work("jit(vmap)", calls=3)
    {'vmap body run': 1, 'loss_fn traced': 1, 'compiles': 1}
    >>> count_work("vmap(jit)", calls=3)
    {'vmap body run': 3, 'loss_fn traced': 1, 'compiles': 1}
    """
    _listen_for_compiles()
    params, x, y = make_batch(batch_size)
    fn = compose(order)  # a fresh function: whatever it needs is traced and compiled anew
    COUNTS.clear()
    for _ in range(calls):
        jax.block_until_ready(fn(params, x, y))
    return {key: COUNTS[key] for key in ("vmap body run", "loss_fn traced", "compiles")}


def loop_reference(params, x, y):
    """Per-example gradients the slow way, one ``jax.grad`` call per example, stacked.

    >>> params, x, y = make_batch(3)
    >>> ref = loop_reference(params, x, y)
    >>> all(np.allclose(ref[k], compose("jit(vmap)")(params, x, y)[k], rtol=1e-5) for k in ref)
    True
    """
    grads = [jax.grad(loss_fn)(params, x[i], y[i]) for i in range(x.shape[0])]
    return jax.tree.map(lambda *leaves: jnp.stack(leaves), *grads)


def benchmark_size(batch_size: int, rounds: int = 20, cold_rounds: int = 6) -> dict[str, Comparison]:
    """Compare both orders on one batch size, cold and warm, each comparison interleaved; check
    first that the orders agree. Returns ``{"cold": Comparison, "warm": Comparison}``, whose
    variants are named as in ``ORDERS``.

    A cold call composes a fresh function, which JAX traces and compiles anew, and calls it once;
    the warm calls reuse one composed function per order, after a warm-up.

    >>> c = benchmark_size(8, rounds=6)
    >>> sorted(c), sorted(c["warm"].samples) == sorted(ORDERS), c["cold"].rounds, c["warm"].rounds
    (['cold', 'warm'], True, 6, 6)
    """
    params, x, y = make_batch(batch_size)
    composed = {order: compose(order) for order in ORDERS}
    a, b = (composed[order](params, x, y) for order in ORDERS)
    assert all(np.allclose(a[k], b[k], rtol=1e-4, atol=1e-5) for k in a), "the two orders disagree"
    return {
        "cold": compare({order: lambda order=order: compose(order)(params, x, y) for order in ORDERS},
                        rounds=cold_rounds),
        "warm": compare({order: lambda fn=fn: fn(params, x, y) for order, fn in composed.items()},
                        rounds=rounds),
    }


def run(batch_sizes, rounds: int = 20, cold_rounds: int = 6) -> dict[int, dict[str, Comparison]]:
    """Benchmark every batch size; returns ``{batch_size: {"cold": Comparison, "warm": Comparison}}``."""
    return {n: benchmark_size(n, rounds, cold_rounds) for n in batch_sizes}


def timings(results: dict[int, dict[str, Comparison]]) -> dict[int, dict[str, Timing]]:
    """The results as ``{batch_size: {method: Timing}}``, a method being ``"<order> <kind>"`` (``METHODS``).

    >>> c = Comparison({"jit(vmap)": [0.001] * 6, "vmap(jit)": [0.002] * 6})
    >>> t = timings({8: {"cold": c, "warm": c}})
    >>> sorted(t[8]) == sorted(METHODS), t[8]["vmap(jit) warm"].median
    (True, 0.002)
    """
    return {n: {f"{order} {kind}": by_kind[kind].timing(order) for order in ORDERS for kind in KINDS}
            for n, by_kind in results.items()}


def format_table(results: dict[int, dict[str, Comparison]]) -> str:
    """A plain-text table of median times (ms) with the spread (fastest–slowest), one row per batch size.

    >>> c = Comparison({"jit(vmap)": [0.001, 0.003] * 3, "vmap(jit)": [0.002, 0.004] * 3})
    >>> print(format_table({100: {"cold": c, "warm": c}}))
      batch       jit(vmap) cold       jit(vmap) warm       vmap(jit) cold       vmap(jit) warm
        100  2.00 ms (1.00–3.00)  2.00 ms (1.00–3.00)  3.00 ms (2.00–4.00)  3.00 ms (2.00–4.00)
    """
    cells = {n: {m: str(t) for m, t in by_method.items()} for n, by_method in timings(results).items()}
    width = max(len(cell) for row in cells.values() for cell in row.values())
    rows = [f"{'batch':>7}" + "".join(f"  {m:>{width}}" for m in METHODS)]
    for n, row in cells.items():
        rows.append(f"{n:>7,}" + "".join(f"  {row[m]:>{width}}" for m in METHODS))
    return "\n".join(rows)


def verdicts(results: dict[int, dict[str, Comparison]], language: str = "en") -> list[str]:
    """For each batch size and kind, ``timing.py``'s sentence on ``jit(vmap)`` against ``vmap(jit)``.

    >>> fast, slow = [0.001, 0.0011] * 3, [0.003, 0.0031] * 3
    >>> print(verdicts({8: {"cold": Comparison({"jit(vmap)": fast, "vmap(jit)": slow}),
    ...                     "warm": Comparison({"jit(vmap)": slow, "vmap(jit)": fast})}})[1].split(" (")[0])
    batch 8, warm: jit(vmap) was 2.91× slower than vmap(jit)
    """
    return [f"batch {n:,}, {kind}: " + by_kind[kind].sentences(*ORDERS, LABELS)[language]
            for n, by_kind in results.items() for kind in KINDS]


def device_name() -> str:
    """The device for a plot's title: its kind and backend, the backend in capitals ("CPU" alone on a CPU).

    >>> jax.default_backend().upper() in device_name()
    True
    """
    backend = jax.default_backend().upper()
    kind = jax.devices()[0].device_kind
    return backend if kind.upper() == backend else f"{kind} ({backend})"


def plot(results: dict[int, dict[str, Comparison]], path: str, language: str = "en") -> None:
    """Write a log-log plot of median time against batch size, with min-max bars, labelled in ``language``."""
    fig, ax = new_figure()
    words = {"cold": say(language, "콜드", "cold"), "warm": say(language, "웜", "warm")}
    legend = {f"{order} {kind}": f"{order} {words[kind]}" for order in ORDERS for kind in KINDS}
    plot_medians(ax, timings(results), METHODS, labels=legend, dashed={m for m in METHODS if m.endswith("cold")},
                 language=language)
    ax.set_xscale("log")
    ax.set_xlabel(say(language, "배치 크기 (샘플 수)", "batch size (examples)"))
    ax.set_title(say(language, "샘플별 기울기, 합성 순서", "per-example gradients, composition order")
                 + f"\n{device_name()}")
    legend_below(fig, ax)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=list(DEFAULT_BATCH_SIZES),
                        help="batch sizes to time (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=20,
                        help="interleaved rounds of warm calls, one call of each order a round (default: 20)")
    parser.add_argument("--cold-rounds", type=int, default=6,
                        help="interleaved rounds of cold calls, each a freshly composed function (default: 6)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    print(f"JAX {jax.__version__} on {device_name()}; both orders measured together, interleaved: "
          f"warm, {args.rounds} rounds; "
          f"cold, {args.cold_rounds} rounds")
    traces = {order: count_work(order) for order in ORDERS}
    for order, counts in traces.items():
        print(f"{order}, 3 calls: " + ", ".join(f"{key} {value}" for key, value in counts.items()))
    results = run(args.batch_sizes, args.rounds, args.cold_rounds)
    print("\nmedian (fastest–slowest) of the rounds:")
    print(format_table(results))
    print()
    print("\n".join(verdicts(results)))
    write_plot(plot, args.plot, results)
    return results, traces


if __name__ == "__main__":
    results, traces = main()
