"""Check your answer to the exercise of "Parallelism recipes": import its ``check``, then

    from check_recipes import check
    check.factors(your_dp_factor, your_tp_factor)

``your_dp_factor`` and ``your_tp_factor`` are your predictions, as numbers, of the factor by which the
bytes each device sends change for DP and for TP when the MLP goes from width 128 and batch 2,048 (the
lesson's) to width 512 and batch 128: new bytes over old bytes, so a decrease is below 1 (a quarter is
0.25). The check counts the right factors from the model's shapes (DP's all-reduce sums the gradient of
every parameter; TP's sums the second layer's output, batch x width) and accepts 5% either way; for a
wrong one it says what the bytes grow with. The compiled programs' bytes are for the program's run
to show: the check compiles nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, right, wrong  # noqa: E402

BEFORE = {"width": 128, "batch": 2048}  # the lesson's MLP
AFTER = {"width": 512, "batch": 128}  # the exercise's
TOLERANCE = 0.05  # relative


def parameter_count(width: int) -> int:
    """Values in the parameters of the lesson's two-layer MLP, width -> 4 width -> width: weights and biases.

    >>> parameter_count(128)
    131712
    """
    return width * 4 * width + 4 * width + 4 * width * width + width


def right_factors() -> tuple[float, float]:
    """DP's and TP's factors: DP sums a parameter-sized gradient, TP the second layer's batch x width output.

    >>> [round(f, 2) for f in right_factors()]
    [15.94, 0.25]
    """
    dp = parameter_count(AFTER["width"]) / parameter_count(BEFORE["width"])
    tp = AFTER["batch"] * AFTER["width"] / (BEFORE["batch"] * BEFORE["width"])
    return dp, tp


def _near(value: float, want: float) -> bool:
    return abs(value - want) <= TOLERANCE * abs(want)


# Factors a reader may give, each with what it shows (Korean, English); tried in order.
DP_MISTAKES = (
    (4, "폭이 4배가 되는 것만 반영했습니다. 가중치 행렬은 폭 × 4·폭이어서 매개변수는 폭의 제곱에 비례합니다",
     "it counts only the width growing 4 times; a weight matrix is width × 4·width, so the parameters grow with "
     "the width squared"),
    (1 / 16, "배치가 줄어드는 배율입니다. DP가 더하는 것은 매개변수 크기의 기울기여서 배치 크기와 무관합니다",
     "it is the batch's factor; DP sums a gradient the size of the parameters, whatever the batch"),
    (1 / 4, "배치 × 폭의 배율로, TP에 맞는 값입니다. DP가 더하는 것은 매개변수 크기의 기울기입니다",
     "it is the factor of batch × width, TP's; DP sums a gradient the size of the parameters"),
    (1, "DP가 보내는 바이트는 그대로가 아닙니다. DP가 더하는 기울기는 매개변수 크기입니다",
     "DP's bytes do not stay the same; the gradient it sums is the size of the parameters"),
)
TP_MISTAKES = (
    (1 / 16, "배치가 16분의 1이 되는 것만 반영했습니다. TP가 더하는 활성값은 배치 × 폭이고, 폭은 4배가 됩니다",
     "it counts only the batch shrinking 16 times; the activations TP sums are batch × width, and the width "
     "grows 4 times"),
    (4, "폭이 4배가 되는 것만 반영했습니다. 배율은 새 바이트 ÷ 옛 바이트이고(줄면 1보다 작습니다), "
     "TP가 더하는 활성값은 배치 × 폭이라 배치가 16분의 1이 되는 것도 함께 반영해야 합니다",
     "it counts only the width growing 4 times; the factor is new bytes over old (below 1 for a decrease), and "
     "the activations TP sums are batch × width, with the batch 16 times smaller"),
    (16, "매개변수의 배율로, DP에 맞는 값입니다. TP가 더하는 것은 둘째 층의 출력, 곧 배치 × 폭 크기의 활성값입니다",
     "it is the parameters' factor, DP's; TP sums the second layer's output, activations of batch × width"),
    (1, "TP가 보내는 바이트는 그대로가 아닙니다. TP가 더하는 활성값은 배치 × 폭입니다",
     "TP's bytes do not stay the same; the activations it sums are batch × width"),
)
WHAT_IS_SUMMED = {"DP": ("DP가 더하는 기울기", "the gradients DP sums"),
                  "TP": ("TP가 더하는 둘째 층 출력", "the second-layer output TP sums")}


def _judge(name: str, value: float, want: float, mistakes) -> tuple[bool, str, str]:
    if _near(value, want):
        return True, f"{name}의 배율은 맞습니다", f"{name}'s factor is right"
    for factor, ko, en in mistakes:
        if _near(value, factor):
            return False, f"{name}의 배율 {value:g}배는 틀렸습니다. {ko}", f"{name}'s factor {value:g} is wrong: {en}"
    what_ko, what_en = WHAT_IS_SUMMED[name]
    return False, (f"{name}의 배율 {value:g}배는 틀렸습니다(허용 범위 ±{TOLERANCE:.0%}). {what_ko}의 크기가 폭과 "
                   "배치에 어떻게 비례하는지 보세요"), \
        (f"{name}'s factor {value:g} is wrong (allowed: ±{TOLERANCE:.0%}): look at how the size of {what_en} "
         "grows with the width and the batch")


def factors(dp_factor, tp_factor):
    """Check the predicted factors of DP's and TP's bytes sent against those counted from the shapes."""
    try:
        dp, tp = float(dp_factor), float(tp_factor)
    except (TypeError, ValueError):
        return wrong("예측은 숫자 두 개(DP의 배율, TP의 배율)여야 합니다. 예를 들어 2배면 2, 절반이면 0.5입니다",
                     "the predictions should be two numbers, DP's factor and TP's: 2 for twice, 0.5 for half")
    want_dp, want_tp = right_factors()
    dp_ok, dp_ko, dp_en = _judge("DP", dp, want_dp, DP_MISTAKES)
    tp_ok, tp_ko, tp_en = _judge("TP", tp, want_tp, TP_MISTAKES)
    if dp_ok and tp_ok:
        return right(f"두 배율 모두 맞습니다. DP가 보내는 바이트는 매개변수 수에 비례해 {want_dp:.1f}배(폭의 제곱, "
                     f"편향까지 세면 16배보다 조금 작습니다), TP는 배치 × 폭에 비례해 {want_tp:g}배가 됩니다",
                     f"both factors are right: DP's bytes grow with the parameters, {want_dp:.1f} times (the "
                     f"width squared; a little under 16 with the biases), TP's with batch × width, {want_tp:g} times")
    ko, en = f"{dp_ko}. {tp_ko}", f"{dp_en}; {tp_en}"
    if not dp_ok and not tp_ok and _near(dp, want_tp) and _near(tp, want_dp):
        return wrong(f"두 배율이 서로 바뀌었습니다. {ko}", f"the two factors are swapped: {en}")
    return wrong(ko, en)


check = checks(factors=factors)
