"""Check your answer to the exercise of "Profiling and compile time": import its ``check``, then

    from check_profiling import check
    check.traces(op_by_op_events, jit_events)

``op_by_op_events`` and ``jit_events`` are the events that ``record`` (from ``trace_summary.py``)
returned for steps 1 and 2: three calls of ``layer_norm`` without ``jax.jit``, and three of the
jitted function, each recorded after a first call that compiled it. The check reads what any
machine's trace shows the same way: the dispatches (``PjitFunction(…)`` events on the host; under
``jax.jit`` one per call, without it one per operation) and whether a compilation was recorded
(``backend_compile_and_load``, JAX's own event). It then shows the device operations and the gaps of
each trace beside each other; those, like any time, depend on the machine and are not graded.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, right, wrong  # noqa: E402
from trace_summary import device_gaps, spans, top_operations  # noqa: E402

CALLS = 3
COMPILE = "backend_compile_and_load"   # JAX's annotation of every compilation, on any backend


def _dispatches(events) -> Counter:
    """How many times each jitted function (``PjitFunction(name)``) was dispatched from the host."""
    return Counter(e["name"] for e in spans(events) if e["name"].startswith("PjitFunction("))


def _compiles(events) -> int:
    return sum(1 for e in events if e.get("ph") == "X" and e.get("name") == COMPILE)


def _readable(events) -> bool:
    try:
        return all(isinstance(e, dict) for e in events) and bool(spans(events))   # Perfetto ends with a {}
    except (TypeError, KeyError):
        return False


def _jitted(dispatches: Counter) -> bool:
    """Whether the dispatches are those of one jitted function: one name only."""
    return len(dispatches) == 1


def traces(op_by_op_events, jit_events):
    """Check the two traces of steps 1 and 2: three warm calls each, op by op and under ``jax.jit``."""
    for events, ko, en in ((op_by_op_events, "jit 없이 기록한", "op-by-op"), (jit_events, "jit", "jit")):
        if not isinstance(events, list) or not _readable(events):
            return wrong(f"{ko} 트레이스는 record가 돌려준 이벤트 리스트여야 합니다(딕셔너리의 리스트)",
                         f"the {en} trace should be the list of events record returned (a list of dicts)")
    # a compilation first: tracing a function dispatches the jnp functions it calls, which reads as op by op
    for events, ko, en in ((op_by_op_events, "jit 없이 기록한", "without jit"), (jit_events, "jit", "jit")):
        compiled = _compiles(events)
        if compiled:
            return wrong(f"{ko} 트레이스에 컴파일이 {compiled}번 들어 있습니다({COMPILE}). 기록하기 전에 한 번 호출해 "
                         "컴파일을 끝내 두세요. 그래야 표에 실행만 남습니다",
                         f"the {en} trace holds {compiled} compilation{'s' if compiled > 1 else ''} ({COMPILE}): call "
                         "once before recording, so that the table holds runs only")
    eager, jitted = _dispatches(op_by_op_events), _dispatches(jit_events)
    if _jitted(eager) and not _jitted(jitted):
        return wrong("두 트레이스가 뒤바뀌었습니다. 첫 번째 인자가 jit 없이, 두 번째 인자가 jax.jit으로 "
                     "기록한 것이어야 합니다",
                     "the two traces are swapped: the first should be the one without jit, the second the one "
                     "under jax.jit")
    if not _jitted(jitted):
        names = ", ".join(f"{name} {n}번" for name, n in jitted.most_common(3))
        names_en = ", ".join(f"{name} ×{n}" for name, n in jitted.most_common(3))
        return wrong(f"jit 트레이스에 디스패치된 함수가 {len(jitted)}가지입니다({names or '없음'}). jax.jit으로 "
                     "감싼 함수는 호출마다 한 번, 한 이름으로만 디스패치됩니다. jax.jit(layer_norm)을 기록했는지 "
                     "보세요",
                     f"the jit trace dispatches {len(jitted)} functions ({names_en or 'none'}): a jitted function is "
                     "dispatched once per call, under one name; check that you recorded jax.jit(layer_norm)")
    (name, calls), = jitted.items()
    if calls != CALLS:
        return wrong(f"jit 트레이스에는 {name}의 호출이 {calls}번 있습니다. 호출 {CALLS}번을 "
                     "기록하세요(record(..., repeats=3))",
                     f"the jit trace holds {calls} call{'' if calls == 1 else 's'} of {name}: record {CALLS} "
                     "(record(..., repeats=3))")
    if _jitted(eager):
        return wrong(f"jit 없이 기록한 트레이스도 함수 하나({next(iter(eager))})만 디스패치합니다. "
                     "1번에서는 jax.jit으로 "
                     "감싸지 않은 layer_norm을 기록하세요. 그래야 연산 하나하나가 따로 디스패치됩니다",
                     f"the trace without jit also dispatches one function only ({next(iter(eager))}): record "
                     "layer_norm itself, not wrapped in jax.jit, for step 1, so that each operation is dispatched "
                     "on its own")
    per_call = sum(eager.values()) / CALLS
    ops = {way: len(top_operations(events, 10**6, side="device"))
           for way, events in (("eager", op_by_op_events), ("jit", jit_events))}
    gaps = {way: device_gaps(events) for way, events in (("eager", op_by_op_events), ("jit", jit_events))}
    if not (ops["eager"] and ops["jit"]):
        seen_ko = ("다만 트레이스에 디바이스 연산이 없어 디바이스 쪽은 비교하지 못했습니다. GPU라면 프로파일러가 "
                   "CUPTI를 불러오지 못했을 수 있습니다")
        seen_en = ("the traces hold no device operation, so the device side is not compared; on a GPU the profiler "
                   "may have failed to load CUPTI")
    else:
        e, j = gaps["eager"], gaps["jit"]
        seen_ko = (f"디바이스 연산은 이름 기준으로 jit 없이 {ops['eager']}가지"
                   f"(실행 구간 {e.operations}개, 간격의 중앙값 "
                   f"{e.median_us:,.1f} µs), jit으로 {ops['jit']}가지(실행 구간 {j.operations}개, 간격의 중앙값 "
                   f"{j.median_us:,.1f} µs)입니다. 시간은 기계마다 다르므로 채점하지 않습니다")
        seen_en = (f"device operations by name: {ops['eager']} without jit ({e.operations} busy intervals, median gap "
                   f"{e.median_us:,.1f} µs), {ops['jit']} under jit ({j.operations}, median gap "
                   f"{j.median_us:,.1f} µs); times depend on the machine and are not graded")
    return right(f"두 트레이스 모두 컴파일 없이 호출 {CALLS}번을 담았습니다. jit에서는 호출마다 {name} 디스패치가 "
                 f"한 번, jit 없이는 호출마다 디스패치가 {per_call:g}번입니다. {seen_ko}",
                 f"both traces hold {CALLS} calls and no compilation; under jit one dispatch of {name} per call, "
                 f"without it {per_call:g} dispatches per call; {seen_en}")

check = checks(traces=traces)
