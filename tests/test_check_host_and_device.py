"""The reader's check of the exercise of "Host and device" (``examples/check_host_and_device.py``): it
passes the solution's answers and names a clock that includes the wait, or misses it, in Korean and in
English. No check grades a speed: the stand-in call's work takes a fixed time after the call returns."""

from __future__ import annotations

import time

import jax
import jax.numpy as jnp
import numpy as np
from check_host_and_device import WORK, PendingResult, check
from dispatch_timing import numpy_view_shares_buffer, returned_call
from readers_checks import said
from timing import compare, time_call


def test_the_stand_in_waits_as_an_asynchronous_result_does():
    pending = PendingResult(jnp.ones((2, 2)), time.perf_counter() + WORK)
    assert not pending.is_ready() and pending.shape == (2, 2)
    start = time.perf_counter()
    assert jax.block_until_ready(pending) is pending and pending.is_ready()
    assert time.perf_counter() - start > WORK / 2 and pending.waits == ["block_until_ready"]
    assert np.asarray(pending).sum() == 4 and pending.waits[-1] == "np.asarray"


def test_the_copy_answer():
    copies = not numpy_view_shares_buffer(jnp.ones((4, 4)))
    assert check.copies(copies).ok
    said(check.copies(not copies), f"the answer is {copies}", "unsafe_buffer_pointer", korean="값을 비교하세요")
    said(check.copies("no"), "True or False", korean="True나 False")


def test_the_solutions_clocks_pass():
    result = check.return_clock(returned_call)
    assert result.ok and "stops when the call returns" in result.en, result
    assert check.ready_clock(time_call).ok
    assert check.ready_clock(lambda call: compare({"a": call, "b": call}, rounds=6).timing("a")).ok


def blocking_wrapper(call, log):
    def timed():
        start = time.perf_counter()
        out = jax.block_until_ready(call())
        log.append(time.perf_counter() - start)
        return out
    return timed


def test_a_return_clock_that_waits_or_hands_back_nothing_is_named():
    said(check.return_clock(blocking_wrapper), "include the wait", "leave the wait to compare",
         korean="기다린 시간까지 담고")

    def returns_nothing(call, log):
        def timed():
            start = time.perf_counter()
            call()
            log.append(time.perf_counter() - start)
        return timed

    said(check.return_clock(returns_nothing), "does not return call()'s result", "spills into the next measurement",
         korean="다음 측정에 섞여")
    said(check.return_clock(lambda call, log: call), "log should hold 3 times", korean="log에는")
    said(check.return_clock(lambda call, log: 0.1), "a function of no arguments", korean="인자 없는 함수")


def test_a_ready_clock_without_the_wait_is_named():
    def no_wait(call):
        start = time.perf_counter()
        call()
        return time.perf_counter() - start

    said(check.ready_clock(no_wait), "stopped before the result was ready", "never waited", "block_until_ready",
         korean="한 번도 기다리지 않았습니다")

    def waits_after_the_clock(call):
        start = time.perf_counter()
        out = call()
        seconds = time.perf_counter() - start
        out.block_until_ready()
        return seconds

    said(check.ready_clock(waits_after_the_clock), "after reading the clock", korean="시계를 읽은 뒤")

    def milliseconds(call):
        start = time.perf_counter()
        call().block_until_ready()
        return (time.perf_counter() - start) * 1e3

    said(check.ready_clock(milliseconds), "return seconds", korean="초 단위로")
    said(check.ready_clock(lambda call: 0.5), "never calls call()", korean="부르지 않았습니다")


def test_waiting_with_np_asarray_is_right_and_noted():
    def with_asarray(call):
        start = time.perf_counter()
        np.asarray(call())
        return time.perf_counter() - start

    result = check.ready_clock(with_asarray)
    assert result.ok and "np.asarray" in result.en and "block_until_ready" in result.ko, result
