"""An epoch loop over a dataset whose size is not a multiple of the batch size, three ways.

The exercise of the lesson "When shapes change: padding and bucketing". A small two-layer network is
trained with SGD on a synthetic regression dataset of ``--dataset-size`` examples, in batches of
``--batch-size``, for ``--epochs`` epochs, and the batches are built three ways:

* ``ragged``: the last batch keeps its smaller size (dataset size % batch size rows), a second shape;
* ``padded``: every batch is padded to the batch size, with a mask that gives padded rows no weight;
* ``bucketed``: the last batch is padded up to the nearest of ``--buckets`` sizes (equal steps up to
  the batch size), also with a mask.

Each way gets a freshly jitted training step. The program counts that step's XLA compilations (JAX
reports each one as a ``jax.monitoring`` event), times the first epoch (cold: compilation included)
apart from the later ones (warm), each as a median with its spread, and checks that the ways end
with the same parameters: the mask makes padding change nothing but the shapes. The ways are timed
together, interleaved (``timing.compare``), and compared under the site's rule: a sentence says one
was faster only when the measurements separate.

    python examples/ragged_batches.py --dataset-size 10000 --batch-size 512 --epochs 10 --plot epochs.png

writes epochs.ko.png and epochs.en.png: the same measurements, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import MIN_ROUNDS, Comparison, compare, machine  # noqa: E402

STRATEGIES = ("ragged", "padded", "bucketed")
N_FEATURES = 32
N_HIDDEN = 64
COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"

COMPILES: Counter = Counter()  # XLA compilations seen so far, by function name ("jit(train_step)")
_listening = {"on": False}


def listen_for_compiles() -> None:
    """Count every XLA compilation in ``COMPILES``, by the name JAX gives it (register once).

    >>> listen_for_compiles()
    >>> before = COMPILES["jit(double)"]
    >>> def double(x):
    ...     return 2 * x
    >>> f = jax.jit(double)
    >>> _ = f(jnp.ones(3)), f(jnp.ones(3)), f(jnp.ones(4))
    >>> COMPILES["jit(double)"] - before
    2
    """
    if _listening["on"]:
        return

    def on_duration(event, _seconds, **kwargs):
        if event == COMPILE_EVENT:
            COMPILES[kwargs.get("fun_name", "?")] += 1

    jax.monitoring.register_event_duration_secs_listener(on_duration)
    _listening["on"] = True


def make_dataset(size: int, seed: int = 0):
    """``size`` examples of a noisy nonlinear regression problem, as NumPy float32 arrays.

    >>> x, y = make_dataset(5)
    >>> x.shape, y.shape, x.dtype
    ((5, 32), (5,), dtype('float32'))
    """
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((size, N_FEATURES), dtype=np.float32)
    w = rng.standard_normal(N_FEATURES, dtype=np.float32) / np.sqrt(N_FEATURES)
    y = np.tanh(x @ w) + 0.1 * rng.standard_normal(size, dtype=np.float32)
    return x, y.astype(np.float32)


def init_params(seed: int = 1) -> dict:
    """The two-layer network's parameters (a pytree of float32 arrays).

    >>> {k: v.shape for k, v in init_params().items()}
    {'w1': (32, 64), 'b1': (64,), 'w2': (64,)}
    """
    rng = np.random.default_rng(seed)
    return {
        "w1": jnp.asarray(rng.standard_normal((N_FEATURES, N_HIDDEN), dtype=np.float32) / np.sqrt(N_FEATURES)),
        "b1": jnp.zeros(N_HIDDEN, jnp.float32),
        "w2": jnp.asarray(rng.standard_normal(N_HIDDEN, dtype=np.float32) / np.sqrt(N_HIDDEN)),
    }


def masked_loss(params, x, y, mask):
    """Mean squared error over the rows where ``mask`` is 1; rows where it is 0 count for nothing.

    >>> p = init_params()
    >>> x, y = make_dataset(3)
    >>> padded_x = jnp.concatenate([x, jnp.zeros((2, N_FEATURES))])
    >>> padded_y = jnp.concatenate([y, jnp.zeros(2)])
    >>> a = masked_loss(p, x, y, jnp.ones(3))
    >>> b = masked_loss(p, padded_x, padded_y, jnp.array([1.0, 1, 1, 0, 0]))
    >>> bool(jnp.allclose(a, b))
    True
    """
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    errors = (hidden @ params["w2"] - y) ** 2
    return jnp.sum(mask * errors) / jnp.sum(mask)


def make_train_step(learning_rate: float = 0.05):
    """A freshly jitted SGD step ``(params, x, y, mask) -> (params, loss)``, with an empty cache.

    Each call defines a new function object, so its compilations are its own (JAX shares the
    cache between two ``jax.jit`` wrappers of one function).

    >>> step = make_train_step()
    >>> x, y = make_dataset(4)
    >>> params, loss = step(init_params(), x, y, jnp.ones(4))
    >>> sorted(params), loss.shape
    (['b1', 'w1', 'w2'], ())
    """

    def train_step(params, x, y, mask):
        loss, grads = jax.value_and_grad(masked_loss)(params, x, y, mask)
        params = jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)
        return params, loss

    return jax.jit(train_step)


def bucket_sizes(batch_size: int, buckets: int) -> list[int]:
    """``buckets`` batch sizes in equal steps up to ``batch_size`` (the last bucket is the full batch).

    >>> bucket_sizes(512, 4)
    [128, 256, 384, 512]
    >>> bucket_sizes(100, 3)
    [34, 67, 100]
    """
    return [math.ceil(batch_size * k / buckets) for k in range(1, buckets + 1)]


def padded_size(rows: int, strategy: str, batch_size: int, buckets: int) -> int:
    """How many rows a batch of ``rows`` examples has after the strategy pads it.

    >>> [padded_size(272, s, 512, 4) for s in ("ragged", "padded", "bucketed")]
    [272, 512, 384]
    """
    if strategy == "ragged":
        return rows
    if strategy == "padded":
        return batch_size
    if strategy == "bucketed":
        return next(size for size in bucket_sizes(batch_size, buckets) if size >= rows)
    raise ValueError(f"unknown strategy {strategy!r}; choose from {STRATEGIES}")


def make_batches(x, y, batch_size: int, strategy: str, buckets: int = 4) -> list:
    """Cut (x, y) into batches ``(x, y, mask)`` on the device, padded the way ``strategy`` says.

    Padded rows are zeros with mask 0. The batches are built once, before any timing.

    >>> x, y = make_dataset(10)
    >>> [b[0].shape[0] for b in make_batches(x, y, 4, "ragged")]
    [4, 4, 2]
    >>> [b[0].shape[0] for b in make_batches(x, y, 4, "padded")]
    [4, 4, 4]
    >>> x, y = make_dataset(9)
    >>> [b[2].tolist() for b in make_batches(x, y, 4, "bucketed", buckets=2)][-1]
    [1.0, 0.0]
    """
    batches = []
    for start in range(0, len(x), batch_size):
        xb, yb = x[start:start + batch_size], y[start:start + batch_size]
        rows = len(xb)
        pad = padded_size(rows, strategy, batch_size, buckets) - rows
        mask = np.concatenate([np.ones(rows, np.float32), np.zeros(pad, np.float32)])
        xb = np.concatenate([xb, np.zeros((pad, x.shape[1]), np.float32)])
        yb = np.concatenate([yb, np.zeros(pad, np.float32)])
        batches.append((jnp.asarray(xb), jnp.asarray(yb), jnp.asarray(mask)))
    return batches


def run_epoch(step, params, batches):
    """One pass over ``batches``; returns the final parameters and the mean batch loss, both ready.

    >>> x, y = make_dataset(10)
    >>> params, loss = run_epoch(make_train_step(), init_params(), make_batches(x, y, 4, "padded"))
    >>> bool(loss > 0)
    True
    """
    losses = []
    for xb, yb, mask in batches:
        params, loss = step(params, xb, yb, mask)
        losses.append(loss)
    params, losses = jax.block_until_ready((params, losses))
    return params, float(np.mean(jax.device_get(losses)))


def train_all(strategies, dataset_size: int, batch_size: int, epochs: int, buckets: int = 4,
              cold_rounds: int = MIN_ROUNDS) -> tuple[dict, Comparison, Comparison]:
    """Train every strategy ``epochs`` epochs, timing the strategies together; count compilations.

    The first epoch is the cold one: each run makes a fresh step (so it compiles what it needs) and
    starts from the initial parameters. ``compare`` times it for all strategies interleaved, in
    ``cold_rounds`` rounds; the last run leaves each strategy one epoch into training. The later
    ``epochs - 1`` epochs are the warm ones, timed interleaved too, one round per epoch, so every
    strategy ends after exactly ``epochs`` epochs from the same start.

    Returns, per strategy: the step's compilations in a first epoch and in all later ones, the
    cold and warm timings, the batch sizes the step saw, the padded rows per epoch, the final
    parameters and loss; and the two comparisons (cold, warm).

    >>> results, cold, warm = train_all(["ragged", "padded"], dataset_size=10, batch_size=4, epochs=7)
    >>> [(r["compiles first epoch"], r["compiles later epochs"], r["batch sizes"]) for r in results.values()]
    [(2, 0, [2, 4]), (1, 0, [4])]
    >>> cold.rounds, warm.rounds
    (6, 6)
    """
    if epochs - 1 < MIN_ROUNDS:
        raise ValueError(f"epochs must be at least {MIN_ROUNDS + 1}: one cold epoch, then {MIN_ROUNDS} warm "
                         "rounds, the fewest that can separate (see timing.py)")
    listen_for_compiles()
    x, y = make_dataset(dataset_size)
    batches = {s: make_batches(x, y, batch_size, s, buckets) for s in strategies}
    state = {s: {"step": None, "params": None, "loss": None, "first": [], "later": 0} for s in strategies}

    def epoch(strategy: str):
        """One epoch of ``strategy`` with its current step; its compilations are noted."""
        mine = state[strategy]
        before = COMPILES["jit(train_step)"]
        mine["params"], mine["loss"] = run_epoch(mine["step"], mine["params"], batches[strategy])
        return COMPILES["jit(train_step)"] - before

    def first_epoch(strategy: str):
        def run():
            state[strategy]["step"], state[strategy]["params"] = make_train_step(), init_params()
            state[strategy]["first"].append(epoch(strategy))
            return state[strategy]["params"]
        return run

    def later_epoch(strategy: str):
        def run():
            state[strategy]["later"] += epoch(strategy)
            return state[strategy]["params"]
        return run

    cold = compare({s: first_epoch(s) for s in strategies}, rounds=cold_rounds, warmup=0)
    warm = compare({s: later_epoch(s) for s in strategies}, rounds=epochs - 1, warmup=0)
    results = {}
    for s in strategies:
        first = state[s]["first"]
        assert len(set(first)) == 1, first  # every fresh step compiles alike
        results[s] = {
            "compiles first epoch": first[0],
            "compiles later epochs": state[s]["later"],
            "cold": cold.timing(s),
            "warm": warm.timing(s),
            "batch sizes": sorted({int(b[0].shape[0]) for b in batches[s]}),
            "padded rows": sum(int(b[0].shape[0]) for b in batches[s]) - dataset_size,
            "params": state[s]["params"],
            "loss": float(state[s]["loss"]),
        }
    return results, cold, warm


def same_params(a: dict, b: dict, rtol: float = 1e-3, atol: float = 1e-4) -> bool:
    """Whether two parameter pytrees agree within float32 rounding (and TF32 matmuls on a GPU).

    >>> same_params(init_params(), init_params())
    True
    """
    return all(np.allclose(a[k], b[k], rtol=rtol, atol=atol) for k in a)


def format_table(results: dict) -> str:
    """A plain-text table: compilations, batch sizes, padded rows, and the first and later epochs'
    times as median (fastest–slowest) in milliseconds.

    >>> from timing import Timing
    >>> row = {"compiles first epoch": 1, "compiles later epochs": 0, "batch sizes": [4],
    ...        "padded rows": 2, "cold": Timing([0.1, 0.12]), "warm": Timing([0.001, 0.002]), "loss": 0.5}
    >>> print(format_table({"padded": row}))  # doctest: +NORMALIZE_WHITESPACE
    strategy  compiles  batch sizes  padded rows  first epoch (cold)    later epochs (warm)   loss
      padded         1          [4]            2  110 ms (100–120)      1.50 ms (1.00–2.00)   0.5000
    """
    header = f"{'strategy':>8}  {'compiles':>8}  {'batch sizes':>11}  {'padded rows':>11}  " \
             f"{'first epoch (cold)':<20}  {'later epochs (warm)':<20}  {'loss':>6}"
    rows = [header]
    for name, r in results.items():
        compiles = r["compiles first epoch"] + r["compiles later epochs"]
        rows.append(f"{name:>8}  {compiles:>8}  {str(r['batch sizes']):>11}  {r['padded rows']:>11}  "
                    f"{str(r['cold']):<20}  {str(r['warm']):<20}  {r['loss']:>6.4f}")
    return "\n".join(rows)


def verdicts(comparison: Comparison, reference: str = "ragged") -> list[str]:
    """The site's sentence (in English) for every strategy of ``comparison`` against ``reference``.

    >>> c = Comparison({"ragged": [2.0] * 6, "padded": [1.0] * 6})
    >>> verdicts(c)
    ['padded was 2.00× faster than ragged (median of the per-round ratios; median times 1,000 ms and 2,000 ms)']
    """
    labels = {name: {"ko": f"{name} 쪽", "en": name} for name in comparison.samples}
    return [comparison.sentences(name, reference, labels)["en"]
            for name in comparison.samples if name != reference and reference in comparison.samples]


def plot(results: dict, path: str, language: str = "en") -> None:
    """Bars of the first epoch (compiles included) and of the later epochs, medians with their
    fastest–slowest range, per strategy, labelled in ``language``."""
    fig, ax = new_figure()
    names = list(results)
    positions = np.arange(len(names))
    first = say(language, "첫 에포크(컴파일 포함)", "first epoch (compiles included)")
    for offset, key, label in ((-0.2, "cold", first), (0.2, "warm", say(language, "이후 에포크", "later epochs"))):
        medians = np.array([results[n][key].median for n in names]) * 1e3  # bars: median; lines: fastest-slowest
        spread = [medians - [results[n][key].fastest * 1e3 for n in names],
                  [results[n][key].slowest * 1e3 for n in names] - medians]
        ax.bar(positions + offset, medians, width=0.4, yerr=spread, capsize=3, label=label)
    cold = [results[n]["cold"].slowest * 1e3 for n in names]
    for i, n in enumerate(names):
        compiles = results[n]["compiles first epoch"] + results[n]["compiles later epochs"]
        ax.annotate(say(language, f"컴파일 {compiles}회", f"{compiles} compile(s)"), (positions[i] - 0.2, cold[i]),
                    ha="center", va="bottom", fontsize=11)
    ax.set_xticks(positions, names)
    ax.set_yscale("log")
    ax.set_ylim(top=max(cold) * 5)  # room for the compile counts above the bars
    ax.set_ylabel(say(language, "에포크 시간 (ms)", "epoch time (ms)"))
    ax.set_title(say(language, f"컴파일 횟수와 에포크 시간 ({jax.default_backend().upper()})",
                     f"compiles and epoch time ({jax.default_backend().upper()})"))
    legend_below(fig, ax, columns=1, title=say(language, "중앙값과 범위", "median and range"))
    save(fig, path)


def main(argv: list[str] | None = None) -> tuple[dict, Comparison, Comparison]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset-size", type=int, default=10_000, help="examples in the dataset (default: 10000)")
    parser.add_argument("--batch-size", type=int, default=512, help="examples per batch (default: 512)")
    parser.add_argument("--epochs", type=int, default=MIN_ROUNDS + 1,
                        help=f"epochs per strategy, at least {MIN_ROUNDS + 1}: the first is the cold one, the "
                             f"others are the warm rounds (default: {MIN_ROUNDS + 1})")
    parser.add_argument("--buckets", type=int, default=4,
                        help="bucket sizes for 'bucketed', in equal steps up to the batch size (default: 4)")
    parser.add_argument("--strategies", nargs="+", choices=STRATEGIES, default=list(STRATEGIES),
                        help="which ways to build the batches, two or more (default: all three)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    if args.epochs < MIN_ROUNDS + 1:
        parser.error(f"--epochs must be at least {MIN_ROUNDS + 1} (one cold epoch, then {MIN_ROUNDS} warm rounds)")
    if len(set(args.strategies)) < 2:
        parser.error("--strategies needs two or more: they are measured against each other")
    strategies = list(dict.fromkeys(args.strategies))
    full, last = divmod(args.dataset_size, args.batch_size)
    print(f"{machine()}; "
          f"{args.dataset_size} examples = {full} batches of {args.batch_size} + {last}; {args.epochs} epochs; "
          f"buckets {bucket_sizes(args.batch_size, args.buckets)}")
    results, cold, warm = train_all(strategies, args.dataset_size, args.batch_size, args.epochs, args.buckets)
    print(format_table(results))
    for title, comparison in (("first epochs", cold), ("later epochs", warm)):
        for sentence in verdicts(comparison):
            print(f"{title}, interleaved: {sentence}")
    first = results[strategies[0]]["params"]
    agree = all(same_params(first, r["params"]) for r in results.values())
    print("same final parameters:", agree)
    write_plot(plot, args.plot, results)
    return results, cold, warm


if __name__ == "__main__":
    results, cold, warm = main()
