"""The reader's check of the exercise of "Device memory" (``examples/check_device_memory.py``).

The lesson's ``step_memory`` is defined on its page; here stand-ins with known needs play its part (the
check only reads ``step_memory(batch, remat=...)["peak"]``), and one real compiled step shows that it
works with ``memory_analysis()`` too.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from check_device_memory import check
from readers_checks import said

MIB = 2**20
BUDGET = 48 * MIB


def line_memory(batch, donate=False, remat=False):
    """A need that is a line in the batch: 4 MiB of weights and 16 KiB (8 KiB with remat) per example."""
    return {"peak": 4 * MIB + batch * (8 if remat else 16) * 2**10}


def largest(step_memory, remat, budget=BUDGET):
    """The largest multiple of 64 within the budget, by walking (the answer, found without cleverness)."""
    batch = 64
    while step_memory(batch + 64, remat=remat)["peak"] <= budget:
        batch += 64
    return batch


def test_the_right_answers_pass_with_or_without_counts():
    right = {remat: largest(line_memory, remat) for remat in (False, True)}
    assert right == {False: 2816, True: 5632}
    assert check.largest_batch(right, BUDGET, line_memory).ok
    result = check.largest_batch({remat: (batch, 4) for remat, batch in right.items()}, BUDGET, line_memory)
    assert result.ok and "your search: 4 compiles" in result.en and "컴파일 4번" in result.ko, result


def test_wrong_answers_say_what_to_look_at():
    said(check.largest_batch({False: 2880, True: 5632}, BUDGET, line_memory), "over the budget", "round",
         korean="내림")
    said(check.largest_batch({False: 2752, True: 5632}, BUDGET, line_memory), "the batch 2,816 fits too",
         "step 3", korean="3번")
    said(check.largest_batch({False: 5632, True: 2816}, BUDGET, line_memory), "swapped", korean="뒤바뀌었")
    said(check.largest_batch({False: 2800, True: 5632}, BUDGET, line_memory), "multiples of 64",
         korean="64의 배수")
    said(check.largest_batch([2816, 5632], BUDGET, line_memory), "a dict {False: batch, True: batch}",
         korean="딕셔너리")


def test_a_compiled_step():
    """The lesson's kind of step, small: the check agrees with a walk over memory_analysis()."""
    def block(h, w):
        return h + jnp.tanh(h @ w), None

    def loss(ws, x, remat):
        h, _ = jax.lax.scan(jax.checkpoint(block) if remat else block, x, ws)
        return jnp.mean(h**2)

    def step_memory(batch, donate=False, remat=False):
        step = jax.jit(lambda ws, x: ws - 0.01 * jax.grad(loss)(ws, x, remat))
        m = step.lower(jax.ShapeDtypeStruct((4, 64, 64), jnp.float32),
                       jax.ShapeDtypeStruct((batch, 64), jnp.float32)).compile().memory_analysis()
        return {"peak": m.argument_size_in_bytes + m.output_size_in_bytes - m.alias_size_in_bytes
                + m.temp_size_in_bytes}

    budget = step_memory(256)["peak"]
    right = {remat: largest(step_memory, remat, budget) for remat in (False, True)}
    assert check.largest_batch(right, budget, step_memory).ok
    assert not check.largest_batch({False: right[False] + 64, True: right[True]}, budget, step_memory).ok
