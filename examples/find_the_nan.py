"""Find and fix the NaN in a small training step, with jax.debug.print, jax_debug_nans and checkify.

The exercise of the lesson "Debugging and the sharp bits". The model is logistic regression on
features scaled to unit length, ``x / ||x||``. The batch is padded to a fixed size with rows of
zeros (so that ``jax.jit`` compiles one program), and a mask keeps the padded rows out of the loss.
The loss looks fine, yet the parameters turn to NaN after one step: a padded row has norm 0, so its
features are 0 / 0, and although ``jnp.where`` drops that row's loss, the backward pass multiplies
the NaN by the zero it gets, and NaN times zero is NaN.

* ``make_batch`` makes the padded batch; ``normalize_broken`` and ``normalize_fixed`` are the two
  versions of the feature scaling; ``make_step`` builds a jitted training step with either;
* ``run`` trains for a few steps and returns the losses; ``find_with_debug_nans`` and
  ``find_with_checkify`` locate the operation that made the NaN, each in its own way.

The program runs the broken step (printing the loss and the gradient's norm from inside the
compiled step with ``jax.debug.print``), locates the NaN with both tools, then trains with the fix.

    python examples/find_the_nan.py --batch 64 --pad 8 --steps 30
"""

from __future__ import annotations

import argparse
import re
import traceback
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import checkify


def make_batch(key, batch: int, pad: int, dim: int = 3):
    """A batch of ``batch`` rows whose last ``pad`` rows are zeros (padding), with labels and a mask.

    Labels come from a fixed direction: ``y = 1`` where ``x @ w_true > 0``.

    >>> x, y, mask = make_batch(jax.random.key(0), batch=6, pad=2)
    >>> x.shape, y.shape, mask.tolist()
    ((6, 3), (6,), [True, True, True, True, False, False])
    >>> bool(jnp.all(x[4:] == 0)), bool(jnp.all(y[4:] == 0))
    (True, True)
    """
    w_true = jnp.linspace(1.0, -1.0, dim)
    x = jax.random.normal(key, (batch, dim))
    mask = jnp.arange(batch) < batch - pad
    x = jnp.where(mask[:, None], x, 0.0)
    y = jnp.where(mask, (x @ w_true > 0).astype(jnp.float32), 0.0)
    return x, y, mask


def normalize_broken(x):
    """Each row divided by its length: 0 / 0 = NaN for a row of zeros.

    >>> normalize_broken(jnp.array([[3.0, 4.0], [0.0, 0.0]])).tolist()
    [[0.6000000238418579, 0.800000011920929], [nan, nan]]
    """
    return x / jnp.linalg.norm(x, axis=-1, keepdims=True)


def normalize_fixed(x):
    """Each row divided by its length, and a row of zeros left as zeros: the divisor is never 0.

    >>> normalize_fixed(jnp.array([[3.0, 4.0], [0.0, 0.0]])).tolist()
    [[0.6000000238418579, 0.800000011920929], [0.0, 0.0]]
    """
    norm = jnp.linalg.norm(x, axis=-1, keepdims=True)
    return x / jnp.where(norm > 0, norm, 1.0)


def loss_fn(params, x, y, mask, normalize):
    """Mean logistic loss over the rows the mask keeps.

    >>> params = {"w": jnp.zeros(3), "b": jnp.array(0.0)}
    >>> x, y, mask = make_batch(jax.random.key(0), batch=6, pad=2)
    >>> round(float(loss_fn(params, x, y, mask, normalize_broken)), 4)  # log 2: the padded rows are dropped
    0.6931
    """
    z = normalize(x) @ params["w"] + params["b"]
    per_example = jax.nn.softplus(z) - y * z          # -log p(y | x), computed stably
    return jnp.sum(jnp.where(mask, per_example, 0.0)) / jnp.sum(mask)


def make_step(normalize, lr: float = 0.5, show: bool = False):
    """A jitted gradient-descent step ``(params, x, y, mask) -> (params, loss)``.

    With ``show``, the compiled step prints its loss and the norm of its gradient on every call
    (``jax.debug.print``, ordered so the lines keep their order).

    >>> step = make_step(normalize_fixed)
    >>> params = {"w": jnp.zeros(3), "b": jnp.array(0.0)}
    >>> new, loss = step(params, *make_batch(jax.random.key(0), batch=6, pad=2))
    >>> round(float(loss), 4), bool(jnp.all(jnp.isfinite(new["w"])))
    (0.6931, True)
    """
    @jax.jit
    def step(params, x, y, mask):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y, mask, normalize)
        if show:  # a Python bool: decided while tracing
            grad_norm = jnp.sqrt(sum(jnp.sum(g**2) for g in jax.tree.leaves(grads)))
            jax.debug.print(ordered=True)("    inside the step: loss {l:.4f}, |grad| {g:.4f}", l=loss, g=grad_norm)
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss
    return step


def init_params(dim: int = 3):
    """Parameters at zero: ``{"w": zeros(dim), "b": 0}``.

    >>> jax.tree.map(lambda a: (a.shape, str(a.dtype)), init_params(2))
    {'b': ((), 'float32'), 'w': ((2,), 'float32')}
    """
    return {"b": jnp.zeros(()), "w": jnp.zeros(dim)}


def run(step, params, batch, steps: int):
    """Train for ``steps`` steps; return the final parameters and the loss of each step (floats).

    >>> batch = make_batch(jax.random.key(0), batch=6, pad=2)
    >>> _, losses = run(make_step(normalize_fixed), init_params(), batch, steps=3)
    >>> len(losses), losses[0] > losses[-1]
    (3, True)
    """
    losses = []
    for _ in range(steps):
        params, loss = step(params, *batch)
        losses.append(float(loss))
    jax.effects_barrier()  # every debug print written before we go on
    return params, losses


def primitive_in(message: str) -> str | None:
    """The primitive a NaN error names, from either tool's wording.

    >>> primitive_in("invalid value (nan) encountered in div")
    'div'
    >>> primitive_in("nan generated by primitive: log.")
    'log'
    """
    found = re.search(r"(?:encountered in|generated by primitive:) (\w+)", message)
    return found.group(1) if found else None


def find_with_debug_nans(step, params, batch) -> dict:
    """Run ``step`` once with ``jax.debug_nans``; return the error's message, primitive and source line.

    When a jitted function's output holds a NaN, JAX runs it again one primitive at a time and
    raises ``FloatingPointError`` at the first primitive whose output holds one.

    >>> found = find_with_debug_nans(make_step(normalize_broken), init_params(),
    ...                              make_batch(jax.random.key(0), batch=6, pad=2))  # doctest: +ELLIPSIS
    Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.
    ...
    >>> found["primitive"], found["line"]
    ('div', 'return x / jnp.linalg.norm(x, axis=-1, keepdims=True)')
    """
    with jax.debug_nans(True):   # the setting is restored when the block ends
        try:
            step(params, *batch)
        except FloatingPointError as error:
            this_file = Path(__file__).resolve()
            here = [frame for frame in traceback.extract_tb(error.__traceback__)
                    if Path(frame.filename).resolve() == this_file]
            return {"message": str(error), "primitive": primitive_in(str(error)),
                    "line": here[-1].line if here else None}
    return {"message": None, "primitive": None, "line": None}


def find_with_checkify(normalize, params, batch) -> dict:
    """Run the gradient under ``checkify`` (NaN checks) inside ``jit``; return the error's message and primitive.

    >>> found = find_with_checkify(normalize_broken, init_params(), make_batch(jax.random.key(0), batch=6, pad=2))
    >>> found["message"], found["primitive"]
    ('nan generated by primitive: div.', 'div')
    >>> find_with_checkify(normalize_fixed, init_params(), make_batch(jax.random.key(0), batch=6, pad=2))["message"]
    """
    def grads(params, x, y, mask):
        return jax.grad(loss_fn)(params, x, y, mask, normalize)

    checked = jax.jit(checkify.checkify(grads, errors=checkify.nan_checks))
    error, _ = checked(params, *batch)
    message = error.get()        # None when no check failed
    return {"message": message, "primitive": primitive_in(message) if message else None}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=64, help="rows in the batch, padding included (default: 64)")
    parser.add_argument("--pad", type=int, default=8, help="rows of zeros at the end of the batch (default: 8)")
    parser.add_argument("--steps", type=int, default=30, help="training steps with the fix (default: 30)")
    parser.add_argument("--lr", type=float, default=0.5, help="learning rate (default: 0.5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the PRNG key for the data (default: 0)")
    args = parser.parse_args(argv)

    batch = make_batch(jax.random.key(args.seed), args.batch, args.pad)
    print(f"JAX {jax.__version__} ({jax.default_backend().upper()}); batch of {args.batch} rows, "
          f"the last {args.pad} of them padding")

    print("\n1. The broken step, three times:")
    broken_params, broken_losses = run(make_step(normalize_broken, args.lr, show=True), init_params(), batch, 3)
    print("   losses:", broken_losses)
    print("   parameters after three steps:", jax.tree.map(np.asarray, broken_params))

    print("\n2. Where is the NaN made? jax_debug_nans re-runs the step one primitive at a time:")
    by_debug_nans = find_with_debug_nans(make_step(normalize_broken, args.lr), init_params(), batch)
    print(f"   FloatingPointError: {by_debug_nans['message']}")
    print(f"   primitive: {by_debug_nans['primitive']}; in this file, the line: {by_debug_nans['line']}")
    by_checkify = find_with_checkify(normalize_broken, init_params(), batch)
    print(f"   checkify under jit: {by_checkify['message']}")

    print(f"\n3. The fix (the divisor is never 0), {args.steps} steps:")
    fixed_check = find_with_checkify(normalize_fixed, init_params(), batch)
    print(f"   checkify under jit: {fixed_check['message']}")
    fixed_params, fixed_losses = run(make_step(normalize_fixed, args.lr), init_params(), batch, args.steps)
    shown = list(range(0, args.steps, max(1, args.steps // 6))) + [args.steps - 1]
    for i in sorted(set(shown)):
        print(f"   step {i:>3}: loss {fixed_losses[i]:.4f}")
    return {"broken_losses": broken_losses, "broken_params": broken_params, "debug_nans": by_debug_nans,
            "checkify": by_checkify, "fixed_check": fixed_check, "fixed_losses": fixed_losses,
            "fixed_params": fixed_params, "batch": args.batch, "pad": args.pad, "steps": args.steps}


if __name__ == "__main__":
    results = main()
