"""Check your answer to the exercise of "Precision and dtypes": import its ``check``, then

    from check_precision import check
    check.first_wrong_counts({"bfloat16": n, "float16": n, "float32": n})
    check.running_sums(your_running_sums)

``first_wrong_counts`` takes your answer to step 1: for each accumulation dtype, the first n at which
the running sum of ones, 1 + 1 + … (n ones), is not n. ``your_running_sums(values, start, dtype)``
should return every partial sum ``start + values[0] + … + values[i]`` (shape ``(len(values),)``) of a
``lax.scan`` whose carry, the running total, is in ``dtype`` (a name such as ``"bfloat16"``): each
addition rounded to ``dtype``. The check calls it on bfloat16 values, counting ones from just below
each dtype's limit and adding numbers from [0, 1), and compares every sum with the same additions done
one by one in NumPy, rounded to ``dtype`` after each. It runs your function on the CPU backend, whose
compiler rounds the carry at every step (a GPU's may keep it wider between steps: see the solution).
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, close, right, run_reader, wrong  # noqa: E402

ACCUMULATORS = ("bfloat16", "float16", "float32")
LENGTH = 512  # steps of every scan the check runs: one compile per accumulation dtype


def _bits(dtype: str) -> int:
    return int(jnp.finfo(dtype).nmant) + 1


def first_wrong_counts(counts):
    """Check the first n whose running sum of ones is not n, for each accumulation dtype: 2^p + 1."""
    try:
        given = {dtype: counts[dtype] for dtype in ACCUMULATORS}
        given = {dtype: None if n is None else int(n) for dtype, n in given.items()}
    except (KeyError, TypeError, ValueError):
        return wrong("답은 {\"bfloat16\": n, \"float16\": n, \"float32\": n}처럼 자료형 이름마다 n을 담은 딕셔너리여야 "
                     "합니다",
                     'the answer should be a dict {"bfloat16": n, "float16": n, "float32": n}: an n for each dtype')
    misses_ko, misses_en = [], []
    for dtype, n in given.items():
        p = _bits(dtype)
        want = 2**p + 1
        if n == want:
            continue
        if n == 2**p:
            why_ko, why_en = f"2^{p}까지의 정수는 모두 나타낼 수 있습니다", f"every integer up to 2^{p} is exact"
        elif n == 2 ** (p - 1) + 1:
            why_ko = f"p는 가수 비트 {p - 1}개에 숨은 맨 앞 비트 하나를 더한 nmant + 1입니다"
            why_en = f"p is nmant + 1: {p - 1} stored bits and the implicit leading one"
        else:
            why_ko, why_en = f"p = {p}일 때 2^p + 1입니다", f"with p = {p} it is 2^p + 1"
        misses_ko.append(f"{dtype}의 답은 {want:,}인데 받은 값은 {'없음' if n is None else f'{n:,}'}입니다({why_ko})")
        misses_en.append(f"{dtype}: {want:,}, not {n if n is None else f'{n:,}'} ({why_en})")
    if misses_en:
        return wrong(". ".join(misses_ko), "; ".join(misses_en))
    return right("세 자료형 모두 맞습니다. 유효 숫자가 p비트이면 2^p까지의 정수는 정확하고 2^p + 1에서 처음 틀립니다",
                 "right for all three dtypes: with p significant bits every integer up to 2^p is exact, and 2^p + 1 "
                 "is the first that is not")


def _reference(values, start, dtype: str, carry: str | None = None) -> np.ndarray:
    """Every partial sum, added one by one in NumPy: each addition rounded to ``carry`` (by default ``dtype``),
    each recorded sum rounded to ``dtype``. A float64 sum of two numbers of 24 bits or fewer, rounded once more,
    is the correctly rounded sum: 53 ≥ 2·24 + 2."""
    held, kept = jnp.dtype(carry or dtype), jnp.dtype(dtype)
    total = np.asarray(start, np.float64).astype(held)
    sums = []
    for value in np.asarray(values).astype(kept):
        total = np.asarray(np.float64(total) + np.float64(value)).astype(held)
        sums.append(total.astype(kept))
    return np.asarray(sums, np.float64)


def _cases():
    """(what in Korean, what in English, values, start, dtype): counting ones near each dtype's limit, then
    adding numbers from [0, 1)."""
    ones = np.ones(LENGTH, jnp.bfloat16)
    data = np.asarray(jax.random.uniform(jax.random.key(7), (LENGTH,)).astype(jnp.bfloat16))
    for dtype in ACCUMULATORS:
        start = max(0, 2 ** _bits(dtype) - LENGTH // 2)
        yield (f"{start:,}부터 1씩 더한 {dtype} 합", f"the {dtype} sums of ones from {start:,}", ones, start, dtype)
    for dtype in ACCUMULATORS:
        yield (f"[0, 1)의 수를 더한 {dtype} 합", f"the {dtype} sums of numbers from [0, 1)", data, 0, dtype)


def _hint(got, values, start, dtype):
    """What a sum that is not the reference matches, as (ko, en), or None."""
    near = [
        (_reference(values, start, dtype, "float32"),
         f"합을 float32로 유지한 결과와 같습니다. carry의 자료형을 {dtype} 그대로 두세요(jnp.asarray(start, dtype))",
         f"they match a total carried in float32: keep the carry in {dtype} (jnp.asarray(start, dtype))"),
        (_reference(values, start, "float32"),
         "float32로 누적한 합과 같습니다. 더할 수와 carry를 모두 누적 자료형으로 두세요",
         "they match a float32 accumulation: keep both the number added and the carry in the accumulation dtype"),
        (np.concatenate([[float(np.asarray(start, np.float64).astype(jnp.dtype(dtype)))],
                         _reference(values, start, dtype)[:-1]]),
         "한 칸씩 밀려 있습니다. 더하기 전의 합이 아니라 더한 뒤의 합을 기록하세요",
         "they are one step behind: record the total after each addition, not before it"),
        (_reference(values, 0, dtype),
         "0에서 시작한 합과 같습니다. start에서 시작하세요", "they match sums started from 0: start from start"),
    ]
    for want, ko, en in near:
        if np.shape(got) == want.shape and np.array_equal(np.asarray(got, np.float64), want):
            return ko, en
    return None


def _primitives(jaxpr) -> set[str]:
    """The names of the primitives in ``jaxpr`` and in the jaxprs inside its equations (a jit's, a scan's)."""
    names = set()
    for eqn in jaxpr.eqns:
        names.add(eqn.primitive.name)
        for param in eqn.params.values():
            for inner in param if isinstance(param, tuple | list) else (param,):
                inner = getattr(inner, "jaxpr", inner)
                if hasattr(inner, "eqns"):
                    names |= _primitives(inner)
    return names


def _loops(function, values, start, dtype) -> bool:
    """Whether ``function`` adds in a loop (``scan`` or ``while``), by its jaxpr; True if it cannot be traced."""
    try:
        return bool({"scan", "while"} & _primitives(jax.make_jaxpr(lambda v: function(v, start, dtype))(values).jaxpr))
    except Exception:  # the reader's code: the run says what is wrong with it
        return True


def _cpu():
    try:
        return jax.devices("cpu")[0]
    except RuntimeError:  # JAX_PLATFORMS without cpu: the default device, then
        return jax.devices()[0]


def running_sums(function):
    """Check ``function(values, start, dtype)`` against one-by-one additions rounded to ``dtype``."""
    cpu = _cpu()
    with jax.default_device(cpu):
        cases = list(_cases())
    for what_ko, what_en, values, start, dtype in cases:
        with jax.default_device(cpu):
            got, problem = run_reader(function, jax.device_put(values, cpu), start, dtype)
        if problem is not None:
            return problem
        want = _reference(values, start, dtype)
        result = close(got, want, what_ko, what_en, rtol=0, atol=0)
        if result.ok:
            continue
        if np.size(got) != want.size:
            return wrong(f"{result.ko}. 마지막 합만이 아니라 더할 때마다의 합을 모두 돌려주세요(scan의 두 번째 출력)",
                         f"{result.en}: return every partial sum (the scan's second output), not only the total")
        with jax.default_device(cpu):
            loops = _loops(function, jax.device_put(values, cpu), start, dtype)
        if not loops:
            return wrong(f"{result.ko}. 함수에 lax.scan이 없습니다. jnp.cumsum이나 jnp.sum은 작은 자료형을 float32로 "
                         "넓혀 더하므로, lax.scan으로 한 번에 하나씩 더하세요",
                         f"{result.en}; the function has no lax.scan: jnp.cumsum and jnp.sum widen small dtypes to "
                         "float32, so add one number per step with lax.scan")
        hint = _hint(got, values, start, dtype)
        if hint is None and start > 0:
            hint = (f"자료형 {dtype}에서는 {2 ** _bits(dtype):,}보다 큰 홀수를 나타낼 수 없으므로, 합은 "
                    f"{2 ** _bits(dtype):,}에 머물러야 합니다. carry의 자료형을 보세요",
                    f"{dtype} holds no odd number above {2 ** _bits(dtype):,}, so the total should stay at "
                    f"{2 ** _bits(dtype):,}: look at the dtype of the carry")
        return wrong(f"{result.ko}. {hint[0]}", f"{result.en}; {hint[1]}") if hint else result
    return right(f"합이 모두 맞습니다. 세 자료형마다 한계 근처에서 1을 센 합과 [0, 1)의 수 {LENGTH}개를 더한 합이, "
                 "더할 때마다 누적 자료형으로 반올림한 합과 같습니다",
                 f"every sum is right: for each of the three dtypes, the sums counting ones near its limit and adding "
                 f"{LENGTH} numbers from [0, 1) equal additions rounded to the accumulation dtype one by one")


check = checks(first_wrong_counts=first_wrong_counts, running_sums=running_sums)
