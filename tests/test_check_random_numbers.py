"""The reader's check of the exercise of "Random numbers" (``examples/check_random_numbers.py``)."""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np
from check_random_numbers import check, check_streams, mistakes, z_limit
from jax.scipy.special import ndtri
from random_streams import pair_correlations, union_bound
from readers_checks import said


def largest(samples):
    """The solution's answer: the largest |r| of its pair correlations."""
    return np.abs(pair_correlations(samples)).max()


def test_the_solution_passes_both_checks():
    assert check.largest_correlation(largest).ok
    assert check.largest_correlation(lambda s: jnp.abs(jnp.corrcoef(s) - jnp.eye(len(s))).max()).ok  # in float32
    assert check.union_bound(union_bound).ok
    assert check.union_bound(lambda m: -ndtri(1e-6 / (2 * m))).ok   # float32, from the lower tail


def test_the_mistakes_are_far_apart_and_from_the_answer():
    """Each recognised mistake gives a value that tolerance cannot confuse with another, or with the answer."""
    streams = check_streams()
    found = [(float(np.abs(pair_correlations(streams)).max()), "right")] + [(v, en) for v, _, en in mistakes(streams)]
    for value, meaning in found:
        near = {other for v, other in found if abs(v - value) < 0.01}
        assert near == {meaning}, (value, near)   # only the two covariances (ddof 1 and 0) say the same


def test_the_correlation_check_names_each_mistake():
    said(check.largest_correlation(lambda s: np.abs(np.corrcoef(s)).max()), "with itself", "diagonal",
         korean="대각선")
    said(check.largest_correlation(lambda s: pair_correlations(s).max()), "negative", korean="음의 상관")
    said(check.largest_correlation(lambda s: np.abs(np.triu(np.corrcoef(np.asarray(s).T), 1)).max()),
         "columns", korean="열끼리")
    said(check.largest_correlation(lambda s: np.abs(np.triu(np.cov(s), 1)).max()), "covariance", korean="공분산")
    unit = lambda s: np.asarray(s) / np.linalg.norm(s, axis=1, keepdims=True)  # noqa: E731
    said(check.largest_correlation(lambda s: np.abs(np.triu(unit(s) @ unit(s).T, 1)).max()), "cosine",
         korean="평균을 빼지 않은")
    said(check.largest_correlation(pair_correlations), "array of shape (45,)", korean="형상")
    said(check.largest_correlation(lambda s: 0.3), "numbers is 0.7836, not 0.3", korean="0.7836")


def test_the_union_bound_check_names_each_mistake():
    said(check.union_bound(lambda m: union_bound(1)), "for 45 pairs", "limit for one pair", korean="쌍 1개")
    said(check.union_bound(lambda m: -ndtri(1e-6 / m)), "one tail", korean="한쪽 꼬리")
    said(check.union_bound(lambda m: ndtri(1 - 1e-6 / (2 * m))), "float32", korean="float32")
    said(check.union_bound(lambda m: math.sqrt(2 * math.log(2 * m / 1e-6))), "higher", korean="더 큽니다")
    said(check.union_bound(lambda m: union_bound(m) / 100), "lower", korean="더 작습니다")
    said(check.union_bound(lambda m: [union_bound(m)] * 2), "not one number", korean="수 하나")
    said(check.union_bound(lambda m: 1 / 0), "raised ZeroDivisionError", korean="ZeroDivisionError")


def test_z_limit_is_the_solutions_union_bound():
    for m in (1, 45, 2016, 10**6):   # the solution's upper-tail form loses digits as m grows; both are well within
        assert abs(z_limit(m) - union_bound(m)) < 1e-5 * z_limit(m)
