"""Train an MLP on scikit-learn's digits with two Optax optimizers and draw their learning curves.

The exercise of the lesson "A training loop with Optax". The data are the 1,797 8×8 images of
``sklearn.datasets.load_digits`` (bundled with scikit-learn: nothing is downloaded), scaled to
[0, 1] and split 75/25, stratified, with ``random_state=0``. The model is an MLP 64 → 128 → 128 → 10
with ReLU, kept as a plain pytree (a list of ``{"W", "b"}`` dicts, He-normal weights, zero biases),
and the loss is softmax cross-entropy. Two optimizers train the same initial parameters on the same
minibatches (64 examples drawn with ``jax.random`` from key 0, inside the jitted step):

* ``adam``: ``optax.adam(1e-3)``;
* ``clip+schedule``: ``optax.chain(optax.clip_by_global_norm(1.0), optax.adam(schedule))``, where the
  schedule warms up linearly from 0 to 3e-3 over the first 100 steps and then decays along a cosine
  to 1e-5 at the last step (``optax.warmup_cosine_decay_schedule``).

The step is ``jax.jit(train_step, donate_argnums=(0, 1))``: the parameters and the optimizer state
are donated. Every ``--eval-every`` steps the program reads the mean training loss of the steps since
the last evaluation, the accuracy on the test data, and the global norms of those steps' gradients:
the only moments the loop waits for the device. A step whose gradients' global norm is above 1 is
one on which ``clip_by_global_norm(1.0)`` acts (for ``clip+schedule``); the program counts them.

    python examples/digits_training.py --steps 1500 --plot digits_training.png

writes digits_training.ko.png and digits_training.en.png: the same learning curves, labelled in
Korean and in English.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import optax

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from digits import load_split  # noqa: E402
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import machine  # noqa: E402

SIZES = (64, 128, 128, 10)
BATCH = 64
OPTIMIZERS = ("adam", "clip+schedule")
TARGET = 0.95  # the test accuracy whose first crossing the program reports


def init_mlp(key, sizes=SIZES):
    """A list of ``{"W", "b"}`` layers: He-normal weights (standard deviation √(2 / fan-in)), zero biases.

    >>> params = init_mlp(jax.random.key(1))
    >>> [(layer["W"].shape, layer["b"].shape) for layer in params]
    [((64, 128), (128,)), ((128, 128), (128,)), ((128, 10), (10,))]
    """
    keys = jax.random.split(key, len(sizes) - 1)
    return [{"W": jax.random.normal(k, (n_in, n_out)) * jnp.sqrt(2.0 / n_in), "b": jnp.zeros(n_out)}
            for k, n_in, n_out in zip(keys, sizes[:-1], sizes[1:], strict=True)]


def predict(params, x):
    """The logits of the MLP for a batch ``x`` (ReLU between the layers, none after the last)."""
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["W"] + layer["b"])
    return x @ params[-1]["W"] + params[-1]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy of the logits against integer labels ``y``."""
    return optax.softmax_cross_entropy_with_integer_labels(predict(params, x), y).mean()


@jax.jit
def accuracy(params, x, y):
    """The fraction of ``x`` whose largest logit is at its label."""
    return jnp.mean(jnp.argmax(predict(params, x), axis=-1) == y)


def make_optimizer(name: str, steps: int):
    """The optimizer ``name`` (one of ``OPTIMIZERS``) for a run of ``steps`` steps, and its learning
    rate as a function of the step (a schedule; a constant for ``adam``).

    >>> tx, rate = make_optimizer("clip+schedule", 1500)
    >>> [round(float(rate(s)), 6) for s in (0, 50, 100, 1500)]
    [0.0, 0.0015, 0.003, 1e-05]
    >>> make_optimizer("sgd", 10)
    Traceback (most recent call last):
    ...
    ValueError: optimizer must be one of ('adam', 'clip+schedule'), not 'sgd'
    """
    if name == "adam":
        return optax.adam(1e-3), optax.constant_schedule(1e-3)
    if name == "clip+schedule":
        schedule = optax.warmup_cosine_decay_schedule(init_value=0.0, peak_value=3e-3, warmup_steps=100,
                                                      decay_steps=steps, end_value=1e-5)
        return optax.chain(optax.clip_by_global_norm(1.0), optax.adam(schedule)), schedule
    raise ValueError(f"optimizer must be one of {OPTIMIZERS}, not {name!r}")


def make_step(tx):
    """The jitted training step for ``tx``, donating the parameters and the optimizer state.

    ``step(params, opt_state, key, X, y)`` draws a minibatch of ``BATCH`` rows of ``X`` with ``key``
    and returns ``(params, opt_state, key, loss, grad_norm)``: the new state, the next key, the loss
    before the update, and the global norm of the gradients (before any clipping).

    >>> tx, _ = make_optimizer("adam", 10)
    >>> params = init_mlp(jax.random.key(1))
    >>> X, _, y, _ = load_split()
    >>> new = make_step(tx)(params, tx.init(params), jax.random.key(0), X, y)
    >>> params[0]["W"].is_deleted(), len(new), new[3].shape, float(new[4]) > 0
    (True, 5, (), True)
    """
    def train_step(params, opt_state, key, X, y):
        key, batch_key = jax.random.split(key)
        rows = jax.random.randint(batch_key, (BATCH,), 0, X.shape[0])
        loss, grads = jax.value_and_grad(loss_fn)(params, X[rows], y[rows])
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, key, loss, optax.tree.norm(grads)

    return jax.jit(train_step, donate_argnums=(0, 1))


def train(name: str, steps: int, eval_every: int, data=None) -> dict:
    """Train the MLP with the optimizer ``name``; every ``eval_every`` steps, the mean training loss
    of those steps and the test accuracy. Parameters from key 1, minibatches from key 0. Also the
    steps (counted from 1) whose gradients had a global norm above 1: ``"large_grad_steps"``.

    >>> run = train("adam", 20, 10)
    >>> run["step"], len(run["loss"]), 0 <= run["accuracy"][-1] <= 1, len(run["large_grad_steps"]) <= 20
    ([10, 20], 2, True, True)
    """
    X_train, X_test, y_train, y_test = map(jnp.asarray, data or load_split())
    tx, rate = make_optimizer(name, steps)
    step = make_step(tx)
    params = init_mlp(jax.random.key(1))
    opt_state, key = tx.init(params), jax.random.key(0)
    history = {"name": name, "step": [], "loss": [], "accuracy": [], "rate": [], "large_grad_steps": []}
    pending, norms = [], []  # the losses and gradient norms since the last evaluation, still device arrays
    for i in range(1, steps + 1):
        params, opt_state, key, loss, grad_norm = step(params, opt_state, key, X_train, y_train)
        pending.append(loss)
        norms.append(grad_norm)
        if i % eval_every == 0 or i == steps:
            history["step"].append(i)
            history["loss"].append(float(jnp.mean(jnp.stack(pending))))  # the loop waits here only
            history["accuracy"].append(float(accuracy(params, X_test, y_test)))
            history["rate"].append(float(rate(i - 1)))
            first = i - len(norms) + 1
            history["large_grad_steps"] += [first + int(j) for j in np.flatnonzero(np.asarray(jnp.stack(norms)) > 1.0)]
            pending, norms = [], []
    return history


def first_reaching(history: dict, target: float = TARGET):
    """The first evaluated step whose test accuracy is at least ``target``; None if none was.

    >>> first_reaching({"step": [10, 20, 30], "accuracy": [0.5, 0.96, 0.97]})
    20
    >>> first_reaching({"step": [10], "accuracy": [0.5]}) is None
    True
    """
    return next((s for s, a in zip(history["step"], history["accuracy"], strict=True) if a >= target), None)


def plot(histories: dict, path: str, language: str = "en") -> None:
    """Learning curves: the mean training loss (log scale) above, the test accuracy below."""
    fig, _ = new_figure()  # the site's fonts and size
    fig.clear()
    fig.set_size_inches(6.0, 5.8)
    ax_loss, ax_acc = fig.subplots(2, 1, sharex=True)
    for name, history in histories.items():
        ax_loss.plot(history["step"], history["loss"], marker="o", markersize=3, label=name)
        ax_acc.plot(history["step"], history["accuracy"], marker="o", markersize=3)
    ax_loss.set_yscale("log")
    ax_loss.set_ylabel(say(language, "학습 손실", "training loss"))
    ax_acc.set_ylabel(say(language, "테스트 정확도", "test accuracy"))
    ax_acc.set_xlabel(say(language, "스텝", "step"))
    ax_acc.set_ylim(max(0.0, min(min(h["accuracy"]) for h in histories.values()) - 0.02), 1.0)
    for ax in (ax_loss, ax_acc):
        ax.grid(True, alpha=0.3)
    ax_loss.set_title(say(language, "손글씨 숫자 분류기의 학습 곡선", "learning curves of the digits classifier")
                      + f"\n{jax.default_backend().upper()}, jax {jax.__version__}, optax {optax.__version__}")
    legend_below(fig, ax_loss, columns=2)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1500, help="training steps per optimizer (default: 1500)")
    parser.add_argument("--eval-every", type=int, default=100,
                        help="steps between two readings of the loss and the test accuracy (default: 100)")
    parser.add_argument("--optimizers", nargs="+", choices=OPTIMIZERS, default=list(OPTIMIZERS),
                        help="which optimizers to train (default: both)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    print(f"{machine()}, optax {optax.__version__}; MLP {' → '.join(map(str, SIZES))}, batch {BATCH}, "
          f"{args.steps} steps")
    data = load_split()
    histories = {name: train(name, args.steps, args.eval_every, data) for name in args.optimizers}
    for name, history in histories.items():
        print(f"\n{name}:  step   mean loss   test accuracy   learning rate")
        rows = zip(history["step"], history["loss"], history["accuracy"], history["rate"], strict=True)
        for s, loss, acc, rate in rows:
            print(f"{'':>{len(name)}}  {s:>5}   {loss:>9.4f}   {acc:>13.4f}   {rate:>13.2e}")
        reached = first_reaching(history)
        print(f"final test accuracy {history['accuracy'][-1]:.4f}; first at or above {TARGET}: "
              f"{f'step {reached}' if reached else 'never'}")
        large, clipped = history["large_grad_steps"], "clipped" if name == "clip+schedule" else "not clipped"
        print(f"steps whose gradients' global norm was above 1 ({clipped}): {len(large)}"
              + (f", the last at step {large[-1]}" if large else ""))
    write_plot(plot, args.plot, histories)
    return histories


if __name__ == "__main__":
    histories = main()
