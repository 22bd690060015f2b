"""Check your answer to the exercise of "Branches and derivatives under jit": import its ``check``, then

    from check_branches import check
    check.two_level_scan(your_loss)

``your_loss(w, xs)`` should be the loss of the section on the memory of reverse mode through scan
(``sin(w * h + x)`` applied 4 times per iteration to a carry ``h`` of 256 zeros at first, one
iteration per row of ``xs``, the sum of the last carry) written as the exercise's two-level scan:
the n rows split into n/k segments of k (k near √n), an inner ``scan`` over one segment with the
plain body, an outer ``scan`` over the segments with its body wrapped in ``jax.checkpoint``. The
check takes ``jax.grad`` of it with respect to ``w`` for ``xs`` of shape (n, 256), n a square, and

* compares the gradient at w = 1, n = 64 with one worked out in float64 NumPy (forward mode, by hand);
* reads its jaxpr: a ``scan`` inside a ``scan``, the outer body under ``jax.checkpoint``, k near √n;
* compares the temporary memory (``memory_analysis().temp_size_in_bytes``) of the compiled
  ``jax.jit(jax.grad(your_loss))`` at n = 64 and n = 1,024: it should grow about as √n (4×), not as
  n (16×). Memory comes from compiling alone and does not fluctuate; no time is measured.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, right, run_reader, wrong  # noqa: E402

CARRY = 256          # length of the carry h, as in the lesson
INNER = 4            # sin(w * h + x) applied this many times per iteration
W = 1.0      # with w = 1 and small x, the carry remembers far back: a segment that restarts h shows
SMALL, LARGE = 64, 1024


def reference_gradient(w: float, xs, restart: int | None = None) -> float:
    """d loss / d w in float64 NumPy, carrying the derivative of h along (forward mode by hand);
    ``restart``: h starts again from zeros every ``restart`` rows (a mistake the check recognises)."""
    xs = np.asarray(xs, np.float64)
    h = dh = np.zeros(xs.shape[1:])
    for t, x in enumerate(xs):
        if restart and t % restart == 0:
            h = dh = np.zeros(xs.shape[1:])
        for _ in range(INNER):
            u = w * h + x
            h, dh = np.sin(u), np.cos(u) * (h + w * dh)
    return float(dh.sum())


def _eqns(jaxpr):
    """Every equation of ``jaxpr``, with those in the jaxprs its equations hold (bodies, branches)."""
    for eqn in getattr(jaxpr, "jaxpr", jaxpr).eqns:
        yield eqn
        for value in eqn.params.values():
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if hasattr(getattr(item, "jaxpr", item), "eqns"):
                    yield from _eqns(item)


def _body(eqn):
    return eqn.params["jaxpr"]


def _is_checkpoint(eqn) -> bool:
    return "remat" in eqn.primitive.name or "checkpoint" in eqn.primitive.name


def structure(loss, n: int) -> tuple[str, str] | None:
    """What is wrong with the two levels of ``loss``'s jaxpr at n rows, or None."""
    xs = jax.ShapeDtypeStruct((n, CARRY), jnp.float32)
    jaxpr, problem = run_reader(jax.make_jaxpr(loss), W, xs)
    if problem is not None:
        return problem.ko, problem.en
    scans = [eqn for eqn in _eqns(jaxpr) if eqn.primitive.name == "scan"]
    outer = [eqn for eqn in scans if any(inner.primitive.name == "scan" for inner in _eqns(_body(eqn)))]
    if not outer:
        return ("손실 함수의 jaxpr에 scan 안의 scan이 없습니다. n번의 반복을 k번씩 n/k개 구간으로 나눠, 안쪽 scan은 한 "
                "구간을, 바깥 scan은 구간을 차례로 돌게 하세요",
                "the loss's jaxpr has no scan inside a scan: split the n iterations into n/k segments of k, an inner "
                "scan for one segment and an outer scan over the segments")
    scan = outer[0]
    wrapped = [eqn for eqn in _body(scan).eqns
               if _is_checkpoint(eqn) and any(inner.primitive.name == "scan" for inner in _eqns(_body(eqn)))]
    if not wrapped:
        return ("바깥 scan의 본문이 jax.checkpoint로 감싸여 있지 않습니다. 안쪽 scan의 본문만 감싸서는 "
                "안 되고, 안쪽 scan 전체, 곧 바깥 scan의 본문을 감싸세요",
                "the outer scan's body is not wrapped in jax.checkpoint: wrap the whole inner scan, the outer "
                "scan's body, not just the inner scan's body")
    inner = next(eqn for eqn in _eqns(_body(scan)) if eqn.primitive.name == "scan")
    k, segments = inner.params["length"], scan.params["length"]
    if k * segments != n:
        return (f"n = {n:,}인데 구간 {segments:,}개에 구간마다 {k:,}번을 돌아, 모두 {k * segments:,}번을 반복합니다",
                f"at n = {n:,} the scans run {segments:,} segments of {k:,}: {k * segments:,} iterations in all")
    root = math.sqrt(n)
    if not root / 2 <= k <= 2 * root:
        return (f"n = {n:,}에서 구간 길이가 k = {k:,}입니다. k를 √n에 가깝게(여기서는 {root:g}) 고르세요",
                f"at n = {n:,} the segments have k = {k:,} iterations: choose k near √n ({root:g} here)")
    return None


def _gradient(got: float, want: float, rtol: float = 1e-3):
    """Whether the gradient ``got`` is ``want`` within ``rtol``."""
    if abs(got - want) <= rtol * abs(want):
        return right(f"w = {W:g}, n = {SMALL}에서 기울기가 float64로 구한 값과 같습니다(허용 범위: 상대 {rtol:g})",
                     f"the gradient at w = {W:g}, n = {SMALL} is right (within {rtol:g} relative of float64)")
    return wrong(f"w = {W:g}, n = {SMALL}에서 구한 기울기 값이 {got:.6g}입니다. float64로 구한 맞는 값은 "
                 f"{want:.6g}입니다(허용 범위: 상대 {rtol:g})",
                 f"the gradient at w = {W:g}, n = {SMALL} is {got:.6g}, where {want:.6g} is right (float64; "
                 f"allowed: {rtol:g} relative)")


def two_level_scan(loss, seed: int = 0):
    """Check ``loss(w, xs)``: its gradient at n = 64, its two levels, and how its memory grows from n = 64 to 1,024."""
    xs = np.random.default_rng(seed).uniform(-0.1, 0.1, (SMALL, CARRY)).astype(np.float32)
    grad = jax.jit(jax.grad(loss))
    compiled, problem = run_reader(lambda: grad.lower(W, xs).compile())
    if problem is not None:
        return problem
    got, problem = run_reader(compiled, W, xs)
    if problem is not None:
        return problem
    got, want = float(np.asarray(got)), reference_gradient(W, xs)
    gradient = _gradient(got, want)
    if not gradient.ok:
        restarted = reference_gradient(W, xs, restart=math.isqrt(SMALL))
        if _gradient(got, restarted).ok:
            return wrong(f"{gradient.ko}. 구간마다 h를 0에서 다시 시작한 값과 같습니다. 한 구간의 마지막 carry를 다음 "
                         "구간에 넘기세요",
                         f"{gradient.en}; it matches h starting again from zeros in every segment: pass each "
                         "segment's last carry on to the next")
        return gradient
    for n in (SMALL, LARGE):
        found = structure(loss, n)
        if found is not None:
            return wrong(*found)
    large, problem = run_reader(lambda: grad.lower(W, jax.ShapeDtypeStruct((LARGE, CARRY), jnp.float32)).compile())
    if problem is not None:
        return problem
    small_bytes = compiled.memory_analysis().temp_size_in_bytes
    large_bytes = large.memory_analysis().temp_size_in_bytes
    growth, trips = large_bytes / small_bytes, LARGE / SMALL
    figures_ko = (f"n = {SMALL}에서 {LARGE:,}로 늘 때 임시 메모리가 {small_bytes / 1024:,.1f} KiB에서 "
                  f"{large_bytes / 1024:,.1f} KiB로 {growth:.1f}배가 되었습니다")
    figures_en = (f"from n = {SMALL} to {LARGE:,} the temporary memory grew {growth:.1f}×, "
                  f"{small_bytes / 1024:,.1f} KiB to {large_bytes / 1024:,.1f} KiB")
    if growth > 2 * math.sqrt(trips):
        return wrong(f"{figures_ko}. √n에 비례해({math.sqrt(trips):g}배) 늘지 않고 n에 가깝게({trips:g}배) "
                     "늘었습니다. 바깥 scan의 본문을 jax.checkpoint로 감쌌는지, 구간 길이가 √n에 비례해 "
                     "커지는지 보세요",
                     f"{figures_en}: closer to n ({trips:g}×) than to √n ({math.sqrt(trips):g}×); look at the "
                     "jax.checkpoint around the outer scan's body, and at k growing with n as √n")
    return all_of(gradient, right("scan 안에 scan이 있고, 바깥 본문을 jax.checkpoint로 감쌌으며, 구간 길이가 "
                                  "√n에 가깝습니다",
                                  "a scan inside a scan, the outer body under jax.checkpoint, k near √n"),
                  right(f"{figures_ko}. √n에 비례해({math.sqrt(trips):g}배) 늘었습니다",
                        f"{figures_en}: about as √n ({math.sqrt(trips):g}×), not n ({trips:g}×)"))


check = checks(two_level_scan=two_level_scan)
