"""The reader's check of the exercise of "What JAX is" (``examples/check_what_is_jax.py``): it passes
the pure ``noisy_step`` and names each usual way of getting it wrong, in Korean and in English."""

from __future__ import annotations

import jax
import numpy as np
from check_what_is_jax import check
from readers_checks import said


def noisy_step_pure(count, key, x):
    """The exercise's solution, as the lesson's page writes it."""
    key, subkey = jax.random.split(key)
    y = x + 0.1 * jax.random.normal(subkey)
    return count + 1, key, y


def test_the_solution_passes():
    result = check.noisy_step_pure(noisy_step_pure)
    assert result.ok, result
    assert "count of 2" in result.en and "카운터가 2가" in result.ko


def test_a_global_counter_is_named():
    calls = {"n": 0}

    def global_counter(count, key, x):
        calls["n"] += 1  # runs only while tracing
        key, subkey = jax.random.split(key)
        return calls["n"], key, x + 0.1 * jax.random.normal(subkey)

    said(check.noisy_step_pure(global_counter), "did not go up to 2", "Python global", korean="전역 변수")


def test_returning_the_same_key_is_named():
    def same_key(count, key, x):
        return count + 1, key, x + 0.1 * jax.random.normal(jax.random.split(key)[1])

    said(check.noisy_step_pure(same_key), "the key it was given", "jax.random.split", korean="받은 키와 같아서")


def test_numpy_noise_is_named():
    def numpy_noise(count, key, x):
        key, _ = jax.random.split(key)
        return count + 1, key, x + 0.1 * np.random.normal()  # drawn once, while tracing

    said(check.noisy_step_pure(numpy_noise), "does not depend on the key", "NumPy's generator",
         korean="키에 달려 있지 않습니다")


def test_the_order_of_the_results_is_named():
    said(check.noisy_step_pure(lambda count, key, x: noisy_step_pure(count, key, x)[::-1]),
         "the counter and y are swapped", "in that order", korean="자리가 바뀌었습니다")
    said(check.noisy_step_pure(lambda count, key, x: (lambda c, k, y: (k, c, y))(*noisy_step_pure(count, key, x))),
         "the new key is value 1", "in that order", korean="순서로")
    said(check.noisy_step_pure(lambda count, key, x: noisy_step_pure(count, key, x)[:2]), "three things",
         "tuple of 2", korean="세 값")


def test_noise_without_x_and_a_wrong_shape_are_named():
    said(check.noisy_step_pure(lambda count, key, x: (count + 1, *noisy_step_pure(count, key, 0.0)[1:])),
         "x plus noise", korean="x에 잡음을 더한")
    said(check.noisy_step_pure(lambda count, key, x: (count + 1, key, x + jax.random.normal(key, (1,)))),
         "shape of the scalar x", korean="형상")


def test_an_error_is_named():
    said(check.noisy_step_pure(lambda count, key, x: float(x)), "ConcretizationTypeError",
         korean="ConcretizationTypeError")
