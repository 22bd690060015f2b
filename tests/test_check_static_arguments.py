"""The exercise check of "Static arguments and recompilation traps" (``examples/check_static_arguments.py``)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from check_static_arguments import check
from readers_checks import said


def normalize(x, settings):
    """The exercise's function, as the page writes it."""
    y = x - jnp.mean(x) if settings["center"] else x
    return y / settings["scale"]


def normalize_split(x, scale, center):
    """The page's solution: center static, scale traced."""
    y = x - jnp.mean(x) if center else x
    return y / scale


normalize_split_jit = jax.jit(normalize_split, static_argnames="center")
scale_static = jax.jit(normalize_split, static_argnames=("center", "scale"))


def test_the_solution_passes():
    result = check.normalize(lambda x, s: normalize_split_jit(x, float(s["scale"]), center=s["center"]))
    assert result.ok and "twice" in result.en, result


def test_scale_as_given_is_named_for_its_two_dtypes():
    said(check.normalize(lambda x, s: normalize_split_jit(x, s["scale"], center=s["center"])), "compiled 4 times",
         "i32[] or f32[]", "float(scale)", korean="float(scale)")


def test_a_static_scale_and_a_new_jit_per_call_are_told_apart():
    said(check.normalize(lambda x, s: scale_static(x, s["scale"], center=s["center"])), "compiled 8 times",
         "every new value of scale", korean="정적 인자")
    said(check.normalize(lambda x, s: jax.jit(lambda v, c: normalize(v, {"center": s["center"], "scale": c}))(
        x, float(s["scale"]))), "a new function with jax.jit on every call", korean="새 함수")


def test_the_errors_of_step_1_are_explained():
    said(check.normalize(jax.jit(normalize)), "TracerBoolConversionError", "mark center static",
         korean="정적 인자로 표시")
    said(check.normalize(jax.jit(normalize, static_argnames="settings")), "cannot be hashed",
         korean="해시할 수 없어")


def test_no_jit_and_wrong_values_are_named():
    said(check.normalize(normalize), "no jitted function compiled", "jax.numpy operations", korean="jax.numpy 연산")
    said(check.normalize(lambda x, s: np.asarray(normalize(x, s))), "not jax.Arrays", korean="jax.Array")
    said(check.normalize(lambda x, s: normalize_split_jit(x, float(s["scale"]), center=not s["center"])), "call 1",
         "as if center were False", korean="반대로")
    said(check.normalize(lambda x, s: normalize_split_jit(x, 1.0, center=s["center"])), "call 3", "off by",
         korean="다릅니다")


def test_operations_outside_jit_are_reported_beside_a_right_answer():
    result = check.normalize(lambda x, s: normalize_split_jit(x, jnp.float32(s["scale"]), center=s["center"]))
    assert result.ok and "outside the jitted function" in result.en and "바깥" in result.ko, result


def test_a_traced_center_passes_with_a_note():
    where = jax.jit(lambda x, scale, center: jnp.where(center, x - jnp.mean(x), x) / scale)
    result = check.normalize(lambda x, s: where(x, float(s["scale"]), s["center"]))
    assert result.ok and "compiled once" in result.en and "keeps center static" in result.en, result
