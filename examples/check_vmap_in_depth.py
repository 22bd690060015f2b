"""Check your answer to the exercise of "vmap in depth": import its ``check``, then

    from check_vmap_in_depth import check
    check.distances(your_distances)

Step 1 of the exercise: ``your_distances(x, y)`` returns the Euclidean distance between every row
of ``x`` (n × d, float32) and every row of ``y`` (m × d): an n × m array whose element [i, j] is
the distance from ``x[i]`` to ``y[j]``. Check each of your four ways (the Python loop, ``vmap``,
``vmap(vmap)``, broadcasting). The check calls it on points of its own, with n and m different so
that swapped axes show, and compares with NumPy in float64. How fast each way is, and what XLA
made of it, is for the lesson's measurements to say, not for the check.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import as_array, checks, close, right, run_reader, wrong  # noqa: E402

N, M, D = 5, 7, 4
RTOL = ATOL = 1e-3   # float32, and room for a GPU's TF32 matmuls (the |x|² + |y|² − 2 x·y way)


def check_points(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """x (N × D) and y (M × D), float64 holding float32 values."""
    rng = np.random.default_rng(seed)
    x, y = rng.uniform(-1, 1, (N, D)), rng.uniform(-1, 1, (M, D))
    return x.astype(np.float32).astype(np.float64), y.astype(np.float32).astype(np.float64)


def distances(function):
    """Check ``function(x, y)`` against the n × m Euclidean distances, computed with NumPy in float64."""
    x, y = check_points()
    got, problem = run_reader(function, jnp.asarray(x, jnp.float32), jnp.asarray(y, jnp.float32))
    if problem is not None:
        return problem
    got, problem = as_array(got, "n × m 배열", "an n × m array")
    if problem is not None:
        return problem
    differences = x[:, None, :] - y[None, :, :]
    want = np.sqrt((differences**2).sum(-1))
    where = (f"x는 {N} × {D}, y는 {M} × {D}이므로 결과의 형상(shape)은 ({N}, {M})이어야 하는데, 받은 형상은 "
             f"{got.shape}입니다",
             f"x is {N} × {D} and y is {M} × {D}, so the result's shape should be ({N}, {M}), not {got.shape}")
    if got.shape == (M, N) and np.allclose(got, want.T, rtol=RTOL, atol=ATOL):
        return wrong(f"{where[0]}. 행과 열이 바뀌었습니다. [i, j]는 x[i]와 y[j]의 거리입니다. "
                     "바깥 vmap이 x의 행을, 안쪽 vmap이 y의 행을 돌게 하세요(vmap(vmap(dist, (None, 0)), (0, None)))",
                     f"{where[1]}: rows and columns are swapped. Element [i, j] is the distance from x[i] to y[j]: "
                     "the outer vmap maps over x, the inner over y (vmap(vmap(dist, (None, 0)), (0, None)))")
    if got.shape == (N, M, D):
        return wrong(f"{where[0]}. 좌표 d개의 축이 남아 있습니다. 차이의 제곱을 마지막 축(axis=-1)으로 "
                     "더한 뒤 제곱근을 구하세요",
                     f"{where[1]}: the axis of the d coordinates is left. Sum the squared differences over the last "
                     "axis (axis=-1), then take the square root")
    if got.shape == (N, N) and np.allclose(got, np.sqrt(((x[:, None] - x[None]) ** 2).sum(-1)), rtol=RTOL, atol=ATOL):
        return wrong(f"{where[0]}. x의 점끼리의 거리입니다. 두 번째 점 집합으로 y를 쓰세요",
                     f"{where[1]}: those are the distances of x to itself; use y as the second set of points")
    if got.shape != want.shape:
        return wrong(where[0], where[1])
    result = close(got, want, "거리", "the distances", rtol=RTOL, atol=ATOL)
    if result.ok:
        return right(f"{N} × {M}개의 거리가 맞습니다(NumPy float64와 비교, 허용 범위 상대 {RTOL:g}, 절대 {ATOL:g})",
                     f"the {N} × {M} distances are right (against NumPy in float64, within {RTOL:g} relative, "
                     f"{ATOL:g} absolute)")
    for other, ko, en in (
        (want**2, "거리의 제곱과 같습니다. 제곱근을 구하세요",
         "they match the squared distances: take the square root"),
        (np.abs(differences).sum(-1), "차이의 절댓값의 합(L1 거리)과 같습니다. 차이를 제곱해 더한 뒤 제곱근을 구하세요",
         "they match the sum of |differences| (the L1 distance): square the differences, sum, take the root"),
        (np.sqrt((x**2).sum(-1))[:, None] - np.sqrt((y**2).sum(-1))[None, :],
         "두 점의 길이의 차와 같습니다. 차이 벡터의 길이를 구하세요",
         "they match the difference of the two points' lengths: take the length of the difference vector"),
    ):
        if np.allclose(got, other, rtol=RTOL, atol=ATOL):
            return wrong(f"{result.ko}. {ko}", f"{result.en}; {en}")
    return result


check = checks(distances=distances)
