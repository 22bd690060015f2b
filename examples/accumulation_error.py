"""How much a running sum loses in each accumulation dtype, and which dtype an error budget needs.

The exercise of the lesson "Precision and dtypes". A sum kept in a narrow dtype rounds after every
addition, so once the total is large its spacing swallows what is added. The program measures this
with ``jax.lax.scan`` (one addition per step, the carry in the accumulation dtype, so nothing
widens it):

* **counting**: the running sum of ones, 1 + 1 + 1 + …, in bfloat16, float16 and float32. A dtype
  with ``p`` significant bits (``jnp.finfo(dtype).nmant + 1``) represents every integer up to 2^p,
  so the prediction is that the first wrong count is n = 2^p + 1. To check float32 (2^24 steps)
  without running them all, each scan starts from a total of max(0, 2^p − 512), which is exact,
  and counts on from there. The recorded sums are in the accumulation dtype, so the count is wrong
  at 2^p + 1 whatever the compiler does; whether the total then stays at 2^p (the carry really
  rounded to the dtype at every step) is checked too, since a compiler allowed excess precision
  could keep it wider;
* **an error budget**: ``--length`` numbers drawn uniformly from [0, 1), stored in bfloat16 (the
  data), summed by a running sum in each accumulation dtype; the relative error against NumPy's
  float64 sum of the same bfloat16 values at every power of two up to ``--length``, and for each
  length the narrowest accumulation dtype within ``--budget``.

    python examples/accumulation_error.py --length 32768 --budget 1e-2 --plot accumulation_error.png

writes accumulation_error.ko.png and accumulation_error.en.png: the same errors, labelled in
Korean and in English.
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

ACCUMULATORS = ("bfloat16", "float16", "float32")  # narrowest first
WINDOW = 1024  # steps of each counting scan


def significant_bits(dtype: str) -> int:
    """Bits of precision of a floating dtype, the implicit leading bit included.

    >>> [significant_bits(d) for d in ACCUMULATORS]
    [8, 11, 24]
    """
    return int(jnp.finfo(dtype).nmant) + 1


def running_sums(values, start, dtype: str):
    """Every partial sum ``start + values[0] + … + values[i]``, each addition rounded to ``dtype``.

    >>> running_sums(jnp.ones(4), 0, "float32").tolist()
    [1.0, 2.0, 3.0, 4.0]
    >>> running_sums(jnp.ones(3), 256, "bfloat16").tolist()  # 257 is not a bfloat16: 256 + 1 rounds to 256
    [256.0, 256.0, 256.0]
    """
    def add(total, value):
        total = total + value.astype(dtype)  # both operands in dtype: the sum is rounded to dtype
        return total, total

    _, sums = jax.lax.scan(add, jnp.asarray(start, dtype), jnp.asarray(values))
    return sums


def first_wrong_count(dtype: str) -> dict:
    """Count ones in ``dtype`` from an exact start near the predicted limit; the first n that is wrong,
    and whether the total stalled there (every later sum equal to 2^p).

    >>> c = first_wrong_count("bfloat16")
    >>> c["measured"], c["stalled"]
    (257, True)
    """
    predicted = 2 ** significant_bits(dtype) + 1
    start = max(0, predicted - 1 - WINDOW // 2)
    assert float(jnp.asarray(start, dtype)) == start, "the scan must start from an exact total"
    sums = np.asarray(jax.jit(running_sums, static_argnums=2)(jnp.ones(WINDOW), start, dtype), np.float64)
    counts = start + np.arange(1, WINDOW + 1)
    wrong = np.flatnonzero(sums != counts)
    stalled = bool(wrong.size) and bool(np.all(sums[wrong[0]:] == predicted - 1))
    return {"dtype": dtype, "bits": significant_bits(dtype), "predicted": predicted, "start": start,
            "measured": int(counts[wrong[0]]) if wrong.size else None, "stalled": stalled}


def budget_table(length: int, seed: int = 0) -> dict:
    """Relative error of a running sum of ``length`` bfloat16 values, per accumulation dtype, at every
    power of two from 16 up to ``length``, against NumPy's float64 sum of the same values.

    >>> t = budget_table(64)
    >>> t["lengths"], t["errors"]["float32"][-1] < t["errors"]["bfloat16"][-1]
    ([16, 32, 64], True)
    """
    data = jax.random.uniform(jax.random.key(seed), (length,), jnp.float32).astype(jnp.bfloat16)
    exact = np.cumsum(np.asarray(data, np.float64))  # every partial sum, in float64
    lengths = [2**k for k in range(4, length.bit_length()) if 2**k <= length]
    errors = {}
    for dtype in ACCUMULATORS:
        sums = np.asarray(jax.jit(running_sums, static_argnums=2)(data, 0, dtype), np.float64)
        errors[dtype] = [float(abs(sums[n - 1] - exact[n - 1]) / exact[n - 1]) for n in lengths]
    return {"lengths": lengths, "errors": errors}


def narrowest(errors: dict[str, list[float]], index: int, budget: float) -> str | None:
    """The first (narrowest) accumulation dtype whose error at ``index`` is within ``budget``.

    >>> narrowest({"bfloat16": [0.1], "float16": [1e-4], "float32": [1e-8]}, 0, 1e-3)
    'float16'
    >>> narrowest({"bfloat16": [0.1], "float16": [0.1], "float32": [0.1]}, 0, 1e-3) is None
    True
    """
    return next((dtype for dtype in ACCUMULATORS if errors[dtype][index] <= budget), None)


def within_budget(errors: dict[str, list[float]], lengths: list[int], budget: float) -> dict[str, int | None]:
    """For each accumulation dtype, the largest length up to which every measured error is within ``budget``.

    >>> within_budget({"bfloat16": [1e-3, 1e-1], "float16": [1e-4, 1e-4], "float32": [0.2, 0.0]}, [16, 32], 1e-2)
    {'bfloat16': 16, 'float16': 32, 'float32': None}
    """
    longest = {}
    for dtype in ACCUMULATORS:
        ok = [n for n, e in zip(lengths, errors[dtype], strict=True) if e <= budget]
        bad = [n for n, e in zip(lengths, errors[dtype], strict=True) if e > budget]
        longest[dtype] = max((n for n in ok if not bad or n < min(bad)), default=None)
    return longest


def plot(table: dict, budget: float, path: str, language: str = "en") -> None:
    """Relative error against length, one line per accumulation dtype, and the budget."""
    fig, ax = new_figure()
    for dtype in ACCUMULATORS:
        errors = [max(e, 1e-10) for e in table["errors"][dtype]]  # an exact sum drawn at the floor
        ax.plot(table["lengths"], errors, marker="o", label=say(language, f"{dtype} 누적", f"{dtype} accumulator"))
    ax.axhline(budget, color="gray", linestyle="--", linewidth=1, label=say(language, "오차 예산", "error budget"))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(say(language, "더한 수의 개수 n", "numbers summed, n"))
    ax.set_ylabel(say(language, "상대 오차 (float64 기준)", "relative error (vs float64)"))
    ax.set_title(say(language, "bfloat16 데이터를 차례로 더한 합의 오차", "running sum of bfloat16 data")
                 + f"\n{jax.default_backend().upper()}, jax {jax.__version__}")
    ax.grid(True, which="both", alpha=0.3)
    legend_below(fig, ax, columns=2)
    save(fig, path)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--length", type=int, default=2**15,
                        help="how many bfloat16 numbers the budget part sums (default: %(default)s)")
    parser.add_argument("--budget", type=float, default=1e-2,
                        help="the relative error allowed (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    print(f"{machine()}")
    print("counting ones: the first n whose running sum is not n (predicted 2^p + 1, p significant bits)")
    counts = {dtype: first_wrong_count(dtype) for dtype in ACCUMULATORS}
    for dtype, c in counts.items():
        after = "stays at" if c["stalled"] else "does not stay at"
        print(f"  {dtype:<9} p = {c['bits']:>2}: predicted {c['predicted']:,}, measured {c['measured']:,}, then the "
              f"total {after} {c['predicted'] - 1:,} (scan of {WINDOW:,} steps from an exact {c['start']:,})")
    table = budget_table(args.length)
    print(f"running sum of n bfloat16 numbers from [0, 1): relative error vs float64; budget {args.budget:g}")
    print(f"  {'n':>7} " + " ".join(f"{dtype:>10}" for dtype in ACCUMULATORS) + "  narrowest within budget")
    choice = []
    for i, n in enumerate(table["lengths"]):
        choice.append(narrowest(table["errors"], i, args.budget))
        print(f"  {n:>7,} " + " ".join(f"{table['errors'][d][i]:>10.2e}" for d in ACCUMULATORS)
              + f"  {choice[-1] or 'none'}")
    longest = within_budget(table["errors"], table["lengths"], args.budget)
    for dtype in ACCUMULATORS:
        print(f"  {dtype} accumulator: within the budget at every n up to {longest[dtype] or 'none'}"
              + (" (all lengths measured)" if longest[dtype] == table["lengths"][-1] else ""))
    write_plot(plot, args.plot, table, args.budget)
    return {"counts": counts, "table": table, "choice": choice, "budget": args.budget, "longest": longest}


if __name__ == "__main__":
    accumulation = main()
