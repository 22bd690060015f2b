"""Check your answer to the exercise of "How jax.numpy differs from NumPy": import its ``check``, then

    from check_jax_numpy import check
    check.scale_jnp(your_function)

``your_function(x, idx)`` should be ``scale_np`` ported to ``jnp``: it sets the entries of ``x`` at
the indices ``idx`` to 0, then divides by the sum of the positive entries, and it runs under
``jax.jit``. The check wraps it in ``jax.jit`` itself, calls it on a float64 NumPy array and an index
array of its own, and compares with ``scale_np``'s answer computed in float64 (float32 rounding
allowed). It also says what your function does with an out-of-bounds index, beside what NumPy does;
that part is reported, not graded.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, close, right, run_reader, wrong  # noqa: E402

X = np.array([2.0, -1.5, 0.5, 4.0, -3.0, 1.0, 2.5])  # NumPy's default dtype, float64
IDX = np.array([1, 3])  # one negative entry and one positive entry set to 0
OUT_OF_BOUNDS = 12
RTOL, ATOL = 1e-5, 1e-6  # float32 rounding

# What a traced function cannot do, recognised in the error it raises: (words in the error, hint).
HINTS = (
    (("NonConcreteBooleanIndexError", "boolean indices"),
     "불리언 마스크로 고르면 결과의 길이가 값에 달립니다. 고르지 말고 jnp.where로 가리세요(조건에 맞지 않는 자리는 0)",
     "selecting with a boolean mask makes the length depend on the values: mask instead, with jnp.where "
     "(0 where the condition fails)"),
    (("item assignment", "immutable"),
     "JAX 배열에는 제자리 대입을 할 수 없습니다. 새 배열을 만드는 .at[idx].set 메서드를 쓰세요",
     "a JAX array cannot be assigned in place: use .at[idx].set(...), which makes a new array"),
    (("jnp.nonzero",),
     "jnp.nonzero의 결과 길이가 값에 달립니다. size=를 주거나, jnp.where로 가리세요",
     "jnp.nonzero's result has a length that depends on the values: give size=, or mask with jnp.where"),
    (("TracerArrayConversionError",),
     "트레이싱 중인 값에 NumPy 함수를 썼습니다. np 대신 jnp를 쓰세요",
     "a NumPy function was called on a traced value: use jnp instead of np"),
)


def reference(x, idx):
    """``scale_np``'s answer, in float64: ``idx`` set to 0, divided by the sum of the positive entries.

    >>> reference(np.array([3.0, -1.0, 2.0, 5.0, 4.0]), np.array([0, 3])) * 6
    array([ 0., -1.,  2.,  0.,  4.])
    """
    out = np.array(x, dtype=np.float64)
    out[idx] = 0.0
    return out / out[out > 0].sum()


def _hinted(problem):
    for words, ko, en in HINTS:
        if any(word in problem.en for word in words):
            return wrong(f"{problem.ko}. {ko}", f"{problem.en}. {en}")
    return problem


def _out_of_bounds(scaled):
    """What ``scaled`` did with an index past the end, as a right ``Result`` (reported, not graded)."""
    bad, problem = run_reader(scaled, X, np.array([1, OUT_OF_BOUNDS]))
    numpy = ("NumPy 함수는 같은 인덱스에서 IndexError를 냅니다", "NumPy's raises IndexError")
    if problem is not None:
        return right(f"범위 밖 인덱스 {OUT_OF_BOUNDS}를 넣으면 함수가 오류를 냅니다. {numpy[0]}",
                     f"with the out-of-bounds index {OUT_OF_BOUNDS} your function raised an error; {numpy[1]}")
    bad = np.asarray(bad, np.float64)
    clipped = np.array([1, len(X) - 1])
    for want, ko, en in (
        (reference(X, np.array([1])), "그 쓰기를 오류 없이 버립니다(.at[...].set의 기본 동작)",
         "drops that write without a word (what .at[...].set does by default)"),
        (reference(X, clipped), "그 값을 마지막 원소에 씁니다(mode='clip')",
         "writes the last entry instead (mode='clip')"),
    ):
        if bad.shape == want.shape and np.allclose(bad, want, rtol=RTOL, atol=ATOL):
            return right(f"범위 밖 인덱스 {OUT_OF_BOUNDS}를 넣으면 함수는 {ko}. {numpy[0]}",
                         f"with the out-of-bounds index {OUT_OF_BOUNDS} your function {en}; {numpy[1]}")
    return right(f"범위 밖 인덱스 {OUT_OF_BOUNDS}를 넣으면 함수는 오류 없이 값을 돌려줍니다. {numpy[0]}",
                 f"with the out-of-bounds index {OUT_OF_BOUNDS} your function returns without an error; {numpy[1]}")


def scale_jnp(function):
    """Check ``jax.jit(function)(x, idx)`` against ``scale_np``'s answer in float64."""
    scaled = jax.jit(function)
    got, problem = run_reader(scaled, X, IDX)
    if problem is not None:
        return _hinted(problem)
    want = reference(X, IDX)
    values = close(got, want, "결과", "the result", rtol=RTOL, atol=ATOL)
    if not values.ok:
        out = np.array(X)
        out[IDX] = 0.0
        for other, ko, en in (
            (out / out.sum(), "음수까지 포함한 모든 원소의 합으로 나눈 값과 같습니다. 양수만 더하세요",
             "it matches dividing by the sum of all entries, negatives included: add the positive ones only"),
            (out / X[X > 0].sum(),
             "idx 자리를 0으로 바꾸기 전의 양수 합으로 나눈 값과 같습니다. 바꾼 배열로 합을 구하세요",
             "it matches dividing by the positive sum taken before idx was set to 0: sum the new array"),
            (reference(X, np.array([], dtype=int)), "idx 자리를 0으로 바꾸지 않은 값과 같습니다",
             "it matches leaving the entries at idx as they were: set them to 0"),
        ):
            if np.shape(got) == other.shape and np.allclose(np.asarray(got, np.float64), other, rtol=RTOL, atol=ATOL):
                return wrong(f"{values.ko}. {ko}", f"{values.en}; {en}")
        return values
    dtype = str(np.asarray(got).dtype)
    kind = right(f"결과의 자료형은 {dtype}입니다(NumPy 함수는 float64)",
                 f"the result's dtype is {dtype} (NumPy's is float64)")
    return all_of(right("jax.jit으로 감싸도 실행됩니다", "it runs under jax.jit"), values, kind,
                  _out_of_bounds(scaled))


check = checks(scale_jnp=scale_jnp)
