"""Check your answer to the exercise of "A training loop with Optax": import its ``check``, then

    from check_optax import check
    check.optimizer(your_optimizer, STEPS)
    check.step(your_step, your_optimizer)

``your_optimizer`` is the second optimizer of step 1, ``optax.chain(optax.clip_by_global_norm(1.0),
optax.adam(schedule))``, with the lesson's schedule for a run of ``STEPS`` steps (a linear warm-up
from 0 to 3e-3 over 100 steps, then a cosine decay to 1e-5 at step ``STEPS``). The check feeds it
``STEPS`` gradients of its own, some of global norm above 1 and some below, and compares every update
with Adam, the clipping and the schedule written out in float64 NumPy; where one differs, it says
which update, and what the learning rate there looks like.

``your_step(params, opt_state, key, X, y)`` is the jitted step of step 2 for ``your_optimizer``: it
draws a minibatch with ``key``, and returns the new parameters, the new optimizer state, the next key
and the loss (more after them is fine). The check calls it once on a small MLP of its own (a list of
``{"W", "b"}`` layers, as in the lesson) and a training set whose rows are all the same example, so
that the minibatch drawn does not matter. It checks that the parameters and the state were donated
(deleted after the call), that the key moved on, and that the loss, the new parameters and the new
state are those of one step computed here: the loss and the gradients by hand in float64 NumPy, the
update from ``your_optimizer``'s own ``update``. The loss and the state are compared within 0.5% and
1% (a GPU may multiply float32 matrices in TF32), the parameters within 0.01%: under Adam the first
step moves each by about the learning rate, whatever rounding did to its gradient.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, close, right, run_reader, same_structure, wrong  # noqa: E402

PEAK, END, WARMUP, MAX_NORM = 3e-3, 1e-5, 100, 1.0
B1, B2, EPS = 0.9, 0.999, 1e-8   # optax.adam's defaults


def rate(step: int, steps: int) -> float:
    """The schedule's learning rate for the update counted from 0: warm-up, then cosine decay.

    >>> [round(rate(s, 1500), 6) for s in (0, 50, 100, 1500)]
    [0.0, 0.0015, 0.003, 1e-05]
    """
    if step < WARMUP:
        return PEAK * step / WARMUP
    done = min(step - WARMUP, steps - WARMUP) / (steps - WARMUP)
    return float(END + (PEAK - END) * 0.5 * (1 + np.cos(np.pi * done)))


def gradients(steps: int, size: int = 4, seed: int = 0) -> np.ndarray:
    """``steps`` gradients of ``size`` elements; their global norms spread from about 0.1 to 10."""
    rng = np.random.default_rng(seed)
    g = rng.normal(size=(steps, size))
    return g / np.linalg.norm(g, axis=1, keepdims=True) * 10 ** rng.uniform(-1, 1, size=(steps, 1))


def reference_updates(grads: np.ndarray, steps: int, clip: bool = True, schedule: bool = True,
                      constant: float = 1e-3) -> tuple[np.ndarray, np.ndarray]:
    """Adam's updates in float64, with the clipping (``clip``) and the schedule (``schedule``; else
    the rate ``constant``); and the learning rate of each."""
    m = v = np.zeros(grads.shape[1])
    updates, rates = [], []
    for t, g in enumerate(grads):
        norm = np.linalg.norm(g)
        if clip and norm > MAX_NORM:
            g = g * MAX_NORM / norm
        m, v = B1 * m + (1 - B1) * g, B2 * v + (1 - B2) * g**2
        m_hat, v_hat = m / (1 - B1 ** (t + 1)), v / (1 - B2 ** (t + 1))
        lr = rate(t, steps) if schedule else constant
        updates.append(-lr * m_hat / (np.sqrt(v_hat) + EPS))
        rates.append(lr)
    return np.array(updates), np.array(rates)


def _run(tx, grads: np.ndarray) -> np.ndarray:
    """The updates ``tx`` makes for ``grads``, one after another, in one jitted scan."""
    params = jnp.zeros(grads.shape[1], jnp.float32)

    @jax.jit
    def run(grads):
        def body(state, g):
            updates, state = tx.update(g, state, params)
            return state, updates

        return jax.lax.scan(body, tx.init(params), grads)[1]

    return np.asarray(run(jnp.asarray(grads, jnp.float32)), np.float64)


RTOL, ATOL = 1e-4, 1e-3   # relative to the update, and to the learning rate (an update's scale under Adam)


def _first_difference(got: np.ndarray, reference: tuple[np.ndarray, np.ndarray]) -> int | None:
    """The first update (from 0) where ``got`` is off ``reference``, or None."""
    want, rates = reference
    bad = np.any(np.abs(got - want) > ATOL * rates[:, None] + RTOL * np.abs(want) + 1e-12, axis=1)
    return int(np.argmax(bad)) if bad.any() else None


def optimizer(your_optimizer, steps: int):
    """Check the reader's optimizer update by update against clipping, Adam and the schedule in float64."""
    if not (hasattr(your_optimizer, "init") and hasattr(your_optimizer, "update")):
        return wrong("최적화기는 init과 update를 가진 optax 변환(GradientTransformation)이어야 합니다",
                     "the optimizer should be an optax GradientTransformation, with init and update")
    steps = int(steps)
    if steps <= WARMUP:
        return wrong(f"스텝 수는 워밍업 {WARMUP}스텝보다 커야 합니다(받은 값: {steps})",
                     f"the number of steps should be more than the warm-up's {WARMUP} (given: {steps})")
    grads = gradients(steps)
    got, problem = run_reader(_run, your_optimizer, grads)
    if problem is not None:
        return problem
    reference = reference_updates(grads, steps)
    want = reference[0]
    first = _first_difference(got, reference)
    if first is None:
        clipped = int(np.sum(np.linalg.norm(grads, axis=1) > MAX_NORM))
        return right(f"갱신량 {steps:,}개가 모두 맞습니다(클리핑이 작동한 스텝 {clipped:,}개 포함; 허용 범위: 상대 "
                     f"{RTOL:g}, 절대 학습률의 {ATOL:g}배)", f"all {steps:,} updates are right (clipping acted on "
                     f"{clipped:,} of them; within {RTOL:g} relative, {ATOL:g} of the learning rate absolute)")
    for kwargs, ko, en in (
        ({"clip": False, "schedule": False}, "optax.adam(1e-3)의 갱신량과 같습니다. 두 번째 최적화기는 클리핑과 "
         "스케줄을 더한 chain입니다", "they are optax.adam(1e-3)'s: the second optimizer is the chain with "
         "clipping and the schedule"),
        ({"clip": False}, "클리핑 없이 adam(schedule)만 쓴 갱신량과 같습니다. chain에서 clip_by_global_norm(1.0)이 "
         "adam보다 먼저 와야 갱신량이 아니라 기울기를 줄입니다", "they are adam(schedule)'s without clipping: "
         "clip_by_global_norm(1.0) must come first in the chain, before adam, to scale the gradients rather "
         "than the updates"),
        ({"schedule": False, "constant": PEAK}, f"학습률이 상수({PEAK:g})인 갱신량과 같습니다. adam에 숫자 대신 "
         "스케줄을 넘기세요", f"they are those of a constant rate {PEAK:g}: give adam the schedule, not a number"),
    ):
        if _first_difference(got, reference_updates(grads, steps, **kwargs)) is None:
            return wrong(f"갱신량이 다릅니다. {ko}", f"the updates differ: {en}")
    shown_ko = f"받은 값 {got[first][0]:.6g}, 맞는 값 {want[first][0]:.6g}, 첫 원소"
    shown_en = f"{got[first][0]:.6g} where {want[first][0]:.6g} is right, first element"
    if rate(first, steps) == 0:
        rate_ko = "스케줄은 0에서 시작하므로 첫 갱신량은 0이어야 합니다"
        rate_en = "the schedule starts at 0, so the first update should be 0"
    else:
        implied = rate(first, steps) * float(np.median(got[first] / want[first]))
        rate_ko = (f"그 스텝의 학습률은 {rate(first, steps):.4g}이어야 하는데, 받은 갱신량으로 보면 약 "
                   f"{implied:.4g}입니다")
        rate_en = f"the learning rate there should be {rate(first, steps):.4g}, and yours looks like {implied:.4g}"
    return wrong(f"{first + 1:,}번째 갱신량부터 다릅니다({shown_ko}). {rate_ko}. 스케줄(워밍업 {WARMUP}스텝, 최댓값 "
                 f"{PEAK:g}, decay_steps={steps:,}, 끝값 {END:g})과 클리핑을 보세요",
                 f"the updates differ from update {first + 1:,} on ({shown_en}): {rate_en}; look at the schedule "
                 f"(warm-up {WARMUP} steps, peak {PEAK:g}, decay_steps={steps:,}, end {END:g}) and at the clipping")


SIZES = (5, 4, 3)   # the check's MLP: 5 inputs, 4 hidden units, 3 classes


def _model():
    """Parameters (every hidden unit active), and a training set of 16 copies of one example."""
    rng = np.random.default_rng(7)
    w1 = rng.uniform(0.2, 1.0, size=(SIZES[0], SIZES[1]))
    w2 = rng.normal(size=(SIZES[1], SIZES[2]))
    params = [{"W": w1, "b": np.full(SIZES[1], 0.1)}, {"W": w2, "b": np.zeros(SIZES[2])}]
    x = rng.uniform(0.5, 1.0, size=SIZES[0])
    return params, np.tile(x, (16, 1)), np.full(16, 1)


def _loss_and_grads(params, x, label):
    """Softmax cross-entropy of the MLP at one example, and its gradients, by hand in float64."""
    (l1, l2) = params
    a = x @ l1["W"] + l1["b"]
    h = np.maximum(a, 0)
    logits = h @ l2["W"] + l2["b"]
    p = np.exp(logits - logits.max())
    p /= p.sum()
    loss = -np.log(p[label])
    d_logits = p - np.eye(len(p))[label]
    d_a = (l2["W"] @ d_logits) * (a > 0)
    return loss, [{"W": np.outer(x, d_a), "b": d_a}, {"W": np.outer(h, d_logits), "b": d_logits}]


def _as32(tree):
    return jax.tree.map(lambda a: jnp.asarray(a, jnp.float32), tree)


def step(your_step, your_optimizer):
    """Check one call of the reader's jitted step: donation, the key, the loss, the parameters, the state."""
    params64, X, y = _model()
    loss64, grads64 = _loss_and_grads(params64, X[0], int(y[0]))
    params, X, y = _as32(params64), jnp.asarray(X, jnp.float32), jnp.asarray(y, jnp.int32)
    state = your_optimizer.init(params)
    update = jax.jit(your_optimizer.update)   # one compilation, not one per operation
    updates, want_state = update(_as32(grads64), your_optimizer.init(_as32(params64)), _as32(params64))
    want_params = jax.tree.map(lambda p, u: np.asarray(p, np.float64) + np.asarray(u, np.float64), params64, updates)
    key = jax.random.key(0)
    passed = jax.tree.leaves((params, state))
    out, problem = run_reader(your_step, params, state, key, X, y)
    if problem is not None:
        return problem
    if not isinstance(out, Sequence) or len(out) < 4:
        return wrong("스텝은 (새 매개변수, 새 최적화기 상태, 다음 키, 손실)을 돌려줘야 합니다",
                     "the step should return (new parameters, new optimizer state, next key, loss)")
    new_params, new_state, new_key, loss = out[:4]
    kept = sum(not leaf.is_deleted() for leaf in passed)
    if kept:
        some_ko = "모두" if kept == len(passed) else f"가운데 {kept}개"
        some_en = "none" if kept == len(passed) else f"only {len(passed) - kept}"
        return wrong(f"넘긴 매개변수와 상태의 리프 {len(passed)}개 {some_ko}가 호출 뒤에도 지워지지 않았습니다. "
                     "기부하지 않은 것입니다. jax.jit(train_step, donate_argnums=(0, 1))처럼 기부하세요",
                     f"{some_en} of the {len(passed)} leaves of the parameters and state passed in were deleted by "
                     "the call: they were not donated; jit with donate_argnums=(0, 1)")
    same_key = np.array_equal(np.asarray(jax.random.key_data(new_key)), np.asarray(jax.random.key_data(key)))
    if same_key:
        return wrong("받은 키를 그대로 돌려줍니다. 그러면 다음 스텝이 같은 미니배치를 뽑습니다. 키를 나눠 다음 키를 "
                     "돌려주세요",
                     "the step returns the key it got: the next step would draw the same minibatch; split it and "
                     "return the next key")
    results = [close(loss, loss64, "손실", "the loss", rtol=5e-3, atol=1e-6)]   # loose: a GPU's TF32 products
    shape = same_structure(new_params, want_params, "새 매개변수", "the new parameters")
    if not shape.ok:
        return shape
    values = close(new_params, want_params, "새 매개변수", "the new parameters", rtol=1e-4, atol=1e-6)
    if not values.ok:
        unchanged = close(new_params, params64, "값", "the values", rtol=1e-6, atol=1e-7).ok
        opposite = close(new_params, jax.tree.map(lambda p, w: 2 * p - w, params64, want_params), "값", "the values",
                         rtol=1e-4, atol=1e-6).ok
        if unchanged:
            return wrong(f"{values.ko}. 매개변수가 그대로입니다. optax.apply_updates로 갱신량을 더하세요",
                         f"{values.en}; the parameters did not move: add the updates with optax.apply_updates")
        if opposite:
            return wrong(f"{values.ko}. 반대 방향으로 움직였습니다. optax의 갱신량에는 이미 부호가 들어 있으니 "
                         "빼지 말고 더하세요(optax.apply_updates)",
                         f"{values.en}; they moved the other way: optax's updates carry their sign already, so add "
                         "them (optax.apply_updates), do not subtract them")
        return values
    state_values = close(new_state, want_state, "새 최적화기 상태", "the new optimizer state", rtol=1e-2, atol=1e-9)
    results += [values, state_values]   # the state holds the gradients (Adam's mu and nu): as loose as the loss
    return all_of(right("매개변수와 상태가 기부되었고 키가 바뀌었습니다",
                        "the parameters and the state were donated, and the key moved on"), *results)


check = checks(optimizer=optimizer, step=step)
