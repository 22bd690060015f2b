"""Check your answer to the exercise of "Debugging and the sharp bits": import its ``check``, then

    from check_debugging import check
    check.normalize(your_normalize)

Step 3 of the exercise: ``your_normalize(x)`` is your fixed feature scaling. It takes a batch ``x``
(rows × features, float32) and returns every row divided by its length, with no NaN for a padded
row of zeros. The check

* calls it on rows of its own, two of them zeros, and compares the other rows with ``x / ||x||``
  computed in float64;
* trains the exercise's logistic regression (``find_the_nan.loss_fn``) with it for a few steps,
  jitted and under ``checkify``'s NaN checks, which look at every operation, the backward pass
  included: no operation may make a NaN, even one that a later ``jnp.where`` drops, and the loss
  must fall at every step.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import checkify

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, as_array, checks, right, run_reader, wrong  # noqa: E402
from find_the_nan import init_params, loss_fn, make_batch, primitive_in  # noqa: E402

ROWS = np.array([[3.0, 4.0, 0.0], [1.0, -2.0, 2.0], [0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [-1.0, 1.0, 1.0],
                 [0.0, 0.0, 0.0]])
BATCH, PAD, STEPS, LR = 16, 4, 8, 0.5


def scaled_rows(function) -> object:
    """Check ``function`` on ``ROWS``: rows of length 1 where the row is not zero, no NaN where it is."""
    got, problem = run_reader(function, jnp.asarray(ROWS, jnp.float32))
    if problem is not None:
        return problem
    got, problem = as_array(got, "x와 형상이 같은 배열", "an array shaped like x")
    if problem is not None:
        return problem
    if got.shape != ROWS.shape:
        return wrong(f"결과의 형상(shape)이 {got.shape}입니다. 입력 x와 같은 {ROWS.shape}이어야 합니다. 노름은 "
                     "행마다(axis=-1) 구하고 keepdims=True로 나누세요",
                     f"the result's shape is {got.shape}, not {ROWS.shape} like x: take each row's norm (axis=-1) "
                     "and divide with keepdims=True")
    zero = ~ROWS.any(axis=1)
    if not np.isfinite(got[zero]).all():
        nan = bool(np.isnan(got[zero]).any())
        return wrong(f"모두 0인 행의 결과에 {'NaN이' if nan else '무한대가'} 있습니다. 길이가 0인 행은 "
                     "0 / 0입니다. 나누기 전에 나누는 수가 0이 아니게 하세요",
                     f"a row of zeros gives {'NaN' if nan else 'infinity'}: a row of length 0 is 0 / 0. Make the "
                     "divisor nonzero before you divide")
    want = ROWS[~zero] / np.linalg.norm(ROWS[~zero], axis=1, keepdims=True)
    off = np.abs(got[~zero] - want)
    if not (off <= 1e-6 + 1e-5 * np.abs(want)).all():
        if np.allclose(got, ROWS / np.linalg.norm(ROWS), rtol=1e-5, atol=1e-6):
            return wrong("배치 전체의 노름 하나로 나눴습니다. 행마다 길이를 구해(axis=-1, keepdims=True) "
                         "그 행을 나누세요",
                         "that divides by one norm, the whole batch's: take each row's length (axis=-1, "
                         "keepdims=True) and divide that row by it")
        row = int(np.flatnonzero(~zero)[np.argmax(off.max(axis=1))])
        return wrong(f"0이 아닌 {row}번 행의 결과가 {np.round(got[row], 6).tolist()}입니다. 맞는 값은 "
                     f"{np.round(ROWS[row] / np.linalg.norm(ROWS[row]), 6).tolist()}입니다"
                     "(x / ||x||, 허용 범위 상대 1e-5). 길이가 0이 아닌 행은 그대로 길이로 나누세요",
                     f"row {row}, not zero, gives {np.round(got[row], 6).tolist()}, where "
                     f"{np.round(ROWS[row] / np.linalg.norm(ROWS[row]), 6).tolist()} is right (x / ||x||, within 1e-5 "
                     "relative): divide a row that is not zero by its length as it is")
    return right("0이 아닌 행은 길이 1로 맞춰졌고, 모두 0인 행에는 NaN이 없습니다",
                 "rows that are not zero have length 1, and rows of zeros no NaN")


def checked_training(function, steps: int = STEPS):
    """Train with ``function`` as the scaling, jitted under ``checkify``'s NaN checks: the first
    check's message (or None) and the loss of every step."""
    batch = make_batch(jax.random.key(0), BATCH, PAD)

    def step(params, x, y, mask):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y, mask, function)
        return jax.tree.map(lambda p, g: p - LR * g, params, grads), loss

    checked = jax.jit(checkify.checkify(step, errors=checkify.nan_checks))
    params, losses, first = init_params(), [], None
    for _ in range(steps):
        error, (params, loss) = checked(params, *batch)
        message = error.get()
        first = first or message
        losses.append(float(loss))
    return first, losses


def normalize(function):
    """Check the fixed scaling ``function(x)``: its values, and a training with it that makes no NaN."""
    rows = scaled_rows(function)
    if not rows.ok:
        return rows
    ran, problem = run_reader(checked_training, function)
    if problem is not None:
        return problem
    message, losses = ran
    if message is not None:
        primitive = primitive_in(message) or "?"
        return wrong(f"결과에는 NaN이 없지만, 학습하는 동안 checkify가 프리미티브 {primitive}에서 NaN을 잡았습니다"
                     f"(메시지: {message.strip()}). 나눗셈이 0 / 0을 계산한 뒤 jnp.where나 nan_to_num으로 덮어도 NaN은 "
                     "만들어지고, 역방향 모드에서는 기울기로 번질 수 있습니다. 나누기 전에 나누는 수를 0이 아니게 "
                     "하세요(예: jnp.where(norm > 0, norm, 1.0))",
                     f"the result has no NaN, but during training checkify caught one made by the primitive "
                     f"{primitive} ({message.strip()}). Covering 0 / 0 after the division, with jnp.where or "
                     "nan_to_num, still makes the NaN, and in reverse mode it can reach a gradient: make the divisor "
                     "nonzero before dividing (jnp.where(norm > 0, norm, 1.0), say)")
    shown = ", ".join(f"{loss:.4f}" for loss in losses)
    if not np.isfinite(losses).all() or any(b >= a for a, b in zip(losses, losses[1:], strict=False)):
        return wrong(f"NaN은 없지만 {len(losses)}스텝 동안 손실이 매 스텝 줄지 않았습니다: {shown}. 0이 아닌 행의 값을 "
                     "바꾸지 않았는지 보세요",
                     f"no NaN, but over {len(losses)} steps the loss did not fall at every step: {shown}. Check that "
                     "rows that are not zero keep their values")
    return all_of(rows, right(f"checkify의 NaN 검사를 켜고 {len(losses)}스텝 학습하는 동안 NaN이 하나도 만들어지지 "
                              f"않았고, 손실이 매 스텝 줄었습니다({losses[0]:.4f} → {losses[-1]:.4f})",
                              f"training {len(losses)} steps under checkify's NaN checks made no NaN anywhere, and the "
                              f"loss fell at every step ({losses[0]:.4f} → {losses[-1]:.4f})"))


check = checks(normalize=normalize)
