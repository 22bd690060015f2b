"""The reader's check of the exercise of "Precision and dtypes" (``examples/check_precision.py``)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from accumulation_error import ACCUMULATORS, first_wrong_count, running_sums
from check_precision import check
from readers_checks import said


def scan_sums(values, start, dtype, carry=None, record=None, behind=False):
    """A running sum by lax.scan, with the mistakes readers make: the carry in another dtype, the sums recorded
    in another, or the total before each addition recorded."""
    def add(total, value):
        new = total + value.astype(total.dtype)
        return new, (total if behind else new).astype(record or new.dtype)

    return jax.lax.scan(add, jnp.asarray(start, carry or dtype), jnp.asarray(values))[1]


def test_the_solution_passes():
    counts = {dtype: first_wrong_count(dtype)["measured"] for dtype in ACCUMULATORS}
    assert check.first_wrong_counts(counts).ok
    assert check.running_sums(running_sums).ok
    assert check.running_sums(jax.jit(running_sums, static_argnums=2)).ok
    assert check.running_sums(scan_sums).ok


def test_wrong_counts_name_the_bit_they_miss():
    said(check.first_wrong_counts({"bfloat16": 256, "float16": 2049, "float32": 2**24 + 1}),
         "bfloat16: 257, not 256", "every integer up to 2^8 is exact", korean="2^8까지의 정수")
    said(check.first_wrong_counts({"bfloat16": 129, "float16": 2049, "float32": 2**24 + 1}),
         "p is nmant + 1", korean="nmant + 1")
    said(check.first_wrong_counts({"bfloat16": 257}), 'a dict {"bfloat16": n', korean="딕셔너리")


def test_wrong_running_sums_name_the_mistake():
    said(check.running_sums(lambda v, s, d: scan_sums(v, s, d, carry="float32", record=d)),
         "a total carried in float32", korean="carry의 자료형")
    said(check.running_sums(lambda v, s, d: scan_sums(v, s, d, carry="float32")), "a float32 accumulation",
         korean="float32로 누적")
    said(check.running_sums(lambda v, s, d: scan_sums(v, s, d, behind=True)), "one step behind",
         korean="한 칸씩")
    said(check.running_sums(lambda v, s, d: scan_sums(v, 0, d)), "started from 0", korean="0에서 시작")
    said(check.running_sums(lambda v, s, d: scan_sums(v, s, d)[-1]), "the shape should be (512,)",
         "every partial sum", korean="(512,)")
    said(check.running_sums(lambda v, s, d: jnp.asarray(s, d) + jnp.cumsum(jnp.asarray(v).astype(d))),
         "no lax.scan", korean="lax.scan")
    said(check.running_sums(lambda v, s: v), "raised TypeError", korean="TypeError")
