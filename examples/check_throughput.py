"""Check your answer to the exercise of "Throughput and break-even": import its ``check``, then

    from check_throughput import check
    check.break_even(your_break_even)

``your_break_even(c)`` should take a ``timing.Comparison`` of the three ways, named ``"jnp"``,
``"jit cold"`` and ``"jit warm"`` (as ``compare`` returns them), and return the break-even call
count of step 3: the smallest whole number N, at least 1, with N ≥ (cold − warm) / (jnp − warm), each
difference the median of the per-round differences, where warm jit separated as the faster of warm
jit and jnp under the site's rule; ``None`` where the two did not separate; ``None`` or ``math.inf``
where warm jit separated as the slower (it never pays). The check calls it on comparisons it makes up,
whose counts are known exactly; nothing is timed.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, right, run_reader, wrong  # noqa: E402
from timing import Comparison  # noqa: E402

NEVER = "never"  # the answer where warm jit separated as the slower: None or math.inf
NONE = "none"    # the answer where warm jit and jnp did not separate: None

# Made-up rounds, in seconds: (what the case is, in Korean and English; jit warm; jnp; jit cold; the right
# answer; the quotient (cold − warm) / (jnp − warm) of the medians of the per-round differences, where warm jit
# separated as the faster). Each time is a multiple of 1/16, so the medians and quotients are exact.
CASES = (
    (("웜 호출이 빠른 쪽으로 가려지고, 차이의 중앙값이 cold − warm 0.3125초, jnp − warm 0.125초(몫 2.5)인 경우",
      "warm jit separated as the faster; medians of the differences cold − warm 0.3125 s and jnp − warm 0.125 s, "
      "a quotient of 2.5"),
     [0.25] * 7, [0.375, 0.4375, 0.3125, 0.375, 0.375, 0.4375, 0.3125], [0.5625] * 7, 3, 2.5),
    (("웜 호출이 빠른 쪽으로 가려지고, 차이의 중앙값이 cold − warm 0.25초, jnp − warm 0.125초(몫이 꼭 2)인 경우",
      "warm jit separated as the faster; medians of the differences cold − warm 0.25 s and jnp − warm 0.125 s, "
      "a quotient of exactly 2"),
     [0.25] * 7, [0.375, 0.5, 0.375, 0.3125, 0.375, 0.4375, 0.375],
     [0.5, 0.5625, 0.5, 0.4375, 0.5, 0.5, 0.625], 2, 2.0),
    (("웜 호출이 빠른 쪽으로 가려지고, 차이의 중앙값이 cold − warm 0.0625초, jnp − warm 0.125초(몫 0.5)인 경우",
      "warm jit separated as the faster; medians of the differences cold − warm 0.0625 s and jnp − warm 0.125 s, "
      "a quotient of 0.5"),
     [0.25] * 7, [0.375, 0.4375, 0.3125, 0.375, 0.375, 0.4375, 0.3125], [0.3125] * 7, 1, 0.5),
    (("모든 라운드에서 jnp 쪽이 더 빨라 웜 호출이 느린 쪽으로 가려진 경우",
      "warm jit separated as the slower; jnp was faster in every round"),
     [0.25] * 7, [0.125, 0.1875, 0.125, 0.1875, 0.125, 0.1875, 0.125], [0.5625] * 7, NEVER, None),
    (("라운드별 비율의 구간이 1을 포함해 웜 호출과 jnp 쪽이 가려지지 않은 경우",
      "warm jit and jnp did not separate; the interval of the per-round ratios contains 1"),
     [0.25] * 7, [0.1875, 0.3125, 0.1875, 0.3125, 0.3125, 0.3125, 0.1875], [0.5625] * 7, NONE, None),
    (("웜 호출이 빠른 쪽으로 가려졌지만 기계의 속도가 라운드마다 달라, 라운드별 차이의 중앙값이 cold − warm 0.375초, "
      "jnp − warm 0.25초인 경우",
      "warm jit separated as the faster on a machine whose speed changed from round to round; medians of the "
      "per-round differences cold − warm 0.375 s and jnp − warm 0.25 s"),
     [0.25, 0.1875, 0.375, 0.1875, 0.5625, 0.5625, 0.5625], [0.5, 0.3125, 0.4375, 0.4375, 0.625, 0.8125, 0.8125],
     [0.5, 0.8125, 0.875, 0.5625, 0.8125, 1.0625, 0.8125], 2, 1.5),
)
SHOWN = 2          # wrong cases a message details
MEDIANS_APART = 4  # the last case's count from the medians of each way taken apart (0.4375 / 0.125 = 3.5)


def made_up(warm, jnp, cold) -> Comparison:
    """A comparison of the three ways with the given rounds."""
    return Comparison({"jnp": list(jnp), "jit cold": list(cold), "jit warm": list(warm)})


def break_even(function):
    """Check ``function(c)`` on the made-up comparisons of ``CASES``; each answer must be exactly right.

    >>> check.break_even(lambda c: None).ok
    False
    """
    misses = []
    for number, ((what_ko, what_en), warm, jnp, cold, want, quotient) in enumerate(CASES, start=1):
        got, problem = run_reader(function, made_up(warm, jnp, cold))
        if problem is not None:
            return wrong(f"{number}번, 곧 {what_ko}에 {problem.ko}", f"case {number} ({what_en}): {problem.en}")
        miss = _judge(got, want, quotient, number == len(CASES))
        if miss is not None:
            misses.append((number, what_ko, what_en, _shown(got), miss))
    if not misses:
        return right(f"{len(CASES)}가지 경우가 모두 맞습니다. 손익분기 호출 수도, 그것을 말할 수 없는 경우의 None도 "
                     "맞습니다",
                     f"the break-even counts of all {len(CASES)} cases are right (None where there is none)")
    shown = misses[:SHOWN]
    ko = " ".join(f"{n}번은 {what_ko}입니다. 받은 값은 {got}입니다. {hint_ko}."
                  for n, what_ko, _, got, (hint_ko, _) in shown)
    en = "; ".join(f"case {n} ({what_en}): you returned {got}; {hint_en}" for n, _, what_en, got, (_, hint_en) in shown)
    rest = len(misses) - len(shown)
    more_ko = f" 나머지 {rest}가지는 이것을 고친 뒤 다시 확인하세요." if rest else ""
    more_en = f"; fix these, then check the other {rest} again" if rest else ""
    return wrong(f"{len(CASES)}가지 경우 가운데 {len(misses)}가지가 틀렸습니다. {ko}{more_ko}".rstrip("."),
                 f"{len(misses)} of {len(CASES)} cases are wrong: {en}{more_en}")


def _judge(got, want, quotient, apart_case: bool):
    """``None`` when ``got`` is the answer ``want``; otherwise what to look at, as ``(ko, en)``."""
    if got is not None and not _number(got):
        return (f"손익분기 호출 수는 정수(int)나 None, math.inf로 돌려주세요. "
                f"받은 값의 타입은 {type(got).__name__}입니다",
                f"return the count as a number (an int), None or math.inf, not a {type(got).__name__}")
    if want == NONE:
        if got is None:
            return None
        return ("두 방식이 가려지지 않았으므로 아끼는 시간이 잡음에 묻혀 손익분기 호출 수를 말할 수 없습니다. "
                "판정 결과(verdict)를 먼저 보고 None을 돌려주세요",
                "the two did not separate, so what a call saves is within the noise and there is no count to give: "
                "look at the verdict first, and return None")
    if want == NEVER:
        if got is None or (_number(got) and math.isinf(got)):
            return None
        return ("웜 호출이 느린 쪽으로 가려졌으므로 아끼는 시간이 없어 컴파일 비용은 회수되지 않습니다. "
                "None이나 math.inf를 돌려주세요",
                "warm jit separated as the slower, so it saves nothing and compiling never pays: "
                "return None or math.inf")
    if not _number(got) or math.isinf(got) or math.isnan(got):
        return (f"웜 호출이 빠른 쪽으로 가려졌으므로 손익분기 호출 수가 있습니다. 맞는 값은 {want}번입니다",
                f"warm jit separated as the faster, so there is a count: {want}")
    if got == want:
        return None
    if got < 1:
        return (f"적어도 한 번은 불러야 하므로 손익분기 호출 수는 1 이상입니다. 맞는 값은 {want}번입니다",
                f"there is at least one call, so the count is at least 1: the right count is {want}")
    if apart_case and got == MEDIANS_APART:
        return ("세 방식의 중앙값을 따로 구해 뺀 값과 같습니다. 라운드마다 차이를 구한 뒤 그 중앙값을 쓰세요"
                f"(맞는 값은 {want}번입니다)",
                "it matches the medians of each way taken apart: take the differences round by round, then "
                f"their median (the right count is {want})")
    if got in (math.floor(quotient), round(quotient)):
        return (f"몫을 올림하지 않고 버리거나 반올림한 값입니다. N은 몫보다 작지 않은 가장 작은 정수(math.ceil)입니다"
                f"(맞는 값은 {want}번입니다)",
                f"the quotient was rounded down or to the nearest: N is the smallest whole number not below it "
                f"(math.ceil; the right count is {want})")
    if quotient.is_integer() and got == quotient + 1:
        return (f"하나가 많습니다. 몫이 정수이면 N은 그 몫 자체입니다(맞는 값은 {want}번입니다)",
                f"one too many: when the quotient is whole, N is the quotient itself (the right count is {want})")
    return (f"맞는 값은 {want}번입니다. 분자는 cold − warm, 분모는 jnp − warm인지 보세요",
            f"the right count is {want}: check that the numerator is cold − warm and the divisor jnp − warm")


def _number(value) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return not isinstance(value, (str, bytes, bool))


def _shown(value) -> str:
    return "None" if value is None else repr(value) if not _number(value) else f"{float(value):g}"


check = checks(break_even=break_even)
