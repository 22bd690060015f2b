"""The reader's check of the exercise of "Composable transformations" (``examples/check_transformations.py``):
it passes both orders of the solution and its counts, and names the usual mistakes, in Korean and in English."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from check_transformations import check
from composition_order import ORDERS, compose, count_work, loss_fn
from readers_checks import said


def test_both_orders_of_the_solution_pass():
    for order in ORDERS:
        result = check.per_example_grads(compose(order))
        assert result.ok and "per-example gradients: right" in result.en, (order, result)


def test_the_usual_wrong_gradients_are_named():
    said(check.per_example_grads(jax.jit(jax.grad(loss_fn))), "one gradient for the whole batch", "vmap over x and y",
         korean="배치 전체에 하나뿐")
    said(check.per_example_grads(jax.vmap(jax.grad(loss_fn))), "rank should be at least 1", "in_axes=(None, 0, 0)",
         korean="in_axes=(None, 0, 0)")
    said(check.per_example_grads(jax.vmap(jax.grad(loss_fn, argnums=1), in_axes=(None, 0, 0))),
         "with respect to x", korean="x에 대한 기울기")
    absolute = jax.vmap(jax.grad(lambda p, x, y: jnp.mean(jnp.abs(x @ p["w"] + p["b"] - y))), in_axes=(None, 0, 0))
    said(check.per_example_grads(absolute), "off by", korean="다릅니다")
    said(check.per_example_grads(lambda p, x, y: [p["w"], p["b"]]), "structure", korean="구조")


def test_the_solutions_counts_pass():
    traces = {order: count_work(order) for order in ORDERS}
    result = check.counts(traces)
    assert result.ok and "all 6 counts over 3 calls" in result.en, result
    without_compiles = {order: {k: v for k, v in counts.items() if k != "compiles"} for order, counts in traces.items()}
    assert check.counts(without_compiles).ok
    assert check.counts({order: count_work(order, calls=5) for order in ORDERS}, calls=5).ok


def test_wrong_counts_are_named_with_what_runs_when():
    traces = {order: count_work(order) for order in ORDERS}
    once = {order: {**counts, "vmap body run": 1} for order, counts in traces.items()}
    said(check.counts(once), "1 of the counts over 3 calls differs", "under vmap(jit), the function vmap receives ran "
         "on every call", "runs again in Python on every call", korean="호출마다 Python에서 다시 실행됩니다")
    every = {order: {**counts, "loss_fn traced": 3} for order, counts in traces.items()}
    said(check.counts(every), "2 of the counts", "loss_fn was traced once", "reuse the program jit cached",
         korean="캐시해 둔")
    said(check.counts({"jit(vmap)": {"vmap body run": 1}}), "should be a dict", korean="딕셔너리")
    said(check.counts([1, 3]), "should be a dict", korean="딕셔너리")
