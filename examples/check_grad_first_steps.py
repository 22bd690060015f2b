"""Check your answer to the exercise of "First steps with grad": import its ``check``, then

    from check_grad_first_steps import check
    check.central_differences(your_function)

``your_function(f, params, eps)`` should return, for the scalar function ``f`` of the pytree
``params``, the central difference ``(f(x + eps) - f(x - eps)) / (2 eps)`` of every element, in the
structure of ``params``. The check calls it on a function whose central differences are known
exactly, with a step large enough that a forward difference, or ``jax.grad`` itself, is told apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, close, run_reader, same_structure, wrong  # noqa: E402

STEP = 0.2  # large, so that the three answers below differ by far more than rounding


def cubic(params):
    """The function the check differentiates: the sum of the cubes of every element."""
    return jnp.sum(params["w"] ** 3) + params["b"] ** 3


def central_differences(function, eps: float = STEP):
    """Check ``function(f, params, eps)`` against the exact central differences of ``cubic``.

    For x³ the central difference is exactly 3x² + eps² (float64 here); a forward difference is off by
    about 3x·eps, and the derivative 3x² by eps².
    """
    w, b = np.array([0.5, -1.0, 2.0]), 1.5
    params = {"w": jnp.asarray(w, jnp.float32), "b": jnp.asarray(b, jnp.float32)}
    exact = {"w": 3 * w**2 + eps**2, "b": np.float64(3 * b**2 + eps**2)}
    got, problem = run_reader(function, cubic, params, eps)
    if problem is not None:
        return problem
    shape = same_structure(got, exact, "기울기", "the gradient")
    if not shape.ok:
        return shape
    result = close(got, exact, "중앙 차분", "the central differences", rtol=1e-3, atol=1e-3)
    if result.ok:
        return all_of(shape, result)
    forward = {"w": ((w + eps) ** 3 - w**3) / eps, "b": ((b + eps) ** 3 - b**3) / eps}
    derivative = {"w": 3 * w**2, "b": 3 * b**2}
    for want, ko, en in (
        (forward, "전진 차분 (f(x + eps) - f(x)) / eps와 같습니다. 양쪽으로 eps만큼 움직이세요",
         "they match the forward difference (f(x + eps) - f(x)) / eps: step both ways"),
        (derivative, "차분이 아니라 정확한 도함수와 같습니다. jax.grad 대신 f를 두 번 불러 구하세요",
         "they match the exact derivative, not a difference: call f twice instead of jax.grad"),
    ):
        if close(got, want, "값", "the values", rtol=1e-3, atol=1e-3).ok:
            return wrong(f"{result.ko}. {ko}", f"{result.en}; {en}")
    return result


check = checks(central_differences=central_differences)
