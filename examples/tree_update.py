"""One jitted SGD step over a whole parameter pytree against a Python loop of jitted per-leaf steps.

The exercise of the lesson "Pytrees": a parameter tree of n float32 leaves (n / 2 layers, each a
``w`` and a ``b``) and a gradient tree of the same structure are updated by ``p - lr * g``, two ways:

* ``whole tree``: one ``jax.jit`` function that maps the update over the whole tree
  (``jax.tree.map`` inside ``jit``): one call, one compiled program, one dispatch;
* ``per leaf``: a Python loop over the leaves (``jax.tree.map`` outside ``jit``) that calls a small
  jitted update once per leaf: n calls, n dispatches.

For each n it counts the dispatches of each way (calls of the jitted functions), checks that both
ways give the same tree, counts the fusions XLA put in the whole-tree program (in every computation
of it: on a GPU, XLA may merge small updates into one fusion, and may move fusions out of the entry
computation into command buffers), and times both ways at every n in one ``timing.compare``: every
variant interleaved, round by round, warm (compiled before timing). Tables give the median with the
spread (fastest to slowest); ``verdicts`` says, under ``timing.py``'s rule, how the two ways
compared at each n.

    python examples/tree_update.py --leaves 4 16 64 256 --plot tree_update.png

writes tree_update.ko.png and tree_update.en.png: the same measurements, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, legend_below, new_figure, plot_medians, save, say, write_plot  # noqa: E402
from timing import Comparison, Timing, compare, device, machine  # noqa: E402

DEFAULT_LEAVES = (4, 16, 64, 256)
WAYS = ("whole tree", "per leaf")
LEARNING_RATE = 0.01
dispatches = 0  # calls of the jitted functions below: each call launches one compiled program


def make_tree(n_leaves: int, size: int, seed: int = 0) -> dict:
    """A parameter-like pytree of ``n_leaves`` float32 vectors of length ``size``: ``n_leaves / 2``
    layers, each ``{"w": …, "b": …}``, made with NumPy and put on the device (nothing compiled).

    >>> tree = make_tree(4, 3)
    >>> sorted(tree), len(jax.tree.leaves(tree)), jax.tree.leaves(tree)[0].shape
    (['layer000', 'layer001'], 4, (3,))
    >>> make_tree(3, 3)
    Traceback (most recent call last):
    ...
    ValueError: n_leaves must be even (a w and a b per layer), not 3
    """
    if n_leaves % 2:
        raise ValueError(f"n_leaves must be even (a w and a b per layer), not {n_leaves}")
    rng = np.random.default_rng(seed)
    return {f"layer{i:03d}": {name: jax.device_put(rng.standard_normal(size, dtype=np.float32))
                              for name in ("w", "b")} for i in range(n_leaves // 2)}


@jax.jit
def _sgd_tree(params, grads):
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads)


@jax.jit
def _sgd_leaf(p, g):
    return p - LEARNING_RATE * g


def sgd_whole_tree(params, grads):
    """One jitted call that updates every leaf: ``p - lr * g`` mapped over the tree inside ``jit``.

    >>> new = sgd_whole_tree(make_tree(4, 3), make_tree(4, 3, seed=1))
    >>> jax.tree.structure(new) == jax.tree.structure(make_tree(4, 3))
    True
    """
    global dispatches
    dispatches += 1
    return _sgd_tree(params, grads)


def sgd_per_leaf(params, grads):
    """A Python loop over the leaves (``jax.tree.map`` outside ``jit``), one jitted call per leaf.

    >>> params, grads = make_tree(4, 3), make_tree(4, 3, seed=1)
    >>> looped, whole = sgd_per_leaf(params, grads), sgd_whole_tree(params, grads)
    >>> all(np.allclose(a, b) for a, b in zip(jax.tree.leaves(looped), jax.tree.leaves(whole), strict=True))
    True
    """
    def leaf(p, g):
        global dispatches
        dispatches += 1
        return _sgd_leaf(p, g)
    return jax.tree.map(leaf, params, grads)


UPDATES = {"whole tree": sgd_whole_tree, "per leaf": sgd_per_leaf}


def count_dispatches(way: str, params, grads) -> int:
    """How many compiled programs one update the way ``way`` says launches (calls of jitted functions).

    >>> [count_dispatches(way, make_tree(16, 3), make_tree(16, 3, seed=1)) for way in WAYS]
    [1, 16]
    """
    global dispatches
    before = dispatches
    jax.block_until_ready(UPDATES[way](params, grads))
    return dispatches - before


_FUSION = re.compile(r"^\s*(?:ROOT\s+)?%\S+\s*=\s*(.+?)\s+fusion\(", re.MULTILINE)


def fusion_census(hlo_text: str) -> dict:
    """The fusion instructions of an optimized HLO module, in every computation of it:
    ``fusions`` (how many), ``merged`` (how many have several outputs, so update several leaves
    at once), ``in_entry`` (how many sit in the entry computation itself) and ``outlined``
    (whether XLA moved some into command buffers, computations named ``command_buffer…`` that a
    GPU launches as one graph of kernels).

    >>> hlo = ("%command_buffer (p: f32[4]) -> (f32[4], f32[4]) {\\n"
    ...        "  ROOT %f = (f32[4]{0}, f32[4]{0}) fusion(%p, %q, %r, %s), kind=kLoop, calls=%h\\n}\\n"
    ...        "ENTRY %main (a: f32[4]) -> f32[4] {\\n"
    ...        "  %g = f32[4]{0} fusion(%a, %b), kind=kLoop, calls=%c\\n"
    ...        "  ROOT %t = (f32[4]{0}, f32[4]{0}) call(%a), to_apply=%command_buffer\\n}\\n")
    >>> fusion_census(hlo)
    {'fusions': 2, 'merged': 1, 'in_entry': 1, 'outlined': True}
    """
    entry = hlo_text[hlo_text.index("\nENTRY"):] if "\nENTRY" in hlo_text else hlo_text
    entry = entry[:entry.index("\n}")] if "\n}" in entry else entry
    outputs = [shape.count("[") for shape in _FUSION.findall(hlo_text)]
    return {"fusions": len(outputs), "merged": sum(k > 1 for k in outputs),
            "in_entry": len(_FUSION.findall(entry)),
            "outlined": bool(re.search(r"^%command_buffer", hlo_text, re.MULTILINE))}


def count_fusions(params, grads) -> dict:
    """``fusion_census`` of the compiled whole-tree program: how many loops over memory, kernels
    on a GPU, XLA made of the update (on a CPU, one per leaf).

    >>> census = count_fusions(make_tree(4, 3), make_tree(4, 3, seed=1))
    >>> census["fusions"] <= 4 and census["merged"] <= census["fusions"]
    True
    """
    return fusion_census(_sgd_tree.lower(params, grads).compile().as_text())


def variant(way: str, n: int) -> str:
    """The name of one way at one number of leaves in a measurement.

    >>> variant("per leaf", 16)
    'per leaf n=16'
    """
    return f"{way} n={n}"


def measure(leaf_counts, size: int = 1000, rounds: int = 15) -> dict:
    """Check both ways at every n, count their dispatches and the whole-tree program's fusions,
    then time them: ``{"dispatches": {n: {way: int}}, "fusions": {n: int}, "merged": {n: int},
    "outlined": {n: bool}, "timing": Comparison}`` (``fusion_census``'s figures by n), the
    Comparison holding every way at every n (``variant(way, n)``), interleaved, warm.

    >>> m = measure([4], size=8, rounds=6)
    >>> m["dispatches"], sorted(m["timing"].samples)
    ({4: {'whole tree': 1, 'per leaf': 4}}, ['per leaf n=4', 'whole tree n=4'])
    """
    trees = {n: (make_tree(n, size), make_tree(n, size, seed=1)) for n in leaf_counts}
    counts, census = {}, {}
    for n, (params, grads) in trees.items():
        whole, looped = sgd_whole_tree(params, grads), sgd_per_leaf(params, grads)
        assert jax.tree.structure(whole) == jax.tree.structure(looped) == jax.tree.structure(params)
        assert all(np.allclose(a, b) for a, b in zip(jax.tree.leaves(whole), jax.tree.leaves(looped), strict=True)), n
        counts[n] = {way: count_dispatches(way, params, grads) for way in WAYS}
        census[n] = count_fusions(params, grads)
    timing = compare({variant(way, n): (lambda f=UPDATES[way], t=trees[n]: f(*t))
                      for n in leaf_counts for way in WAYS}, rounds=rounds)
    return {"dispatches": counts, "timing": timing,
            **{key: {n: census[n][key] for n in census} for key in ("fusions", "merged", "outlined")}}


def by_leaves(comparison: Comparison, leaf_counts) -> dict[int, dict[str, Timing]]:
    """``{n: {way: Timing}}`` from a measurement of every way at every n.

    >>> c = Comparison({variant(way, 4): [0.001, 0.002] for way in WAYS})
    >>> by_leaves(c, [4])[4]["per leaf"].median
    0.0015
    """
    return {n: {way: comparison.timing(variant(way, n)) for way in WAYS} for n in leaf_counts}


def format_table(measured: dict, leaf_counts) -> str:
    """A plain-text table, one row per number of leaves: dispatches, fusions (in the whole program,
    and how many of them update several leaves at once) and median times.

    >>> m = {"dispatches": {4: {"whole tree": 1, "per leaf": 4}}, "fusions": {4: 4}, "merged": {4: 0},
    ...      "timing": Comparison({variant(way, 4): [0.001, 0.003] for way in WAYS})}
    >>> print(format_table(m, [4]))  # doctest: +NORMALIZE_WHITESPACE
     leaves  dispatches (tree / loop)  fusions  of several leaves                whole tree                  per leaf
          4                     1 / 4        4                  0       2.00 ms (1.00–3.00)       2.00 ms (1.00–3.00)
    """
    lines = [f"{'leaves':>7}{'dispatches (tree / loop)':>26}{'fusions':>9}{'of several leaves':>19}"
             + "".join(f"{way:>26}" for way in WAYS)]
    timings = by_leaves(measured["timing"], leaf_counts)
    for n in leaf_counts:
        d = measured["dispatches"][n]
        lines.append(f"{n:>7}{d['whole tree']:>20} / {d['per leaf']:<4}{measured['fusions'][n]:>8}"
                     f"{measured['merged'][n]:>19}" + "".join(f"{str(timings[n][way]):>26}" for way in WAYS))
    return "\n".join(lines)


LABELS = {"ko": {"whole tree": "트리 전체를 jit한 함수", "per leaf": "리프별 반복문"},
          "en": {"whole tree": "the whole-tree jit", "per leaf": "the per-leaf loop"}}


def way_labels(n: int) -> dict[str, dict[str, str]]:
    """Each way's name at ``n`` leaves, for ``Comparison.sentences``, in Korean and English.

    >>> way_labels(4)["per leaf n=4"]
    {'ko': '리프별 반복문', 'en': 'the per-leaf loop'}
    """
    return {variant(way, n): {language: LABELS[language][way] for language in LABELS} for way in WAYS}


def verdicts(comparison: Comparison, leaf_counts) -> list[str]:
    """One line per n saying, under ``timing.py``'s rule, how the whole-tree jit compared with
    the per-leaf loop.

    >>> ms = [1e-3, 1.1e-3, 0.9e-3, 1e-3, 1.2e-3, 1e-3]
    >>> c = Comparison({variant(way, 4): [t * (3 if way == "per leaf" else 1) for t in ms] for way in WAYS})
    >>> print(verdicts(c, [4])[0].split(" (median")[0])
    4 leaves: the whole-tree jit was 3.00× faster than the per-leaf loop
    """
    return [f"{n} leaves: " + comparison.sentences(variant("whole tree", n), variant("per leaf", n),
                                                   way_labels(n))["en"] for n in leaf_counts]


def plot(results: dict[int, dict[str, Timing]], path: str, language: str = "en") -> None:
    """Write a log-log plot of the median time of one update against the number of leaves, one
    line per way, labelled in ``language``."""
    fig, ax = new_figure()
    plot_medians(ax, results, WAYS, labels=LABELS[language], language=language)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(say(language, "리프 수", "number of leaves"))
    ax.set_title(say(language, "SGD 한 스텝(웜 호출)", "one SGD step (warm calls)") + f"\n{device()}")
    legend_below(fig, ax)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leaves", type=int, nargs="+", default=list(DEFAULT_LEAVES),
                        help="numbers of leaves to time, each even (default: %(default)s)")
    parser.add_argument("--size", type=int, default=1000,
                        help="length of each float32 leaf (default: 1000)")
    parser.add_argument("--rounds", type=int, default=15,
                        help="interleaved rounds of the measurement, 6 or more (default: 15)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    leaf_counts = sorted(set(args.leaves))
    print(f"{machine()}; leaves of {args.size:,} float32; both ways at every n measured interleaved, "
          f"{args.rounds} rounds, warm")
    measured = measure(leaf_counts, args.size, args.rounds)
    print(format_table(measured, leaf_counts))
    outlined = [n for n in leaf_counts if measured["outlined"][n]]
    print("fusions: in every computation of the whole-tree program"
          + (f"; XLA put some in command buffers at n = {', '.join(map(str, outlined))}" if outlined else ""))
    print("\n" + "\n".join(verdicts(measured["timing"], leaf_counts)))
    write_plot(plot, args.plot, by_leaves(measured["timing"], leaf_counts))
    return measured


if __name__ == "__main__":
    measured = main()
