"""Check your answer to the exercise of "Meshes and shardings": import its ``check``, then

    from check_meshes import check
    check.predictions(your_predictions)

``your_predictions`` maps each of the six specs, ``P("x", "y")``, ``P("x")``, ``P(None, "y")``,
``P(("x", "y"))``, ``P()`` and ``P("y", "x")``, to what you predict for the lesson's 1024 × 512
float32 array on the 2 × 4 mesh (2 devices along "x", 4 along "y"): a tuple
``(shard_shape, bytes_per_device, copies, sum0, sum1)``, where ``copies`` is the number of devices
holding each element and ``sum0``, ``sum1`` are the group sizes of the ``all-reduce`` that
``sum(axis=0)`` and ``sum(axis=1)`` need, or ``None`` where they need no collective (the program's
lists of ``(kind, group size)`` are read too). On the lesson's 4 × 2 mesh, ``P("x", "y")`` would be
``((256, 256), 262144, 1, 4, 2)``.

The check lays the array out on a 2 × 4 mesh of this machine's CPU devices (it needs the 8 that the
lesson's first cell asks for), reads the shards, compiles the two sums (``sharding_layouts.measure``)
and compares each prediction with what it found; for each wrong one it says what to look at.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import jax
import numpy as np
from jax.sharding import PartitionSpec as P

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, right, wrong  # noqa: E402
from sharding_layouts import AXES, measure  # noqa: E402

MESH = (2, 4)  # devices along "x" and "y"
SHAPE = (1024, 512)  # the lesson's array, float32
SPECS = (P("x", "y"), P("x"), P(None, "y"), P(("x", "y")), P(), P("y", "x"))
FIELDS = (  # each value of a prediction, named in Korean and in English
    ("샤드 형상", "shard shape"), ("디바이스마다 차지하는 바이트", "bytes per device"), ("복제 수", "copies"),
    ("sum(axis=0)의 그룹 크기", "sum(axis=0) group"), ("sum(axis=1)의 그룹 크기", "sum(axis=1) group"),
)
RULES = (  # what decides each value (the two sums share one rule)
    ("샤드 형상은 배열의 각 축 길이를, 그 축에 준 메시 축들의 크기를 곱한 수로 나눈 값입니다",
     "the shard shape is each array axis divided by the product of the sizes of the mesh axes given to it"),
    ("디바이스마다 차지하는 바이트는 샤드의 원소 수 × 4바이트입니다",
     "the bytes per device are the shard's elements × 4 bytes"),
    ("복제 수는 그 PartitionSpec이 쓰지 않은 메시 축들의 크기를 곱한 값입니다",
     "the copies are the product of the sizes of the mesh axes the spec does not use"),
    ("합의 그룹 크기는 더하는 축을 나눈 메시 축들의 크기를 곱한 값이고, 그 축이 나뉘지 않았으면 None입니다",
     "a sum's group is the product of the sizes of the mesh axes that split the summed axis, None where it is not "
     "split"),
)


def _normal(spec) -> tuple:
    """A spec's entries, one per array axis (``P("x")`` is ``P("x", None)``), for comparing specs."""
    return tuple(spec) + (None,) * (len(SHAPE) - len(spec))


def _group(value):
    """A predicted group size: a number, ``None`` (or 0, 1) for no collective, or the program's [(kind, size)]."""
    if isinstance(value, list | tuple):
        return math.prod(size for _, size in value) if value else None
    return None if value in (None, 0, 1) else int(value)


def _on_paper(spec, sizes: dict[str, int]) -> tuple:
    """The five values for ``spec`` on a mesh of ``sizes``, by the lesson's rules (to recognise the 4 × 2 mesh's)."""
    ways = [math.prod(sizes[name] for name in ((e,) if isinstance(e, str) else e)) if e else 1 for e in _normal(spec)]
    shard = tuple(side // w for side, w in zip(SHAPE, ways, strict=True))
    used = {name for e in _normal(spec) if e for name in ((e,) if isinstance(e, str) else e)}
    copies = math.prod(size for name, size in sizes.items() if name not in used)
    return (shard, math.prod(shard) * 4, copies, *(w if w > 1 else None for w in ways))


def _truth() -> dict:
    """spec → the five values, measured on a 2 × 4 mesh of CPU devices."""
    devices = jax.devices("cpu")[:math.prod(MESH)]
    mesh = jax.make_mesh(MESH, AXES, devices=devices)
    host = np.arange(math.prod(SHAPE), dtype=np.float32).reshape(SHAPE) / math.prod(SHAPE)
    found = {}
    for spec in SPECS:
        layout = measure(host, mesh, spec)
        found[_normal(spec)] = (tuple(layout.shard_shape), layout.bytes_per_device, layout.replication,
                                _group(layout.reductions[0]), _group(layout.reductions[1]))
    return found


def _shown(value) -> str:
    return "None" if value is None else f"{value:,}" if isinstance(value, int) else str(value)


def spec_text(spec) -> str:
    """A spec as one types it.

    >>> spec_text(P("x")), spec_text(P(None, "y")), spec_text(P(("x", "y"))), spec_text(P())
    ("P('x')", "P(None, 'y')", "P(('x', 'y'))", 'P()')
    """
    return f"P({', '.join(map(repr, spec))})"


def predictions(predicted):
    """Check the predicted ``(shard_shape, bytes_per_device, copies, sum0, sum1)`` of each spec on the 2 × 4 mesh."""
    needed, have = math.prod(MESH), len(jax.devices("cpu"))
    if have < needed:
        return wrong(f"이 검사에는 CPU 디바이스 {needed}개가 필요한데 지금은 {have}개입니다. 런타임을 다시 시작하고 "
                     "강의의 첫 셀(jax_num_cpu_devices)부터 실행하세요",
                     f"the check needs {needed} CPU devices and JAX has {have}: restart the runtime and run the "
                     "lesson's first cell (jax_num_cpu_devices) first")
    if not isinstance(predicted, dict) or not all(isinstance(key, P) for key in predicted):
        return wrong("예측은 PartitionSpec(P(...))을 키로 하는 딕셔너리여야 합니다",
                     "the predictions should be a dict whose keys are PartitionSpecs, P(...)")
    by_spec = {_normal(key): value for key, value in predicted.items()}
    missing = [spec_text(spec) for spec in SPECS if _normal(spec) not in by_spec]
    if missing:
        return wrong(f"예측이 없는 PartitionSpec이 {len(missing)}개 있습니다: {', '.join(missing)}",
                     f"no prediction for {', '.join(missing)}")
    clean = {}
    for spec in SPECS:
        value = by_spec[_normal(spec)]
        try:
            shard, nbytes, copies, sum0, sum1 = value
            clean[_normal(spec)] = (tuple(int(n) for n in shard), int(nbytes), int(copies), _group(sum0), _group(sum1))
        except (TypeError, ValueError):
            return wrong(f"{spec_text(spec)}의 예측은 ({', '.join(ko for ko, _ in FIELDS)}) 튜플이어야 합니다",
                         f"the prediction for {spec_text(spec)} should be a tuple "
                         f"({', '.join(en for _, en in FIELDS)})")
    truth = _truth()
    total = len(SPECS) * len(FIELDS)
    misses = [(spec, i) for spec in SPECS for i in range(len(FIELDS))
              if clean[_normal(spec)][i] != truth[_normal(spec)][i]]
    if not misses:
        return right(f"PartitionSpec 6가지의 예측 {total}개가 모두 맞습니다",
                     f"all {total} predictions for the six specs are right")
    ko = [f"{spec_text(spec)}에서 {FIELDS[i][0]}: 받은 값 {_shown(clean[_normal(spec)][i])}, "
          f"맞는 값 {_shown(truth[_normal(spec)][i])}" for spec, i in misses]
    en = [f"{spec_text(spec)} {FIELDS[i][1]} {_shown(clean[_normal(spec)][i])}, "
          f"where {_shown(truth[_normal(spec)][i])} is right" for spec, i in misses]
    wrong_specs = {spec_text(spec): spec for spec, _ in misses}.values()
    old = {"x": MESH[1], "y": MESH[0]}  # the lesson's 4 × 2 mesh
    if all(clean[_normal(spec)] == _on_paper(spec, old) for spec in wrong_specs):
        hints = [(f"틀린 예측은 모두 4 × 2 메시의 값입니다. 2 × 4 메시에서는 \"x\"를 따라 디바이스 {MESH[0]}개, "
                  f"\"y\"를 따라 {MESH[1]}개가 놓입니다",
                  f"the wrong ones are all the 4 × 2 mesh's values: on the 2 × 4 mesh \"x\" has {MESH[0]} devices "
                  f"and \"y\" {MESH[1]}")]
    else:
        hints = [RULES[min(i, 3)] for i in sorted({i for _, i in misses})]
        hints = list(dict.fromkeys(hints))  # the two sums share a rule
        if any(i == 1 and clean[_normal(spec)][1] * 2**10 == truth[_normal(spec)][1] for spec, i in misses):
            hints.insert(0, ("바이트 대신 KiB를 적은 값이 있습니다. 바이트로 적으세요",
                             "some bytes are given in KiB: give bytes"))
    return wrong(f"예측 {total}개 가운데 {len(misses)}개가 틀렸습니다. {'; '.join(ko)}. "
                 f"{'. '.join(ko_ for ko_, _ in hints)}",
                 f"{len(misses)} of {total} predictions are wrong: {'; '.join(en)}. "
                 f"Look at: {'; '.join(en_ for _, en_ in hints)}")


check = checks(predictions=predictions)
