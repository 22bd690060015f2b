"""Two Pallas kernels, a fused elementwise one and a tiled matrix product, and the exercise of the
lesson "Writing kernels with Pallas": the tiled product for non-square matrices and tiles.

``matmul`` follows the pattern of JAX's Pallas matmul guide: a grid of ``(M/bm, N/bn, K/bk)``
programs; program ``(i, j, k)`` gets the tile ``(i, k)`` of ``x`` and ``(k, j)`` of ``y`` and adds
their product, in float32, into the output tile ``(i, j)``, which it zeroes when ``k == 0``. Every
tile size must divide its dimension: a tile that runs past the edge of the array would read values
Pallas leaves undefined into the sum, so ``matmul`` refuses it.

The program multiplies an ``(M, K)`` by a ``(K, N)`` bfloat16 matrix with several tilings, checks
each product against ``jnp.dot`` (float32 accumulation), prints the grid and the largest error, and
shows that a tiling that does not divide is refused. Pallas runs in interpret mode here
(``interpret=True``), which works on every backend, the CPU included: it checks the model, not
the speed.

    python examples/pallas_kernels.py --m 192 --k 320 --n 128
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from timing import machine  # noqa: E402

# The largest |difference| allowed against jnp.dot, relative to the largest |entry| of the product:
# both sum exact bfloat16 products in float32, only in a different order.
RELATIVE_TOLERANCE = 1e-5


def silu_add_kernel(x_ref, y_ref, o_ref):
    """One program's block: ``x * sigmoid(x) + y``, read once, written once."""
    x = x_ref[...]
    o_ref[...] = x / (1 + jnp.exp(-x)) + y_ref[...]


def silu_add(x, y, *, block: int, interpret: bool = True):
    """``x * sigmoid(x) + y`` for vectors, one program per ``block`` elements.

    >>> x = jnp.linspace(-4.0, 4.0, 256)
    >>> bool(jnp.allclose(silu_add(x, x, block=64), jax.nn.silu(x) + x, rtol=1e-6, atol=1e-6))
    True
    """
    (n,) = x.shape
    if n % block:
        raise ValueError(f"block {block} does not divide the length {n}")
    spec = pl.BlockSpec((block,), lambda i: (i,))
    return pl.pallas_call(silu_add_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          grid=(n // block,), in_specs=[spec, spec], out_specs=spec,
                          interpret=interpret)(x, y)


def matmul_kernel(x_ref, y_ref, z_ref):
    """Program ``(i, j, k)``: add the product of one tile of x and one of y into tile (i, j) of z."""
    @pl.when(pl.program_id(2) == 0)
    def _():
        z_ref[...] = jnp.zeros_like(z_ref)

    z_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)


def matmul(x, y, *, bm: int, bk: int, bn: int, interpret: bool = True):
    """``x @ y`` in float32 from tiles of ``(bm, bk)`` and ``(bk, bn)``; each tile size must divide.

    >>> x = jnp.ones((32, 48), jnp.bfloat16); y = jnp.ones((48, 16), jnp.bfloat16)
    >>> z = matmul(x, y, bm=16, bk=16, bn=8)
    >>> z.shape, z.dtype, float(z[0, 0])
    ((32, 16), dtype('float32'), 48.0)
    >>> matmul(x, y, bm=16, bk=20, bn=8)
    Traceback (most recent call last):
    ...
    ValueError: the tile (16, 20, 8) does not divide (M, K, N) = (32, 48, 16)
    """
    (m, k), (_, n) = x.shape, y.shape
    if m % bm or k % bk or n % bn:
        raise ValueError(f"the tile {(bm, bk, bn)} does not divide (M, K, N) = {(m, k, n)}")
    return pl.pallas_call(
        matmul_kernel,
        out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32),
        grid=(m // bm, n // bn, k // bk),
        in_specs=[pl.BlockSpec((bm, bk), lambda i, j, k: (i, k)),
                  pl.BlockSpec((bk, bn), lambda i, j, k: (k, j))],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, k: (i, j)),
        interpret=interpret,
    )(x, y)


def relative_error(got, want) -> float:
    """The largest |got − want| over the largest |want|.

    >>> relative_error(jnp.array([1.0, 2.0]), jnp.array([1.0, 4.0]))
    0.5
    """
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return float(np.abs(got - want).max() / np.abs(want).max())


def check_tilings(m: int, k: int, n: int, tilings) -> list[dict]:
    """Multiply random (m, k) and (k, n) bfloat16 matrices with each tiling ``(bm, bk, bn)``.

    >>> rows = check_tilings(32, 64, 16, [(16, 32, 8), (32, 24, 16)])
    >>> [(r["grid"], r["ok"], r["refused"]) for r in rows]
    [((2, 2, 2), True, False), (None, False, True)]
    """
    kx, ky = jax.random.split(jax.random.key(0))
    x = jax.random.normal(kx, (m, k), jnp.bfloat16)
    y = jax.random.normal(ky, (k, n), jnp.bfloat16)
    want = jnp.dot(x, y, preferred_element_type=jnp.float32)
    rows = []
    for bm, bk, bn in tilings:
        row = {"tile": (bm, bk, bn), "grid": None, "programs": None, "error": None, "ok": False, "refused": False}
        try:
            got = jax.jit(matmul, static_argnames=("bm", "bk", "bn"))(x, y, bm=bm, bk=bk, bn=bn)
        except ValueError:
            row["refused"] = True
        else:
            row["grid"] = (m // bm, n // bn, k // bk)
            row["programs"] = int(np.prod(row["grid"]))
            row["error"] = relative_error(got, want)
            row["ok"] = row["error"] <= RELATIVE_TOLERANCE
        rows.append(row)
    return rows


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--m", type=int, default=192, help="rows of x and of the product")
    parser.add_argument("--k", type=int, default=320, help="columns of x, rows of y")
    parser.add_argument("--n", type=int, default=128, help="columns of y and of the product")
    args = parser.parse_args(argv)
    m, k, n = args.m, args.k, args.n
    tilings = [(m // 2, k // 5, n // 2), (m // 3, k // 2, n), (m // 6, k // 10, n // 4), (m // 2, 48, n // 2)]
    print(machine(), "| interpret mode")
    print(f"x: ({m}, {k}) bfloat16 @ y: ({k}, {n}) bfloat16 -> ({m}, {n}) float32")
    rows = check_tilings(m, k, n, tilings)
    for row in rows:
        tile = "(bm, bk, bn) = ({}, {}, {})".format(*row["tile"])
        if row["refused"]:
            print(f"{tile}: refused, a tile size does not divide its dimension")
        else:
            print(f"{tile}: grid (M/bm, N/bn, K/bk) = {row['grid']}, {row['programs']} programs, "
                  f"relative error {row['error']:.1e} -> {'ok' if row['ok'] else 'WRONG'}")
    return rows


if __name__ == "__main__":
    tiling_rows = main()
