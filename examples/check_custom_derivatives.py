"""Check your answer to the exercise of "Custom derivatives": import its ``check``, then

    from check_custom_derivatives import check
    check.breaks(your_breaks)

``your_breaks`` maps each dtype of the exercise ("float32", "bfloat16", "float16") to the three
``x`` you found for the naive ``jnp.log1p(jnp.exp(x))`` in a sweep from -20 to 100: where its value
is first ``inf``, where its gradient (``jax.grad``) is first wrong, and where its gradient is first
``nan``, either as a tuple ``(first_inf, first_wrong, first_nan)`` or as a dict with those keys
(``None`` for "never"). The check finds the three points itself on this machine, with a fine sweep of
its own around them ("wrong": off from ``sigmoid(x)`` in float64, at ``x`` rounded to the dtype, by
more than 4 machine epsilons of the dtype), and compares each of yours within a sweep's resolution.
Where the gradient first goes wrong depends on the backend (a CPU flushes subnormal numbers to zero),
so it is measured here, not assumed.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, right, wrong  # noqa: E402

DTYPES = ("float32", "bfloat16", "float16")
START, STOP = -20.0, 100.0
KEYS = ("first_inf", "first_wrong", "first_nan")
EARLY, LATE = 0.01, 0.15   # how far before (a value printed to two decimals) and after (a sweep's step) to allow
WHAT = {  # each key: what it is, in Korean and in English
    "first_inf": ("값이 처음 inf가 되는 x", "the first x where the value is inf"),
    "first_wrong": ("기울기가 처음 틀리는 x", "the first x where the gradient is wrong"),
    "first_nan": ("기울기가 처음 nan이 되는 x", "the first x where the gradient is nan"),
}


def _naive(x):
    return jnp.log1p(jnp.exp(x))


@jax.jit
def _value_and_gradient(x):
    return _naive(x), jax.vmap(jax.grad(_naive))(x)


def _evaluate(x):
    """For ``x`` (an array of the dtype): x, the naive value and gradient, and sigmoid(x), all float64."""
    x64 = np.asarray(x.astype(jnp.float32), np.float64)
    as64 = [np.asarray(out.astype(jnp.float32), np.float64) for out in _value_and_gradient(x)]
    return x64, *as64, 1.0 / (1.0 + np.exp(-x64))


def _tolerance(dtype: str) -> float:
    return float(4 * jnp.finfo(dtype).eps)


def _tests(dtype: str):
    tol = _tolerance(dtype)
    return {"first_inf": lambda x, v, g, s: np.isinf(v),
            "first_wrong": lambda x, v, g, s: ~(np.abs(g - s) <= tol),   # a nan is wrong too
            "first_nan": lambda x, v, g, s: np.isnan(g)}


def _first(dtype: str, test, num: int = 2_001) -> float | None:
    """The first x of the sweep, as rounded to ``dtype``, where ``test`` holds; refined between two points
    with as many again (one shape: each program compiles once)."""
    x = jnp.linspace(START, STOP, num, dtype=jnp.float32).astype(dtype)
    hits = np.flatnonzero(test(*_evaluate(x)))
    if hits.size == 0:
        return None
    i = int(hits[0])
    if i == 0:
        return START
    lo, hi = float(x[i - 1].astype(jnp.float32)), float(x[i].astype(jnp.float32))
    fine = jnp.linspace(lo, hi, num, dtype=jnp.float32).astype(dtype)
    measured = _evaluate(fine)
    return float(measured[0][np.flatnonzero(test(*measured))[0]])


@cache
def truth(dtype: str) -> dict[str, float | None]:
    """The three points on this machine for ``dtype``: where the naive value is first inf, its
    gradient first wrong, first nan.

    >>> round(truth("float16")["first_inf"], 2)   # exp passes float16's largest number, 65,504
    11.09
    """
    return {key: _first(dtype, test) for key, test in _tests(dtype).items()}


def _at(dtype: str, x: float):
    """The naive value and gradient at ``x`` rounded to ``dtype``, and sigmoid there."""
    _, value, gradient, reference = _evaluate(jnp.asarray([x], jnp.float32).astype(dtype))
    return float(value[0]), float(gradient[0]), float(reference[0])


def _parse(breaks):
    """``{dtype: (first_inf, first_wrong, first_nan)}`` from the reader's answer, or a wrong Result."""
    usage = wrong("답은 자료형 이름(\"float32\", \"bfloat16\", \"float16\")마다 (first_inf, first_wrong, first_nan) "
                  "세 값, 또는 그 키를 가진 딕셔너리를 담은 딕셔너리여야 합니다",
                  'the answer should be a dict from each dtype ("float32", "bfloat16", "float16") to three '
                  "values (first_inf, first_wrong, first_nan), or to a dict with those keys")
    if not isinstance(breaks, Mapping):
        return None, usage
    found = {}
    for key, entry in breaks.items():
        try:
            dtype = str(jnp.dtype(key))
        except TypeError:
            return None, usage
        if isinstance(entry, Mapping):
            if not all(k in entry for k in KEYS):
                return None, usage
            values = [entry[k] for k in KEYS]
        else:
            try:
                values = list(entry)
            except TypeError:
                return None, usage
            if len(values) != len(KEYS):
                return None, usage
        try:
            found[dtype] = {k: None if v is None else float(v) for k, v in zip(KEYS, values, strict=True)}
        except (TypeError, ValueError):
            return None, usage
    missing = [d for d in DTYPES if d not in found]
    if missing:
        return None, wrong(f"{', '.join(missing)} 자료형의 답이 없습니다. 세 자료형 모두 답하세요",
                           f"no answer for {', '.join(missing)}: answer for all three dtypes")
    return found, None


def _judge(dtype: str, key: str, got: float | None, want: float | None):
    """None if ``got`` is ``want`` within the sweep's resolution, else a wrong Result saying what to look at."""
    what_ko, what_en = WHAT[key]
    largest = float(jnp.finfo(dtype).max)
    if want is None:   # not broken here: then any answer but None is wrong
        if got is None:
            return None
        return wrong(f"{dtype} 자료형: {what_ko}의 답이 {got:,.4g}이지만, 이 기계에서는 -20에서 100 사이에 그런 "
                     "x가 없습니다",
                     f"{dtype}: you give {got:,.4g} for {what_en}, but on this machine there is none from -20 to 100")
    if got is None:
        hint_ko, hint_en = {
            "first_inf": (f"exp(x)가 {dtype} 자료형의 가장 큰 수({largest:,.5g})보다 커지는 곳, 곧 "
                          f"log({largest:,.5g}) 근처까지 훑었는지 보세요",
                          f"look at where exp(x) passes {dtype}'s largest number, {largest:,.5g}: "
                          f"near log({largest:,.5g}); does your sweep reach it?"),
            "first_wrong": ("nan도 틀린 기울기입니다. 비교를 ~(np.abs(g - s) <= tol)처럼 쓰면 nan도 틀림으로 잡힙니다",
                            "a nan is a wrong gradient too: test not (|g - s| <= tol), which catches nan"),
            "first_nan": ("값이 아니라 jax.grad로 구한 기울기에서 nan을 찾으세요",
                          "look for nan in the gradient from jax.grad, not in the value"),
        }[key]
        return wrong(f"{dtype} 자료형: {what_ko}를 적지 않았지만(None), 이 기계에서는 x = {want:,.4f}입니다. {hint_ko}",
                     f"{dtype}: you give None for {what_en}, but on this machine it is x = {want:,.4f}; {hint_en}")
    at = float(jnp.asarray(got, jnp.float32).astype(dtype).astype(jnp.float32))   # rounded to the dtype
    if want - EARLY <= at <= want + LATE:
        return None
    eps = float(jnp.finfo(dtype).eps)
    point = min(at, want)   # where the reader's answer and this machine's differ first
    value, gradient, reference = _at(dtype, point)
    shown_ko = (f"단순한 식의 값이 {value:.6g}" if key == "first_inf"
                else f"단순한 식의 기울기가 {gradient:.6g}(σ(x) = {reference:.6g})")
    shown_en = (f"the naive value is {value:.6g}" if key == "first_inf"
                else f"the naive gradient is {gradient:.6g} (σ(x) = {reference:.6g})")
    if at < want:
        still_ko, still_en = {
            "first_inf": ("아직 유한합니다", "still finite"),
            "first_wrong": ("아직 허용 오차 안에 있습니다", "still within the tolerance"),
            "first_nan": ("아직 nan이 아닙니다", "not nan yet"),
        }[key]
        detail_ko = f"x = {at:,.4f}에서는 {shown_ko}이므로 {still_ko}"
        detail_en = f"at x = {at:,.4f} {shown_en}: {still_en}"
        if key == "first_wrong" and 0 < abs(gradient - reference) <= eps:
            detail_ko += (f". 그곳의 오차({abs(gradient - reference):.3g})는 기계 엡실론({eps:.3g})보다 작으니, 허용 "
                          "오차가 너무 작아 반올림 오차까지 틀림으로 세는 것은 아닌지 보세요. "
                          "허용 오차는 기계 엡실론의 몇 배로 정하세요")
            detail_en += (f"; the error there, {abs(gradient - reference):.3g}, is below the machine epsilon "
                          f"({eps:.3g}): a tolerance that tight counts rounding as wrong; choose a few epsilons")
    else:
        detail_ko = f"더 앞인 x = {want:,.4f}에서 이미 {shown_ko}입니다. 그 점을 건너뛰지 않게 촘촘히 훑었는지 보세요"
        detail_en = (f"already at x = {want:,.4f} {shown_en}: look at whether your sweep is dense enough not to "
                     "step over it")
        if key == "first_wrong" and np.isfinite(gradient):
            detail_ko += ". 유한하지만 틀린 기울기도 틀린 것입니다"
            detail_en += "; a finite gradient can be wrong too"
    for other in DTYPES:   # a typical mistake: computing in another dtype (float32) than the one named
        theirs = truth(other)[key]
        if other != dtype and theirs is not None and theirs - EARLY <= got <= theirs + LATE:
            detail_ko = (f"적은 값은 {other} 자료형의 값입니다. x를 {dtype} 자료형으로 바꾼 뒤 계산했는지, "
                         "반올림한 x를 적었는지 보세요")
            detail_en = (f"yours is {other}'s: look at whether x was converted to {dtype} before computing, and "
                         "whether you give x as rounded to it")
            break
    return wrong(f"{dtype} 자료형: {what_ko}가 다릅니다. 적은 값은 {got:,.4f}, 이 기계에서 잰 값은 {want:,.4f}입니다"
                 f"(허용 범위: {EARLY:g} 앞부터 {LATE:g} 뒤까지). {detail_ko}",
                 f"{dtype}: {what_en} differs: yours is {got:,.4f}, this machine's {want:,.4f} (allowed: "
                 f"{EARLY:g} before to {LATE:g} after); {detail_en}")


def breaks(your_breaks):
    """Check, per dtype, where the naive softplus's value is first inf and its gradient first wrong and nan."""
    answers, problem = _parse(your_breaks)
    if problem is not None:
        return problem
    for dtype in DTYPES:
        want = truth(dtype)
        for key in KEYS:
            result = _judge(dtype, key, answers[dtype][key], want[key])
            if result is not None:
                return result
    summary = ", ".join(f"{d} " + "·".join(f"{truth(d)[k]:,.2f}" for k in KEYS) for d in DTYPES)
    return right(f"세 자료형의 x 아홉 개가 모두 이 기계에서 잰 값과 맞습니다(순서대로 inf·틀림·nan: {summary})",
                 f"all nine x are right for this machine (in order inf·wrong·nan: {summary})")


check = checks(breaks=breaks)
