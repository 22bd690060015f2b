"""The exercise check of "Loops under jit" (``examples/check_control_flow.py``): it passes the
solution's functions and names what is wrong with a known-wrong answer, in Korean and in English."""

from __future__ import annotations

from check_control_flow import check
from loop_compile import count_eqns, make_loop
from readers_checks import said


def test_the_solution_passes():
    assert check.loops(make_loop).ok
    assert check.count_eqns(count_eqns).ok


def test_loops_names_a_wrong_trip_count_a_missing_unroll_and_a_loop_in_disguise():
    said(check.loops(lambda way, n: make_loop(way, n - 1 if way == "fori_loop" else n)),
         "fori_loop", "applied 12 times, not 13", korean="12번")
    said(check.loops(lambda way, n: make_loop("scan" if way == "scan unroll=8" else way, n)),
         "unroll=1", "pass unroll=8", korean="unroll=8")
    said(check.loops(lambda way, n: make_loop("python loop", n)), "the jaxpr of fori_loop", "grows with n",
         korean="n과 함께")
    said(check.loops(lambda way, n: make_loop("scan", n)), "the Python loop's jaxpr holds a scan", korean="펼쳐")
    said(check.loops(lambda way, n: lambda x: x), "off by", korean="다릅니다")
    said(check.loops(lambda way, n: 1 / 0), "raised ZeroDivisionError", korean="ZeroDivisionError")


def test_count_eqns_names_a_count_without_loop_bodies_or_without_the_loop():
    said(check.count_eqns(lambda jaxpr: len(jaxpr.jaxpr.eqns)), "only the top-level equations", korean="최상위 식만")
    said(check.count_eqns(lambda jaxpr: count_eqns(jaxpr) - sum(e.primitive.name == "scan" for e in jaxpr.jaxpr.eqns)),
         "not the loop's own equation", korean="반복문 식 자체")
    said(check.count_eqns(lambda jaxpr: count_eqns(jaxpr) + 1), "where", korean="맞는 값")
    said(check.count_eqns(lambda jaxpr: "many"), "not a whole number", korean="정수")
