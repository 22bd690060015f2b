"""Check your answer to the exercise of "Writing kernels with Pallas": import its ``check``, then

    from check_pallas import check
    check.tiled_matmul(your_matmul)

``your_matmul(x, y, bm=..., bk=..., bn=...)`` should multiply an (M, K) by a (K, N) bfloat16 matrix
with a Pallas kernel (``pl.pallas_call``) on the grid ``(M/bm, N/bn, K/bk)``, accumulate in float32,
return the (M, N) float32 product, and refuse (raise an error for) a tile that does not divide its
dimension. A function that requires ``interpret``, like the lesson's ``matmul``, gets
``interpret=True``, which runs on any backend.

The check traces it to read the grid of its ``pallas_call``, runs it once with rectangular tiles on
small matrices of its own, compares with the exact product of the bfloat16 values (NumPy, float64),
and calls it with a ``bk`` that does not divide K. It recognises an output tile not zeroed before the
first K block, a tile overwritten instead of added to, and a product summed in bfloat16.
"""

from __future__ import annotations

import functools
import inspect
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.extend.core import jaxprs_in_params

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, right, run_reader, wrong  # noqa: E402

M, K, N = 96, 64, 32
TILE = {"bm": 32, "bk": 16, "bn": 16}  # rectangular tiles; the grid (3, 2, 4) has a different size on each axis
REFUSED = {"bm": 32, "bk": 24, "bn": 16}  # 24 does not divide K = 64
TOLERANCE = 1e-4  # relative to the largest entry: float32 sums of exact bfloat16 products differ by ~1e-6


def _matrices():
    rng = np.random.default_rng(7)
    x = jnp.asarray(rng.standard_normal((M, K)), jnp.bfloat16)
    y = jnp.asarray(rng.standard_normal((K, N)), jnp.bfloat16)
    return x, y


def _grids(jaxpr) -> list[tuple[int, ...]]:
    """The grid of every ``pallas_call`` in ``jaxpr``, nested ones (under ``jit``) included."""
    grids = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "pallas_call":
            grids.append(tuple(eqn.params["grid_mapping"].grid))
        for sub in jaxprs_in_params(eqn.params):
            grids += _grids(sub)
    return grids


def _grid(matmul, x, y):
    """Whether ``matmul`` calls ``pallas_call`` on the grid (M/bm, N/bn, K/bk); a Result either way."""
    want = (M // TILE["bm"], N // TILE["bn"], K // TILE["bk"])
    traced, problem = run_reader(jax.make_jaxpr(lambda a, b: matmul(a, b, **TILE)), x, y)
    if problem is not None:
        return problem
    grids = _grids(traced.jaxpr)
    tiles = f"(bm, bk, bn) = ({TILE['bm']}, {TILE['bk']}, {TILE['bn']})"
    if not grids:
        return wrong("함수가 pl.pallas_call을 부르지 않습니다. 이 연습 문제는 Pallas 커널로 곱을 계산합니다",
                     "your function calls no pl.pallas_call: the exercise computes the product with a Pallas kernel")
    if grids[0] != want:
        if sorted(grids[0]) == sorted(want):
            why_ko = (". K 방향이 마지막(가장 안쪽) 축이어야 출력 타일 하나가 제자리에 있는 동안 K 블록들이 차례로 "
                      "더해집니다")
            why_en = ("; K must be the last (innermost) axis, so that each output tile stays in place while its K "
                      "blocks add into it")
        else:
            why_ko = why_en = ""
        return wrong(f"그리드가 다릅니다. {tiles}에서 받은 그리드는 {grids[0]}, 맞는 그리드는 "
                     f"(M/bm, N/bn, K/bk) = {want}입니다{why_ko}",
                     f"the grid is {grids[0]} for {tiles}, where (M/bm, N/bn, K/bk) = {want} is right{why_en}")
    return right(f"그리드가 맞습니다({tiles}에서 {want}, 프로그램 {int(np.prod(want))}개)",
                 f"the grid is right: {want} for {tiles}, {int(np.prod(want))} programs")


def _product(matmul, x, y):
    """Whether ``matmul(x, y, **TILE)`` is the float32 product, within ``TOLERANCE``; a Result either way."""
    exact = np.asarray(x, np.float64) @ np.asarray(y, np.float64)
    got, problem = run_reader(matmul, x, y, **TILE)
    if problem is not None:
        return problem
    got_shape, got_dtype = np.shape(got), getattr(got, "dtype", None)
    if got_shape != exact.shape:
        return wrong(f"곱의 형상이 다릅니다. 받은 형상은 {got_shape}, 맞는 형상은 {exact.shape}입니다",
                     f"the product's shape is {got_shape}, where {exact.shape} is right")
    if got_dtype != jnp.float32:
        return wrong(f"곱의 자료형이 {got_dtype}입니다. float32로 누적해 float32로 돌려주세요"
                     "(out_shape의 dtype과 jnp.dot의 preferred_element_type=jnp.float32)",
                     f"the product is {got_dtype}: accumulate in float32 and return float32 (the dtype of out_shape, "
                     "and preferred_element_type=jnp.float32 in jnp.dot)")
    got = np.asarray(got, np.float64)
    scale = np.abs(exact).max()
    if np.isnan(got).any():
        return wrong("곱에 NaN이 있습니다. 첫 K 블록 전에 출력 타일을 0으로 채우세요"
                     "(pl.when(pl.program_id(2) == 0)). 인터프리트 모드는 채우지 않은 출력을 NaN으로 둡니다",
                     "the product has NaNs: zero the output tile before the first K block "
                     "(pl.when(pl.program_id(2) == 0)); interpret mode leaves an output it never wrote as NaN")
    error = float(np.abs(got - exact).max() / scale)
    if error <= TOLERANCE:
        return right(f"곱이 맞습니다(가장 큰 원소에 대한 상대 오차 {error:.1e}, 허용 범위 {TOLERANCE:g})",
                     f"the product is right (relative error {error:.1e} of the largest entry; allowed: {TOLERANCE:g})")
    ko = f"곱이 다릅니다. 가장 큰 원소에 대한 상대 오차는 허용 범위({TOLERANCE:g})보다 큰 {error:.1e}입니다"
    en = f"the product is off: relative error {error:.1e} of the largest entry, where {TOLERANCE:g} is allowed"
    bk = TILE["bk"]
    last_block = np.asarray(x, np.float64)[:, -bk:] @ np.asarray(y, np.float64)[-bk:, :]
    if np.abs(got - last_block).max() <= TOLERANCE * scale:
        return wrong(f"{ko}. 마지막 K 블록의 곱과 같습니다. 출력 타일에 대입(=)하지 말고 더하세요(+=)",
                     f"{en}; it is the product of the last K block alone: add into the output tile (+=), "
                     "do not assign (=)")
    if error < 3e-2:
        return wrong(f"{ko}. bfloat16의 반올림만큼의 오차입니다. 커널의 jnp.dot에 "
                     "preferred_element_type=jnp.float32를 주어 float32로 누적하세요",
                     f"{en}, about bfloat16's rounding: accumulate in float32, with "
                     "preferred_element_type=jnp.float32 in the kernel's jnp.dot")
    return wrong(f"{ko}. 인덱스 맵을 보세요. 프로그램 (i, j, k)는 x의 타일 (i, k)와 y의 타일 (k, j)를 받아 "
                 "출력 타일 (i, j)에 더합니다",
                 f"{en}; look at the index maps: program (i, j, k) takes tile (i, k) of x and tile (k, j) of y, "
                 "and adds into output tile (i, j)")


def _refuses(matmul, x, y):
    """Whether ``matmul`` raises for a ``bk`` that does not divide K; a Result either way."""
    tiles = f"bk = {REFUSED['bk']}"
    _, problem = run_reader(matmul, x, y, **REFUSED)
    if problem is not None:
        return right(f"{tiles}인 타일은 K = {K}의 약수가 아니어서 거부합니다",
                     f"a tile with {tiles}, not dividing K = {K}, is refused")
    return wrong(f"{tiles}인 타일은 K = {K}의 약수가 아닌데도 결과를 돌려주었습니다. 배열 밖으로 나간 마지막 K 블록의 "
                 "정해지지 않은 값이 합에 들어가므로, 이런 타일은 거부하세요(오류를 내세요)",
                 f"it returned a result for {tiles}, which does not divide K = {K}: the last K block runs past the "
                 "array and its undefined values go into the sum, so refuse such a tile (raise an error)")


def _interpreted(matmul):
    """``matmul`` with ``interpret=True`` where it requires ``interpret`` (as the lesson's own ``matmul`` does)."""
    try:
        parameter = inspect.signature(matmul).parameters.get("interpret")
    except (TypeError, ValueError):  # no signature to read
        parameter = None
    needed = parameter is not None and parameter.default is inspect.Parameter.empty
    return functools.partial(matmul, interpret=True) if needed else matmul


def tiled_matmul(matmul):
    """Check ``matmul(x, y, bm=, bk=, bn=)``: its grid, its product, and that it refuses a tile that does not divide.

    A ``matmul`` that requires ``interpret``, like the lesson's, is called with ``interpret=True``.
    """
    matmul = _interpreted(matmul)
    x, y = _matrices()
    grid = _grid(matmul, x, y)
    if not grid.ok:
        return grid
    product = _product(matmul, x, y)
    if not product.ok:
        return product
    return all_of(grid, product, _refuses(matmul, x, y))


check = checks(tiled_matmul=tiled_matmul)
