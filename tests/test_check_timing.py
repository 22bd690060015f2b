"""The exercise checks of "Timing JAX correctly" (``examples/check_timing.py``)."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
from check_timing import check, largest_rank
from readers_checks import said
from timing import Comparison, compare, sign_test_rank


def solution_k(n):
    """The page's solution: the largest k whose interval misses the median with probability 5% or less."""
    def miss_chance(n, k):
        return 2 * sum(math.comb(n, i) for i in range(k)) / 2**n
    return max(k for k in range(1, n // 2 + 1) if miss_chance(n, k) <= 0.05)


def test_the_rank_is_computed_anew_as_timing_computes_it():
    assert [largest_rank(n) for n in range(1, 61)] == [sign_test_rank(n) for n in range(1, 61)]


def test_the_solutions_k_passes_and_the_usual_slips_are_named():
    assert solution_k(30) == 10 and check.rank(solution_k(30)).ok and check.rank(10.0).ok
    said(check.rank(11), "more than 5%", "factor 2", korean="2를 곱하지")
    said(check.rank(9), "k = 10 still gives", "range(k + 1)", "2.5%", korean="2.5%")
    said(check.rank(8), "the largest k", korean="가장 큰")
    said(check.rank(21), "counted from each end", korean="양 끝에서")
    said(check.rank("10"), "whole number", korean="정수")


def test_the_solutions_comparison_passes_whatever_it_measured():
    f = jax.jit(lambda v: jnp.sin(v) * jnp.cos(v))
    x = jnp.ones(1000)
    itself = compare({"A": lambda: f(x), "B": lambda: f(x)}, rounds=9)
    assert check.same_code(itself, "same").ok
    separated = Comparison({"A": [1.0] * 9, "B": [2.0] * 9})   # separated: by chance, or on a busy machine
    result = check.same_code(separated, "same")
    assert result.ok and "measure again" in result.en and "다시 재 보세요" in result.ko, result


def test_a_wrong_expectation_or_measurement_is_named():
    rounds = Comparison({"A": [1.0, 1.1, 0.9] * 3, "B": [1.0, 0.9, 1.1] * 3})
    said(check.same_code(rounds, "faster"), "does not tell the two apart", "\"same\"", korean="가리지 않아야")
    said(check.same_code(rounds, "equal"), "write \"faster\", \"slower\" or \"same\"", korean="가운데 하나")
    said(check.same_code(Comparison({"A": [1.0] * 6, "B": [1.0] * 6}), "same"), "6 rounds", "measures 9",
         korean="9라운드")
    said(check.same_code(Comparison({"A": [1.0] * 9, "B": [1.0] * 9, "C": [1.0] * 9}), "same"), "3 variants",
         korean="두 이름")
    said(check.same_code([1.0, 2.0], "same"), "the Comparison that compare returned", korean="Comparison")
