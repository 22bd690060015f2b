"""Check your answer to the exercise of "State without mutation": import its ``check``, then

    from check_state import check
    check.steps(your_step, your_donating_step)
    check.live_peak(your_live_peak)

* step 1: ``your_step`` is ``step(x, i) = x.at[i].add(1.0)`` under ``jax.jit``, and
  ``your_donating_step`` the same under ``jax.jit(..., donate_argnums=0)``. The check calls each on
  a float32 vector of its own and looks at the result, at whether the argument was deleted, and at
  which arguments the compiled program donates (``input_output_alias`` in its HLO);
* step 3: ``your_live_peak(variant, size, steps)`` runs the loop ``x = step(x, i)`` ``steps``
  times on a float32 state of ``size`` elements, with the non-donating step when ``variant`` is
  ``"copy"`` and the donating one when it is ``"donated"``, and returns the largest sum of the bytes
  of ``jax.live_arrays()`` measured after each call, before the old state is dropped, minus the
  bytes alive before the loop. The check calls it for both variants while an array of its own is
  alive beside it, and expects two states without donation and one with it.

Memory figures are definite here: they count bytes, not time.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from donation_memory import aliases  # noqa: E402
from exercise_check import all_of, checks, right, run_reader, wrong  # noqa: E402
from timing import particle  # noqa: E402

SIZE = 2**18             # float32 elements of the check's state: 1 MiB
STEPS = 4
SLACK = 2**16            # bytes: small arrays (indices) that another backend may keep alive beside the state
INDEX = 3                # the element the check's calls of a step update

NAMES = {"copy": ("기부하지 않는 스텝", "the step without donation"),
         "donated": ("기부하는 스텝", "the donating step")}


def _subject(ko: str) -> str:
    """``ko`` with the subject particle it takes."""
    return ko + particle(ko, "가", "이")


def _mib(n: float) -> str:
    return f"{n / 2**20:,.2f} MiB"


def _one_step(function, variant: str) -> tuple[object, bool | None]:
    """Call ``function`` on a vector of the check's own: (a Result when it is wrong, None) or
    (None, whether the argument was deleted)."""
    ko, en = NAMES[variant]
    x = jnp.arange(8, dtype=jnp.float32)
    want = np.arange(8, dtype=np.float64)
    want[INDEX] += 1
    got, problem = run_reader(function, x, INDEX)
    if problem is not None:
        return problem, None
    try:
        got = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        return wrong(f"{_subject(ko)} 배열이 아니라 {type(got).__name__} 값을 돌려줬습니다. "
                     "새 상태 x 하나를 돌려주세요",
                     f"{en} returned a value of type {type(got).__name__}, not an array: return the new state x"), None
    if got.shape != want.shape:
        return wrong(f"{ko}의 결과 형상(shape)이 {got.shape}입니다. 상태와 같은 {want.shape}이어야 합니다",
                     f"{en}: the result's shape is {got.shape}; like the state, it should be {want.shape}"), None
    if not np.array_equal(got, want):
        return wrong(f"x = arange(8), i = {INDEX}일 때 {_subject(ko)} 돌려준 값은 {got.tolist()}입니다. 맞는 값은 "
                     f"{want.tolist()}입니다. 원소 i에만 1을 더하세요(x.at[i].add(1.0))",
                     f"{en} returned {got.tolist()} for x = arange(8) and i = {INDEX}, where {want.tolist()} is right: "
                     "add 1 to element i only (x.at[i].add(1.0))"), None
    return None, x.is_deleted()


def _donated(function, variant: str):
    """(a Result when ``function`` is not jitted, None) or (None, (donated argument indices, HLO aliases))."""
    ko, en = NAMES[variant]
    if not hasattr(function, "lower"):
        return wrong(f"{ko}에 .lower가 없습니다. jax.jit으로 감싼 함수를 넘기세요",
                     f"{en} has no .lower: pass the function wrapped in jax.jit"), None
    lowered, problem = run_reader(function.lower, jax.ShapeDtypeStruct((8,), jnp.float32), INDEX)
    if problem is not None:
        return problem, None
    donated = [k for k, arg in enumerate(jax.tree.leaves(lowered.args_info)) if arg.donated]
    return None, (donated, aliases(lowered.compile().as_text()))


def steps(step, donating_step):
    """Check the two jitted steps of step 1: right values, and donation only in the second."""
    results = []
    for function, variant in ((step, "copy"), (donating_step, "donated")):
        ko, en = NAMES[variant]
        problem, compiled = _donated(function, variant)
        if problem is not None:
            return problem
        donated, found = compiled
        problem, deleted = _one_step(function, variant)
        if problem is not None:
            return problem
        if variant == "copy" and (donated or deleted):
            return wrong(f"{_subject(ko)} 인자를 기부합니다(호출 뒤 x.is_deleted()가 {deleted}). "
                         "첫 함수는 donate_argnums 없이 jax.jit(step)으로 쓰세요",
                         f"{en} donates its argument (after the call, x.is_deleted() is {deleted}): write the first "
                         "one as jax.jit(step), without donate_argnums")
        if variant == "donated":
            numbers = ", ".join(f"{k}번" for k in donated)
            if donated and 0 not in donated:
                return wrong(f"{_subject(ko)} 상태 x가 아니라 {numbers} 인자를 기부합니다. "
                             "정수 스칼라 i의 버퍼는 결과에 쓸 수 없습니다. donate_argnums=0으로 0번 인자 x를 "
                             "기부하세요",
                             f"{en} donates argument {', '.join(map(str, donated))}, not the state x: the buffer of "
                             "the integer i cannot hold the result. Donate argument 0, x, with donate_argnums=0")
            if not donated:
                return wrong(f"{_subject(ko)} 아무 인자도 기부하지 않습니다(호출 뒤 x.is_deleted()가 {deleted}). "
                             "jax.jit(step, donate_argnums=0)으로 쓰세요",
                             f"{en} donates no argument (after the call, x.is_deleted() is {deleted}): write it as "
                             "jax.jit(step, donate_argnums=0)")
            if not found or not deleted:
                return wrong(f"{_subject(ko)} x를 기부하도록 표시했지만 컴파일된 HLO에 input_output_alias가 "
                             f"{'없고' if not found else '있고'}, 호출 뒤 x.is_deleted()가 {deleted}입니다. "
                             "이 백엔드가 이 기부를 쓰지 않았습니다",
                             f"{en} marks x as donated, but the compiled HLO has "
                             f"{'no' if not found else 'an'} input_output_alias and after the call x.is_deleted() is "
                             f"{deleted}: this backend did not use the donation")
        if variant == "donated":
            why = ("x를 기부했고, HLO에 input_output_alias가 있으며, 호출 뒤 x가 지워졌습니다",
                   "it donates x, its HLO has an input_output_alias, and x is deleted after the call")
        else:
            why = ("인자를 기부하지 않습니다", "it donates nothing")
        results.append(right(f"{_subject(ko)} 맞습니다: {why[0]}", f"{en} is right: {why[1]}"))
    return all_of(*results)


def _bytes(value):
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return float(array.reshape(())) if array.size == 1 else None


def live_peak(function, size: int = SIZE, steps: int = STEPS):
    """Check ``function(variant, size, steps)``: two states of live bytes without donation, one with it."""
    state = size * 4
    gc.collect()
    beside = jax.block_until_ready(jnp.ones(size // 2, jnp.float32))   # alive all along: not the loop's
    peaks = {}
    for variant in ("copy", "donated"):
        got, problem = run_reader(function, variant, size, steps)
        if problem is not None:
            return problem
        peaks[variant] = _bytes(got)
        if peaks[variant] is None:
            return wrong(f"variant 값 {variant!r}에서 함수가 수 하나가 아니라 {type(got).__name__} 값을 돌려줬습니다. "
                         "최대 바이트 수 하나를 돌려주세요",
                         f"for variant {variant!r} your function returned a {type(got).__name__}, not one number: "
                         "return the peak bytes")
    del beside
    copy, donated = peaks["copy"], peaks["donated"]
    said = (f"float32 {size:,}개({_mib(state)})짜리 상태로 잰 최대 바이트가 기부 없이 {copy:,.0f}바이트, "
            f"기부하면 {donated:,.0f}바이트입니다. 맞는 값은 상태 두 벌인 {2 * state:,}바이트와 한 벌인 "
            f"{state:,}바이트입니다(허용 오차 ±{SLACK:,}바이트)",
            f"with a state of {size:,} float32 ({_mib(state)}), the peaks are {copy:,.0f} bytes without donation "
            f"and {donated:,.0f} with it, where two states, {2 * state:,}, and one, {state:,}, are right "
            f"(allowed: ±{SLACK:,} bytes)")

    def near(value, target):
        return abs(value - target) <= SLACK

    if near(copy, 2 * state) and near(donated, state):
        return right(f"최대 바이트가 맞습니다: 기부 없이 상태 두 벌({_mib(copy)}), 기부하면 한 벌({_mib(donated)})",
                     f"the peaks are right: two states without donation ({_mib(copy)}), one with it "
                     f"({_mib(donated)})")
    extra = copy - 2 * state
    if extra > SLACK and near(donated - state, extra):
        return wrong(f"{said[0]}. 두 값이 똑같이 {extra:,.0f}바이트 많습니다. 반복문 전에 이미 살아 있던 "
                     "배열의 바이트를 빼세요(노트북에는 다른 배열도 살아 있습니다)",
                     f"{said[1]}. Both are {extra:,.0f} bytes too high: subtract the bytes alive before the loop "
                     "(other arrays are alive in a notebook)")
    if near(copy, state) and near(donated, state):
        return wrong(f"{said[0]}. 기부하지 않은 쪽도 한 벌뿐입니다. 옛 상태를 버린 뒤에 쟀습니다. "
                     "new = step(x, i) 다음, x = new로 바꾸기 전에 재세요",
                     f"{said[1]}. Without donation too, one state: you measured after the old state was dropped. "
                     "Measure after new = step(x, i), before x = new")
    if near(copy * 4, 2 * state) and near(donated * 4, state):
        return wrong(f"{said[0]}. 바이트가 아니라 원소 수를 더했습니다. size 대신 nbytes를 더하세요(float32 하나는 "
                     "4바이트)",
                     f"{said[1]}. You added elements, not bytes: add nbytes, not size (a float32 is 4 bytes)")
    if near(copy, 2 * state) and near(donated, 2 * state):
        return wrong(f"{said[0]}. 기부하는 쪽도 두 벌입니다. variant가 'donated'일 때 donate_argnums=0으로 "
                     "jit한 스텝을 쓰는지 보세요(check.steps로 확인할 수 있습니다)",
                     f"{said[1]}. The donating loop holds two states too: with variant 'donated', use the step "
                     "jitted with donate_argnums=0 (check.steps checks it)")
    return wrong(f"{said[0]}. 호출마다, 옛 상태를 버리기 전에 jax.live_arrays()의 nbytes 합을 재고, "
                 "반복문 전의 합을 빼서 최댓값을 돌려주세요",
                 f"{said[1]}. After every call, before the old state is dropped, add up the nbytes of "
                 "jax.live_arrays(), subtract the sum before the loop, and return the largest")


check = checks(steps=steps, live_peak=live_peak)
