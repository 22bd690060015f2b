"""The reader's check of the exercise of "Profiling and compile time" (``examples/check_profiling.py``)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest
from check_profiling import check
from readers_checks import said
from trace_summary import layer_norm, record


@pytest.fixture(scope="module")
def traces():
    """Three warm calls op by op and under jit, as the solution records them, and the same jitted call cold."""
    x = jax.random.normal(jax.random.key(0), (256, 256))
    scale, bias = jnp.ones(256), jnp.zeros(256)
    fused = jax.jit(layer_norm)
    for fn in (layer_norm, fused):
        fn(x, scale, bias).block_until_ready()    # compile first
    cold = jax.jit(lambda x, scale, bias: layer_norm(x, scale, bias))   # a new function: compiled in the trace
    return {"op by op": record(lambda: layer_norm(x, scale, bias)), "jit": record(lambda: fused(x, scale, bias)),
            "one call": record(lambda: fused(x, scale, bias), repeats=1), "cold": record(lambda: cold(x, scale, bias))}


def test_the_solutions_traces_pass(traces):
    result = check.traces(traces["op by op"], traces["jit"])
    assert result.ok, result
    assert "one dispatch of PjitFunction(layer_norm) per call" in result.en and "not graded" in result.en, result.en


def test_wrong_traces_say_what_to_look_at(traces):
    said(check.traces(traces["jit"], traces["op by op"]), "swapped", korean="뒤바뀌었")
    said(check.traces(traces["op by op"], traces["op by op"]), "the jit trace dispatches", "jax.jit(layer_norm)",
         korean="jax.jit(layer_norm)")
    said(check.traces(traces["jit"], traces["jit"]), "the trace without jit also dispatches one function only",
         korean="jit 없이")
    said(check.traces(traces["op by op"], traces["one call"]), "holds 1 call of PjitFunction(layer_norm)",
         "record 3", korean="3번")
    said(check.traces(traces["op by op"], traces["cold"]), "1 compilation", "call once before recording",
         korean="컴파일")
    said(check.traces(traces["op by op"], None), "the list of events record returned", korean="record")
