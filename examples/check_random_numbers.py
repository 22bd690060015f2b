"""Check your answer to the exercise of "Random numbers": import its ``check``, then

    from check_random_numbers import check
    check.largest_correlation(your_largest_correlation)
    check.union_bound(your_union_bound)

Step 1 of the exercise, in two parts:

* ``your_largest_correlation(samples)`` takes streams as the rows of ``samples`` (k × n, float32)
  and returns the largest |r| over all pairs of different streams. The check calls it on streams of
  its own, some of them correlated on purpose, with means and scales that differ, and compares with
  NumPy's correlations in float64;
* ``your_union_bound(n_pairs)`` returns the limit z on |√n·r| that, for ``n_pairs`` pairs of
  independent streams, the union bound sets: n_pairs · P(|Z| > z) = 10⁻⁶ for a standard normal Z.
  The check calls it for several numbers of pairs.

Step 2 (the throughput) is a timing, and timings are not graded; step 3 is a plot.
"""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, right, run_reader, wrong  # noqa: E402

FALSE_ALARM = 1e-6   # the chance the exercise allows independent streams to cross the limit
R_TOLERANCE = 3e-3   # on r in [-1, 1]: float32, and a GPU's TF32 matmuls inside jnp.corrcoef
Z_TOLERANCE = 1e-4   # relative, on z: float32 quantiles are good to about 1e-7
PAIRS = (1, 45, 2016)  # one pair, the pairs of 10 streams, the pairs of the exercise's 64


def check_streams(k: int = 10, n: int = 300, seed: int = 0) -> np.ndarray:
    """k streams of n numbers (rows, float64 holding float32 values): stream 2 is correlated with
    stream 0 (r near 0.5) and stream 4 with stream 1 (r near -0.8), every stream with its own mean
    and scale, so that the mistakes below give values far apart."""
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((k, n))
    streams = base.copy()
    streams[2] = 0.5 * base[0] + math.sqrt(0.75) * base[2]
    streams[4] = -0.8 * base[1] + math.sqrt(0.36) * base[4]
    streams = streams * np.linspace(0.5, 4, k)[:, None] + np.linspace(-2, 3, k)[:, None]
    return streams.astype(np.float32).astype(np.float64)


def _off_diagonal(matrix: np.ndarray) -> np.ndarray:
    return matrix[np.triu_indices(len(matrix), k=1)]


def mistakes(streams: np.ndarray) -> list[tuple[float, str, str]]:
    """What typical wrong answers give for ``streams``, with what to say about each."""
    r = _off_diagonal(np.corrcoef(streams))
    unit = streams / np.linalg.norm(streams, axis=1, keepdims=True)
    return [
        (1.0, "1은 한 흐름과 그 자신의 상관계수입니다. 상관계수 행렬의 대각선을 빼고 서로 다른 두 흐름의 쌍만 보세요",
         "1 is the correlation of a stream with itself: leave out the diagonal, and take pairs of different streams"),
        (float(np.abs(_off_diagonal(np.corrcoef(streams.T))).max()),
         "열끼리의 상관계수입니다. 흐름은 행이므로 행끼리의 상관계수를 구하세요(np.corrcoef의 rowvar 기본값)",
         "that is the correlation of columns: the streams are the rows (np.corrcoef's default, rowvar=True)"),
        (float(r.max()), "부호가 있는 r의 최댓값입니다. 여기서 가장 강한 상관은 음의 상관이므로 "
                         "|r|의 최댓값을 구하세요",
         "that is the largest signed r: the strongest correlation here is negative, so take the largest |r|"),
        (float(np.abs(_off_diagonal(np.cov(streams))).max()),
         "공분산입니다. 두 흐름의 표준 편차로 나눠야 상관계수가 됩니다",
         "that is a covariance: divide by the two streams' standard deviations to get a correlation"),
        (float(np.abs(_off_diagonal(np.cov(streams, ddof=0))).max()),
         "공분산입니다. 두 흐름의 표준 편차로 나눠야 상관계수가 됩니다",
         "that is a covariance: divide by the two streams' standard deviations to get a correlation"),
        (float(np.abs(_off_diagonal(unit @ unit.T)).max()),
         "평균을 빼지 않은 코사인 유사도입니다. 흐름마다 평균을 뺀 뒤 상관계수를 구하세요",
         "that is the cosine similarity, without subtracting the means: centre each stream first"),
    ]


def _number(value):
    """``value`` as a float, or None when it is not one number."""
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return float(array.reshape(())) if array.size == 1 else None


def _not_a_number(got, wanted_ko: str, wanted_en: str, where_ko: str = "", where_en: str = ""):
    """The reader's function returned ``got``, not one number."""
    shape = getattr(got, "shape", None)
    if shape is not None:
        what_ko, what_en = f"형상(shape)이 {tuple(shape)}인 배열", f"an array of shape {tuple(shape)}"
    else:
        what_ko, what_en = f"{type(got).__name__} 값", f"a value of type {type(got).__name__}"
    return wrong(f"{where_ko}함수가 수 하나가 아니라 {what_ko}을 돌려줬습니다. {wanted_ko} 하나를 돌려주세요",
                 f"{where_en}your function returned {what_en}, not one number: return {wanted_en}")


def largest_correlation(function):
    """Check ``function(samples)``, the largest |r| over pairs of different rows, against NumPy (float64)."""
    streams = check_streams()
    got, problem = run_reader(function, jnp.asarray(streams, jnp.float32))
    if problem is not None:
        return problem
    value = _number(got)
    if value is None:
        return _not_a_number(got, "가장 큰 |r|", "the largest |r|")
    want = float(np.abs(_off_diagonal(np.corrcoef(streams))).max())
    k, n = streams.shape
    if abs(value - want) <= R_TOLERANCE:
        return right(f"흐름 {k}개(각 {n}개)의 가장 큰 |r|이 맞습니다: 받은 값 {value:.4f}, NumPy float64로 구한 값 "
                     f"{want:.4f}(허용 오차 ±{R_TOLERANCE:g})",
                     f"the largest |r| of {k} streams of {n} numbers is right: {value:.4f}, where NumPy in float64 "
                     f"gives {want:.4f} (allowed: ±{R_TOLERANCE:g})")
    said = (f"흐름 {k}개(각 {n}개)의 가장 큰 |r|은 {want:.4f}인데, 받은 값은 {value:.4g}입니다",
            f"the largest |r| of {k} streams of {n} numbers is {want:.4f}, not {value:.4g}")
    for mistake, ko, en in mistakes(streams):
        if abs(value - mistake) <= R_TOLERANCE:
            return wrong(f"{said[0]}. {ko}", f"{said[1]}; {en}")
    return wrong(f"{said[0]}. 서로 다른 두 흐름(행)마다 평균을 빼고 표준 편차로 나눈 상관계수 r을 구해, |r|의 최댓값을 "
                 f"돌려주세요(허용 오차 ±{R_TOLERANCE:g})",
                 f"{said[1]}; for every pair of different streams (rows) compute r, centred and divided by the "
                 f"standard deviations, and return the largest |r| (allowed: ±{R_TOLERANCE:g})")


def z_limit(n_pairs: int, false_alarm: float = FALSE_ALARM) -> float:
    """The z with ``n_pairs`` · P(|Z| > z) = ``false_alarm``, from the lower tail (accurate in float64).

    >>> round(z_limit(1, 0.05), 2), round(z_limit(2016), 2)
    (1.96, 6.22)
    """
    return -statistics.NormalDist().inv_cdf(false_alarm / (2 * n_pairs))


def pairs(m: int) -> str:
    """``m`` pairs, in English: "1 pair", "2,016 pairs"."""
    return f"{m:,} pair" + ("" if m == 1 else "s")


def float32_z(n_pairs: int) -> float:
    """What the quantile of 1 − 10⁻⁶/(2M) gives when that probability is rounded to float32 (inf when
    it rounds to 1): the answer of ``ndtri(1 - p)`` computed in float32."""
    tail = 1 - float(np.float32(1 - FALSE_ALARM / (2 * n_pairs)))
    return math.inf if tail <= 0 else -statistics.NormalDist().inv_cdf(tail)


def union_bound(function):
    """Check ``function(n_pairs)``, the union bound's limit on |√n·r|, for every count in ``PAIRS``."""
    results = []
    for n_pairs in PAIRS:
        got, problem = run_reader(function, n_pairs)
        if problem is not None:
            return problem
        value = _number(got)
        if value is None:
            return _not_a_number(got, "합격선 z", "the limit z", f"쌍 {n_pairs:,}개에서 ", f"for {pairs(n_pairs)}, ")
        want = z_limit(n_pairs)
        if abs(value - want) <= Z_TOLERANCE * want:
            results.append(value)
            continue
        said = (f"쌍 {n_pairs:,}개의 합격선은 z = {want:.4f}인데, 받은 값은 {value:.4g}입니다",
                f"for {pairs(n_pairs)} the limit is z = {want:.4f}, not {value:.4g}")
        if math.isnan(value) or math.isinf(value) or abs(value - float32_z(n_pairs)) <= Z_TOLERANCE * want:
            return wrong(f"{said[0]}. float32에서는 1 − 10⁻⁶/(2M)이 반올림되어(M이 크면 1이 되어) 분위수가 틀어집니다. "
                         "아래쪽 꼬리 확률 10⁻⁶/(2M)의 분위수에 부호를 바꿔 쓰거나, float64로 구하세요",
                         f"{said[1]}; in float32, 1 − 1e-6/(2M) is rounded (to 1 when M is large), and its quantile "
                         "with it: negate the quantile of the lower tail, 1e-6/(2M), or compute in float64")
        if abs(value - z_limit(1)) <= Z_TOLERANCE * z_limit(1):
            return wrong(f"{said[0]}. 쌍 1개의 합격선과 같습니다. 쌍이 M개면 그중 하나라도 넘을 확률을 M·P(|Z| > z)로 "
                         "묶어야 하므로, 합격선은 M과 함께 커집니다",
                         f"{said[1]}; that is the limit for one pair: with M pairs, the chance that any of them "
                         "crosses it is bounded by M·P(|Z| > z), so the limit grows with M")
        if abs(value - z_limit(n_pairs, 2 * FALSE_ALARM)) <= Z_TOLERANCE * want:
            return wrong(f"{said[0]}. 한쪽 꼬리만 셌습니다. |√n·r|은 양쪽으로 넘을 수 있으므로 P(|Z| > z) = "
                         "2·P(Z > z)입니다",
                         f"{said[1]}; that counts one tail only: |√n·r| can cross on either side, so "
                         "P(|Z| > z) = 2·P(Z > z)")
        side = ("받은 값이 더 큽니다. 독립인 흐름이 이 선을 넘을 확률도 10⁻⁶ 이하이지만, 필요한 것보다 느슨합니다"
                "(꼬리 확률의 근사식을 썼습니까?)",
                "yours is higher: independent streams still cross it with probability at most 1e-6, but it is "
                "looser than it need be (an approximation of the tail?)") if value > want else (
                "받은 값이 더 작습니다. 이 선은 독립인 흐름도 10⁻⁶보다 높은 확률로 넘습니다",
                "yours is lower: independent streams cross it with probability above 1e-6")
        return wrong(f"{said[0]}. {side[0]}. M·P(|Z| > z) = 10⁻⁶이 되는 z를 구하세요",
                     f"{said[1]}; {side[1]}. Solve M·P(|Z| > z) = 1e-6 for z")
    shown = ", ".join(f"{z:.2f}" for z in results)
    counts = ", ".join(f"{m:,}" for m in PAIRS)
    return right(f"쌍의 수 {counts}에서 합격선 z가 모두 맞습니다({shown})",
                 f"the limit z is right for {counts} pairs ({shown})")


check = checks(largest_correlation=largest_correlation, union_bound=union_bound)
