"""The reader's check of the roofline lesson's exercise (``examples/check_roofline.py``): the counts of
``m @ v`` and the limit of its intensity pass, and each recognised slip is named in both languages."""

from __future__ import annotations

from check_roofline import check
from readers_checks import said


def flops(n):
    return 2 * n * n   # as the solution cell's `predicted`


def nbytes(n):
    return (n * n + 2 * n) * 4


def test_the_solution_passes():
    assert check.counts(flops, nbytes).ok and check.intensity_limit(0.5).ok
    exact_adds = check.counts(lambda n: 2 * n * n - n, nbytes)   # n(n - 1) additions: right, with a note
    assert exact_adds.ok and "2n² − n" in exact_adds.en and "2n² − n" in exact_adds.ko


def test_the_flop_slips_are_named():
    said(check.counts(lambda n: n * n, nbytes), "multiply-add counted as one FLOP", korean="1 FLOP으로")
    said(check.counts(lambda n: 2 * n**3, nbytes), "2n³ of a matrix-matrix product", korean="행렬-행렬 곱")
    said(check.counts(lambda n: 3 * n * n, nbytes), "your FLOPs: 3 at n = 1, where 2n² = 2 is right",
         korean="n = 1에서 받은 값은 3")


def test_the_byte_slips_are_named():
    said(check.counts(flops, lambda n: n * n + 2 * n), "elements, not bytes", korean="4바이트")
    said(check.counts(flops, lambda n: (n * n + n) * 4), "the result is left out", korean="결과를 빠뜨렸습니다")
    said(check.counts(flops, lambda n: 4 * n * n), "only the matrix", korean="행렬만")
    said(check.counts(flops, lambda n: 12 * n * n), "3n² elements of a matrix-matrix product", korean="3n²")


def test_what_the_functions_return_or_raise_is_named():
    said(check.counts(flops, lambda n: [n, n]), "returned a list, not one number", korean="list")
    said(check.counts(lambda n: 1 / 0, nbytes), "raised ZeroDivisionError", korean="ZeroDivisionError")


def test_the_limit():
    said(check.intensity_limit(2), "FLOPs per element", korean="원소당 FLOP")
    said(check.intensity_limit(0.25), "multiply-add counted as one FLOP", korean="1 FLOP으로")
    said(check.intensity_limit(float("inf")), "tends to a constant", korean="일정한 값")
    said(check.intensity_limit(0.3), "0.3, where 0.5 FLOP/B is right", korean="0.5 FLOP/B")
    said(check.intensity_limit("half"), "one number", korean="수 하나")
