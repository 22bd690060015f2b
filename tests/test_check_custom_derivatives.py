"""The check of the exercise of "Custom derivatives" (``examples/check_custom_derivatives.py``)."""

from __future__ import annotations

from check_custom_derivatives import DTYPES, check, truth
from readers_checks import said
from softplus_overflow import sweep


def answers():
    """This machine's points, as (first_inf, first_wrong, first_nan) for each dtype."""
    return {dtype: (truth(dtype)["first_inf"], truth(dtype)["first_wrong"], truth(dtype)["first_nan"])
            for dtype in DTYPES}


def test_the_solution_passes():
    assert check.breaks({dtype: sweep(dtype, -20.0, 100.0, 12_001) for dtype in DTYPES}).ok
    assert check.breaks(answers()).ok


def test_a_float32_threshold_for_float16_is_named():
    wrong = answers()
    wrong["float16"] = wrong["float32"]   # computed in float32: exp overflows where float32's does
    said(check.breaks(wrong), "float16", "the value is inf", "yours is float32's", korean="float32 자료형의 값")


def test_a_missing_or_early_or_late_point_says_what_is_there():
    inf, wrong_at, nan = answers()["float32"]
    for f32, english, korean in (
        ((inf, wrong_at, None), ["you give None", "look for nan in the gradient"], "기울기에서 nan"),
        ((inf - 1.0, wrong_at, nan), ["the value is inf differs", "still finite"], "아직 유한"),
        ((inf, nan, nan), ["gradient is wrong differs", "a finite gradient can be wrong too"], "유한하지만 틀린"),
        ((inf, -20.0, nan), ["below the machine epsilon", "choose a few epsilons"], "기계 엡실론"),
    ):
        given = answers()
        given["float32"] = f32
        said(check.breaks(given), *english, korean=korean)


def test_an_answer_of_the_wrong_form_is_named():
    said(check.breaks([1, 2, 3]), "a dict from each dtype", korean="딕셔너리")
    said(check.breaks({"float32": (1.0, 2.0, 3.0)}), "no answer for bfloat16, float16", korean="bfloat16")
