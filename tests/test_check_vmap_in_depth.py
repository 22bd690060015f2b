"""The reader's check of the exercise of "vmap in depth" (``examples/check_vmap_in_depth.py``)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from check_vmap_in_depth import check
from pairwise_distances import WAYS, dist, make, row_distances
from readers_checks import said


def test_the_solutions_four_ways_pass():
    assert all(check.distances(make(way)).ok for way in WAYS)


def test_the_matmul_way_passes():
    """|x|² + |y|² − 2 x·y: right, within the tolerance left for a GPU's TF32."""
    gram = lambda x, y: jnp.sum(x**2, 1)[:, None] + jnp.sum(y**2, 1)[None] - 2 * x @ y.T  # noqa: E731
    assert check.distances(lambda x, y: jnp.sqrt(jnp.maximum(gram(x, y), 0))).ok


def test_swapped_in_axes_are_named():
    said(check.distances(jax.vmap(jax.vmap(dist, (0, None)), (None, 0))), "(7, 5)", "swapped", korean="바뀌었습니다")


def test_the_usual_slips_are_named():
    said(check.distances(lambda x, y: jnp.sum((x[:, None] - y[None]) ** 2, -1)), "squared distances",
         korean="제곱근")
    said(check.distances(lambda x, y: (x[:, None] - y[None]) ** 2), "(5, 7, 4)", "last axis", korean="마지막 축")
    said(check.distances(lambda x, y: jnp.sum(jnp.abs(x[:, None] - y[None]), -1)), "L1", korean="L1")
    said(check.distances(lambda x, y: jax.vmap(row_distances, (0, None))(x, x)), "x to itself", korean="점끼리")
    said(check.distances(lambda x, y: x), "(5, 4)", korean="형상")
