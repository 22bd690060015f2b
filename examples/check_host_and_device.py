"""Check your answer to the exercise of "Host and device": import its ``check``, then

    from check_host_and_device import check
    check.copies(your_answer)
    check.return_clock(your_wrapper)
    check.ready_clock(your_timer)

``copies``: ``your_answer`` is ``True`` if, on your setup, ``np.asarray`` of a ready ``jnp.dot``
result copies it into host memory, ``False`` if it hands back the same memory. The check finds out
itself, on this machine.

``return_clock``: ``your_wrapper(call, log)`` should return a function with no arguments, for
``compare``, that calls ``call()``, appends to the list ``log`` the seconds until the call returned,
and returns the call's result (so that ``compare`` waits for the work, off that clock).

``ready_clock``: ``your_timer(call)`` should return the seconds (a number, or a ``Timing``) from
calling ``call()`` until its result is ready.

For the two clocks the check hands over a stand-in for ``jnp.dot``: a call that returns at once a
result whose work finishes ``WORK`` seconds later, as an asynchronously dispatched call does.
``block_until_ready`` (``jax.block_until_ready`` too) and ``np.asarray`` wait for it. Nothing is
graded on speed: a clock that includes the wait must read at least ``WORK`` seconds, and one that
stops when the call returns reads far less, whatever the machine.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, right, run_reader, wrong  # noqa: E402
from timing import ms  # noqa: E402

WORK = 0.1  # seconds the stand-in's work takes after its call returns
RUNS = 3  # runs of the reader's wrapper, as compare would make them
SIZE = 64  # the side of the product behind the stand-in, and of the one the copy check converts


class PendingResult:
    """A stand-in for what an asynchronously dispatched ``jnp.dot`` returns: an array whose values are
    ready ``WORK`` seconds after the call. ``block_until_ready`` and ``np.asarray`` wait for them;
    every wait is noted in ``waits`` (how, and when it ended).
    """

    def __init__(self, value, ready_at: float):
        self._value, self._ready_at, self.waits = value, ready_at, []

    def is_ready(self) -> bool:
        return time.perf_counter() >= self._ready_at

    def _wait(self, how: str) -> None:
        while (left := self._ready_at - time.perf_counter()) > 0:
            time.sleep(left)
        self.waits.append(how)

    def block_until_ready(self):
        self._wait("block_until_ready")
        return self

    def __array__(self, dtype=None, copy=None):
        self._wait("np.asarray")
        return np.asarray(self._value, dtype=dtype)

    def __jax_array__(self):
        self._wait("jnp.asarray")
        return self._value

    def __repr__(self) -> str:
        self._wait("repr")
        return repr(self._value)

    def __getattr__(self, name):  # shape, dtype, ...: the array's own
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._value, name)


class _StandIn:
    """The call the check hands to the reader's code, and every result it made."""

    def __init__(self):
        a = jax.random.normal(jax.random.key(0), (SIZE, SIZE), jnp.float32)
        self.value = jax.block_until_ready(jnp.dot(a, a))
        self.results: list[PendingResult] = []

    def __call__(self) -> PendingResult:
        result = PendingResult(self.value, time.perf_counter() + WORK)
        self.results.append(result)
        return result


def _seconds(value):
    """The reader's readings as a list of floats: a number, a ``Timing`` (its samples), or a list of them.

    >>> _seconds(0.25), _seconds([0.1, 0.2]), _seconds("fast")
    ([0.25], [0.1, 0.2], None)
    """
    samples = getattr(value, "samples", value)
    try:
        readings = [float(s) for s in (samples if isinstance(samples, (list, tuple)) else [samples])]
    except (TypeError, ValueError):
        return None
    return readings or None


def _ms(seconds: float) -> str:
    return f"{ms(seconds)} ms" if seconds > 0 else f"{seconds * 1e3:g} ms"


def _unit(readings, wall: float):
    """A wrong ``Result`` if a reading is longer than the whole run that made it: not seconds."""
    if max(readings) > wall:
        return wrong(f"잰 시간({max(readings):.3g})이 함수 전체가 실행된 시간({wall:.3g}초)보다 깁니다. 초 단위로 "
                     "돌려주세요",
                     f"a reading ({max(readings):.3g}) is longer than the whole run of your function ({wall:.3g} s): "
                     "return seconds")
    return None


def copies(answer):
    """Check ``answer``: whether ``np.asarray`` of a ready ``jnp.dot`` result copies it, on this machine."""
    if not isinstance(answer, (bool, np.bool_)):
        return wrong("답은 True나 False여야 합니다(np.asarray가 복사하면 True)",
                     "the answer should be True or False (True if np.asarray copies)")
    a = jax.random.normal(jax.random.key(1), (SIZE, SIZE), jnp.float32)
    result = jax.block_until_ready(jnp.dot(a, a))
    host = np.asarray(result)
    copied = host.__array_interface__["data"][0] != result.unsafe_buffer_pointer()
    backend = jax.default_backend().upper()
    if copied:
        fact = (f"이 {backend} 백엔드에서는 np.asarray가 결과를 디바이스 메모리에서 호스트 메모리로 복사합니다",
                f"on this {backend} backend np.asarray copies the result from device memory to host memory")
    else:
        fact = (f"이 {backend} 백엔드에서는 디바이스 메모리가 곧 호스트 메모리여서, np.asarray가 복사하지 않고 같은 "
                "메모리를 가리키는 NumPy 배열을 돌려줍니다",
                f"on this {backend} backend device memory is host memory: np.asarray makes no copy, and the NumPy "
                "array it returns points at the same memory")
    if bool(answer) == copied:
        return right(f"맞습니다. {fact[0]}", f"right: {fact[1]}")
    return wrong(f"답은 {copied}입니다. {fact[0]}. 확인하려면 np.asarray(x).__array_interface__['data'][0]의 "
                 "값과 x.unsafe_buffer_pointer()의 값을 비교하세요",
                 f"the answer is {copied}: {fact[1]}; to see it, compare np.asarray(x).__array_interface__['data'][0] "
                 "with x.unsafe_buffer_pointer()")


def return_clock(wrapper):
    """Check ``wrapper(call, log)``: its function logs the seconds until ``call()`` returned, and returns the result."""
    call, log = _StandIn(), []
    timed, problem = run_reader(wrapper, call, log)
    if problem is not None:
        return problem
    if not callable(timed):
        return wrong(f"함수는 compare에 넘길, 인자 없는 함수를 돌려줘야 합니다. 받은 값은 {type(timed).__name__} "
                     "객체입니다",
                     f"your function should return a function of no arguments, for compare, not a "
                     f"{type(timed).__name__}")
    handed_back = []
    start = time.perf_counter()
    for _ in range(RUNS):
        made = len(call.results)
        out, problem = run_reader(timed)
        if problem is not None:
            return problem
        if len(call.results) == made:
            return wrong("돌려준 함수가 call()을 부르지 않았습니다", "the function you return never calls call()")
        jax.block_until_ready(out)  # as compare does, off the reader's clock
        handed_back.append(bool(call.results[-1].waits))
        call.results[-1].block_until_ready()
    wall = time.perf_counter() - start
    readings = _seconds(log)
    if readings is None or len(readings) != RUNS:
        return wrong(f"{RUNS}번 실행한 뒤 log에는 초 단위 시간 {RUNS}개가 있어야 합니다. 받은 log는 {log!r:.80}입니다",
                     f"after {RUNS} runs, log should hold {RUNS} times in seconds, one per run, not {log!r:.80}")
    unit = _unit(readings, wall)
    if unit is not None:
        return unit
    if min(readings) >= WORK:
        return wrong(f"잰 시간(가장 짧은 것 {_ms(min(readings))})이 결과를 기다린 시간까지 담고 있습니다. "
                     f"이 검사의 계산은 호출이 돌아온 뒤 {_ms(WORK)} 걸립니다. call()이 돌아오자마자 시계를 읽고, "
                     "기다리는 일은 compare에 맡기세요",
                     f"your readings (the shortest {_ms(min(readings))}) include the wait for the result: the check's "
                     f"work takes {_ms(WORK)} after its call returns. Read the clock as soon as call() returns, and "
                     "leave the wait to compare")
    if not all(handed_back):
        return wrong("돌려준 함수가 call()의 결과를 돌려주지 않아서, compare가 그 계산을 기다리지 못했습니다. "
                     "끝나지 않은 계산이 다음 측정에 섞여 들어갑니다. 결과를 돌려주세요",
                     "the function you return does not return call()'s result, so compare could not wait for the "
                     "work: unfinished work spills into the next measurement. Return the result")
    return all_of(right(f"시계는 호출이 돌아올 때 멈춥니다(가장 긴 것 {_ms(max(readings))}, 계산은 {_ms(WORK)})",
                        f"the clock stops when the call returns (the longest reading {_ms(max(readings))}; the work "
                        f"takes {_ms(WORK)})"),
                  right("결과를 돌려주므로 compare가 잰 시간 밖에서 결과를 기다립니다",
                        "the result is returned, for compare to wait for off the clock"))


def ready_clock(timer):
    """Check ``timer(call)``: its reading covers the call and the wait until the result is ready."""
    call = _StandIn()
    start = time.perf_counter()
    value, problem = run_reader(timer, call)
    wall = time.perf_counter() - start
    if problem is not None:
        return problem
    if not call.results:
        return wrong("함수가 call()을 부르지 않았습니다. 함수는 잴 호출 call을 인자로 받아 부르고, "
                     "그 시간을 돌려줘야 합니다",
                     "your function never calls call(): it is given the call to time, and should call it and return "
                     "the time it took")
    readings = _seconds(value)
    if readings is None:
        return wrong(f"함수는 초 단위 시간(숫자나 Timing)을 돌려줘야 합니다. 받은 값은 {type(value).__name__} "
                     "객체입니다",
                     f"your function should return seconds (a number, or a Timing), not a {type(value).__name__}")
    unit = _unit(readings, wall)
    if unit is not None:
        return unit
    waits = [how for result in call.results for how in result.waits]
    if min(readings) < WORK:
        if not waits:
            return wrong(f"잰 시간({_ms(min(readings))})은 결과가 준비되기 전에 멈췄습니다. 이 검사의 계산은 "
                         f"호출이 돌아온 뒤 {_ms(WORK)} 걸리는데, 함수가 결과를 한 번도 기다리지 않았습니다. "
                         "시계를 읽기 전에 block_until_ready로 기다리세요",
                         f"your reading ({_ms(min(readings))}) stopped before the result was ready: the check's work "
                         f"takes {_ms(WORK)} after its call returns, and your function never waited for it. Wait with "
                         "block_until_ready before you read the clock")
        return wrong(f"잰 시간({_ms(min(readings))})은 결과가 준비되기 전에 멈췄습니다. 이 검사의 계산은 "
                     f"호출이 돌아온 뒤 {_ms(WORK)} 걸립니다. 함수가 결과를 기다리기는 했지만 시계를 읽은 "
                     "뒤였습니다. 기다린 다음에 시계를 읽으세요",
                     f"your reading ({_ms(min(readings))}) stopped before the result was ready: the check's work takes "
                     f"{_ms(WORK)} after its call returns. Your function did wait, but after reading the clock: wait "
                     "first, then read it")
    done = right(f"시계는 결과가 준비될 때까지 갑니다(가장 짧은 것 {_ms(min(readings))}, 계산은 {_ms(WORK)})",
                 f"the clock runs until the result is ready (the shortest reading {_ms(min(readings))}; the work takes "
                 f"{_ms(WORK)})")
    if waits and "block_until_ready" not in waits and "np.asarray" in waits:
        return all_of(done, right("np.asarray로 기다렸습니다. np.asarray는 가속기에서 값을 호스트로 복사하는 시간까지 "
                                  "더하므로, 기다리기만 하려면 block_until_ready를 쓰세요",
                                  "you waited with np.asarray, which on an accelerator also copies the values to the "
                                  "host: block_until_ready waits alone"))
    return done


check = checks(copies=copies, return_clock=return_clock, ready_clock=ready_clock)
