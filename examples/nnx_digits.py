"""Learning curves of the digits MLP in Flax NNX, with and without dropout.

The exercise of the lesson "Models with Flax NNX": the MLP of part 4 (64 → 128 → 128 → 10, ReLU)
gets an ``nnx.Dropout`` after each hidden layer, fed by the ``dropout`` stream of its ``nnx.Rngs``.
For each dropout rate the program trains a fresh model with ``optax.adam(1e-3)`` on minibatches of
64 drawn from ``jax.random.key(0)`` (the same minibatches for every rate), one ``nnx.jit`` step at
a time, and every ``--eval-every`` steps measures the accuracy on the test data through
``nnx.view(model, deterministic=True)``, a view of the same model with dropout switched off.
With two rates it then sets the last two models against each other image by image: on how many
test images only one of them was right, and whether that split is beyond luck (``sign_test_p``, a
two-sided sign test at 95%). One run per rate says nothing of the luck of the initialization.

    python examples/nnx_digits.py --steps 1500 --rates 0.0 0.2 --plot nnx_digits.png

writes nnx_digits.ko.png and nnx_digits.en.png: the same curves, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from digits import load_split  # noqa: E402
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import machine  # noqa: E402

BATCH = 64
LEARNING_RATE = 1e-3


class MLP(nnx.Module):
    """64 → 128 → 128 → 10 with ReLU, and dropout at ``rate`` after each hidden layer.

    >>> model = MLP(0.2, rngs=nnx.Rngs(0))
    >>> sum(p.size for p in jax.tree.leaves(nnx.state(model, nnx.Param)))
    26122
    >>> model(jnp.ones((3, 64))).shape
    (3, 10)

    One ``Dropout`` serves both layers: every call takes a new key from the stream, so two calls
    drop different units.

    >>> first, second = model.dropout(jnp.ones(64)), model.dropout(jnp.ones(64))
    >>> bool(jnp.any((first == 0) != (second == 0)))
    True
    """

    def __init__(self, rate: float, *, rngs: nnx.Rngs):
        self.linear1 = nnx.Linear(64, 128, rngs=rngs)
        self.linear2 = nnx.Linear(128, 128, rngs=rngs)
        self.linear3 = nnx.Linear(128, 10, rngs=rngs)
        self.dropout = nnx.Dropout(rate, rngs=rngs)   # draws its masks from the "dropout" stream

    def __call__(self, x):
        x = self.dropout(jax.nn.relu(self.linear1(x)))
        x = self.dropout(jax.nn.relu(self.linear2(x)))
        return self.linear3(x)


def loss_fn(model, x, y):
    return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)   # changes the model's parameters in place
    return loss


@nnx.jit
def accuracy_of(model, x, y):
    """The fraction of ``x`` whose largest logit is at label ``y``.

    >>> model = MLP(0.0, rngs=nnx.Rngs(0))
    >>> x = jnp.ones((4, 64))
    >>> float(accuracy_of(model, x, model(x).argmax(-1)))
    1.0
    """
    return (model(x).argmax(-1) == y).mean()


@nnx.jit
def correct_of(model, x, y):
    """For each row of ``x``, whether its largest logit is at label ``y``.

    >>> model = MLP(0.0, rngs=nnx.Rngs(0))
    >>> x = jnp.ones((4, 64))
    >>> correct_of(model, x, model(x).argmax(-1)).tolist()
    [True, True, True, True]
    """
    return model(x).argmax(-1) == y


def disagreements(correct_a, correct_b) -> tuple[int, int]:
    """How many images only model a got right, and how many only model b did.

    >>> disagreements([True, True, False, False], [True, False, True, True])
    (1, 2)
    """
    a, b = np.asarray(correct_a, bool), np.asarray(correct_b, bool)
    return int(np.sum(a & ~b)), int(np.sum(~a & b))


def sign_test_p(wins: int, losses: int) -> float:
    """Two-sided exact sign test: the chance of a split at least this uneven if each disagreement
    were a coin toss. Below 0.05, the split separates (95%); the images both models got right, or
    both wrong, say nothing about which is better.

    >>> round(sign_test_p(6, 4), 3), round(sign_test_p(15, 3), 4), sign_test_p(0, 0)
    (0.754, 0.0075, 1.0)
    """
    n = wins + losses
    tail = sum(math.comb(n, k) for k in range(min(wins, losses) + 1)) / 2**n
    return min(1.0, 2 * tail)


def initial_values(model) -> dict[str, np.ndarray]:
    """A copy, on the host, of the model's parameters by path (``nnx.state`` shares the live variables).

    >>> sorted(initial_values(MLP(0.0, rngs=nnx.Rngs(0))))[:2]
    ["['linear1']['bias'].value", "['linear1']['kernel'].value"]
    """
    leaves = jax.tree_util.tree_flatten_with_path(nnx.state(model, nnx.Param))[0]
    return {jax.tree_util.keystr(path): np.array(leaf) for path, leaf in leaves}


def train(rate: float, steps: int, eval_every: int, data=None) -> dict:
    """Train a fresh MLP with dropout ``rate`` for ``steps`` steps; record the mean training loss and
    the test accuracy every ``eval_every`` steps (and before the first).

    >>> run = train(0.2, steps=20, eval_every=10)
    >>> run["steps"], len(run["loss"]), 0.0 <= run["accuracy"][-1] <= 1.0
    ([0, 10, 20], 2, True)
    """
    X_train, X_test, y_train, y_test = data or load_split()
    model = MLP(rate, rngs=nnx.Rngs(params=0, dropout=1))
    optimizer = nnx.Optimizer(model, optax.adam(LEARNING_RATE), wrt=nnx.Param)
    batches = np.asarray(jax.random.randint(jax.random.key(0), (steps, BATCH), 0, len(X_train)))  # on the host

    def test_accuracy():
        return float(accuracy_of(nnx.view(model, deterministic=True), X_test, y_test))  # dropout off

    record = {"rate": rate, "steps": [0], "accuracy": [test_accuracy()], "loss": [],
              "initial": initial_values(model), "batches": batches}   # to check that runs start alike
    losses = []
    for step in range(1, steps + 1):
        idx = batches[step - 1]
        losses.append(train_step(model, optimizer, X_train[idx], y_train[idx]))
        if step % eval_every == 0 or step == steps:
            record["steps"].append(step)
            record["accuracy"].append(test_accuracy())
            record["loss"].append(float(jnp.mean(jnp.stack(losses))))  # one wait per evaluation
            losses = []
    record["correct"] = np.asarray(correct_of(nnx.view(model, deterministic=True), X_test, y_test))  # per image
    return record


def plot(runs: list[dict], path: str, language: str = "en") -> None:
    """Test accuracy against the training step, one line per dropout rate, from the first measurement
    after step 0 (the untrained model's accuracy, near 0.1, would flatten the curves)."""
    fig, ax = new_figure()
    for run in runs:
        label = say(language, f"드롭아웃 {run['rate']:g}", f"dropout {run['rate']:g}")
        ax.plot(run["steps"][1:], run["accuracy"][1:], marker="o", markersize=3, label=label)
    ax.set_xlabel(say(language, "스텝", "training step"))
    ax.set_ylabel(say(language, "테스트 데이터 정확도", "accuracy on the test data"))
    ax.set_title(say(language, "손글씨 숫자 분류 MLP의 학습 곡선", "learning curves of the digits MLP")
                 + f"\n{jax.default_backend().upper()}, jax {jax.__version__}")
    ax.grid(True, alpha=0.3)
    legend_below(fig, ax, columns=3)
    save(fig, path)


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1500, help="training steps per run (default: %(default)s)")
    parser.add_argument("--rates", type=float, nargs="+", default=[0.0, 0.2],
                        help="dropout rates, one run each (default: 0.0 0.2)")
    parser.add_argument("--eval-every", type=int, default=100,
                        help="steps between two accuracy measurements (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    print(f"{machine()}; {args.steps} steps of {BATCH} examples, adam({LEARNING_RATE:g}), minibatches from key 0")
    data = load_split()
    runs = [train(rate, args.steps, args.eval_every, data) for rate in args.rates]
    for run in runs:
        best = int(np.argmax(run["accuracy"]))
        print(f"dropout {run['rate']:g}: test accuracy {run['accuracy'][-1]:.4f} after {run['steps'][-1]} steps "
              f"(best {run['accuracy'][best]:.4f} at step {run['steps'][best]}); mean training loss of the last "
              f"{args.eval_every} steps {run['loss'][-1]:.4f}")
    if len(runs) == 2:
        wins, losses = disagreements(runs[1]["correct"], runs[0]["correct"])
        p = sign_test_p(wins, losses)
        print(f"dropout {runs[1]['rate']:g} against {runs[0]['rate']:g}: right where the other was wrong on {wins} "
              f"test images, wrong where it was right on {losses}; sign test p = {p:.3g}: "
              + ("the split separates (95%)" if p < 0.05 else "within the luck of which images disagree (95%)"))
    write_plot(plot, args.plot, runs)
    return runs


if __name__ == "__main__":
    runs = main()
