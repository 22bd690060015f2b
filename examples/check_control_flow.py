"""Check your answer to the exercise of "Loops under jit": import its ``check``, then

    from check_control_flow import check
    check.loops(your_make_loop)
    check.count_eqns(your_count)

``your_make_loop(way, n)`` (step 1) should return a function of a float32 vector ``x`` that applies
the update ``x * 0.9 + sin(x)`` n times, written the way ``way`` says: one of
``loop_compile.WAYS``, ``"python loop"``, ``"fori_loop"``, ``"scan"`` and ``"scan unroll=8"``. The
check runs every way for a trip count that is not a multiple of 8 and compares with the update
applied in float64 NumPy; then it reads each way's jaxpr at n and 2n: the Python loop's should
grow with n, each ``lax`` loop should keep one loop body, and ``scan(..., unroll=8)`` should say
``unroll=8``.

``your_count(jaxpr)`` (step 2) should return how many equations the jaxpr that ``jax.make_jaxpr``
gives has, those inside loop bodies included (a loop's own equation counts too). The check calls it
on the jaxprs of the four ways, which it makes itself, at two trip counts.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, close, right, run_reader, wrong  # noqa: E402
from loop_compile import WAYS, make_loop  # noqa: E402

TRIPS = 13  # not a multiple of 8: scan(unroll=8) has iterations left over
LOOPS = ("scan", "while")  # the primitives a lax loop becomes
KO_WAY = {"python loop": "Python 반복문", "fori_loop": "fori_loop 쪽", "scan": "scan 쪽",
          "scan unroll=8": "scan(unroll=8) 쪽"}
EN_WAY = {"python loop": "the Python loop", "fori_loop": "fori_loop", "scan": "scan", "scan unroll=8": "scan(unroll=8)"}


def applied(x, times: int) -> np.ndarray:
    """The update ``x * 0.9 + sin(x)`` applied ``times`` times, in float64 NumPy."""
    x = np.asarray(x, np.float64)
    for _ in range(times):
        x = x * 0.9 + np.sin(x)
    return x


def inner_jaxprs(eqn):
    """The jaxprs an equation holds in its parameters (a loop's body, a cond's branches)."""
    found = []
    for value in eqn.params.values():
        for item in value if isinstance(value, (list, tuple)) else [value]:
            inner = getattr(item, "jaxpr", item)
            if hasattr(inner, "eqns"):
                found.append(inner)
    return found


def all_eqns(jaxpr) -> list:
    """Every equation of ``jaxpr``, those of the jaxprs inside its equations included (a walk, not a recursion)."""
    pending, found = [getattr(jaxpr, "jaxpr", jaxpr)], []
    while pending:
        for eqn in pending.pop().eqns:
            found.append(eqn)
            pending.extend(inner_jaxprs(eqn))
    return found


def _structure(way: str, jaxprs) -> tuple[str, str] | None:
    """What is wrong with how ``way`` was written, read from its jaxprs at n and 2n (or None)."""
    (small, n), (large, _) = jaxprs
    top = [eqn.primitive.name for eqn in small.jaxpr.eqns]
    loops = [eqn for eqn in small.jaxpr.eqns if eqn.primitive.name in LOOPS]
    grows = len(all_eqns(large)) > len(all_eqns(small))
    if way == "python loop":
        if loops:
            return (f"Python 반복문의 jaxpr에 {loops[0].primitive.name} 식이 있습니다. Python for로 쓴 "
                    "반복문은 트레이싱할 때 펼쳐지므로, 식이 반복 횟수에 비례해 늘어야 합니다",
                    f"the Python loop's jaxpr holds a {loops[0].primitive.name}: written with a Python for, it is "
                    "unrolled while tracing, and its equations grow with n")
        if not grows:
            return ("Python 반복문의 jaxpr이 n과 함께 늘지 않습니다. 반복할 때마다 갱신을 한 번씩 적용하세요",
                    "the Python loop's jaxpr does not grow with n: apply the update once per iteration")
        return None
    if not loops or grows:
        seen = ", ".join(dict.fromkeys(top)) or "-"
        return (f"{KO_WAY[way]}의 jaxpr에 반복문 식이 없거나 n과 함께 늘어납니다(최상위 식: {seen}). "
                f"jax.lax의 반복문으로 쓰면 본문 한 벌이 scan이나 while 식 안에 남습니다",
                f"the jaxpr of {EN_WAY[way]} has no loop, or grows with n (top-level equations: {seen}): a "
                "jax.lax loop keeps one copy of its body inside a scan or while equation")
    if way == "scan unroll=8":
        unrolls = [eqn.params.get("unroll") for eqn in loops]
        if 8 not in unrolls:
            shown = ", ".join(str(u) for u in unrolls)
            return (f"scan(unroll=8) 쪽의 scan 식에 있는 unroll 값이 {shown}입니다. lax.scan에 unroll=8을 넘기세요",
                    f"the scan of scan(unroll=8) has unroll={shown}: pass unroll=8 to lax.scan")
    return None


def loops(make, n: int = TRIPS):
    """Check ``make(way, n)`` for every way: its result against float64 NumPy, its jaxpr at n and 2n."""
    x = jnp.linspace(-1e-4, 1e-4, 16, dtype=jnp.float32)   # near 0, where each update moves x by about 1.9×
    want = applied(x, n)
    for way in WAYS:
        function, problem = run_reader(make, way, n)
        if problem is None:
            got, problem = run_reader(function, x)
        if problem is not None:
            return wrong(f"{KO_WAY[way]}: {problem.ko}", f"{EN_WAY[way]}: {problem.en}")
        what_ko, what_en = f"{KO_WAY[way]}의 결과", f"the result of {EN_WAY[way]}"
        result = close(got, want, what_ko, what_en, rtol=1e-4, atol=1e-5)
        if not result.ok:
            for times in (n - 1, n + 1):
                if close(got, applied(x, times), "값", "the values", rtol=1e-4, atol=1e-5).ok:
                    return wrong(f"{result.ko}. 갱신을 {n}번이 아니라 {times}번 적용한 값과 같습니다. "
                                 "반복 횟수를 보세요",
                                 f"{result.en}; it matches the update applied {times} times, not {n}: "
                                 "look at the trip count")
            return result
        jaxprs = []
        for trips in (n, 2 * n):
            function, problem = run_reader(make, way, trips)
            if problem is None:
                jaxpr, problem = run_reader(jax.make_jaxpr(function), x)
            if problem is not None:
                return wrong(f"{KO_WAY[way]}의 jaxpr을 만들다가 {problem.ko}",
                             f"{EN_WAY[way]}, making its jaxpr: {problem.en}")
            jaxprs.append((jaxpr, trips))
        structure = _structure(way, jaxprs)
        if structure is not None:
            return wrong(*structure)
    return all_of(right(f"네 방법 모두 갱신을 {n}번 적용한 값과 같습니다",
                        f"all four ways match the update applied {n} times"),
                  right("Python 반복문의 jaxpr만 n과 함께 늘고, lax 반복문 셋은 본문 한 벌을 지니며, "
                        "scan(unroll=8) 쪽은 unroll=8입니다",
                        "only the Python loop's jaxpr grows with n; the three lax loops keep one body, and "
                        "scan(unroll=8) has unroll=8"))


def count_eqns(count, lengths=(10, 30)):
    """Check ``count(jaxpr)`` on the jaxprs of the four ways (the check's own) at each of ``lengths``."""
    x = jnp.ones(8, jnp.float32)
    misses = []
    for n in lengths:
        for way in WAYS:
            jaxpr = jax.make_jaxpr(make_loop(way, n))(x)
            got, problem = run_reader(count, jaxpr)
            if problem is not None:
                return problem
            want = len(all_eqns(jaxpr))
            try:
                same = int(got) == want and float(got) == want
            except (TypeError, ValueError):
                return wrong(f"함수가 돌려준 값({type(got).__name__})이 정수가 아닙니다. 식의 수를 정수로 돌려주세요",
                             f"your function returned a {type(got).__name__}, not a whole number: return the count")
            if not same:
                misses.append((way, n, got, want, jaxpr))
    if not misses:
        return right(f"네 방법의 jaxpr 식 수를 n = {', '.join(map(str, lengths))}에서 모두 맞게 셌습니다",
                     f"every way's equation count is right at n = {', '.join(map(str, lengths))}")
    way, n, got, want, jaxpr = misses[0]
    ko = f"{KO_WAY[way]}의 jaxpr(n = {n})에서 센 식 수가 {got}개입니다. 맞는 값은 {want}개입니다"
    en = f"{EN_WAY[way]} at n = {n}: your count is {got}, where {want} is right"
    top = len(jaxpr.jaxpr.eqns)
    loops_here = sum(eqn.primitive.name in LOOPS for eqn in all_eqns(jaxpr))
    if int(got) == top and top != want:
        return wrong(f"{ko}. 최상위 식만 셌습니다. 반복문 식 안에 든 본문 jaxpr의 식도 세세요",
                     f"{en}: only the top-level equations are counted; count those of the body jaxpr in the "
                     "loop equation's parameters too")
    if int(got) == want - loops_here:
        return wrong(f"{ko}. 본문의 식은 셌지만 반복문 식 자체를 빠뜨렸습니다",
                     f"{en}: the body's equations are counted, but not the loop's own equation")
    return wrong(f"{ko}. 반복문 식 하나와 그 본문의 식을 하나씩 세세요",
                 f"{en}: count the loop's equation once and each of its body's equations once")


check = checks(loops=loops, count_eqns=count_eqns)
