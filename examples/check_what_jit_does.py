"""Check your answer to the exercise of "What jit does": import its ``check``, then

    from check_what_jit_does import check
    check.predictions(your_predictions)

``your_predictions`` holds, for each of the exercise's ten calls in order, a pair
``(traces_again, compiles_again)`` of booleans: your prediction. The check makes the ten calls with
this machine's JAX (``trace_counts.run``, the solution's counters) and says which predictions were
right; for each wrong one it says what that call's argument changed, the place to look in the cache key.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, right, wrong  # noqa: E402
from trace_counts import run  # noqa: E402

# What each call's argument has that the calls before it did not: facts about the arguments, which
# hold whatever JAX decides (the check measures the decisions).
CHANGES = (
    ("첫 호출입니다", "the first call"),
    ("1번과 형상 (10,), 자료형 float32가 같고 값만 다릅니다",
     "the same shape (10,) and dtype float32 as call 1; only the values differ"),
    ("형상이 (20,)으로 바뀌었습니다", "the shape changed, to (20,)"),
    ("float64를 요청했지만 x64가 꺼져 있습니다. 만들어진 배열의 자료형을 보세요",
     "float64 was asked for with x64 off: look at the dtype of the array that was made"),
    ("x64가 켜진 블록 안입니다. 배열의 자료형과 JAX의 설정을 보세요",
     "inside a block with x64 on: look at the array's dtype, and at JAX's settings"),
    ("정수 배열입니다(자료형 int32)", "an integer array (dtype int32)"),
    ("NumPy float64 배열입니다. x64가 꺼져 있으면 무엇으로 바뀌는지 보세요",
     "a NumPy float64 array: look at what it becomes with x64 off"),
    ("Python float, 곧 약한 타입(weak type)의 스칼라입니다", "a Python float: a weakly typed scalar"),
    ("8번과 같은 Python float이고 값만 다릅니다", "a Python float like call 8; only the value differs"),
    ("1번과 같은 배열을 키워드 인자로 넘겼습니다", "the array of call 1, passed by keyword"),
)


def predictions(predicted):
    """Check ten ``(traces_again, compiles_again)`` predictions against what this JAX does."""
    try:
        pairs = [(bool(t), bool(c)) for t, c in predicted]
    except (TypeError, ValueError):
        return wrong("예측은 (다시 트레이싱하는가, 다시 컴파일하는가) 쌍 10개의 리스트여야 합니다",
                     "the predictions should be a list of ten pairs (traces again, compiles again)")
    if len(pairs) != len(CHANGES):
        return wrong(f"예측이 {len(pairs)}개입니다. 호출마다 하나씩, {len(CHANGES)}개가 필요합니다",
                     f"{len(pairs)} predictions: one per call is needed, {len(CHANGES)}")
    actual = [(row.traced > 0, row.compiled > 0) for row in run()]
    misses = [i for i, (p, a) in enumerate(zip(pairs, actual, strict=True)) if p != a]
    if not misses:
        return right(f"{len(CHANGES)}개의 예측이 모두 맞습니다", f"all {len(CHANGES)} predictions are right")
    ko = " ".join(f"{i + 1}번은 {'다시 트레이싱했고' if actual[i][0] else '다시 트레이싱하지 않았고'}, "
                  f"{'다시 컴파일했습니다' if actual[i][1] else '다시 컴파일하지 않았습니다'}({CHANGES[i][0]})."
                  for i in misses)
    en = "; ".join(f"call {i + 1} {'traced' if actual[i][0] else 'did not trace'} and "
                   f"{'compiled' if actual[i][1] else 'did not compile'} ({CHANGES[i][1]})" for i in misses)
    return wrong(f"{len(CHANGES)}개 가운데 {len(misses)}개가 틀렸습니다. {ko.rstrip('.')}",
                 f"{len(misses)} of {len(CHANGES)} predictions are wrong: {en}")


check = checks(predictions=predictions)
