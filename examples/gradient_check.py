"""Check jax.grad against central finite differences, and fit a linear regression by gradient descent.

The exercise of the lesson "First steps with grad": the parameters are a pytree (here a dict
``{"w": ..., "b": ...}``), and so is their gradient.

* ``central_difference_grad`` estimates the gradient of a scalar function of a pytree of float
  arrays, one element at a time: ``(f(x + eps) - f(x - eps)) / (2 eps)``;
* ``relative_errors`` and ``max_relative_error`` compare two gradients of the same structure;
* ``make_data``, ``loss`` and ``fit`` are the demo: a linear model on synthetic data whose true
  parameters are known, fitted with ``jax.value_and_grad`` and ``jax.tree.map``.

The program checks the gradient of the demo loss for several step sizes ``eps``, fits the model,
prints the fitted parameters beside the true ones, and can plot the loss curve.

    python examples/gradient_check.py --eps 1e-1 1e-2 1e-3 1e-4 --steps 100 --plot loss.png

writes loss.ko.png and loss.en.png: the same measurements, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, new_figure, save, say, write_plot  # noqa: E402

TRUE_W = (1.5, -2.0, 0.5)
TRUE_B = 0.7
DEFAULT_EPS = (1e-1, 1e-2, 1e-3, 1e-4)


def central_difference_grad(f, params, eps: float = 1e-3):
    """Gradient of the scalar function ``f`` at ``params`` (a pytree of float arrays), by central differences.

    Each element is moved by ``+eps`` and ``-eps`` in turn, so ``f`` is called twice per element: fine
    for a check on a small model, far too slow for training. The difference is divided by the step
    actually taken, once ``x + eps`` and ``x - eps`` are rounded to the array's dtype. The result has
    the structure of ``params``, with float64 NumPy arrays as leaves.

    >>> def f(p):
    ...     return jnp.sum(p["a"] ** 2) + 3.0 * p["b"]
    >>> params = {"a": jnp.array([1.0, -2.0]), "b": jnp.array(0.5)}
    >>> g = central_difference_grad(f, params, eps=1e-2)
    >>> jax.tree.structure(g) == jax.tree.structure(params)
    True
    >>> jax.tree.map(lambda v: np.round(v, 3).tolist(), g)
    {'a': [2.0, -4.0], 'b': 3.0}
    """
    f = jax.jit(f)
    leaves, treedef = jax.tree.flatten(params)

    def f_with_leaf(i, leaf):
        """``f`` at ``params`` with leaf ``i`` replaced by ``leaf``."""
        return float(f(jax.tree.unflatten(treedef, [*leaves[:i], jnp.asarray(leaf), *leaves[i + 1:]])))

    grads = []
    for i, leaf in enumerate(leaves):
        values = np.array(leaf)  # a copy we may change
        flat = values.reshape(-1)  # a view of the copy
        g = np.empty(flat.shape, dtype=np.float64)
        for j in range(flat.size):
            original = flat[j]
            plus = (original + eps).astype(flat.dtype)
            minus = (original - eps).astype(flat.dtype)
            flat[j] = plus
            f_plus = f_with_leaf(i, values)
            flat[j] = minus
            f_minus = f_with_leaf(i, values)
            flat[j] = original
            g[j] = (f_plus - f_minus) / (float(plus) - float(minus))
        grads.append(g.reshape(values.shape))
    return jax.tree.unflatten(treedef, grads)


def relative_errors(grads, reference):
    """Per leaf: the largest ``|grads - reference|``, divided by the largest ``|reference|`` in that leaf.

    Dividing by the leaf's largest entry, not each entry's own size, keeps entries near zero from
    inflating the error. The result has the structure of ``reference``, with floats as leaves.

    >>> relative_errors({"w": np.array([1.0, 1.9]), "b": 0.5}, {"w": np.array([1.0, 2.0]), "b": 0.5})
    {'b': 0.0, 'w': 0.05}
    """
    if jax.tree.structure(grads) != jax.tree.structure(reference):
        raise ValueError(f"different structures: {jax.tree.structure(grads)} and {jax.tree.structure(reference)}")

    def leaf_error(g, r):
        g, r = np.asarray(g, dtype=np.float64), np.asarray(r, dtype=np.float64)
        scale = max(float(np.max(np.abs(r))), np.finfo(np.float64).tiny)
        return round(float(np.max(np.abs(g - r))) / scale, 12)

    return jax.tree.map(leaf_error, grads, reference)


def max_relative_error(grads, reference) -> float:
    """The largest of ``relative_errors`` over all leaves.

    >>> max_relative_error([np.array([1.0, 2.2]), np.array(3.0)], [np.array([1.0, 2.0]), np.array(3.0)])
    0.1
    >>> max_relative_error({"a": 1.0}, {"b": 1.0})
    Traceback (most recent call last):
    ...
    ValueError: different structures: PyTreeDef({'a': *}) and PyTreeDef({'b': *})
    """
    return max(jax.tree.leaves(relative_errors(grads, reference)))


def predict(params, X):
    """``X @ w + b`` as a sum of products: float32 on every device (a GPU may run a float32 matmul in TF32).

    >>> predict({"w": jnp.array([1.0, 2.0]), "b": 0.5}, jnp.array([[1.0, 1.0], [0.0, 3.0]]))
    Array([3.5, 6.5], dtype=float32)
    """
    return jnp.sum(X * params["w"], axis=1) + params["b"]


def make_data(key, n: int = 200, true_w=TRUE_W, true_b: float = TRUE_B, noise: float = 0.1):
    """Synthetic data ``y = X @ w + b + noise`` with standard-normal features; returns ``(X, y)``.

    >>> X, y = make_data(jax.random.key(0), n=5)
    >>> X.shape, y.shape, X.dtype
    ((5, 3), (5,), dtype('float32'))
    """
    key_x, key_noise = jax.random.split(key)
    w = jnp.asarray(true_w, dtype=jnp.float32)
    X = jax.random.normal(key_x, (n, w.size))
    y = predict({"w": w, "b": true_b}, X) + noise * jax.random.normal(key_noise, (n,))
    return X, y


def init_params(n_features: int = len(TRUE_W)):
    """The starting point: every parameter zero.

    >>> init_params(2)
    {'w': Array([0., 0.], dtype=float32), 'b': Array(0., dtype=float32)}
    """
    return {"w": jnp.zeros(n_features), "b": jnp.zeros(())}


def loss(params, X, y):
    """Mean squared error of the linear model.

    >>> loss(init_params(1), jnp.ones((2, 1)), jnp.array([1.0, 3.0]))
    Array(5., dtype=float32)
    """
    return jnp.mean((predict(params, X) - y) ** 2)


@jax.jit
def train_step(params, X, y, lr):
    """One step of gradient descent: the loss before the step, and the new parameters."""
    value, grads = jax.value_and_grad(loss)(params, X, y)
    return value, jax.tree.map(lambda p, g: p - lr * g, params, grads)


def fit(params, X, y, lr: float = 0.1, steps: int = 100):
    """Run ``steps`` steps of gradient descent; returns the fitted parameters and the loss before each step.

    >>> X, y = make_data(jax.random.key(0), n=50)
    >>> fitted, losses = fit(init_params(), X, y, steps=50)
    >>> len(losses), losses[-1] < losses[0]
    (50, True)
    """
    losses = []
    for _ in range(steps):
        value, params = train_step(params, X, y, lr)
        losses.append(float(value))
    return params, losses


def check(params, X, y, eps_values=DEFAULT_EPS) -> dict[float, dict]:
    """For each eps: the relative error of central differences against ``jax.grad``, per leaf and overall."""
    autodiff = jax.grad(loss)(params, X, y)
    report = {}
    for eps in eps_values:
        numeric = central_difference_grad(lambda p: loss(p, X, y), params, eps)
        errors = relative_errors(numeric, autodiff)
        report[eps] = {"per_leaf": errors, "max": max(jax.tree.leaves(errors))}
    return report


def format_check(report: dict[float, dict]) -> str:
    """A table: one row per eps, the relative error of each leaf and the largest one.

    >>> print(format_check({1e-2: {"per_leaf": {"b": 1e-6, "w": 2e-5}, "max": 2e-5}}))
        eps  error b  error w  max error
    1.0e-02  1.0e-06  2.0e-05    2.0e-05
    """
    names = list(next(iter(report.values()))["per_leaf"])
    header = f"{'eps':>7}" + "".join(f"  {'error ' + name:>7}" for name in names) + f"  {'max error':>9}"
    rows = [header]
    for eps, row in report.items():
        cells = "".join(f"  {row['per_leaf'][name]:>7.1e}" for name in names)
        rows.append(f"{eps:>7.1e}{cells}  {row['max']:>9.1e}")
    return "\n".join(rows)


def plot(losses, true_loss: float, path: str, language: str = "en") -> None:
    """Write the loss curve (log scale) with the loss of the true parameters as a dashed line,
    labelled in ``language``."""
    fig, ax = new_figure()
    ax.plot(range(len(losses)), losses, label=say(language, "경사 하강법", "gradient descent"))
    ax.axhline(true_loss, color="gray", linestyle="--",
               label=say(language, "참 매개변수의 손실", "loss at the true parameters"))
    ax.set_yscale("log")
    ax.set_xlabel(say(language, "스텝", "step"))
    ax.set_ylabel(say(language, "손실 (평균 제곱 오차)", "loss (mean squared error)"))
    ax.set_title(say(language, "선형 회귀", "linear regression") + f" ({jax.default_backend().upper()})")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    save(fig, path)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--eps", type=float, nargs="+", default=list(DEFAULT_EPS),
                        help="finite-difference step sizes to check (default: %(default)s)")
    parser.add_argument("--samples", type=int, default=200, help="number of data points (default: 200)")
    parser.add_argument("--steps", type=int, default=100, help="gradient-descent steps (default: 100)")
    parser.add_argument("--lr", type=float, default=0.1, help="learning rate (default: 0.1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the PRNG key for the data (default: 0)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)

    X, y = make_data(jax.random.key(args.seed), n=args.samples)
    params = init_params()
    print(f"JAX {jax.__version__} ({jax.default_backend().upper()}); {args.samples} samples, float32")
    print("\ncentral differences vs jax.grad, at the initial parameters (relative error):")
    report = check(params, X, y, args.eps)
    print(format_check(report))

    fitted, losses = fit(params, X, y, args.lr, args.steps)
    true_params = {"w": jnp.asarray(TRUE_W), "b": jnp.asarray(TRUE_B)}
    true_loss = float(loss(true_params, X, y))
    print(f"\n{args.steps} steps of gradient descent, learning rate {args.lr}:")
    print(f"loss {losses[0]:#.3g} -> {float(loss(fitted, X, y)):#.3g} (loss at the true parameters: {true_loss:#.3g})")
    print("fitted w:", np.round(np.asarray(fitted["w"]), 3), "  true w:", np.asarray(TRUE_W))
    print(f"fitted b: {float(fitted['b']):.3f}   true b: {TRUE_B}")
    write_plot(plot, args.plot, losses, true_loss)
    return {"check": report, "losses": losses, "final_loss": float(loss(fitted, X, y)), "true_loss": true_loss,
            "fitted": fitted, "true": true_params, "steps": args.steps, "lr": args.lr, "data": (X, y)}


if __name__ == "__main__":
    results = main()
