"""Check your answer to the exercise of "What JAX is": import its ``check``, then

    from check_what_is_jax import check
    check.noisy_step_pure(your_function)

``your_function(count, key, x)`` should be the pure ``noisy_step``: it takes the counter, a PRNG key
(``jax.random.key``) and ``x``, and returns ``(new_count, new_key, y)``, where ``y`` is ``x`` plus
noise drawn with ``jax.random`` and ``new_count`` is ``count + 1``. The check wraps it in ``jax.jit``
itself and makes the exercise's calls on a state of its own: the same state twice, the state the
first call returned, and five steps in a row.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, right, run_reader, wrong  # noqa: E402

SEED = 7  # the check's own state: count 0 and jax.random.key(SEED)
STEPS, STEPS_KO = 5, "다섯"  # the exercise's five steps in a row


def _is_key(value) -> bool:
    """Whether ``value`` is a PRNG key made by ``jax.random.key`` (or split from one).

    >>> _is_key(jax.random.key(0)), _is_key(jax.random.split(jax.random.key(0))[0]), _is_key(jnp.zeros(2))
    (True, True, False)
    """
    dtype = getattr(value, "dtype", None)
    return dtype is not None and jnp.issubdtype(dtype, jax.dtypes.prng_key)


def _same_key(a, b) -> bool:
    return bool(np.array_equal(jax.random.key_data(a), jax.random.key_data(b)))


def _state(result):
    """``(count, key, y)`` from what the reader's function returned, or a wrong ``Result`` saying why not."""
    if not isinstance(result, (tuple, list)) or len(result) != 3:
        kind = type(result).__name__
        sized = isinstance(result, (tuple, list))
        return None, wrong("함수는 (새 카운터, 새 키, y) 세 값을 돌려줘야 합니다. 받은 값은 "
                           + (f"값 {len(result)}개를 담은 {kind}입니다" if sized else f"{kind} 하나입니다"),
                           "the function should return three things, (new count, new key, y), not "
                           + (f"a {kind} of {len(result)}" if sized else f"a {kind}"))
    count, key, y = result
    if not _is_key(key):
        at = [i + 1 for i, value in enumerate(result) if _is_key(value)]
        if at:
            return None, wrong(f"새 키가 {at[0]}번째 값입니다. (새 카운터, 새 키, y) 순서로 돌려주세요",
                               f"the new key is value {at[0]}: return (new count, new key, y), in that order")
        return None, wrong("두 번째 값이 난수 키가 아닙니다. jax.random.split으로 만든 새 키를 돌려주세요",
                           "the second value is not a PRNG key: return a new key made with jax.random.split")
    if jnp.issubdtype(jnp.result_type(count), jnp.floating) and jnp.issubdtype(jnp.result_type(y), jnp.integer):
        return None, wrong("카운터와 y의 자리가 바뀌었습니다. (새 카운터, 새 키, y) 순서로 돌려주세요",
                           "the counter and y are swapped: return (new count, new key, y), in that order")
    if np.shape(y) != ():
        return None, wrong(f"y의 형상은 스칼라 x처럼 ()여야 합니다. 받은 형상은 {np.shape(y)}입니다",
                           f"y should have the shape of the scalar x, (), not {np.shape(y)}")
    return (int(count), key, float(y)), None


def noisy_step_pure(function):
    """Check ``function(count, key, x) -> (count + 1, new_key, x + noise)`` under ``jax.jit``."""
    step = jax.jit(function)
    count_0, key_0 = jnp.array(0), jax.random.key(SEED)

    def call(count, key, x):
        result, problem = run_reader(step, count, key, x)
        return (None, problem) if problem is not None else _state(result)

    first, problem = call(count_0, key_0, 1.0)
    if problem is not None:
        return problem
    count_1, key_1, y_1 = first
    if count_1 != 1:
        return wrong(f"카운터 0을 넣은 첫 호출은 카운터 1을 돌려줘야 합니다. 받은 카운터 값은 {count_1}입니다",
                     f"the first call, fed count 0, should return count 1, not {count_1}")

    again, problem = call(count_0, key_0, 1.0)
    if problem is not None:
        return problem
    if again[0] != count_1 or again[2] != y_1:
        return wrong(f"같은 상태를 두 번 넣었는데 결과가 달랐습니다(y: {y_1:.6g}, {again[2]:.6g}). 함수가 인자 말고 "
                     "다른 것에도 기대고 있습니다",
                     f"the same state, fed twice, gave different results (y: {y_1:.6g}, {again[2]:.6g}): the "
                     "function depends on something besides its arguments")
    same = right("같은 상태를 두 번 넣으면 같은 결과가 나옵니다", "the same state in gives the same result out")

    shifted, problem = call(count_0, key_0, 2.0)
    if problem is not None:
        return problem
    if abs(shifted[2] - y_1 - 1.0) > 1e-5:
        return wrong(f"y는 noisy_step처럼 x에 잡음을 더한 값이어야 합니다. 같은 상태에서 x를 1.0에서 2.0으로 바꾸면 "
                     f"y도 1만큼 커져야 하는데, {shifted[2] - y_1:.6g}만큼 달라졌습니다",
                     f"y should be x plus noise, as in noisy_step: with the same state, x = 2.0 should give a y "
                     f"larger by 1 than x = 1.0, not by {shifted[2] - y_1:.6g}")

    second, problem = call(jnp.asarray(count_1), key_1, 1.0)
    if problem is not None:
        return problem
    count_2, _, y_2 = second
    if count_2 != 2:
        if count_2 == count_1:
            return wrong("첫 호출이 돌려준 카운터를 넣었는데 카운터가 2로 오르지 않았습니다. Python 전역 변수는 "
                         "트레이싱할 때 한 번만 바뀝니다. 인자로 받은 count에 1을 더해 돌려주세요",
                         "fed the counter the first call returned, the count did not go up to 2: a Python global "
                         "changes only once, while tracing; return the count argument plus 1")
        return wrong(f"첫 호출이 돌려준 카운터를 넣으면 카운터가 2가 되어야 합니다. 받은 카운터 값은 {count_2}입니다",
                     f"fed the counter the first call returned, the count should be 2, not {count_2}")
    if y_2 == y_1:
        if _same_key(key_1, key_0):
            return wrong("첫 호출이 돌려준 키가 받은 키와 같아서 두 번째 호출의 잡음도 같았습니다. "
                         "jax.random.split으로 키를 나눠, 나눈 키 하나를 돌려주세요",
                         "the key the first call returned is the key it was given, so the second call drew the "
                         "same noise: split the key with jax.random.split and return one of the new keys")
        return wrong("첫 호출이 돌려준 새 키를 넣었는데 잡음이 같았습니다. 잡음이 키에 달려 있지 않습니다. 받은 키로 "
                     "jax.random에서 뽑으세요(NumPy의 생성기는 트레이싱할 때 한 번만 읽힙니다)",
                     "fed the new key the first call returned, the noise did not change: it does not depend on "
                     "the key; draw it with jax.random from the key passed in (NumPy's generator is read once, "
                     "while tracing)")
    chained = right("첫 호출이 돌려준 상태를 넣으면 잡음이 달라지고 카운터가 2가 됩니다",
                    "the state the first call returned gives new noise and a count of 2")

    count, key, ys = jnp.asarray(count_0), key_0, []
    for _ in range(STEPS):
        state, problem = call(count, key, 1.0)
        if problem is not None:
            return problem
        count, key, y = jnp.asarray(state[0]), state[1], state[2]
        ys.append(y)
    if int(count) != STEPS or len(set(ys)) != STEPS:
        return wrong(f"{STEPS_KO} 스텝을 이어서 실행하면 카운터가 {STEPS}번 올라야 하고 서로 다른 y가 {STEPS}개 나와야 "
                     f"합니다. 받은 카운터 값은 {int(count)}, 서로 다른 y는 {len(set(ys))}개입니다",
                     f"{STEPS} steps in a row should end with count {STEPS} and {STEPS} distinct values of y, not "
                     f"count {int(count)} and {len(set(ys))} distinct values")
    steps = right(f"{STEPS_KO} 스텝을 이어서 실행하면 카운터가 {STEPS}번 오르고 서로 다른 y가 {STEPS}개 나옵니다",
                  f"{STEPS} steps in a row end with count {STEPS} and {STEPS} distinct values of y")
    return all_of(same, chained, steps)


check = checks(noisy_step_pure=noisy_step_pure)
