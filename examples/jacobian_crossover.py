"""Where jax.jacfwd and jax.jacrev cross over: the Jacobian of tall and wide functions, timed.

The exercise of the lesson "JVP, VJP and Jacobians". A family of functions R^n → R^m,
``f(x) = W2 @ tanh(W1 @ x)`` with a hidden layer of fixed width, keeps the number of Jacobian
entries n·m fixed (``--product``) while the shape goes from tall (m ≫ n) to wide (n ≫ m).
``jax.jacfwd`` builds the Jacobian from n JVPs, one column each; ``jax.jacrev`` from m VJPs, one
row each; so the work of jacrev over that of jacfwd should follow m/n. For every shape the program

* counts the FLOPs of both compiled programs: the compiler's own count (``cost_analysis()``, read
  by ``compiler_cost.xla_cost``) where it covers the whole program, else the count by hand
  (``flops_by_hand``: on a GPU the matrix products usually become cuBLAS calls, which the compiler's
  count marks -1); each shape says which it used,
* checks that both give the same Jacobian,
* times both with ``compare`` from ``timing.py`` (interleaved rounds, the site's rule for a
  verdict), and reports the median per-round ratio of their times, jacrev's over jacfwd's,

and then reports where the verdict flips: the last shape at which jacrev separated as the slower
and the first, after it, at which it separated as the faster (``crossover_bracket``).

    python examples/jacobian_crossover.py --product 16384 --inputs 16 64 128 256 1024 --plot crossover.png

writes crossover.ko.png and crossover.en.png: the time ratio, with the confidence interval of each
verdict as an error bar, and the FLOP ratio against m/n, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from compiler_cost import xla_cost  # noqa: E402
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import compare, machine, ratio_text  # noqa: E402


def f(params, x):
    """The function R^n → R^m whose Jacobian is taken: a hidden layer of ``tanh``, then a linear map.

    >>> params, x = make_problem(3, 2, hidden=4)
    >>> f(params, x).shape
    (2,)
    """
    w1, w2 = params
    return w2 @ jnp.tanh(w1 @ x)


def make_problem(n: int, m: int, hidden: int, seed: int = 0):
    """Weights of ``f`` for n inputs, m outputs and ``hidden`` units, and a point x, from ``seed``.

    >>> (w1, w2), x = make_problem(5, 3, hidden=8)
    >>> w1.shape, w2.shape, x.shape
    ((8, 5), (3, 8), (5,))
    """
    k1, k2, k3 = jax.random.split(jax.random.key(seed), 3)
    w1 = jax.random.normal(k1, (hidden, n)) / np.sqrt(n)
    w2 = jax.random.normal(k2, (m, hidden)) / np.sqrt(hidden)
    return (w1, w2), jax.random.normal(k3, (n,))


def jacobians():
    """jacfwd and jacrev of ``f`` with respect to x, jitted; the weights stay arguments, so the
    compiler cannot fold them into the program as constants.

    >>> params, x = make_problem(3, 2, hidden=4)
    >>> fwd, rev = jacobians()
    >>> fwd(params, x).shape, bool(jnp.allclose(fwd(params, x), rev(params, x), atol=1e-6))
    ((2, 3), True)
    """
    return jax.jit(jax.jacfwd(f, argnums=1)), jax.jit(jax.jacrev(f, argnums=1))


def flops(fn, *args) -> float | None:
    """The FLOPs of ``fn``'s compiled program as the compiler counts them (``xla_cost``), or None where
    the compiler could not count the whole program (a library call such as cuBLAS counts -1).

    >>> result = flops(jax.jit(lambda a, b: a @ b), jnp.ones((4, 8)), jnp.ones((8, 2)))
    >>> result in (128.0, None)  # 2 · 4 · 8 · 2 where the compiler counts the product
    True
    """
    cost = xla_cost(fn.lower(*args).compile())
    return cost.flops if cost.counted else None


def flops_by_hand(n: int, m: int, hidden: int) -> dict[str, int]:
    """The FLOPs of the two Jacobians counted by hand: both compute ``W1 @ x`` once (2·hidden·n; the
    Jacobian needs no value of f, so the product with W2 drops out), then jacfwd makes n JVPs and
    jacrev m VJPs, each one the products of one f, 2·hidden·(n + m). Elementwise work is left out.

    >>> flops_by_hand(4, 64, hidden=8)
    {'jacfwd': 4416, 'jacrev': 69696}
    """
    one = 2 * hidden * (n + m)
    return {"jacfwd": 2 * hidden * n + n * one, "jacrev": 2 * hidden * n + m * one}


def measure(n: int, m: int, hidden: int, rounds: int) -> dict:
    """jacfwd against jacrev for one shape: FLOPs, agreement, and an interleaved timing.

    ``flops`` are the compiler's count where it covers both programs (``flop_source`` "XLA"), else the
    count by hand (``flop_source`` "by hand"); ``xla_flops`` keeps the compiler's (None where not counted).

    >>> r = measure(4, 64, hidden=8, rounds=6)
    >>> r["m_over_n"], r["agree"], r["flop_ratio"] > 4, sorted(r["comparison"].samples)
    (16.0, True, True, ['jacfwd', 'jacrev'])
    >>> r["flop_source"] in ("XLA", "by hand"), r["by_hand"] == flops_by_hand(4, 64, hidden=8)
    (True, True)
    """
    params, x = make_problem(n, m, hidden)
    fwd, rev = jacobians()
    j_fwd, j_rev = fwd(params, x), rev(params, x)
    scale = float(jnp.max(jnp.abs(j_fwd)))
    agree = bool(jnp.max(jnp.abs(j_fwd - j_rev)) <= 1e-2 * scale)  # loose: GPU matmuls may use TF32
    xla = {"jacfwd": flops(fwd, params, x), "jacrev": flops(rev, params, x)}
    by_hand = flops_by_hand(n, m, hidden)
    source = "XLA" if None not in xla.values() else "by hand"
    flop = xla if source == "XLA" else by_hand
    comparison = compare({"jacfwd": lambda: fwd(params, x), "jacrev": lambda: rev(params, x)}, rounds=rounds)
    return {"n": n, "m": m, "m_over_n": m / n, "flops": flop, "flop_ratio": flop["jacrev"] / flop["jacfwd"],
            "flop_source": source, "xla_flops": xla, "by_hand": by_hand,
            "agree": agree, "comparison": comparison,
            "time_ratio": statistics.median(comparison.ratios("jacrev", "jacfwd")),
            "verdict": comparison.verdict("jacrev", "jacfwd")}


def sweep(product: int, inputs: list[int], hidden: int, rounds: int) -> list[dict]:
    """``measure`` for each n of ``inputs``, with m = product // n outputs.

    >>> [(r["n"], r["m"]) for r in sweep(64, [4, 16], hidden=4, rounds=6)]
    [(4, 16), (16, 4)]
    """
    return [measure(n, product // n, hidden, rounds) for n in inputs]


def crossover_bracket(results: list[dict]) -> tuple[dict, dict] | None:
    """The two shapes between which the verdict flips, from tall to wide: the last shape at which
    jacrev separated as the slower before the first at which it separated as the faster. Shapes
    between them did not separate. None when no such pair exists (no flip was measured).

    >>> from types import SimpleNamespace as NS
    >>> def rows(*pairs):
    ...     return [{"m_over_n": r, "verdict": NS(direction=d)} for r, d in pairs]
    >>> [side["m_over_n"] for side in crossover_bracket(rows((16, 1), (4, 1), (1, 0), (0.25, -1), (0.0625, -1)))]
    [4, 0.25]
    >>> crossover_bracket(rows((4, 0), (0.25, -1))) is None
    True
    """
    slower = None
    for r in results:
        if r["verdict"].direction == 1:
            slower = r
        elif r["verdict"].direction == -1 and slower is not None:
            return slower, r
    return None


def power_of_two(value: float) -> str:
    """A tick label that stays short on a log-2 axis: whole numbers, or 1/k below 1.

    >>> [power_of_two(v) for v in (64.0, 1.0, 0.25, 0.015625)]
    ['64', '1', '1/4', '1/64']
    """
    return f"{value:g}" if value >= 1 else f"1/{1 / value:g}"


def plot(results: list[dict], path: str, language: str = "en") -> None:
    """The median per-round time ratio, jacrev over jacfwd, and the FLOP ratio, against m/n (log-log)."""
    from matplotlib.ticker import FuncFormatter

    fig, ax = new_figure()
    shape = [r["m_over_n"] for r in results]
    ratio = [r["time_ratio"] for r in results]
    # The interval of each verdict as an error bar (none where it is unbounded: too few rounds).
    low, high = [], []
    for t, r in zip(ratio, results, strict=True):
        lo, hi = r["verdict"].interval
        bounded = lo > 0 and np.isfinite(hi)
        low.append(max(t - lo, 0.0) if bounded else 0.0)
        high.append(max(hi - t, 0.0) if bounded else 0.0)
    ax.errorbar(shape, ratio, yerr=[low, high], marker="o", capsize=3,
                label=say(language, "시간 비율 (중앙값, 95% 신뢰 구간)", "time ratio (median, 95% interval)"))
    sources = {r["flop_source"] for r in results}
    source_ko = {"XLA": "컴파일러가 센 값", "by hand": "손으로 센 값"}
    ax.plot(shape, [r["flop_ratio"] for r in results], linestyle="--", color="gray",
            label=say(language, f"FLOP 수의 비율 ({', '.join(source_ko[s] for s in sorted(sources))})",
                      f"FLOP ratio ({', '.join(sorted(sources))})"))
    ax.axhline(1.0, color="black", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(FuncFormatter(lambda value, _: power_of_two(value)))
    ax.set_xlabel(say(language, "m / n  (← 넓은 함수 · 긴 함수 →)", "m / n  (← wide · tall →)"))
    ax.set_ylabel(say(language, "jacrev ÷ jacfwd", "jacrev ÷ jacfwd"))
    product = results[0]["n"] * results[0]["m"]
    ax.set_title(say(language, "야코비 행렬: jacrev와 jacfwd의 비율", "The Jacobian: jacrev against jacfwd")
                 + f"\n{jax.default_backend().upper()}, jax {jax.__version__}, n·m = {product:,}")
    ax.grid(True, which="both", alpha=0.3)
    legend_below(fig, ax)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--product", type=int, default=2**14,
                        help="n·m, the number of Jacobian entries, the same for every shape (default: %(default)s)")
    parser.add_argument("--inputs", type=int, nargs="+", default=[16, 64, 128, 256, 1024],
                        help="the input sizes n to try; m = product // n (default: %(default)s)")
    parser.add_argument("--hidden", type=int, default=64, help="width of the hidden layer (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds per shape (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    print(f"{machine()}; f: R^n -> R^m, n·m = {args.product:,}, hidden width {args.hidden}, {args.rounds} rounds")
    print(f"{'n':>6} {'m':>6} {'m/n':>8} {'jacfwd MFLOP':>13} {'jacrev MFLOP':>13} {'FLOPs by':>8}"
          "   jacfwd time (median, range)   jacrev time (median, range)   time ratio rev/fwd")
    results = sweep(args.product, args.inputs, args.hidden, args.rounds)
    for r in results:
        c = r["comparison"]
        print(f"{r['n']:>6} {r['m']:>6} {r['m_over_n']:>8.4g} {r['flops']['jacfwd'] / 1e6:>13,.2f} "
              f"{r['flops']['jacrev'] / 1e6:>13,.2f} {r['flop_source']:>8}   {c.timing('jacfwd')!s:<27}   "
              f"{c.timing('jacrev')!s:<27}   {ratio_text(r['time_ratio'])}")
    if any(r["flop_source"] != "XLA" for r in results):
        print("FLOPs by hand: the compiler could not count the whole program (a library call such as cuBLAS counts -1)")
    print("both Jacobians agree at every shape:", all(r["agree"] for r in results))
    bracket = crossover_bracket(results)
    if bracket:
        print(f"the verdict flips between m/n = {power_of_two(bracket[0]['m_over_n'])} (jacrev separated as the slower)"
              f" and m/n = {power_of_two(bracket[1]['m_over_n'])} (jacrev separated as the faster)")
    else:
        print("the verdict never flipped from jacrev the slower to jacrev the faster at these shapes")
    write_plot(plot, args.plot, results)
    return {"results": results, "bracket": bracket, "product": args.product, "hidden": args.hidden,
            "rounds": args.rounds}


if __name__ == "__main__":
    crossover = main()
