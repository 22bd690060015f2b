"""The checks of the exercise of "A training loop with Optax" (``examples/check_optax.py``)."""

from __future__ import annotations

import jax
import optax
from check_optax import check, rate
from digits_training import BATCH, loss_fn, make_optimizer, make_step
from readers_checks import said

STEPS = 1500


def schedule(decay_steps=STEPS, warmup=100):
    return optax.warmup_cosine_decay_schedule(init_value=0.0, peak_value=3e-3, warmup_steps=warmup,
                                              decay_steps=decay_steps, end_value=1e-5)


def test_the_schedule_by_hand_is_optax():
    assert all(abs(rate(s, STEPS) - float(schedule()(s))) < 1e-9 for s in (0, 1, 50, 99, 100, 101, 800, 1499, 1500))


def test_the_solutions_optimizer_passes_and_mistakes_are_named():
    assert check.optimizer(make_optimizer("clip+schedule", STEPS)[0], STEPS).ok
    said(check.optimizer(optax.adam(1e-3), STEPS), "optax.adam(1e-3)'s", korean="optax.adam(1e-3)")
    said(check.optimizer(optax.chain(optax.adam(schedule()), optax.clip_by_global_norm(1.0)), STEPS),
         "must come first in the chain", korean="먼저 와야")
    said(check.optimizer(optax.chain(optax.clip_by_global_norm(1.0), optax.adam(3e-3)), STEPS),
         "constant rate", korean="상수")
    said(check.optimizer(optax.chain(optax.clip_by_global_norm(1.0), optax.adam(schedule(1000))), STEPS),
         "differ from update", "decay_steps=1,500", korean="번째 갱신량부터")
    said(check.optimizer(optax.chain(optax.clip_by_global_norm(1.0), optax.adam(schedule(warmup=50))), STEPS),
         "update 2 on", korean="2번째")
    said(check.optimizer(optax.sgd, STEPS), "GradientTransformation", korean="GradientTransformation")


def variant(tx, donate=(0, 1), same_key=False, apply=+1):
    """The lesson's step, with a mistake: what is donated, the key returned, how the updates are applied."""
    def train_step(params, opt_state, key, X, y):
        next_key, batch_key = jax.random.split(key)
        rows = jax.random.randint(batch_key, (BATCH,), 0, X.shape[0])
        loss, grads = jax.value_and_grad(loss_fn)(params, X[rows], y[rows])
        updates, opt_state = tx.update(grads, opt_state, params)
        params = jax.tree.map(lambda p, u: p + apply * u, params, updates)
        return params, opt_state, key if same_key else next_key, loss

    return jax.jit(train_step, donate_argnums=donate)


def test_the_solutions_step_passes_and_mistakes_are_named():
    adam = optax.adam(1e-3)
    assert check.step(make_step(adam), adam).ok
    chain = make_optimizer("clip+schedule", STEPS)[0]
    assert check.step(make_step(chain), chain).ok
    assert check.step(variant(adam), adam).ok
    said(check.step(variant(adam, donate=()), adam), "not donated", "donate_argnums=(0, 1)", korean="기부하지 않은")
    said(check.step(variant(adam, same_key=True), adam), "returns the key it got", korean="같은 미니배치")
    said(check.step(variant(adam, apply=0), adam), "did not move", korean="그대로")
    said(check.step(variant(adam, apply=-1), adam), "moved the other way", korean="반대 방향")
    said(check.step(lambda *args: 1 / 0, adam), "ZeroDivisionError", korean="ZeroDivisionError")
