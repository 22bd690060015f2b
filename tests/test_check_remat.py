"""The check of the exercise of "Rematerialization" (``examples/check_remat.py``)."""

from __future__ import annotations

import jax
import numpy as np
import pytest
from check_remat import check, reference_gradient
from readers_checks import said
from remat_policies import init, make_loss, make_steps


@pytest.fixture(scope="module")
def setup():
    """The solution's five steps, and small weights and input they have run on (compiled once)."""
    weights, x = init(depth=3, width=8, hidden=32, batch=8)
    steps = make_steps()
    for step in steps.values():
        jax.block_until_ready(step(weights, x))
    return steps, weights, x


def numpy_gradient(weights, x):
    """The same backward pass in float64 NumPy: the check's reference, checked."""
    w1, w2 = (np.asarray(w, np.float64) for w in weights)
    h, saved = np.asarray(x, np.float64), []
    c = np.sqrt(2 / np.pi)
    for layer in range(w1.shape[0]):
        a = h @ w1[layer]
        t = np.tanh(c * (a + 0.044715 * a**3))
        z, dz = 0.5 * a * (1 + t), 0.5 * (1 + t) + 0.5 * a * (1 - t**2) * c * (1 + 3 * 0.044715 * a**2)
        saved.append((h, z, dz))
        h = h + z @ w2[layer]
    dh, g1, g2 = 2 * h / h.size, np.zeros_like(w1), np.zeros_like(w2)
    for layer in reversed(range(w1.shape[0])):
        h_in, z, dz = saved[layer]
        g2[layer] = z.T @ dh
        da = (dh @ w2[layer].T) * dz
        g1[layer] = h_in.T @ da
        dh = dh + da @ w1[layer].T
    return g1, g2


def test_the_reference_is_the_gradient(setup):
    _, weights, x = setup
    for got, want in zip(reference_gradient(weights, x), numpy_gradient(weights, x), strict=True):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-6)
    for got, want in zip(reference_gradient(weights, x), jax.grad(make_loss("plain"))(weights, x), strict=True):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-4, atol=1e-6)


def test_the_solution_passes(setup):
    assert check.steps(*setup).ok


def test_policy_mistakes_are_named(setup):
    steps, weights, x = setup
    said(check.steps(dict(steps, names=steps["nothing"]), weights, x), 'checkpoint_name(..., "hidden")',
         korean="이름을 붙였는지")
    said(check.steps(dict(steps, plain=steps["nothing"]), weights, x), "plain is the body without jax.checkpoint",
         korean="감싸지 않은 본문")
    said(check.steps(dict(steps, dots=steps["nothing"]), weights, x), "dots recomputes a matrix multiplication",
         korean="다시 계산합니다")
    said(check.steps(dict(steps, nothing=steps["dots"]), weights, x), "nothing recomputes no matrix multiplication",
         korean="다시 계산하지 않습니다")


def test_gradient_mistakes_are_named(setup):
    steps, weights, x = setup
    plain = make_loss("plain")
    total = jax.jit(jax.grad(lambda ws, x: plain(ws, x) * x.size))   # the sum of h ** 2, not its mean
    said(check.steps(dict(steps, dots=total), weights, x), "gradient of the sum", korean="합의 기울기")
    said(check.steps(dict(steps, plain=jax.jit(jax.value_and_grad(plain))), weights, x), "structure",
         korean="구조")
    said(check.steps({"plain": steps["plain"]}, weights, x), "missing: everything", korean="everything")
