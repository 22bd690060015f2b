"""The reader's check of the exercise of "Debugging and the sharp bits" (``examples/check_debugging.py``)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from check_debugging import check
from find_the_nan import normalize_broken, normalize_fixed
from readers_checks import said


def norm(x):
    return jnp.linalg.norm(x, axis=-1, keepdims=True)


def test_the_solution_and_other_right_fixes_pass():
    assert check.normalize(normalize_fixed).ok
    assert check.normalize(lambda x: x / (norm(x) + 1e-8)).ok   # a tiny epsilon: no NaN, values within 1e-5
    assert check.normalize(lambda x: x / jnp.sqrt(jnp.maximum(jnp.sum(x**2, -1, keepdims=True), 1e-12))).ok


def test_the_broken_scaling_is_named():
    said(check.normalize(normalize_broken), "row of zeros gives NaN", "0 / 0", korean="0 / 0")


def test_covering_the_nan_after_the_division_is_caught_inside():
    for covered in (lambda x: jnp.where(norm(x) > 0, x / norm(x), 0.0), lambda x: jnp.nan_to_num(x / norm(x))):
        said(check.normalize(covered), "checkify caught one", "primitive div", "before dividing",
             korean="프리미티브 div")


def test_wrong_values_and_shapes_are_named():
    said(check.normalize(lambda x: x / (norm(x) + 1e-2)), "row 3", "x / ||x||", korean="3번 행")
    said(check.normalize(lambda x: x / jnp.where(jnp.linalg.norm(x) > 0, jnp.linalg.norm(x), 1.0)),
         "whole batch", korean="배치 전체")
    said(check.normalize(lambda x: norm(x)), "shape is (6, 1)", korean="형상")
    said(check.normalize(lambda x: x / np.linalg.norm(x, axis=-1)), "raised", korean="오류")
