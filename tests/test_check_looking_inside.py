"""The exercise check of "Looking inside a compiled program" (``examples/check_looking_inside.py``):
it passes the solution's functions and names what is wrong with known-wrong answers, in Korean and
in English."""

from __future__ import annotations

import dataclasses

import check_looking_inside
import jax
from check_looking_inside import check
from compiler_cost import as_dict, xla_cost
from cost_report import bound, compile_kernel, count_fusions, empirical_roofs
from readers_checks import said


def solution_cost(function, args):
    return compile_kernel("kernel", function, args)[1]


def solution_bounds(reports):
    return {r.name: bound(r, empirical_roofs(reports)) for r in reports}


def test_the_solution_passes():
    assert check.kernel_cost(solution_cost).ok
    assert check.bounds(solution_bounds).ok


def read(function, args, fusions=None, before=False, swap=False):
    """(flops, bytes, fusions) as a reader might read them, right by default."""
    lowered = jax.jit(function).lower(*args)
    compiled = lowered.compile()
    cost = xla_cost(compiled)
    flops, nbytes = cost.flops, cost.bytes_accessed
    if before:
        estimate = as_dict(lowered.cost_analysis())
        flops, nbytes = estimate["flops"], estimate["bytes accessed"]
    if swap:
        flops, nbytes = nbytes, flops
    text = compiled.as_text()
    return flops, nbytes, count_fusions(text) if fusions is None else fusions(text)


def test_kernel_cost_names_the_word_count_the_estimate_before_optimization_and_a_swap():
    assert check.kernel_cost(read).ok
    assert check.kernel_cost(lambda f, a: dict(zip(("flops", "bytes_accessed", "fusions"), read(f, a), strict=True))).ok
    said(check.kernel_cost(lambda f, a: read(f, a, fusions=lambda text: text.count("fusion"))),
         "the number of times 'fusion' appears", "ENTRY", korean="ENTRY")
    said(check.kernel_cost(lambda f, a: read(f, a, before=True)), "before optimization",
         "cost_analysis() of lower(...)", korean="최적화 전")
    said(check.kernel_cost(lambda f, a: read(f, a, swap=True)), "swapped", korean="뒤바뀌었습니다")
    said(check.kernel_cost(lambda f, a: 3), "holds no (flops, bytes_accessed, fusions)", korean="튜플")


def test_a_kernel_xla_cannot_count_whole_has_only_its_fusions_compared(monkeypatch):
    """As on a GPU where a kernel becomes a library call: XLA's estimate is not whole (``counted`` False)."""
    def softmax_not_counted(compiled):
        cost = xla_cost(compiled)
        opaque = ("__library_call",) if "exponential" in compiled.as_text() else ()
        return dataclasses.replace(cost, opaque_calls=opaque)

    monkeypatch.setattr(check_looking_inside, "xla_cost", softmax_not_counted)
    result = check.kernel_cost(lambda f, a: (1.0, 2.0, read(f, a)[2]) if "exponential" in
                               jax.jit(f).lower(*a).compile().as_text() else read(f, a))
    assert result.ok, result
    assert "does not count the cost of the softmax whole" in result.en and "소프트맥스의 비용은" in result.ko
    said(check.kernel_cost(lambda f, a: (1.0, 2.0, read(f, a)[2])), "the elementwise chain:", korean="원소별 연산 체인")


def test_bounds_names_a_threshold_of_one_and_bytes_per_flop():
    said(check.bounds(lambda reports: {r.name: "compute" if r.intensity >= 1 else "memory" for r in reports}),
         "1 of 4 wrong: mid", "compared the intensity with 1", korean="1과 견주었습니다")
    said(check.bounds(lambda reports: {r.name: "compute" if r.intensity >= 0.5 else "memory" for r in reports}),
         "bytes per FLOP", korean="FLOP당 바이트")
    said(check.bounds(lambda reports: {r.name: "memory" for r in reports}), "big (10 FLOP/B) is compute-bound",
         "ridge point is 2 FLOP/B", korean="계산 제약")
    said(check.bounds(lambda reports: [r.name for r in reports]), "should return a dict", korean="딕셔너리")
