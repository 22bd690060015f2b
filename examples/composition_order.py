"""Per-example gradients composed two ways: ``jit(vmap(grad))`` against ``vmap(jit(grad))``.

The exercise of the lesson "Composable transformations": for each batch size it builds the
per-example gradients of a linear model's squared-error loss in both orders, checks that they agree,
and times each order:

* ``jit(vmap) cold`` / ``vmap(jit) cold``: the first call of a freshly composed function (tracing,
  batching, compiling and running);
* ``jit(vmap) warm`` / ``vmap(jit) warm``: later calls, after a warm-up.

It also counts, over a few calls of each order, how often Python ran the function that ``vmap``
maps, how often JAX traced ``loss_fn``, and how many XLA compilations happened: the counts explain
the timings. Every timing blocks on the result before reading the clock (``block_until_ready``) and
is reported as the median with the spread (min to max) of the runs.

    python examples/composition_order.py --batch-sizes 1 100 10000 --plot composition_order.png
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import new_figure, plot_medians, save, write_plot  # noqa: E402
from timing import Timing, device, machine, time_call, time_cold_jit  # noqa: E402

DEFAULT_BATCH_SIZES = (1, 100, 10_000)
N_FEATURES = 3
IN_AXES = (None, 0, 0)  # params shared by every example; x and y mapped over their first axis
ORDERS = ("jit(vmap)", "vmap(jit)")
METHODS = ("jit(vmap) cold", "jit(vmap) warm", "vmap(jit) cold", "vmap(jit) warm")

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


def time_cold_vmap_of_jit(params, x, y, repeats: int = 3) -> Timing:
    """Time the first call of freshly composed ``vmap(jit(grad))`` functions: each compiles anew.

    >>> len(time_cold_vmap_of_jit(*make_batch(2), repeats=2).samples)
    2
    """
    samples = []
    for _ in range(repeats):
        fresh = compose("vmap(jit)")  # a new inner jit: nothing in its caches
        start = time.perf_counter()
        jax.block_until_ready(fresh(params, x, y))
        samples.append(time.perf_counter() - start)
    return Timing(samples)


def benchmark_size(batch_size: int, repeats: int = 20) -> dict[str, Timing]:
    """Time both orders, cold and warm, on one batch size; check they agree first.

    >>> timings = benchmark_size(8, repeats=2)
    >>> sorted(timings) == sorted(METHODS)
    True
    """
    params, x, y = make_batch(batch_size)
    jit_of_vmap, vmap_of_jit = compose("jit(vmap)"), compose("vmap(jit)")
    a, b = jit_of_vmap(params, x, y), vmap_of_jit(params, x, y)
    assert all(np.allclose(a[k], b[k], rtol=1e-4, atol=1e-5) for k in a), "the two orders disagree"
    per_example_grad = jax.vmap(jax.grad(loss_fn), in_axes=IN_AXES)
    return {
        "jit(vmap) cold": time_cold_jit(per_example_grad, params, x, y),
        "jit(vmap) warm": time_call(lambda: jit_of_vmap(params, x, y), repeats),
        "vmap(jit) cold": time_cold_vmap_of_jit(params, x, y),
        "vmap(jit) warm": time_call(lambda: vmap_of_jit(params, x, y), repeats),
    }


def run(batch_sizes, repeats: int = 20) -> dict[int, dict[str, Timing]]:
    """Benchmark every batch size; returns ``{batch_size: {method: Timing}}``."""
    return {n: benchmark_size(n, repeats) for n in batch_sizes}


def format_table(results: dict[int, dict[str, Timing]]) -> str:
    """A plain-text table of median times (ms) with the spread, one row per batch size.

    >>> print(format_table({100: {m: Timing([0.001, 0.003]) for m in METHODS}}))  # doctest: +NORMALIZE_WHITESPACE
     batch     jit(vmap) cold ms     jit(vmap) warm ms     vmap(jit) cold ms     vmap(jit) warm ms
       100   2.000 (1.000-3.000)   2.000 (1.000-3.000)   2.000 (1.000-3.000)   2.000 (1.000-3.000)
    """
    width = 24
    rows = [f"{'batch':>6}" + "".join(f"{m + ' ms':>{width}}" for m in METHODS)]
    for n, timings in results.items():
        cells = (f"{t.median * 1e3:.3f} ({t.fastest * 1e3:.3f}-{t.slowest * 1e3:.3f})"
                 for t in (timings[m] for m in METHODS))
        rows.append(f"{n:>6}" + "".join(f"{cell:>{width}}" for cell in cells))
    return "\n".join(rows)


def plot(results: dict[int, dict[str, Timing]], path: str) -> None:
    """Write a log-log plot of median time against batch size, with min-max bars, in both languages."""
    fig, ax = new_figure()
    plot_medians(ax, results, METHODS, dashed={m for m in METHODS if m.endswith("cold")})
    ax.set_xscale("log")
    ax.set_xlabel("배치 크기 · batch size (examples)")
    ax.set_title(f"샘플별 기울기, 합성 순서 · per-example gradients, composition order\n"
                 f"{device()}")
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=list(DEFAULT_BATCH_SIZES),
                        help="batch sizes to time (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=20, help="timed warm calls per method (default: 20)")
    parser.add_argument("--plot", metavar="FILE", help="also write a PNG plot to FILE")
    args = parser.parse_args(argv)
    print(f"{machine()}; "
          f"warm: median of {args.repeats} calls; cold: median of 3 freshly composed functions")
    traces = {order: count_work(order) for order in ORDERS}
    for order, counts in traces.items():
        print(f"{order}, 3 calls: " + ", ".join(f"{key} {value}" for key, value in counts.items()))
    results = run(args.batch_sizes, args.repeats)
    print(format_table(results))
    write_plot(plot, args.plot, results)
    return results, traces


if __name__ == "__main__":
    results, traces = main()
