"""Check your answer to the exercise of "Pytrees": import its ``check``, then

    from check_pytrees import check
    check.tree_update(your_step)

``your_step(params, grads)`` should return the SGD step ``p - lr * g`` for every leaf, with
``lr = tree_update.LEARNING_RATE``, in the structure of ``params``. The check calls it on a tree of
its own (layers of ``w`` and ``b``, float32 vectors) and compares every leaf; it works for a jitted
step and for a loop over the leaves alike. How fast the two are is for the lesson's measurement to
say, not for the check.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, close, right, run_reader, same_structure, wrong  # noqa: E402
from tree_update import LEARNING_RATE, make_tree  # noqa: E402

TOLERANCE = 1e-6  # relative and absolute: float32 rounding of p - lr * g is far below it


def tree_update(step, n_leaves: int = 6, size: int = 5):
    """Check ``step(params, grads)`` against ``p - LEARNING_RATE * g``, leaf by leaf, in float64."""
    params, grads = make_tree(n_leaves, size, seed=1), make_tree(n_leaves, size, seed=2)
    want = {layer: {name: np.asarray(p, np.float64) - LEARNING_RATE * np.asarray(grads[layer][name], np.float64)
                    for name, p in leaves.items()} for layer, leaves in params.items()}
    got, problem = run_reader(step, params, grads)
    if problem is not None:
        return problem
    shape = same_structure(got, want, "갱신한 매개변수", "the updated parameters")
    if not shape.ok:
        return shape
    dtypes = sorted({str(np.asarray(leaf).dtype) for leaf in jax.tree.leaves(got)})
    if dtypes != ["float32"]:
        return wrong(f"갱신한 매개변수의 자료형이 {', '.join(dtypes)}입니다. 매개변수처럼 float32여야 합니다",
                     f"the updated parameters are {', '.join(dtypes)}: like the parameters, they should be float32")
    values = close(got, want, "갱신한 매개변수", "the updated parameters", rtol=TOLERANCE, atol=TOLERANCE)
    if not values.ok:
        sign = close(got, _plus(params, grads), "값", "the values", rtol=TOLERANCE, atol=TOLERANCE)
        if sign.ok:
            return wrong(f"{values.ko}. p + lr * g와 같습니다. 기울기의 반대 방향으로 움직이세요",
                         f"{values.en}; they match p + lr * g: step against the gradient")
        return values
    return right(f"갱신한 매개변수의 구조, 자료형(float32), 값이 모두 맞습니다"
                 f"(허용 범위: 상대와 절대 모두 {TOLERANCE:g})",
                 f"the updated parameters: the right structure, dtype float32 and values (within {TOLERANCE:g} "
                 "relative and absolute)")


def _plus(params, grads):
    return {layer: {name: np.asarray(p, np.float64) + LEARNING_RATE * np.asarray(grads[layer][name], np.float64)
                    for name, p in leaves.items()} for layer, leaves in params.items()}


check = checks(tree_update=tree_update)
