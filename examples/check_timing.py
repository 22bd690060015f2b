"""Check your answer to the exercise of "Timing JAX correctly": import its ``check``, then

    from check_timing import check
    check.same_code(your_comparison, your_expected_outcome)
    check.rank(your_k)

``your_comparison`` is the ``Comparison`` of step 1: ``compare`` of the same warm call under two
names, 9 rounds; ``your_expected_outcome`` is the verdict you say the rule should give, "faster",
"slower" or "same". The check grades the expectation and the shape of the measurement (two names, 9
rounds), and reports what your rounds gave beside it, never grading the times.

``your_k`` is the k of step 2 for 30 rounds: the largest rank whose interval, from the k-th smallest
ratio to the k-th largest, misses the median with probability 5% or less. The check computes it anew
with whole numbers (``math.comb``), and names the usual slips.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, right, wrong  # noqa: E402
from timing import ratio_text  # noqa: E402

ROUNDS = 9          # step 1's rounds
N = 30              # step 2's rounds
OUTCOMES = ("faster", "slower", "same")


def miss_chance(n: int, k: int) -> float:
    """The chance that the interval from the k-th smallest to the k-th largest of ``n`` ratios misses the
    median: both tails of the binomial B(n, ½) below k, computed exactly.

    >>> round(miss_chance(9, 2), 3), round(miss_chance(30, 10), 3)
    (0.039, 0.043)
    """
    return 2 * sum(math.comb(n, i) for i in range(k)) / 2**n


def largest_rank(n: int, percent: int = 5) -> int:
    """The largest k whose ``miss_chance`` is at most ``percent`` %, in whole numbers (0 when none is).

    >>> [largest_rank(n) for n in (5, 6, 9, 30)]
    [0, 1, 2, 10]
    """
    k = 0
    while k < n // 2 and 2 * sum(math.comb(n, i) for i in range(k + 1)) * 100 <= percent * 2**n:
        k += 1
    return k


def same_code(comparison, expected):
    """Check step 1: the expected verdict for the same code under two names, and the measurement's shape.

    >>> from timing import Comparison
    >>> c = Comparison({"A": [1.0, 1.1, 0.9] * 3, "B": [1.0, 0.9, 1.1] * 3})
    >>> check.same_code(c, "same").ok, check.same_code(c, "faster").ok
    (True, False)
    """
    samples = getattr(comparison, "samples", None)
    if not isinstance(samples, dict) or not hasattr(comparison, "verdict"):
        return wrong(f"첫 인자는 compare가 돌려준 Comparison이어야 합니다. "
                     f"받은 값의 타입은 {type(comparison).__name__}입니다",
                     f"the first argument should be the Comparison that compare returned, not a "
                     f"{type(comparison).__name__}")
    names = list(samples)
    if len(names) != 2:
        return wrong(f"비교에 변형이 {len(names)}개 있습니다. 같은 웜 호출을 두 이름(A와 B)으로 넣으세요",
                     f"the comparison has {len(names)} variants: put the same warm call in under two names, A and B")
    rounds = len(samples[names[0]])
    if rounds != ROUNDS:
        return wrong(f"비교가 {rounds}라운드입니다. 1번은 {ROUNDS}라운드로 재는 문제입니다(rounds={ROUNDS})",
                     f"the comparison has {rounds} rounds: step 1 measures {ROUNDS} (rounds={ROUNDS})")
    expected = getattr(expected, "outcome", expected)
    if expected not in OUTCOMES:
        return wrong(f"예상한 판정이 {expected!r}입니다. \"faster\", \"slower\", \"same\" 가운데 하나로 적으세요",
                     f"the expected verdict is {expected!r}: write \"faster\", \"slower\" or \"same\"")
    a, b = names
    verdict = comparison.verdict(a, b)
    low, high = (ratio_text(end) for end in verdict.interval)
    chance = f"{miss_chance(ROUNDS, largest_rank(ROUNDS)):.3f}"
    if expected != "same":
        return wrong(f"예상한 판정이 \"{expected}\"입니다. 같은 코드라면 라운드별 비율이 1의 양쪽으로 "
                     "흩어지므로, 규칙이 제대로 동작하면 둘을 가리지 않아야 합니다. 맞는 판정은 \"same\"입니다",
                     f"you expect \"{expected}\": for the same code the per-round ratios scatter on both sides of 1, "
                     "so a rule that behaves does not tell the two apart: \"same\"")
    if verdict.outcome == "same":
        measured_ko = f"이번 측정에서도 구간({low}–{high})이 1을 포함해 둘이 가려지지 않았습니다"
        measured_en = f"your rounds agree: the interval {low}–{high} contains 1, and the two did not separate"
    else:
        measured_ko = (f"이번 측정에서는 구간({low}–{high})이 1을 포함하지 않아 둘이 가려졌습니다. "
                       f"두 코드가 정말 같을 때 {ROUNDS}라운드의 구간이 1을 놓칠 확률은 {chance}이고, "
                       "재는 동안 기계의 속도가 고르지 않았다면 그보다 커집니다. 다시 재 보세요")
        measured_en = (f"your rounds separated them (the interval {low}–{high} misses 1): for two that are truly the "
                       f"same this happens with probability {chance} over {ROUNDS} rounds, more on a machine that "
                       "was not steady; measure again")
    return right(f"맞습니다. 규칙이 제대로 동작하면 판정은 \"same\"입니다. {measured_ko}",
                 f"right: a rule that behaves gives \"same\"; {measured_en}")


def rank(k):
    """Check step 2's k for 30 rounds against ``largest_rank(30)``, computed here in whole numbers.

    >>> check.rank(10).ok, check.rank(11).ok
    (True, False)
    """
    want = largest_rank(N)
    if not _whole(k):
        return wrong(f"k는 순위이므로 정수여야 합니다. 받은 값은 {k!r}입니다",
                     f"k is a rank, so it should be a whole number, not {k!r}")
    k = int(k)
    if k == want:
        return right(f"맞습니다. {N}라운드의 k는 {want}입니다. 그 구간이 중앙값을 놓칠 확률은 "
                     f"{miss_chance(N, want):.3f}입니다. 5%를 넘지 않고, k를 하나 늘린 구간의 확률은 "
                     f"{miss_chance(N, want + 1):.3f}입니다",
                     f"right: for {N} rounds k = {want}, and the interval misses the median with probability "
                     f"{miss_chance(N, want):.3f}, within 5%; one more would make it {miss_chance(N, want + 1):.3f}")
    if not 0 <= k <= N // 2:
        return wrong(f"받은 k는 {k}입니다. k는 양 끝에서 세는 순위이므로 0부터 {N // 2}까지입니다. "
                     "아래에서 k번째와 위에서 k번째 비율이 구간의 양 끝입니다",
                     f"k = {k}: k is a rank counted from each end, from 0 to {N // 2}; the interval runs from the "
                     "k-th smallest ratio to the k-th largest")
    chance = f"{miss_chance(N, k):.3f}"
    if k > want:
        one_sided = (f" 한쪽 꼬리만 더한 확률({miss_chance(N, k) / 2:.3f})은 5% 안이므로, "
                     "양쪽 꼬리를 뜻하는 2를 곱하지 않은 것 같습니다") if miss_chance(N, k) / 2 <= 0.05 else ""
        one_sided_en = (f"; one tail alone ({miss_chance(N, k) / 2:.3f}) is within 5%: the factor 2, for both tails, "
                        "seems to be missing") if miss_chance(N, k) / 2 <= 0.05 else ""
        return wrong(f"받은 k는 {k}입니다. 그 구간이 중앙값을 놓칠 확률은 {chance}입니다. 5%를 넘습니다.{one_sided}",
                     f"k = {k}: its interval misses the median with probability {chance}, more than 5%{one_sided_en}")
    slips_ko = ("합을 range(k + 1)까지 더하지 않았는지, 5% 대신 2.5%와 견주지 않았는지 보세요"
                if k == want - 1 else "조건을 만족하는 가장 큰 k를 찾으세요")
    slips_en = ("did the sum run to range(k + 1), or was it held against 2.5% instead of 5%?"
                if k == want - 1 else "look for the largest k that keeps within 5%")
    return wrong(f"받은 k는 {k}입니다. 그 구간이 중앙값을 놓칠 확률은 {chance}입니다. 5% 안이지만, "
                 f"k는 그런 순위 가운데 가장 큰 값입니다. k = {k + 1}에서도 확률은 {miss_chance(N, k + 1):.3f}"
                 f"입니다. 역시 5% 안입니다. {slips_ko}",
                 f"k = {k}: its interval misses the median with probability {chance}, within 5%, but k is the largest "
                 f"such rank, and k = {k + 1} still gives {miss_chance(N, k + 1):.3f}: {slips_en}")


def _whole(value) -> bool:
    if isinstance(value, (bool, str, bytes)):
        return False
    try:
        return float(value).is_integer()
    except (TypeError, ValueError):
        return False


check = checks(same_code=same_code, rank=rank)
