"""The exercise checks of "XLA and operator fusion" (``examples/check_numpy_on_accelerators.py``)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from check_numpy_on_accelerators import check
from matmul_speedup import benchmark_size
from readers_checks import said
from timing import Comparison


def test_the_solutions_matmul_passes_and_the_usual_slips_are_named():
    assert check.matmul(jax.jit(jnp.matmul)).ok
    assert check.matmul(jax.jit(lambda a, b: a @ b)).ok
    said(check.matmul(jax.jit(lambda a, b: a * b)), "elementwise product", korean="원소별 곱")
    said(check.matmul(jax.jit(lambda a, b: b @ a)), "b @ a", korean="순서")
    said(check.matmul(lambda a, b: a @ b), "not one that jax.jit returned", korean="jax.jit")
    said(check.matmul(jax.jit(lambda a, b: (a @ b).astype(jnp.float16))), "float16", korean="float32")
    said(check.matmul(jax.jit(lambda a, b: a @ b + 1)), "off by up to 1", korean="최대 1만큼")
    said(check.matmul(jax.jit(lambda a, b: a)), "off by", korean="다릅니다")


def test_the_solutions_readings_pass():
    timings = {n: benchmark_size(n, repeats=6) for n in (8, 16)}
    comparisons = {n: t.comparison for n, t in timings.items()}
    readings = {n: c.verdict("jit warm", "numpy").outcome for n, c in comparisons.items()}
    assert check.verdicts(comparisons, readings).ok
    assert check.verdicts(timings, readings).ok   # what holds a Comparison as .comparison will do too


def test_a_reading_against_the_rule_is_named():
    unclear = Comparison({"numpy": [2, 1, 2, 1, 2, 1], "jit warm": [1, 1.5, 1, 1.5, 1, 1.5]})   # jit's median lower
    said(check.verdicts({64: unclear}, {64: "faster"}), "n = 64", "the median times say so", "contains 1",
         korean="구간이 1을 포함하므로")
    faster = Comparison({"numpy": [2.0, 2.1, 1.9, 2.0, 2.2, 2.0], "jit warm": [1.0, 1.1, 0.9, 1.0, 1.2, 1.0]})
    said(check.verdicts({256: faster}, {256: "same"}), "lies below 1", "separated", korean="가려졌습니다")
    said(check.verdicts({256: faster}, {256: "slower"}), "other way round", korean="거꾸로")
    assert check.verdicts({64: unclear, 256: faster}, {64: "same", 256: "faster"}).ok


def test_answers_that_cannot_be_read_are_named():
    faster = Comparison({"numpy": [2.0] * 6, "jit warm": [1.0] * 6})
    said(check.verdicts({64: faster}, {128: "faster"}), "one answer per size", korean="크기마다")
    said(check.verdicts({64: faster}, {64: "fast"}), "'fast'", korean="가운데 하나")
    said(check.verdicts({64: Comparison({"a": [1.0] * 6, "b": [1.0] * 6})}, {64: "same"}), "name them",
         korean="이름")
    said(check.verdicts([faster], ["faster"]), "dicts keyed by the size", korean="딕셔너리")


def test_the_product_is_exact_whatever_the_precision():
    # On a GPU or a TPU this runs the product in reduced precision (bfloat16 inputs): small whole numbers stay exact.
    with jax.default_matmul_precision("bfloat16"):
        assert check.matmul(jax.jit(jnp.matmul)).ok
