"""The reader's check of the exercise of "How jax.numpy differs from NumPy" (``examples/check_jax_numpy.py``):
it passes the port of ``scale_np`` and names each usual way of getting it wrong, in Korean and in English."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from check_jax_numpy import check
from readers_checks import said


def scale_jnp(x, idx):
    """The exercise's solution, as the lesson's page writes it (the check jits it)."""
    out = x.at[idx].set(0.0)
    return out / jnp.where(out > 0, out, 0.0).sum()


def zeroed(x, idx):
    return jnp.asarray(x).at[idx].set(0.0)


def test_the_solution_passes_and_the_out_of_bounds_index_is_reported():
    result = check.scale_jnp(scale_jnp)
    assert result.ok, result
    assert "float32" in result.en and "drops that write" in result.en and "IndexError" in result.en
    assert "버립니다" in result.ko


def test_an_out_of_bounds_index_is_reported_not_graded():
    def clipping(x, idx):
        out = jnp.asarray(x).at[idx].set(0.0, mode="clip")
        return out / jnp.where(out > 0, out, 0.0).sum()

    result = check.scale_jnp(clipping)
    assert result.ok and "mode='clip'" in result.en, result


def test_what_jit_cannot_trace_is_named():
    said(check.scale_jnp(lambda x, idx: zeroed(x, idx) / zeroed(x, idx)[zeroed(x, idx) > 0].sum()),
         "NonConcreteBooleanIndexError", "mask instead", korean="jnp.where로 가리세요")

    def in_place(x, idx):
        out = jnp.asarray(x)
        out[idx] = 0.0
        return out

    said(check.scale_jnp(in_place), "cannot be assigned in place", ".at[idx].set", korean="제자리 대입")
    said(check.scale_jnp(lambda x, idx: zeroed(x, idx) / zeroed(x, idx)[jnp.nonzero(zeroed(x, idx) > 0)].sum()),
         "give size=", korean="size=")
    said(check.scale_jnp(lambda x, idx: np.asarray(x)), "use jnp instead of np", korean="jnp를 쓰세요")


def test_the_usual_wrong_sums_are_named():
    said(check.scale_jnp(lambda x, idx: zeroed(x, idx) / zeroed(x, idx).sum()), "off by", "sum of all entries",
         korean="모든 원소의 합")
    said(check.scale_jnp(lambda x, idx: zeroed(x, idx) / jnp.where(x > 0, x, 0.0).sum()), "before idx was set to 0",
         korean="바꾸기 전의")
    said(check.scale_jnp(lambda x, idx: x / jnp.where(x > 0, x, 0.0).sum()), "leaving the entries at idx",
         korean="0으로 바꾸지 않은")
    said(check.scale_jnp(lambda x, idx: scale_jnp(x, idx)[:-1]), "shape should be (7,)", korean="(6,)")
