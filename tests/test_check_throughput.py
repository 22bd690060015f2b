"""The exercise check of "Throughput and break-even" (``examples/check_throughput.py``)."""

from __future__ import annotations

import math
import statistics

from check_throughput import check
from jit_payoff import break_even, paired_median
from readers_checks import said


def counted(c, rounding=math.ceil, paired=True, verdict=True, least=1):
    """A break-even count with one of the usual slips: another rounding, medians apart, the verdict ignored."""
    if verdict and c.verdict("jit warm", "jnp").outcome != "faster":
        return None
    if paired:
        extra, saved = paired_median(c, "jit cold", "jit warm"), paired_median(c, "jnp", "jit warm")
    else:
        median = {name: statistics.median(c.samples[name]) for name in c.samples}
        extra, saved = median["jit cold"] - median["jit warm"], median["jnp"] - median["jit warm"]
    return max(least, rounding(extra / saved))


def test_the_solution_passes():
    result = check.break_even(break_even)
    assert result.ok, result
    assert check.break_even(counted).ok


def test_a_count_where_the_two_did_not_separate_is_wrong():
    said(check.break_even(lambda c: counted(c, verdict=False)), "did not separate", "return None",
         korean="None을 돌려주세요")


def test_rounding_down_or_to_the_nearest_is_named():
    said(check.break_even(lambda c: counted(c, rounding=math.floor)), "case 1", "rounded down", "math.ceil",
         korean="math.ceil")
    said(check.break_even(lambda c: counted(c, rounding=round)), "rounded down or to the nearest", korean="반올림")
    said(check.break_even(lambda c: counted(c, rounding=lambda q: int(q) + 1)), "case 2", "one too many",
         korean="하나가 많습니다")


def test_medians_taken_apart_are_named():
    said(check.break_even(lambda c: counted(c, paired=False)), "case 6", "medians of each way taken apart",
         korean="라운드마다 차이를 구한 뒤")


def test_at_least_one_call_and_a_number():
    said(check.break_even(lambda c: counted(c, rounding=math.floor, least=0)), "case 3", "at least 1",
         korean="1 이상")
    said(check.break_even(lambda c: "3"), "not a str", korean="str")
    said(check.break_even(lambda c: 1 / 0), "raised ZeroDivisionError", korean="ZeroDivisionError")
