"""Where the naive softplus log(1 + exp(x)) and its gradient break, dtype by dtype, against a custom JVP.

The exercise of the lesson "Custom derivatives": the softplus function ``log(1 + exp(x))`` written
naively as ``jnp.log1p(jnp.exp(x))`` overflows once ``exp(x)`` passes the largest number of its
dtype, and automatic differentiation of it computes ``(1 / (1 + exp(x))) * exp(x)``: NaN (0 · inf)
once ``exp`` overflows, and, where the backend flushes subnormal numbers to zero (XLA on CPU), a
wrong 0 a little before that. ``softplus`` below has a stable forward pass (``jnp.logaddexp(0, x)``) and a custom JVP
rule, ``jax.custom_jvp``, whose derivative is ``sigmoid(x)``.

The program sweeps ``x`` over a range for each dtype (float32, bfloat16, float16 by default),
computes the value and the gradient of both versions with ``jax.vmap(jax.grad(...))``, and compares
the gradients with a float64 NumPy reference, ``sigmoid(x)`` at the same (rounded) ``x``. For each
dtype it reports the first ``x`` where the naive value is infinite, where the naive gradient first
differs from the reference by more than the absolute tolerance (``4 × eps`` of the dtype), and where
it is first NaN, and the largest error of the custom rule over the whole sweep.

    python examples/softplus_overflow.py --start -20 --stop 100 --num 12001 --plot softplus.png

writes softplus.ko.png and softplus.en.png: the same sweep, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import machine  # noqa: E402

DTYPES = ("float32", "bfloat16", "float16")
STATES = ("right", "wrong", "nan")   # a gradient within tolerance, a finite wrong one, a NaN


def naive_softplus(x):
    """``log(1 + exp(x))`` as written in the formula: ``exp`` overflows for large ``x``.

    >>> naive_softplus(jnp.float32(1.0)).round(4).item(), naive_softplus(jnp.float32(100.0)).item()
    (1.3133, inf)
    """
    return jnp.log1p(jnp.exp(x))


@jax.custom_jvp
def softplus(x):
    """``log(1 + exp(x))`` computed without overflow, with the derivative ``sigmoid(x)`` as its JVP rule.

    >>> softplus(jnp.float32(100.0)).item(), jax.grad(softplus)(jnp.float32(100.0)).item()
    (100.0, 1.0)
    >>> jax.grad(jax.grad(softplus))(0.0).item()   # the rule is JAX code: it can be differentiated
    0.25
    """
    return jnp.logaddexp(0.0, x)


@softplus.defjvp
def _softplus_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    return softplus(x), jax.nn.sigmoid(x) * x_dot


def tolerance(dtype: str) -> float:
    """The largest absolute gradient error counted as right in ``dtype``: 4 times its machine epsilon.

    >>> tolerance("float16"), tolerance("bfloat16")
    (0.00390625, 0.03125)
    """
    return float(4 * jnp.finfo(dtype).eps)


def classify(grad, reference, tol: float) -> np.ndarray:
    """For each point, 0 (right: within the absolute tolerance ``tol`` of ``reference``), 1 (finite but
    wrong) or 2 (NaN).

    >>> classify(np.array([1.0, 0.0, np.nan]), np.array([1.0, 1.0, 1.0]), 1e-3).tolist()
    [0, 1, 2]
    """
    grad = np.asarray(grad, np.float64)
    state = np.where(np.abs(grad - reference) <= tol, 0, 1)
    return np.where(np.isnan(grad), 2, state)


def first_x(x: np.ndarray, mask: np.ndarray) -> float | None:
    """The first ``x`` where ``mask`` holds, or ``None``.

    >>> first_x(np.array([1.0, 2.0, 3.0]), np.array([False, True, True])), first_x(np.zeros(2), np.zeros(2, bool))
    (2.0, None)
    """
    hits = np.flatnonzero(mask)
    return float(x[hits[0]]) if hits.size else None


def sweep(dtype: str, start: float, stop: float, num: int) -> dict:
    """Values and gradients of both versions over ``num`` points from ``start`` to ``stop`` in ``dtype``.

    The reference gradient is ``sigmoid(x)`` in float64 NumPy at the points as rounded to ``dtype``.

    >>> s = sweep("float32", 0.0, 100.0, 5)          # x = 0, 25, 50, 75, 100
    >>> s["naive_value"].tolist()[-1], s["naive_grad"].tolist()[-1], s["custom_grad"].tolist()[-1]
    (inf, nan, 1.0)
    >>> s["first_inf"], s["first_nan"], s["custom_error"] <= s["tol"]
    (100.0, 100.0, True)
    """
    x = jnp.linspace(start, stop, num, dtype=jnp.float32).astype(dtype)
    x64 = np.asarray(x.astype(jnp.float32), np.float64)
    reference = 1.0 / (1.0 + np.exp(-x64))
    naive_value = np.asarray(jax.jit(naive_softplus)(x).astype(jnp.float32), np.float64)
    naive_grad = np.asarray(jax.jit(jax.vmap(jax.grad(naive_softplus)))(x).astype(jnp.float32), np.float64)
    custom_grad = np.asarray(jax.jit(jax.vmap(jax.grad(softplus)))(x).astype(jnp.float32), np.float64)
    tol = tolerance(dtype)
    naive_state, custom_state = classify(naive_grad, reference, tol), classify(custom_grad, reference, tol)
    return {"dtype": dtype, "x": x64, "reference": reference, "naive_value": naive_value,
            "naive_grad": naive_grad, "custom_grad": custom_grad, "tol": tol,
            "naive_state": naive_state, "custom_state": custom_state,
            "first_inf": first_x(x64, np.isinf(naive_value)),
            "first_wrong": first_x(x64, naive_state > 0),
            "first_wrong_finite": first_x(x64, naive_state == 1),
            "first_nan": first_x(x64, naive_state == 2),
            "custom_error": float(np.max(np.abs(custom_grad - reference))),
            "largest": float(jnp.finfo(dtype).max)}


def runs(states: np.ndarray, x: np.ndarray) -> list[tuple[int, float, float]]:
    """The maximal runs of equal states along ``x``: (state, first x, last x) each.

    >>> runs(np.array([0, 0, 1, 2, 2]), np.array([0.0, 1.0, 2.0, 3.0, 4.0]))
    [(0, 0.0, 1.0), (1, 2.0, 2.0), (2, 3.0, 4.0)]
    """
    edges = np.flatnonzero(np.diff(states)) + 1
    starts, ends = np.r_[0, edges], np.r_[edges - 1, len(states) - 1]
    return [(int(states[a]), float(x[a]), float(x[b])) for a, b in zip(starts, ends, strict=True)]


def text(value: float | None) -> str:
    """An ``x`` as the report prints it (``-`` for none).

    >>> text(87.34), text(None)
    ('87.34', '-')
    """
    return "-" if value is None else f"{value:,.2f}"


def plot(results: dict[str, dict], path: str, language: str = "en") -> None:
    """One row per dtype and version: where along ``x`` the gradient was right, wrong or NaN."""
    fig, ax = new_figure()
    colors = {0: "tab:green", 1: "tab:orange", 2: "tab:red"}
    names = {0: say(language, "맞음", "right"), 1: say(language, "유한하지만 틀림", "wrong (finite)"),
             2: say(language, "NaN", "NaN")}
    labels, drawn = [], set()
    for row, (dtype, result) in enumerate(results.items()):
        for k, (key, version) in enumerate((("naive_state", say(language, "단순한 식", "naive")),
                                            ("custom_state", say(language, "미분 규칙", "custom rule")))):
            y = 2 * row + k
            step = (result["x"][-1] - result["x"][0]) / max(len(result["x"]) - 1, 1)
            for state, lo, hi in runs(result[key], result["x"]):
                ax.broken_barh([(lo - step / 2, hi - lo + step)], (y - 0.35, 0.7), color=colors[state],
                               label=names[state] if state not in drawn else None)
                drawn.add(state)
            labels.append(f"{dtype} {version}")
    ax.set_yticks(range(len(labels)), labels, fontsize=11)
    ax.invert_yaxis()
    ax.set_xlabel("x")
    ax.set_title(say(language, "softplus 기울기가 맞는 구간", "where the softplus gradient is right")
                 + f"\n{jax.default_backend().upper()}, jax {jax.__version__}")
    ax.grid(True, axis="x", alpha=0.3)
    legend_below(fig, ax, columns=3)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=float, default=-20.0, help="first x of the sweep (default: %(default)s)")
    parser.add_argument("--stop", type=float, default=100.0, help="last x of the sweep (default: %(default)s)")
    parser.add_argument("--num", type=int, default=12001, help="points in the sweep (default: %(default)s)")
    parser.add_argument("--dtypes", nargs="+", default=list(DTYPES), choices=DTYPES,
                        help="dtypes to sweep (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    print(f"{machine()}; x from {args.start:,} to {args.stop:,}, {args.num:,} points; "
          "reference gradient: sigmoid(x) in float64")
    print(f"{'dtype':<9} {'largest value':>13} {'tolerance':>10} {'naive value inf':>16} "
          f"{'naive grad wrong':>17} {'naive grad NaN':>15} {'custom: largest error':>22}")
    results = {}
    for dtype in args.dtypes:
        r = results[dtype] = sweep(dtype, args.start, args.stop, args.num)
        print(f"{dtype:<9} {r['largest']:>13.4g} {r['tol']:>10.3g} {text(r['first_inf']):>16} "
              f"{text(r['first_wrong']):>17} {text(r['first_nan']):>15} {r['custom_error']:>22.3g}")
    write_plot(plot, args.plot, results)
    return results


if __name__ == "__main__":
    softplus_sweep = main()
