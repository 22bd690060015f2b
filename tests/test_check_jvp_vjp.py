"""The checks of the exercise of "JVP, VJP and Jacobians" (``examples/check_jvp_vjp.py``)."""

from __future__ import annotations

import jax
from check_jvp_vjp import by_hand, check
from jacobian_crossover import f, jacobians, sweep
from readers_checks import said


def test_the_solution_passes_both_checks():
    assert check.jacobians(*jacobians()).ok
    assert check.flops(sweep(256, [4, 16, 64], hidden=8, rounds=6), hidden=8).ok


def test_jacobians_names_the_wrong_mode_the_transpose_and_the_wrong_argument():
    fwd, rev = jacobians()
    said(check.jacobians(jax.jacobian(f, argnums=1), rev), "jacfwd", "7×7", "reverse mode",
         "jax.jacobian is jacrev", korean="역방향 모드")
    said(check.jacobians(fwd, jax.jit(jax.jacfwd(f, argnums=1))), "jacrev", "3×3", "forward mode", korean="순방향 모드")
    said(check.jacobians(lambda p, x: fwd(p, x).T, rev), "transposed", korean="전치")
    said(check.jacobians(jax.jacfwd(f), rev), "argnums=1", korean="argnums=1")
    said(check.jacobians(lambda p, x: 2 * fwd(p, x), rev), "jacfwd's Jacobian of the tall g", "off by",
         korean="야코비 행렬이 최대")


def test_flops_names_swapped_counts_millions_and_an_uncounted_program():
    n, m, hidden = 4, 64, 8
    right = by_hand(n, m, hidden)
    assert right == {"jacfwd": 4416, "jacrev": 69696}
    said(check.flops([(n, m, right["jacrev"], right["jacfwd"])], hidden), "swapped", korean="뒤바뀌었습니다")
    said(check.flops([(n, m, right["jacfwd"] / 1e6, right["jacrev"] / 1e6)], hidden), "MFLOP", korean="MFLOP")
    said(check.flops([(n, m, -1, right["jacrev"])], hidden), "counted is False", korean="손으로 센 값")
    said(check.flops([(n, m, right["jacfwd"] / 2, right["jacrev"] / 2)], hidden), "a multiply-add is 2 FLOPs",
         korean="2 FLOP")
    said(check.flops(5, hidden), "each row should be", korean="딕셔너리")
