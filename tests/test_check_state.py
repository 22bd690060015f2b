"""The reader's check of the exercise of "State without mutation" (``examples/check_state.py``)."""

from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import pytest
from check_state import check
from donation_memory import jitted, live_bytes, loop_live_peak, step
from readers_checks import said


def solution_peak(variant, size, steps):
    return loop_live_peak(variant, size, steps)["peak"]


def loop(variant, size, steps, *, baseline=True, before_dropping=True, measure=lambda a: a.nbytes):
    """A reader's loop, right by default; each keyword makes one of the usual mistakes."""
    live = lambda: sum(measure(a) for a in jax.live_arrays() if not a.is_deleted())  # noqa: E731
    update, before = jitted(variant), (live() if baseline else 0)
    x, peak = jnp.zeros(size, jnp.float32), 0
    for i in range(steps):
        new = update(x, i)
        if not before_dropping:
            x = new
        peak = max(peak, live() - before)
        x = new
    return peak


def test_the_solution_passes_both_checks():
    assert check.steps(jitted("copy"), jitted("donated")).ok
    assert check.live_peak(solution_peak).ok
    assert check.live_peak(loop).ok


def test_the_steps_check_names_the_missing_or_misplaced_donation():
    said(check.steps(jitted("copy"), jitted("copy")), "donates no argument", "donate_argnums=0",
         korean="기부하지 않습니다")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # "Some donated buffers were not usable": the mistake itself
        said(check.steps(jitted("copy"), jax.jit(step, donate_argnums=1)), "donates argument 1", "not the state x",
             korean="1번 인자")
    said(check.steps(jitted("donated"), jitted("donated")), "step without donation donates",
         korean="donate_argnums 없이")
    said(check.steps(step, jitted("donated")), "no .lower", "jax.jit", korean="jax.jit")


def test_the_steps_check_names_a_wrong_update():
    said(check.steps(jax.jit(lambda x, i: x.at[i].set(1.0)), jitted("donated")), "add 1 to element i",
         korean="1을 더하세요")
    said(check.steps(jax.jit(lambda x, i: (x.at[i].add(1.0), i)), jitted("donated")), "tuple", korean="tuple")


@pytest.mark.parametrize(("mistake", "english", "korean"), [
    ({"baseline": False}, "subtract the bytes alive before the loop", "반복문 전에"),
    ({"before_dropping": False}, "after the old state was dropped", "옛 상태를 버린 뒤"),
    ({"measure": lambda a: a.size}, "elements, not bytes", "원소 수"),
])
def test_the_peak_check_names_each_measuring_mistake(mistake, english, korean):
    said(check.live_peak(lambda variant, size, steps: loop(variant, size, steps, **mistake)), english, korean=korean)


def test_the_peak_check_names_a_loop_that_never_donates():
    said(check.live_peak(lambda variant, size, steps: solution_peak("copy", size, steps)), "two states too",
         korean="기부하는 쪽도 두 벌")
    said(check.live_peak(lambda variant, size, steps: loop_live_peak(variant, size, steps)), "dict",
         korean="수 하나")


def test_the_check_leaves_no_array_of_its_own_alive():
    before = live_bytes()
    check.live_peak(solution_peak)
    assert live_bytes() <= before
