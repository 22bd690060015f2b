"""Check your answer to the exercise of "Static arguments and recompilation traps": import its ``check``, then

    from check_static_arguments import check
    check.normalize(your_normalize)

``your_normalize(x, settings)`` takes what ``normalize`` takes, an array and a dict of settings
(``center``, a bool; ``scale``, a number), and returns what ``normalize`` returns, computed by your
function under ``jax.jit``: for instance a function that unpacks the dict and calls your jitted
function. The check empties JAX's caches (``jax.clear_caches()``, as step 3 does), calls it with the
exercise's eight settings on an array of its own, compares each result with NumPy's in float64, and
counts the compilations, by function name, with JAX's monitoring events. Right is right values with
at most two compilations of your jitted function; where there are more, it runs your function again
on settings it varies, to say which argument costs the extra compilations.
"""

from __future__ import annotations

import collections
import contextlib
import sys
import sysconfig
from pathlib import Path

import jax
import jax.numpy as jnp
import jaxlib
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, close, right, run_reader, wrong  # noqa: E402

COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
# The exercise's eight settings, in its order: 1 and 4 are ints, 2.0 and 0.5 floats.
CALLS = [{"center": center, "scale": scale} for scale in (1, 2.0, 0.5, 4) for center in (True, False)]
VALUES = [1.0, 2.0, 4.0, 8.0, 15.0]   # the check's x: mean 6, so every result is exact in float32
MOST = 2                              # compilations the exercise allows: one per value of center


@contextlib.contextmanager
def counting_compiles():
    """Count XLA compilations while the block runs: ``(jitted, outside)``, two Counters by function name
    ("jit(f)"), of the jitted functions called, and of jax.numpy and lax operations run outside jit."""
    jitted, outside = collections.Counter(), collections.Counter()
    listening = [True]

    def listen(event, seconds, **kwargs):
        if listening[0] and event == COMPILE_EVENT:
            counts = outside if _op_by_op(sys._getframe(1)) else jitted
            counts[kwargs.get("fun_name", "?")] += 1

    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        yield jitted, outside
    finally:
        listening[0] = False
        unregister = getattr(jax.monitoring, "unregister_event_duration_listener", None)  # not in older JAX
        if unregister is not None:
            unregister(listen)


JAX_FOLDER = Path(jax.__file__).resolve().parent
LIBRARIES = (str(JAX_FOLDER), str(Path(jaxlib.__file__).resolve().parent),
             str(Path(sysconfig.get_paths()["stdlib"]).resolve()))
OPERATIONS = tuple(str(JAX_FOLDER / "_src" / part) for part in ("numpy", "lax"))


def _op_by_op(frame) -> bool:
    """Whether the compilation under way (``frame``: the innermost) was set off by code outside JAX calling a
    jax.numpy or lax operation (an array's operator too), rather than a jitted function: each operation run
    outside jit compiles a small program of its own. Anything else counts as the reader's jitted function.

    >>> with counting_compiles() as (jitted, outside):
    ...     _ = jax.jit(lambda v: v * 3)(jnp.arange(3.0) - 1.0)
    >>> sorted(jitted), sum(outside.values()) > 0
    (['jit(<lambda>)'], True)
    """
    callee = None
    while frame is not None:
        path = str(Path(frame.f_code.co_filename).resolve())
        if not path.startswith(LIBRARIES):      # the innermost frame of code outside JAX: what did it call?
            return callee is not None and callee.startswith(OPERATIONS)
        callee, frame = path, frame.f_back
    return False


def run(function, calls):
    """Call ``function(x, settings)`` for each of ``calls`` from empty caches: ``(results, jitted, outside,
    problem)``, with the compilations counted as ``counting_compiles`` counts them.

    >>> results, jitted, outside, problem = run(jax.jit(lambda x, s: x * 2), [None, None])
    >>> len(results), sum(jitted.values()), sum(outside.values()), problem
    (2, 1, 0, None)
    """
    x = jax.block_until_ready(jnp.asarray(VALUES, jnp.float32))
    jax.clear_caches()
    with counting_compiles() as (jitted, outside):
        results, problem = run_reader(lambda: [jax.block_until_ready(function(x, settings)) for settings in calls])
    return results, jitted, outside, problem


def expected(settings) -> np.ndarray:
    x = np.asarray(VALUES, np.float64)
    return ((x - x.mean()) if settings["center"] else x) / settings["scale"]


def normalize(function):
    """Check ``function(x, settings)`` over the exercise's eight settings: its values and its compilations.

    >>> def split(x, scale, center):
    ...     return (x - jnp.mean(x) if center else x) / scale
    >>> split_jit = jax.jit(split, static_argnames="center")
    >>> check.normalize(lambda x, s: split_jit(x, float(s["scale"]), center=s["center"])).ok
    True
    >>> check.normalize(lambda x, s: split_jit(x, s["scale"], center=s["center"])).ok
    False
    """
    results, inside, outside, problem = run(function, CALLS)
    if problem is not None:
        return _explained(problem)
    for i, (settings, got) in enumerate(zip(CALLS, results, strict=True)):
        want = expected(settings)
        values = close(got, want, "결과", "the result", rtol=1e-6, atol=1e-6)
        if not values.ok:
            call_ko, call_en = f"{i + 1}번째 호출(settings = {settings})의 ", f"call {i + 1} (settings = {settings}): "
            flipped = expected({**settings, "center": not settings["center"]})
            if close(got, flipped, "값", "the values", rtol=1e-6, atol=1e-6).ok:
                return wrong(f"{call_ko}{values.ko}. center가 {settings['center']}인데 반대로 계산했습니다. center를 "
                             "어떻게 넘기고 어디서 읽는지 보세요",
                             f"{call_en}{values.en}; it is computed as if center were {not settings['center']}: see "
                             "how center is passed and where it is read")
            return wrong(f"{call_ko}{values.ko}", f"{call_en}{values.en}")
    if not all(isinstance(result, jax.Array) for result in results):
        return wrong("결과가 jax.Array가 아닙니다. 함수가 jax.jit으로 감싼 함수를 불러 계산하게 하세요",
                     "the results are not jax.Arrays: compute them with your function under jax.jit")
    total = sum(inside.values())
    if total == 0:
        if outside:
            return wrong(f"jax.jit으로 컴파일한 함수가 없습니다. 컴파일된 것({_listed(outside)})은 "
                         "모두 jax.numpy 연산을 하나씩 실행한 것입니다. 함수를 jax.jit으로 감싸 부르세요",
                         f"no jitted function compiled: what compiled ({_listed(outside)}) are jax.numpy operations "
                         "run one by one; call your function through jax.jit")
        return wrong("컴파일이 한 번도 일어나지 않았습니다. 함수가 jax.jit으로 감싼 함수를 부르는지 보세요(영구 컴파일 "
                     "캐시를 켰다면 끄고 확인하세요)",
                     "nothing compiled: check that your function calls a function wrapped in jax.jit (and turn the "
                     "persistent compilation cache off, if it is on)")
    if total > MOST:
        return _too_many(function, inside)
    count_ko = f"{len(CALLS)}번 호출에 컴파일이 {total}번 일어났습니다({_listed(inside)})"
    count_en = f"{len(CALLS)} calls compiled {_times(total)} ({_listed(inside)})"
    note_ko = note_en = ""
    if total == 1:
        note_ko = (". center까지 트레이스되어 프로그램 하나가 두 경우를 모두 다룹니다. 그것도 맞지만, 문제가 바란 답은 "
                   "center를 정적 인자로 두어 center 값마다 자기 분기만 계산하는 프로그램 두 개입니다")
        note_en = ("; center is traced too, so one program handles both cases. That works; the answer the exercise "
                   "asks for keeps center static: two programs, each computing only its own branch")
    if outside:
        note_ko += (f". 그 밖에 jit 함수 바깥의 연산이 따로 컴파일되었습니다({_listed(outside)}). 그런 연산은 "
                    "저마다 작은 프로그램이 되므로, jit 함수 안에서 하거나 float(scale)처럼 Python 수로 다루세요")
        note_en += (f"; operations outside the jitted function compiled on their own too ({_listed(outside)}): each "
                    "is a small program of its own, so do them inside the jitted function, or with Python numbers, "
                    "as float(scale)")
    return right(f"결과 {len(CALLS)}개가 모두 맞고, {count_ko}{note_ko}",
                 f"all {len(CALLS)} results are right, and the {count_en}{note_en}")


def _too_many(function, inside):
    """Why there were more than ``MOST`` compilations: run again on settings that vary one thing at a time."""
    total = sum(inside.values())
    said_ko = (f"결과는 맞지만, {len(CALLS)}번 호출에 컴파일이 {total}번 일어났습니다({_listed(inside)}). "
               "두 번이어야 합니다")
    said_en = f"the results are right, but the {len(CALLS)} calls compiled {total} times ({_listed(inside)}), not twice"
    as_float = [{**settings, "scale": float(settings["scale"])} for settings in CALLS]
    _, jitted, _, problem = run(function, as_float)
    if problem is None and sum(jitted.values()) <= MOST:
        return wrong(f"{said_ko}. 1과 4는 int, 2.0과 0.5는 float이어서 scale의 자료형이 i32[]와 f32[]로 갈리고, "
                     "자료형마다 다시 컴파일합니다. scale을 float(scale)로 넘기세요",
                     f"{said_en}: 1 and 4 are ints and 2.0 and 0.5 floats, so scale is traced as i32[] or f32[], and "
                     "each dtype compiles anew; pass float(scale)")
    one_scale = [{"center": center, "scale": 2.0} for center in (True, False, True, False)]   # one value of scale
    _, jitted, _, problem = run(function, one_scale)
    if problem is None and sum(jitted.values()) <= MOST:
        return wrong(f"{said_ko}. scale의 값이 바뀔 때마다 컴파일합니다. scale이 정적 인자이면 값이 캐시 키에 "
                     "들어가므로, scale은 트레이스되는 인자로 넘기세요",
                     f"{said_en}: every new value of scale compiles, as a static argument's value is part of the "
                     "cache key; pass scale traced")
    return wrong(f"{said_ko}. settings가 같아도 다시 컴파일합니다. 함수 안에서 부를 때마다 jax.jit으로 새 "
                 "함수를 만들고 있지 않은지 보세요. jit 함수는 한 번 만들어 두고 부릅니다. 까닭은 "
                 "jax.explain_cache_misses로 찾을 수 있습니다",
                 f"{said_en}: it compiles again even for the same settings. Do you make a new function with jax.jit on "
                 "every call? Make the jitted function once, and call it; jax.explain_cache_misses tells why")


def _explained(problem):
    """The reader's function raised: say what the two errors of step 1 mean, or pass the problem on."""
    if "TracerBoolConversionError" in problem.en or "ConcretizationTypeError" in problem.en:
        name = "TracerBoolConversionError" if "TracerBool" in problem.en else "ConcretizationTypeError"
        return wrong(f"함수가 {name} 오류를 냈습니다. center가 트레이서로 들어와 Python if가 값을 알 수 없습니다. "
                     "center를 정적 인자로 표시하세요(static_argnames)",
                     f"your function raised {name}: center arrives as a tracer, whose value a Python if cannot "
                     "know; mark center static (static_argnames)")
    if "Non-hashable static arguments" in problem.en:
        return wrong("함수가 ValueError(Non-hashable static arguments) 오류를 냈습니다. 딕셔너리는 해시할 수 없어 정적 "
                     "인자가 될 수 없습니다. center만 따로 떼어 정적 인자로 넘기세요",
                     "your function raised ValueError (non-hashable static arguments): a dict cannot be hashed, so "
                     "it cannot be static; pass center on its own as the static argument")
    return problem


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _listed(counts) -> str:
    return ", ".join(f"{name} ×{n}" for name, n in sorted(counts.items()))


check = checks(normalize=normalize)
