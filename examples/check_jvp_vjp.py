"""Check your answer to the exercise of "JVP, VJP and Jacobians": import its ``check``, then

    from check_jvp_vjp import check
    check.jacobians(your_jacfwd, your_jacrev)
    check.flops(your_rows, hidden=HIDDEN)

``your_jacfwd(params, x)`` and ``your_jacrev(params, x)`` (jitted or not) should return the Jacobian
of ``g(x) = W2 @ tanh(W1 @ x)`` with respect to ``x``, an m × n matrix, with ``params = (W1, W2)``,
``W1`` of shape (hidden, n) and ``W2`` of shape (m, hidden): the first built by ``jax.jacfwd``, the
second by ``jax.jacrev``. The check calls both on a tall and a wide ``g`` of its own and compares
them with the Jacobian ``W2 diag(1 - tanh²(W1 x)) W1`` in float64 NumPy; and it looks in each one's
jaxpr for the identity matrix of the basis vectors (``iota``), n × n for forward mode and m × m for
reverse mode, as the lesson did, to tell which one it is.

``your_rows`` holds one row per shape of step 2: ``(n, m, jacfwd_flops, jacrev_flops)``, or a dict
with ``"n"``, ``"m"`` and ``"flops"`` (``{"jacfwd": ..., "jacrev": ...}``, as the solution's results).
``hidden`` is the width of the hidden layer (``HIDDEN`` in the setup cell). Each count, the
compiler's or yours by hand, is compared with the count by hand, W1 x once (2·hidden·n) and then n
JVPs or m VJPs of 2·hidden·(n + m) each, within 20%: the compiler also counts the elementwise work
that the count by hand leaves out, a little on the page's shapes, more on very small ones.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import Result, all_of, checks, close, right, run_reader, wrong  # noqa: E402

SHAPES = {"tall": (3, 7), "wide": (7, 3)}   # (n, m): fewer inputs than outputs, then more
CHECK_HIDDEN = 5
FLOP_TOLERANCE = 0.2
MODES = {"jacfwd": ("순방향", "forward", "n"), "jacrev": ("역방향", "reverse", "m")}


def _problem(n: int, m: int, hidden: int = CHECK_HIDDEN, seed: int = 0):
    """Weights (float32), a point x, and the Jacobian of g at x in float64."""
    rng = np.random.default_rng(seed + 10 * n + m)
    w1 = rng.normal(size=(hidden, n)) / np.sqrt(n)
    w2 = rng.normal(size=(m, hidden)) / np.sqrt(hidden)
    x = rng.normal(size=n)
    w1, w2, x = (a.astype(np.float32) for a in (w1, w2, x))
    w1_64, w2_64, x_64 = (a.astype(np.float64) for a in (w1, w2, x))
    jacobian = w2_64 @ np.diag(1.0 - np.tanh(w1_64 @ x_64) ** 2) @ w1_64
    return (jnp.asarray(w1), jnp.asarray(w2)), jnp.asarray(x), jacobian


def _identities(fn, *args) -> set[tuple[int, ...]]:
    """The shapes of the square ``iota`` equations (identity matrices) in ``fn``'s jaxpr, nested ones too."""
    found = set()

    def visit(jaxpr):
        for eqn in jaxpr.eqns:
            shape = tuple(eqn.params.get("shape", ())) if eqn.primitive.name == "iota" else ()
            if len(shape) == 2 and shape[0] == shape[1]:
                found.add(shape)
            for value in eqn.params.values():
                for sub in value if isinstance(value, tuple | list) else (value,):
                    inner = getattr(sub, "jaxpr", sub)
                    if hasattr(inner, "eqns"):
                        visit(inner)

    visit(jax.make_jaxpr(fn)(*args).jaxpr)
    return found


def _one(name: str, fn) -> Result:
    """Values on the tall and the wide ``g``, then the mode, for the reader's ``name`` function."""
    ko_mode, en_mode, count = MODES[name]
    for shape, (n, m) in SHAPES.items():
        params, x, want = _problem(n, m)
        got, problem = run_reader(fn, params, x)
        if problem is not None:
            return wrong(f"{name}: {problem.ko}", f"{name}: {problem.en}")
        if isinstance(got, tuple | list) and len(got) == 2:
            return wrong(f"{name}: 야코비 행렬 대신 두 개짜리 튜플이 나왔습니다. 가중치가 아니라 x로 미분하세요"
                         "(argnums=1)",
                         f"{name}: a pair came back, not one Jacobian: differentiate with respect to x, not the "
                         "weights (argnums=1)")
        got = np.asarray(got, np.float64)
        if got.shape == want.T.shape and close(got, want.T, "값", "the values", rtol=1e-2, atol=1e-2).ok:
            return wrong(f"{name}: 야코비 행렬이 전치되어 있습니다. 형상은 (출력 m, 입력 n) = {want.shape}이어야 "
                         f"합니다(받은 형상 {got.shape})",
                         f"{name}: the Jacobian is transposed: its shape should be (outputs m, inputs n) = "
                         f"{want.shape}, not {got.shape}")
        scale = float(np.abs(want).max())
        where_ko, where_en = ("긴", "tall") if shape == "tall" else ("넓은", "wide")
        values = close(got, want, f"{where_ko} g(n = {n}, m = {m})에서 {name}의 야코비 행렬",
                       f"{name}'s Jacobian of the {where_en} g (n = {n}, m = {m})", rtol=1e-2, atol=1e-2 * scale)
        if not values.ok:
            return values
    n, m = SHAPES["tall"]
    params, x, _ = _problem(n, m)
    try:
        shapes = _identities(fn, params, x)
    except Exception:  # a function make_jaxpr cannot trace (NumPy inside, say): the values above still hold
        shapes = set()
    expected, other = ((n, n), (m, m)) if name == "jacfwd" else ((m, m), (n, n))
    if other in shapes and expected not in shapes:
        theirs = "jacrev" if name == "jacfwd" else "jacfwd"
        extra = " jax.jacobian은 jacrev의 다른 이름입니다" if name == "jacfwd" else ""
        extra_en = " (jax.jacobian is jacrev under another name)" if name == "jacfwd" else ""
        return wrong(f"{name}: 값은 맞지만 jaxpr의 단위 행렬이 {other[0]}×{other[1]}입니다(긴 g: n = {n}, m = {m}). "
                     f"{MODES[theirs][0]} 모드, 곧 {theirs}처럼 단위 벡터 {MODES[theirs][2]}개를 보냈습니다. "
                     f"{name}는 {ko_mode} 모드로 단위 벡터 {count}개를 보내야 합니다.{extra}",
                     f"{name}: the values are right, but the identity matrix in its jaxpr is {other[0]}×{other[1]} "
                     f"(the tall g: n = {n}, m = {m}): it sent {MODES[theirs][2]} basis vectors, in "
                     f"{MODES[theirs][1]} mode like {theirs}; {name} sends {count}, in {en_mode} mode{extra_en}")
    mode_ko = (f"jaxpr의 단위 행렬은 {ko_mode} 모드대로 {expected[0]}×{expected[1]}입니다" if expected in shapes
               else "jaxpr에서 단위 행렬을 찾지 못해 모드는 확인하지 않았습니다")
    mode_en = (f"the identity matrix in its jaxpr is {expected[0]}×{expected[1]}, as in {en_mode} mode"
               if expected in shapes else "no identity matrix found in its jaxpr: the mode was not checked")
    return right(f"{name}: 긴 g와 넓은 g의 야코비 행렬이 맞고, {mode_ko}",
                 f"{name}: right on the tall and the wide g; {mode_en}")


def jacobians(your_jacfwd, your_jacrev):
    """Check both Jacobian functions' values (against float64 NumPy) and modes (the identity in their jaxprs)."""
    return all_of(_one("jacfwd", your_jacfwd), _one("jacrev", your_jacrev))


def by_hand(n: int, m: int, hidden: int) -> dict[str, int]:
    """W1 x once, then n JVPs (jacfwd) or m VJPs (jacrev), each the products of one g.

    >>> by_hand(4, 64, 8)
    {'jacfwd': 4416, 'jacrev': 69696}
    """
    one = 2 * hidden * (n + m)
    return {"jacfwd": 2 * hidden * n + n * one, "jacrev": 2 * hidden * n + m * one}


def _count(value: float) -> str:
    """A FLOP count as the messages print it: whole above a thousand, else with its digits (a count in MFLOP)."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.6g}"


def _rows(your_rows):
    """``[(n, m, jacfwd, jacrev)]`` from the reader's rows, or None."""
    try:
        rows = []
        for row in your_rows:
            if isinstance(row, Mapping):
                counts = row["flops"]
                rows.append((int(row["n"]), int(row["m"]), counts["jacfwd"], counts["jacrev"]))
            else:
                n, m, fwd, rev = row
                rows.append((int(n), int(m), fwd, rev))
        return [(n, m, None if f is None else float(f), None if r is None else float(r)) for n, m, f, r in rows] or None
    except (TypeError, ValueError, KeyError):
        return None


def _hint(ratio: float, n: int, m: int, hidden: int, want: int) -> tuple[str, str]:
    """What a count ``ratio`` times the right one suggests, in Korean and in English."""
    hints = ((1e-6, "백만으로 나눈 값(MFLOP)으로 보입니다. FLOP 수 그대로 주세요",
              "it looks like millions (MFLOP): give the count itself"),
             (0.5, "절반입니다. 곱셈과 덧셈 한 쌍은 2 FLOP입니다", "half: a multiply-add is 2 FLOPs"),
             (2 * hidden * (n + m) / want, "JVP나 VJP 한 번만 센 값으로 보입니다. jacfwd는 n번, jacrev는 m번 합니다",
              "it looks like the count of one JVP or VJP: jacfwd makes n, jacrev m"))
    for factor, ko, en in hints:
        if abs(ratio / factor - 1) <= FLOP_TOLERANCE:
            return ko, en
    return ("W1 x 한 번(2·hidden·n)에 JVP n번이나 VJP m번, 한 번마다 2·hidden·(n + m)으로 세어 보세요",
            "count W1 x once (2·hidden·n), then n JVPs or m VJPs of 2·hidden·(n + m) each")


def flops(your_rows, hidden: int):
    """Check each shape's FLOP counts of jacfwd and jacrev against the count by hand, within 20%."""
    rows = _rows(your_rows)
    if rows is None:
        return wrong("행은 모양마다 (n, m, jacfwd의 FLOP 수, jacrev의 FLOP 수), 또는 \"n\", \"m\", \"flops\" 키를 가진 "
                     "딕셔너리여야 합니다",
                     'each row should be (n, m, jacfwd FLOPs, jacrev FLOPs), or a dict with "n", "m" and "flops"')
    for n, m, *counts in rows:
        want = by_hand(n, m, hidden)
        got = dict(zip(("jacfwd", "jacrev"), counts, strict=True))
        shape_ko, shape_en = f"n = {n}, m = {m}인 모양", f"the shape n = {n}, m = {m}"
        for name, value in got.items():
            if value is None or value < 0:
                shown = value if value is None else _count(value)
                return wrong(f"{shape_ko}: {name}의 FLOP 수가 {shown}입니다. xla_cost가 프로그램 전체를 세지 "
                             "못했으면(counted가 False, 라이브러리 호출은 -1) 손으로 센 값을 쓰세요",
                             f"{shape_en}: {name}'s count is {shown}: where xla_cost could not count the whole "
                             "program (counted is False; a library call counts -1), use the count by hand")
        off = {name: abs(got[name] / want[name] - 1) > FLOP_TOLERANCE for name in want}
        if not any(off.values()):
            continue
        swapped = all(abs(got[k] / want[other] - 1) <= FLOP_TOLERANCE
                      for k, other in (("jacfwd", "jacrev"), ("jacrev", "jacfwd")))
        if n != m and swapped:
            return wrong(f"{shape_ko}: 두 FLOP 수가 뒤바뀌었습니다. jacfwd는 입력마다 JVP를 한 번씩(n = {n}), "
                         f"jacrev는 출력마다 VJP를 한 번씩(m = {m}) 합니다",
                         f"{shape_en}: the two counts are swapped: jacfwd makes one JVP per input (n = {n}), "
                         f"jacrev one VJP per output (m = {m})")
        name = "jacfwd" if off["jacfwd"] else "jacrev"
        hint_ko, hint_en = _hint(got[name] / want[name], n, m, hidden, want[name])
        return wrong(f"{shape_ko}: {name}의 FLOP 수({_count(got[name])})가 손으로 센 값({want[name]:,})과 "
                     f"{FLOP_TOLERANCE:.0%} 넘게 다릅니다(hidden = {hidden}). {hint_ko}",
                     f"{shape_en}: {name}'s count, {_count(got[name])}, is more than {FLOP_TOLERANCE:.0%} off "
                     f"the count by hand, {want[name]:,} (hidden = {hidden}); {hint_en}")
    return right(f"모든 모양({len(rows)}개)에서 FLOP 수가 손으로 센 값과 {FLOP_TOLERANCE:.0%} 안에서 맞습니다",
                 f"the FLOP counts are within {FLOP_TOLERANCE:.0%} of the count by hand at every shape ({len(rows)})")


check = checks(jacobians=jacobians, flops=flops)
