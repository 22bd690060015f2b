"""Check your answer to the exercise of "Looking inside a compiled program": import its ``check``, then

    from check_looking_inside import check
    check.kernel_cost(your_cost)
    check.bounds(your_bounds)

``your_cost(function, args)`` (step 2) should compile ``function`` for the tuple of arrays ``args``
(``jax.jit(function).lower(*args).compile()``) and return ``(flops, bytes_accessed, fusions)``:
XLA's estimate of the FLOPs and of the bytes accessed, read with ``xla_cost``, and how many fusions
the entry computation of ``as_text()`` runs. A dict with those keys, or an object with those
attributes (such as ``cost_report.Report``), will do as well. The check calls it on an elementwise
chain and a softmax and compares with what it reads from the same compiled programs.

``your_bounds(reports)`` (step 4) gets a list of ``cost_report.Report``, one per kernel (``name``,
``flops``, ``bytes_accessed``, ``timing.median`` in seconds), and should return
``{name: "compute" or "memory"}``: which bound each kernel looks, with the highest FLOP/s and bytes/s
among the reports as the roofs. The check makes up the figures, so that the answer is definite.
No time is measured or graded.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from compiler_cost import xla_cost  # noqa: E402
from cost_report import Report, chain, count_fusions, softmax  # noqa: E402
from exercise_check import all_of, checks, right, run_reader, wrong  # noqa: E402
from timing import Timing, particle  # noqa: E402

FIELDS = ("flops", "bytes_accessed", "fusions")
KO_KERNEL = {"chain": "원소별 연산 체인", "softmax": "소프트맥스"}
EN_KERNEL = {"chain": "the elementwise chain", "softmax": "the softmax"}
KO_BOUND = {"compute": "계산 제약", "memory": "메모리 제약"}


def _kernels():
    keys = jax.random.split(jax.random.key(0), 2)
    return {"chain": (chain, (jax.random.normal(keys[0], (2**14,), jnp.float32),)),
            "softmax": (softmax, (jax.random.normal(keys[1], (64, 128), jnp.float32),))}


def _figures(value) -> tuple | None:
    """``(flops, bytes_accessed, fusions)`` from a tuple, a dict or an object, or None."""
    try:
        if isinstance(value, dict):
            return tuple(float(value[key]) for key in FIELDS)
        if all(hasattr(value, key) for key in FIELDS):
            return tuple(float(getattr(value, key)) for key in FIELDS)
        flops, nbytes, fusions = value
        return float(flops), float(nbytes), float(fusions)
    except (KeyError, TypeError, ValueError):
        return None


def _ko_and(names) -> str:
    """Korean names joined with 와/과, the particle each needs: "원소별 연산 체인과 소프트맥스"."""
    words = [KO_KERNEL[n] for n in names]
    return "".join(w + particle(w, "와", "과") + " " for w in words[:-1]) + words[-1]


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(abs(b), 1.0)


def kernel_cost(cost):
    """Check ``cost(function, args)`` against XLA's estimate and the entry computation's fusions, read here."""
    skipped = []
    for name, (function, args) in _kernels().items():
        value, problem = run_reader(cost, function, args)
        if problem is not None:
            return problem
        got = _figures(value)
        if got is None:
            return wrong(f"함수가 돌려준 값({type(value).__name__})에서 (flops, bytes_accessed, fusions) 셋을 읽을 수 "
                         "없습니다. 세 값의 튜플을 돌려주세요",
                         f"what your function returned ({type(value).__name__}) holds no (flops, bytes_accessed, "
                         "fusions): return a tuple of the three")
        lowered = jax.jit(function).lower(*args)
        compiled = lowered.compile()
        xla, hlo = xla_cost(compiled), compiled.as_text()
        flops, nbytes, fusions = got
        ko, en = KO_KERNEL[name], EN_KERNEL[name]
        want_fusions = count_fusions(hlo)
        if fusions != want_fusions:
            hint_ko, hint_en = "as_text()에서 ENTRY로 표시된 계산의 fusion 명령만 세세요", \
                "count the fusion instructions of the computation marked ENTRY in as_text()"
            if fusions == hlo.count("fusion") != want_fusions:
                hint_ko, hint_en = ("텍스트에 나오는 'fusion'을 모두 센 값과 같습니다. 융합 계산의 이름에도 이 낱말이 "
                                    f"들어갑니다. {hint_ko}", "it is the number of times 'fusion' appears in the "
                                    f"text, the fused computations' names included: {hint_en}")
            return wrong(f"{ko}의 융합 개수를 {fusions:g}개로 셌습니다. 맞는 값은 {want_fusions}개입니다. {hint_ko}",
                         f"{en}: {fusions:g} fusions counted, where {want_fusions} is right: {hint_en}")
        if not xla.counted:   # this backend's estimate misses part of the kernel: there is no whole count to compare
            skipped.append(name)
            continue
        for what_ko, what_en, have, want in (("FLOP 수", "FLOPs", flops, xla.flops),
                                              ("바이트 수", "bytes accessed", nbytes, xla.bytes_accessed)):
            if _same(have, want):
                continue
            message_ko = f"{ko}: 받은 {what_ko}는 {have:,.0f}이고, 컴파일된 프로그램의 추정값은 {want:,.0f}입니다"
            message_en = f"{en}: {have:,.0f} {what_en}, where the compiled program's estimate is {want:,.0f}"
            before = xla_cost(lowered)   # the estimate before optimization
            if _same(flops, xla.bytes_accessed) and _same(nbytes, xla.flops):
                return wrong(f"{message_ko}. FLOP 수와 바이트 수가 뒤바뀌었습니다",
                             f"{message_en}: the FLOPs and the bytes are swapped")
            if before.bytes_accessed is not None and _same(nbytes, before.bytes_accessed):
                return wrong(f"{message_ko}. 최적화 전의 추정값, 곧 lower(...)에서 읽은 cost_analysis()의 값과 "
                             "같습니다. 연산 융합이 중간 결과를 메모리에 쓰지 않게 한 뒤의 값은 "
                             "compile()한 프로그램에서 읽으세요",
                             f"{message_en}; it matches the estimate before optimization, cost_analysis() of "
                             "lower(...): read it from the compiled program, whose fusions keep intermediates out of "
                             "memory")
            return wrong(message_ko, message_en)
    if not skipped:
        return right("원소별 연산 체인과 소프트맥스 모두 융합 개수, FLOP 수, 바이트 수가 컴파일된 프로그램에서 읽은 "
                     "값과 같습니다", "the elementwise chain and the softmax: fusions, FLOPs and bytes all match the "
                     "compiled programs")
    counted = [name for name in KO_KERNEL if name not in skipped]
    results = [right("원소별 연산 체인과 소프트맥스의 융합 개수가 컴파일된 프로그램에서 읽은 값과 같습니다",
                     "the fusions of the elementwise chain and the softmax match the compiled programs")]
    if counted:
        results.append(right(f"{_ko_and(counted)}의 FLOP 수와 바이트 수도 XLA의 추정값과 같습니다",
                             f"so do the FLOPs and bytes of {' and '.join(EN_KERNEL[n] for n in counted)}"))
    results.append(right(f"{_ko_and(skipped)}의 비용은 이 백엔드의 XLA가 다 세지 못해 견주지 않았습니다",
                         "XLA on this backend does not count the cost of "
                         f"{' and '.join(EN_KERNEL[n] for n in skipped)} whole: not compared"))
    return all_of(*results)


# The made-up kernels of the bounds check: (FLOPs, bytes, median seconds). The roofs are 100 GFLOP/s (big)
# and 50 GB/s (stream): the ridge point is 2 FLOP/B. "mid" (1.5 FLOP/B) sits between 1 and the ridge, so
# that comparing the intensity with 1, or with bytes per FLOP (0.5), gets it wrong; "stream" (0.8 FLOP/B),
# between 0.5 and 1, tells those two apart.
FIGURES = {"big": (100e9, 10e9, 1.0), "stream": (40e9, 50e9, 1.0), "mid": (6e9, 4e9, 0.5),
           "slow": (5e9, 2e9, 2.0)}
SPREAD = (0.9, 1.0, 1.25)   # every kernel's samples, times its median: the choice of statistic moves no answer


def made_up_reports() -> list[Report]:
    return [Report(name, flops, nbytes, 1, Timing([seconds * s for s in SPREAD]))
            for name, (flops, nbytes, seconds) in FIGURES.items()]


def _by(threshold: float) -> dict[str, str]:
    return {name: "compute" if flops / nbytes >= threshold else "memory"
            for name, (flops, nbytes, _) in FIGURES.items()}


def _answer(value) -> str | None:
    text = str(value).strip().lower()
    for bound in ("compute", "memory"):
        if text.startswith(bound):
            return bound
    return None


def bounds(classify):
    """Check ``classify(reports)`` on made-up kernels whose bounds are definite."""
    peak_flops = max(f / s for f, _, s in FIGURES.values())
    peak_bytes = max(b / s for _, b, s in FIGURES.values())
    ridge = peak_flops / peak_bytes
    want = _by(ridge)
    value, problem = run_reader(classify, made_up_reports())
    if problem is not None:
        return problem
    if not isinstance(value, dict) or set(value) != set(FIGURES):
        return wrong(f"함수는 커널 이름({', '.join(FIGURES)})마다 'compute'나 'memory'를 담은 "
                     "딕셔너리를 돌려줘야 합니다",
                     f"your function should return a dict from each kernel's name ({', '.join(FIGURES)}) to "
                     "'compute' or 'memory'")
    got = {name: _answer(v) for name, v in value.items()}
    misses = [name for name in FIGURES if got[name] != want[name]]
    ridge_ko = (f"경계점은 {ridge:g} FLOP/B입니다(측정한 천장: 최고 연산 속도 {peak_flops / 1e9:g} GFLOP/s ÷ "
                f"최고 바이트/s {peak_bytes / 1e9:g} GB/s)")
    ridge_en = (f"the ridge point is {ridge:g} FLOP/B, the best measured {peak_flops / 1e9:g} GFLOP/s over the "
                f"best {peak_bytes / 1e9:g} GB/s")
    if not misses:
        return right(f"네 커널을 모두 맞게 갈랐습니다. {ridge_ko}", f"all four kernels are right: {ridge_en}")
    detail_ko = " ".join(f"{n} 커널은 산술 강도가 {FIGURES[n][0] / FIGURES[n][1]:g} FLOP/B이므로 "
                         f"{KO_BOUND[want[n]]}입니다." for n in misses)
    detail_en = "; ".join(f"{n} ({FIGURES[n][0] / FIGURES[n][1]:g} FLOP/B) is {want[n]}-bound" for n in misses)
    ko, en = f"{len(FIGURES)}개 가운데 {len(misses)}개가 틀렸습니다. {detail_ko} {ridge_ko}", \
        f"{len(misses)} of {len(FIGURES)} wrong: {detail_en}; {ridge_en}"
    if got == _by(1.0):
        return wrong(f"{ko}. 산술 강도를 1과 견주었습니다. 경계점과 견주세요", f"{en}. You compared the intensity "
                     "with 1: compare it with the ridge point")
    if got == _by(1 / ridge):
        return wrong(f"{ko}. 산술 강도를 FLOP당 바이트({1 / ridge:g})와 견주었습니다. 경계점은 FLOP/s를 바이트/s로 "
                     "나눈 값입니다", f"{en}. You compared the intensity with bytes per FLOP ({1 / ridge:g}): the "
                     "ridge is FLOP/s over bytes/s")
    return wrong(ko, en)


check = checks(kernel_cost=kernel_cost, bounds=bounds)
