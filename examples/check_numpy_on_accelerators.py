"""Check your answer to the exercise of "XLA and operator fusion": import its ``check``, then

    from check_numpy_on_accelerators import check
    check.matmul(your_matmul)
    check.verdicts(your_comparisons, your_answers)

``your_matmul`` is the function ``jax.jit`` returned for step 2: it takes two n×n float32 arrays
and returns their matrix product. The check calls it on matrices of small whole numbers, whose
product is exact in float32 on every device (TF32 or not), and compares it with NumPy's in float64.

``your_comparisons`` maps each size n of step 4 to the ``Comparison`` that ``compare`` returned
there, with the variants named ``"numpy"`` and ``"jit warm"``; ``your_answers`` maps each n to your
reading of it: ``"faster"`` (the warm jit call was faster than NumPy), ``"slower"``, or ``"same"``
(the measurement could not tell them apart). The check applies the site's rule (``timing.py``) to
your own rounds and says whether you read each size as the rule does. It grades the reading, never
the speed: whichever way your machine measured, the reading of it can be right.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, close, right, run_reader, wrong  # noqa: E402
from timing import ratio_text  # noqa: E402

SIZE = 64          # the matrices the check multiplies: SIZE×SIZE
LARGEST = 3        # their entries are whole numbers from -LARGEST to LARGEST
OUTCOMES = ("faster", "slower", "same")
OUTCOME_KO = {"faster": "웜 호출이 빠름", "slower": "웜 호출이 느림", "same": "가려지지 않음"}
OUTCOME_EN = {"faster": "warm jit faster", "slower": "warm jit slower", "same": "not told apart"}


def matmul(function):
    """Check ``function(a, b)``, a function made by ``jax.jit``, against NumPy's float64 product.

    >>> check.matmul(jax.jit(jnp.matmul)).ok, check.matmul(jax.jit(jnp.multiply)).ok
    (True, False)
    """
    if not hasattr(function, "lower"):
        return wrong("함수에 .lower가 없으므로 jax.jit이 돌려준 함수가 아닙니다. "
                     "행렬 곱 함수를 jax.jit으로 감싸서 넘기세요",
                     "the function has no .lower, so it is not one that jax.jit returned: wrap the matrix product "
                     "in jax.jit, and pass what jax.jit returns")
    rng = np.random.default_rng(7)
    a, b = (rng.integers(-LARGEST, LARGEST + 1, (SIZE, SIZE)).astype(np.float32) for _ in range(2))
    got, problem = run_reader(function, jnp.asarray(a), jnp.asarray(b))
    if problem is not None:
        return problem
    if not isinstance(got, jax.Array):
        return wrong(f"함수가 jax.Array가 아니라 {type(got).__name__} 타입의 값을 돌려줍니다. 곱을 jnp로 계산했는지, "
                     "결과를 NumPy로 바꾸지 않았는지 보세요",
                     f"the function returns a {type(got).__name__}, not a jax.Array: compute the product with jnp, "
                     "and do not turn the result into NumPy")
    if got.dtype != jnp.float32:
        return wrong(f"곱의 자료형이 {got.dtype}입니다. float32 행렬끼리의 곱은 float32여야 합니다",
                     f"the product is {got.dtype}: the product of float32 matrices should be float32")
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    values = close(got, a64 @ b64, "행렬 곱", "the matrix product", rtol=1e-6, atol=1e-6)
    if not values.ok:
        for want, ko, en in (
            (a64 * b64, "원소별 곱 a * b와 같습니다. 행렬 곱은 a @ b나 jnp.matmul입니다",
             "it matches the elementwise product a * b: a matrix product is a @ b, or jnp.matmul"),
            (b64 @ a64, "b @ a와 같습니다. 곱하는 순서를 바꾸세요", "it matches b @ a: swap the order"),
            (a64.T @ b64, "a.T @ b와 같습니다. 전치하지 마세요", "it matches a.T @ b: do not transpose"),
            (a64 @ b64.T, "a @ b.T와 같습니다. 전치하지 마세요", "it matches a @ b.T: do not transpose"),
        ):
            if close(got, want, "값", "the values", rtol=1e-6, atol=1e-6).ok:
                return wrong(f"{values.ko}. {ko}", f"{values.en}; {en}")
        return values
    return all_of(right("jax.jit이 돌려준 함수입니다", "a function made by jax.jit"),
                  right("자료형이 float32입니다", "dtype float32"), values)


def verdicts(comparisons, answers):
    """Check ``answers`` (n → "faster", "slower" or "same") against the rule on ``comparisons`` (n → Comparison).

    >>> from timing import Comparison
    >>> c = Comparison({"numpy": [2.0, 2.1, 1.9, 2.0, 2.2, 2.0], "jit warm": [1.0, 1.1, 0.9, 1.0, 1.2, 1.0]})
    >>> check.verdicts({64: c}, {64: "faster"}).ok, check.verdicts({64: c}, {64: "same"}).ok
    (True, False)
    """
    if not hasattr(comparisons, "items") or not hasattr(answers, "items"):
        return wrong("두 인자 모두 크기 n을 키로 하는 딕셔너리여야 합니다. 비교 결과는 {n: Comparison}, 판정은 "
                     "{n: \"faster\" 또는 \"slower\" 또는 \"same\"} 꼴입니다",
                     "both arguments should be dicts keyed by the size n: {n: Comparison} and "
                     "{n: \"faster\", \"slower\" or \"same\"}")
    if sorted(comparisons) != sorted(answers):
        return wrong(f"비교 결과의 크기는 {sorted(comparisons)}, 판정의 크기는 {sorted(answers)}입니다. "
                     "크기마다 하나씩 판정하세요",
                     f"the comparisons are of sizes {sorted(comparisons)} and the answers of {sorted(answers)}: "
                     "give one answer per size")
    if not comparisons:
        return wrong("비교 결과가 비어 있습니다", "there are no comparisons")
    rows = []
    for n in sorted(comparisons):
        c = getattr(comparisons[n], "comparison", comparisons[n])   # a Comparison, or what holds one as .comparison
        names = sorted(getattr(c, "samples", {}))
        if "numpy" not in names or "jit warm" not in names:
            return wrong(f"n = {n} 크기의 비교에는 {names} 변형이 있습니다. compare에서 변형의 이름을 \"numpy\"와 "
                         "\"jit warm\"으로 붙이세요",
                         f"the comparison of n = {n} has the variants {names}: name them \"numpy\" and \"jit warm\" "
                         "in compare")
        answer = getattr(answers[n], "outcome", answers[n])
        if answer not in OUTCOMES:
            return wrong(f"n = {n} 크기의 판정이 {answer!r}입니다. "
                         "\"faster\", \"slower\", \"same\" 가운데 하나여야 합니다",
                         f"the answer for n = {n} is {answer!r}: it should be \"faster\", \"slower\" or \"same\"")
        rows.append((n, c, answer, c.verdict("jit warm", "numpy")))
    misses = [(n, c, answer, v) for n, c, answer, v in rows if answer != v.outcome]
    if not misses:
        ko = ", ".join(f"n = {n}에서 {OUTCOME_KO[v.outcome]}" for n, _, _, v in rows)
        en = ", ".join(f"n = {n}: {OUTCOME_EN[v.outcome]}" for n, _, _, v in rows)
        return right(f"크기 {len(rows)}개의 판정을 모두 규칙대로 읽었습니다({ko})",
                     f"every reading follows the rule ({en})")
    ko = " ".join(_miss(n, c, answer, v)[0] for n, c, answer, v in misses)
    en = "; ".join(_miss(n, c, answer, v)[1] for n, c, answer, v in misses)
    return wrong(f"크기 {len(rows)}개 가운데 {len(misses)}개의 판정이 규칙과 다릅니다. {ko}".rstrip("."),
                 f"readings that differ from the rule: {en}")


def _miss(n, c, answer, v):
    """What to look at for the size ``n`` read as ``answer`` where the rule's verdict is ``v``, as ``(ko, en)``."""
    low, high = (ratio_text(end) for end in v.interval)
    interval_ko = f"웜 호출의 시간 ÷ NumPy의 시간, 라운드별 비율의 95% 구간은 {low}–{high}입니다"
    interval_en = f"the 95% interval of the per-round ratios, warm jit's time ÷ NumPy's, is {low}–{high}"
    said_ko, said_en = f"n = {n}: 받은 판정은 \"{answer}\"", f"n = {n}: you read \"{answer}\""
    if v.outcome == "same":
        medians = "faster" if c.timing("jit warm").median < c.timing("numpy").median else "slower"
        look_ko = ("시간의 중앙값만 견주면 그렇게 보이지만, " if answer == medians else "") + \
            "구간이 1을 포함하므로 이 측정으로는 둘을 가릴 수 없습니다. 맞는 판정은 \"same\"입니다"
        look_en = ("the median times say so, but " if answer == medians else "") + \
            "the interval contains 1, so this measurement cannot tell them apart: \"same\""
    elif answer == "same":
        side_ko, side_en = ("1보다 작으므로", "below 1") if v.outcome == "faster" else ("1보다 크므로", "above 1")
        look_ko = f"구간 전체가 {side_ko} 둘은 가려졌습니다. 맞는 판정은 \"{v.outcome}\"입니다"
        look_en = f"the whole interval lies {side_en}, so the two separated: \"{v.outcome}\""
    else:
        side_ko = ("1보다 작으므로 웜 호출이 빨랐습니다" if v.outcome == "faster"
                   else "1보다 크므로 웜 호출이 느렸습니다")
        side_en = "below 1 (warm jit was the faster)" if v.outcome == "faster" else "above 1 (warm jit was the slower)"
        look_ko = f"구간 전체가 {side_ko}. 비율을 거꾸로 읽은 것 같습니다. 맞는 판정은 \"{v.outcome}\"입니다"
        look_en = f"the whole interval lies {side_en}, so \"{v.outcome}\" (was the ratio read the other way round?)"
    return f"{said_ko}입니다. {interval_ko}. {look_ko}.", f"{said_en}; {interval_en}; {look_en}"


check = checks(matmul=matmul, verdicts=verdicts)
