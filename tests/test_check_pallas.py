"""The reader's check of the Pallas lesson's exercise (``examples/check_pallas.py``): the program's
``matmul`` passes, and so does the lesson's (which takes ``interpret``); each recognised mistake of a
tiled kernel is named in both languages."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from check_pallas import check
from jax.experimental import pallas as pl
from pallas_kernels import matmul
from readers_checks import said


def zero_then_add(x_ref, y_ref, z_ref):
    @pl.when(pl.program_id(2) == 0)
    def _():
        z_ref[...] = jnp.zeros_like(z_ref)

    z_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)


def add_only(x_ref, y_ref, z_ref):   # never zeroes its output tile
    z_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)


def assign(x_ref, y_ref, z_ref):   # = instead of +=
    z_ref[...] = jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)


def bfloat16_sums(x_ref, y_ref, z_ref):   # each tile's product rounded to bfloat16 before it is added
    @pl.when(pl.program_id(2) == 0)
    def _():
        z_ref[...] = jnp.zeros_like(z_ref)

    z_ref[...] += jnp.dot(x_ref[...], y_ref[...]).astype(jnp.float32)


def bfloat16_out(x_ref, y_ref, z_ref):   # accumulates in a bfloat16 output
    @pl.when(pl.program_id(2) == 0)
    def _():
        z_ref[...] = jnp.zeros_like(z_ref)

    z_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32).astype(z_ref.dtype)


def k_first(x_ref, y_ref, z_ref):   # the grid (K/bk, M/bm, N/bn)
    @pl.when(pl.program_id(0) == 0)
    def _():
        z_ref[...] = jnp.zeros_like(z_ref)

    z_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)


def tiled(kernel, *, refuse=True, out=jnp.float32, order="ijk", interpret_argument=False):
    """A reader's tiled matmul around ``kernel``: ``order`` "kij" puts K first in the grid."""
    def product(x, y, *, bm, bk, bn, interpret):
        (m, k), (_, n) = x.shape, y.shape
        if refuse:
            assert m % bm == 0 and k % bk == 0 and n % bn == 0, "tiles must divide the matrices"
        if order == "ijk":
            grid, x_map, y_map, z_map = ((m // bm, n // bn, k // bk), lambda i, j, k: (i, k),
                                         lambda i, j, k: (k, j), lambda i, j, k: (i, j))
        else:
            grid, x_map, y_map, z_map = ((k // bk, m // bm, n // bn), lambda k, i, j: (i, k),
                                         lambda k, i, j: (k, j), lambda k, i, j: (i, j))
        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((m, n), out), grid=grid,
                              in_specs=[pl.BlockSpec((bm, bk), x_map), pl.BlockSpec((bk, bn), y_map)],
                              out_specs=pl.BlockSpec((bm, bn), z_map), interpret=interpret)(x, y)

    if interpret_argument:
        return product
    return lambda x, y, *, bm, bk, bn: product(x, y, bm=bm, bk=bk, bn=bn, interpret=True)


def test_the_solution_and_the_lessons_matmul_pass():
    assert check.tiled_matmul(matmul).ok
    assert check.tiled_matmul(jax.jit(matmul, static_argnames=("bm", "bk", "bn"))).ok
    result = check.tiled_matmul(tiled(zero_then_add, interpret_argument=True))   # requires interpret, as the lesson's
    assert result.ok and "(3, 2, 4)" in result.en and "24 programs" in result.en and "프로그램 24개" in result.ko


def test_no_kernel_and_the_grid_are_named():
    said(check.tiled_matmul(lambda x, y, **tiles: jnp.dot(x, y, preferred_element_type=jnp.float32)),
         "calls no pl.pallas_call", korean="pl.pallas_call을 부르지 않습니다")
    said(check.tiled_matmul(tiled(k_first, order="kij")), "the grid is (4, 3, 2)", "K must be the last",
         korean="K 방향이 마지막")


def test_the_kernels_mistakes_are_named():
    said(check.tiled_matmul(tiled(add_only)), "NaN", "zero the output tile", korean="0으로 채우세요")
    said(check.tiled_matmul(tiled(assign)), "the last K block alone", "(+=)", korean="더하세요(+=)")
    said(check.tiled_matmul(tiled(bfloat16_sums)), "bfloat16's rounding", "preferred_element_type",
         korean="float32로 누적하세요")
    said(check.tiled_matmul(tiled(bfloat16_out, out=jnp.bfloat16)), "the product is bfloat16", korean="bfloat16")


def test_a_tile_that_does_not_divide_must_be_refused():
    said(check.tiled_matmul(tiled(zero_then_add, refuse=False)), "bk = 24, which does not divide K = 64",
         "raise an error", korean="거부하세요")
