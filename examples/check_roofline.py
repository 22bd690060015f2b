"""Check your answer to the exercise of "The roofline": import its ``check``, then

    from check_roofline import check
    check.counts(your_flops, your_bytes)
    check.intensity_limit(your_limit)

``your_flops(n)`` and ``your_bytes(n)`` should return, for any n, the FLOPs and the bytes of ``m @ v``,
an n × n float32 matrix times a float32 vector of length n (step 1): the bytes it reads and writes.
``your_limit`` is the number, in FLOP/B, that its intensity tends to for large n. The check calls the
two functions at a few n, small ones included, where the usual slips (a multiply-add counted as one
FLOP, elements for bytes, the result left out, the formulas of the matrix-matrix product) give other
numbers than the right ones, and names the slip it recognises. The timing of step 3 is not graded.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, right, run_reader, wrong  # noqa: E402
from timing import particle  # noqa: E402

SIZES = (1, 2, 3, 8, 1000)  # small n tell the slips apart: at n = 1000 most of them would be close
FLOAT32 = 4  # bytes


def flops_right(n):
    return 2 * n * n  # a multiply and an add for each element of m, as cost_analysis() counts them


def bytes_right(n):
    return (n * n + 2 * n) * FLOAT32  # read m and v, write the n results


# Slips that can be recognised: (function of n, what to look at in Korean, in English).
FLOP_SLIPS = (
    (lambda n: n * n, "곱셈과 덧셈을 합쳐 1 FLOP으로 셌습니다. m의 원소마다 곱셈 한 번과 덧셈 한 번, 2 FLOP입니다",
     "a multiply-add counted as one FLOP: each element of m takes a multiplication and an addition, 2 FLOPs"),
    (lambda n: 2 * n**3, "행렬-행렬 곱의 2n³입니다. 행렬-벡터 곱에서는 m의 원소를 한 번씩만 쓰므로 2n²입니다",
     "the 2n³ of a matrix-matrix product: here each element of m is used once, 2n² in all"),
)
BYTE_SLIPS = (
    (lambda n: n * n + 2 * n, "원소 수를 셌습니다. float32 원소는 하나에 4바이트입니다",
     "elements, not bytes: a float32 element is 4 bytes"),
    (lambda n: (n * n + n) * FLOAT32, "결과를 빠뜨렸습니다. 결과 n개를 쓰는 4n바이트도 세세요",
     "the result is left out: writing its n elements is 4n bytes too"),
    (lambda n: n * n * FLOAT32, "행렬만 셌습니다. 벡터 v를 읽고 결과를 쓰는 바이트도 세세요",
     "only the matrix: reading v and writing the result are bytes too"),
    (lambda n: 3 * n * n * FLOAT32, "행렬-행렬 곱의 3n² 원소입니다. 여기서 v와 결과는 원소가 n개씩입니다",
     "the 3n² elements of a matrix-matrix product: here v and the result have n elements each"),
)


def _values(function, what_ko: str, what_en: str):
    """``function`` at every size of ``SIZES``, as floats; or ``(None, Result)`` saying what went wrong."""
    values = []
    for n in SIZES:
        value, problem = run_reader(function, n)
        if problem is not None:
            return None, problem
        try:
            values.append(float(np.asarray(value, dtype=np.float64)))
        except (TypeError, ValueError):
            kind = type(value).__name__
            return None, wrong(f"{what_ko}가 n = {n}에서 수 하나가 아닌 값(타입 {kind})을 돌려주었습니다",
                               f"{what_en}: at n = {n} the function returned a {kind}, not one number")
    return values, None


def _matches(values, function) -> bool:
    return all(math.isclose(v, function(n), rel_tol=1e-9) for v, n in zip(values, SIZES, strict=True))


def _one(values, want, formula: str, slips, what_ko: str, what_en: str):
    """The result for one of the two functions: right, a recognised slip, or the first n that is off."""
    if _matches(values, want):
        return right(f"{what_ko}{particle(what_ko, '가', '이')} 맞습니다({formula})",
                     f"{what_en}: right, {formula}")
    n, got = next((n, v) for n, v in zip(SIZES, values, strict=True) if not math.isclose(v, want(n), rel_tol=1e-9))
    ko = (f"{what_ko}{particle(what_ko, '가', '이')} 다릅니다. n = {n}에서 받은 값은 {got:,.6g}, "
          f"맞는 값은 {formula} = {want(n):,}입니다")
    en = f"{what_en}: {got:,.6g} at n = {n}, where {formula} = {want(n):,} is right"
    for slip, slip_ko, slip_en in slips:
        if _matches(values, slip):
            return wrong(f"{ko}. {slip_ko}", f"{en}; {slip_en}")
    return wrong(ko, en)


def counts(flops, bytes_):
    """Check ``flops(n)`` against 2n² and ``bytes_(n)`` against 4(n² + 2n), at every n of ``SIZES``.

    The exact count of additions, n(n − 1), gives 2n² − n FLOPs: right too, with a note that
    ``cost_analysis()`` and the page count 2n².
    """
    flop_values, problem = _values(flops, "FLOP을 세는 함수", "your FLOPs")
    if problem is not None:
        return problem
    byte_values, problem = _values(bytes_, "바이트를 세는 함수", "your bytes")
    if problem is not None:
        return problem
    if _matches(flop_values, lambda n: 2 * n * n - n):
        flop_result = right("FLOP 수도 맞습니다(곱셈 n²번과 덧셈 n(n − 1)번, 2n² − n). 이 페이지도, cost_analysis()의 "
                            "추정치도 원소마다 곱셈-덧셈을 2 FLOP으로 세어 2n²이라 하고, n이 크면 둘은 같습니다",
                            "your FLOPs: right too, n² multiplications and n(n − 1) additions, 2n² − n; this page and "
                            "cost_analysis() count a multiply-add per element as 2 FLOPs, 2n², the same for large n")
    else:
        flop_result = _one(flop_values, flops_right, "2n²", FLOP_SLIPS, "FLOP 수", "your FLOPs")
    byte_result = _one(byte_values, bytes_right, "4(n² + 2n)", BYTE_SLIPS, "바이트 수", "your bytes")
    return all_of(flop_result, byte_result)


def intensity_limit(value):
    """Check the limit of the intensity for large n: 2n² / (4(n² + 2n)) tends to 1/2 FLOP/B."""
    try:
        got = float(value)
    except (TypeError, ValueError):
        return wrong("극한값은 FLOP/B 단위의 수 하나여야 합니다", "the limit should be one number, in FLOP/B")
    if math.isclose(got, 0.5, rel_tol=1e-3):
        return right("극한값이 맞습니다. 산술 강도는 n이 커지면 1/2 FLOP/B에 가까워집니다",
                     "the limit is right: the intensity tends to 1/2 FLOP/B")
    ko = f"극한값이 다릅니다. 받은 값은 {got:g}, 맞는 값은 0.5 FLOP/B입니다"
    en = f"the limit is {got:g}, where 0.5 FLOP/B is right"
    hints = (
        (2.0, "원소당 FLOP입니다. 원소 하나는 4바이트이므로 4로 나누세요",
         "that is FLOPs per element: divide by the 4 bytes of one"),
        (0.25, "곱셈-덧셈을 1 FLOP으로 셌습니다", "a multiply-add counted as one FLOP"),
        (math.inf, "FLOP과 바이트가 모두 n²에 비례해 늘어나므로 산술 강도는 일정한 값에 가까워집니다",
         "the FLOPs and the bytes both grow as n², so the intensity tends to a constant"),
    )
    for value_, hint_ko, hint_en in hints:
        if math.isclose(got, value_, rel_tol=1e-3) or got == value_:
            return wrong(f"{ko}. {hint_ko}", f"{en}; {hint_en}")
    return wrong(ko, en)


check = checks(counts=counts, intensity_limit=intensity_limit)
