"""Check your answer to the exercise of "shard_map and collectives": import its ``check``, then

    from check_shard_map import check
    check.ring_all_reduce(your_ring)

``your_ring(block)`` runs inside ``jax.shard_map`` over the mesh axis ``"x"`` (the lesson's mesh, all
the CPU devices): it takes one device's block, a float32 vector whose length divides by the number
of devices n, and returns the sum of all the devices' blocks, built from ``jax.lax.ppermute`` alone.
The check runs it on blocks of small integers (their sums are exact in any order) and compares every
device's result with the sum NumPy computes; then it reads the compiled HLO: which collectives it
holds, how many ``collective-permute`` steps run (a step inside a loop counts once per trip), and
the bytes one device sends, against the ring's 2 (n - 1) steps of one chunk, 2 (n - 1) / n x S.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import jax
import numpy as np
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from collectives import bytes_sent, collectives  # noqa: E402
from exercise_check import all_of, checks, close, right, run_reader, wrong  # noqa: E402

AXIS = "x"
CHUNK = 4  # values in each of a block's n chunks

# A computation's first line ("%name (params) -> shape {", or "ENTRY %name ..."), and the computations an
# instruction calls: a while loop's body and condition, a fusion's or a reduction's, a conditional's branches.
_COMPUTATION = re.compile(r"^(?:ENTRY\s+)?%?(?P<name>[\w.\-]+)\s*\(.*\{\s*$")
_CALLED = re.compile(r"\b(?:body|condition|calls|to_apply|true_computation|false_computation)=%?([\w.\-]+)")
_BRANCHES = re.compile(r"branch_computations=\{([^}]*)\}")
_TRIPS = re.compile(r'"known_trip_count":\{"n":"(\d+)"\}')


def executed_collectives(hlo: str) -> tuple[list[tuple[object, int]], bool]:
    """Each collective of a compiled program with how many times it runs, and whether every loop's trip count is known.

    A collective in a ``while`` loop's body runs once per trip: XLA writes the trip count it proved in
    the loop's ``backend_config`` (``known_trip_count``). A loop without one counts once, and the second
    value is False.

    >>> hlo = '''
    ... %body (p: (s32[], f32[4])) -> (s32[], f32[4]) {
    ...   %cp = f32[4]{0} collective-permute(%g), channel_id=1, source_target_pairs={{0,1},{1,0}}
    ... }
    ... ENTRY %main (a: f32[4]) -> f32[4] {
    ...   %w = (s32[], f32[4]) while(%t), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"7"}}
    ... }
    ... '''
    >>> [(op.kind, times) for op, times in executed_collectives(hlo)[0]], executed_collectives(hlo)[1]
    ([('collective-permute', 7)], True)
    """
    bodies: dict[str, list[str]] = {}
    entry, current = None, None
    for line in hlo.splitlines():
        if match := _COMPUTATION.match(line):
            current = match["name"]
            bodies[current] = []
            if line.startswith("ENTRY"):
                entry = current
        elif current is not None:
            bodies[current].append(line)
    if entry is None:  # not a module's text: count every collective once
        return [(op, 1) for op in collectives(hlo)], True
    known = True
    found: list[tuple[object, int]] = []

    def visit(name: str, times: int, depth: int = 0) -> None:
        nonlocal known
        if name not in bodies or depth > 50:
            return
        for line in bodies[name]:
            found.extend((op, times) for op in collectives(line))
            called = _CALLED.findall(line)
            if branches := _BRANCHES.search(line):
                called += [b.strip().lstrip("%") for b in branches[1].split(",") if b.strip()]
            trips = 1
            if " while(" in line:
                if match := _TRIPS.search(line):
                    trips = int(match[1])
                else:
                    known = False
            for callee in called:
                visit(callee, times * trips, depth + 1)

    visit(entry, 1)
    return found, known


def _blocks(n: int, size: int) -> np.ndarray:
    """Each device's block, one row per device: small integers, so that every order of adding is exact."""
    return np.random.default_rng(7).integers(-50, 51, size=(n, size)).astype(np.float32)


def ring_all_reduce(function):
    """Check ``function(block)``, inside ``shard_map`` over ``"x"``: the sum of all blocks, by ``ppermute`` alone."""
    devices = jax.devices("cpu")
    n = len(devices)
    if n < 2:
        return wrong(f"CPU 디바이스가 {n}개뿐이라 링을 만들 수 없습니다. 어떤 배열도 만들기 전에 "
                     "jax.config.update(\"jax_num_cpu_devices\", 8)을 부르는 준비 셀부터 실행하세요",
                     f"only {n} CPU device, too few for a ring: run the setup cell first, which calls "
                     "jax.config.update(\"jax_num_cpu_devices\", 8) before any array exists")
    size = n * CHUNK
    blocks = _blocks(n, size)
    total = blocks.astype(np.float64).sum(axis=0)
    mesh = jax.make_mesh((n,), (AXIS,), devices=devices)
    x = jax.device_put(blocks.reshape(-1), NamedSharding(mesh, P(AXIS)))

    def build():
        ring = jax.jit(jax.shard_map(_ending_in_reader(function), mesh=mesh, in_specs=P(AXIS), out_specs=P(AXIS)))
        compiled = ring.lower(x).compile()
        return compiled, np.asarray(compiled(x))

    built, problem = run_reader(build)
    if problem is not None:
        return problem
    compiled, got = built
    got = got.reshape(n, -1) if got.size == n * size else got  # one row per device
    values = close(got, np.tile(total, (n, 1)), "디바이스별 결과", "each device's result", rtol=1e-6, atol=1e-6)
    if not values.ok:
        return _diagnose_values(values, got, blocks, total, n)
    counts = _collectives(compiled.as_text(), n, size * 4)
    return counts if not counts.ok else all_of(values, counts)


def _ending_in_reader(function):
    """``function``, whose errors' tracebacks end at its own code's last line, not inside JAX (for ``run_reader``)."""
    file = getattr(getattr(function, "__code__", None), "co_filename", None)

    def traced(block):
        try:
            return function(block)
        except Exception as error:
            tb, last = error.__traceback__, None
            while tb is not None:
                if tb.tb_frame.f_code.co_filename == file:
                    last = tb
                tb = tb.tb_next
            if last is not None:
                last.tb_next = None
            raise

    return traced


def _diagnose_values(values, got, blocks, total, n):
    """The wrong values, with what they look like: a device's own block, or some chunks summed and not the rest."""
    if got.shape != blocks.shape:
        return values
    got = got.reshape(n, n, CHUNK)  # device, chunk, value
    want = total.reshape(n, CHUNK)
    if np.array_equal(got.reshape(blocks.shape), blocks):
        return wrong(f"{values.ko}. 결과가 디바이스마다 자기 블록 그대로입니다. 받은 조각을 더하거나 저장했는지 보세요",
                     f"{values.en}; every device returned its own block unchanged: look at whether the chunks "
                     "received are added and stored")
    summed = [[c for c in range(n) if np.array_equal(got[d, c], want[c])] for d in range(n)]
    if all(summed) and not all(len(s) == n for s in summed):
        ko_has = ", ".join(map(str, summed[0]))
        if all(len(s) == 1 for s in summed):
            return wrong(f"{values.ko}. 디바이스마다 조각 하나만 전체 합입니다(디바이스 0은 조각 {ko_has}). "
                         "reduce-scatter 과정까지는 되었으니, all-gather 과정에서 완성된 조각을 한 바퀴 더 돌려 "
                         "제자리에 저장하세요",
                         f"{values.en}; each device holds the full sum of one chunk only (device 0: chunk {ko_has}): "
                         "the reduce-scatter phase works; in the all-gather phase, send the finished chunks once "
                         "more round the ring and store each in its place")
        return wrong(f"{values.ko}. 일부 조각만 전체 합입니다(디바이스 0은 {n}조각 가운데 조각 {ko_has}). "
                     "all-gather 과정에서 받은 조각을 어느 자리에 저장하는지 보세요",
                     f"{values.en}; only some chunks hold the full sum (device 0: chunks {ko_has} of {n}): "
                     "look at where the all-gather phase stores the chunk it receives")
    return values


def _collectives(hlo: str, n: int, block_bytes: int):
    """The compiled ring: ``collective-permute`` only, 2 (n - 1) steps of one chunk, the ring formula's bytes."""
    ops, known = executed_collectives(hlo)
    others = sorted({op.kind for op, _ in ops if op.kind != "collective-permute"})
    if others:
        kinds = ", ".join(others)
        return wrong(f"결과는 맞지만 컴파일된 HLO에 {kinds} 명령어가 있습니다. ppermute만으로 만드세요"
                     "(psum은 all-reduce, all_gather는 all-gather, psum_scatter는 reduce-scatter가 됩니다)",
                     f"the result is right, but the compiled HLO holds {kinds}: build it from ppermute alone "
                     "(psum becomes all-reduce, all_gather all-gather, psum_scatter reduce-scatter)")
    steps = sum(times for _, times in ops)
    sent = sum(bytes_sent(op) * times for op, times in ops)
    ring = 2 * (n - 1) / n * block_bytes
    chunk = block_bytes // n
    step_sizes = sorted({op.result_bytes for op, _ in ops})
    if not known:
        return right(f"결과가 맞고 ppermute만 썼습니다. 다만 반복 횟수를 알 수 없는 루프가 있어 단계와 바이트는 세지 "
                     f"못했습니다(한 번씩 세면 collective-permute {steps}개, {sent:,.0f}바이트)",
                     f"right, from ppermute alone; a loop's trip count is unknown, so the steps and bytes were not "
                     f"counted (counting each once: {steps} collective-permutes, {sent:,.0f} bytes)")
    if abs(sent - ring) > 0.5:
        facts = (f"디바이스 하나가 보내는 바이트가 {sent:,.0f}바이트로, 링 공식 2(n − 1)/n × S = {ring:,.0f}바이트와 "
                 f"다릅니다(n = {n}, S = {block_bytes:,}바이트; collective-permute {steps}단계, 단계마다 "
                 f"{'·'.join(f'{s:,}' for s in step_sizes)}바이트)",
                 f"each device sends {sent:,.0f} bytes, not the ring formula's 2(n − 1)/n × S = {ring:,.0f} "
                 f"(n = {n}, S = {block_bytes:,} bytes; {steps} collective-permute steps of "
                 f"{', '.join(f'{s:,}' for s in step_sizes)} bytes)")
        if step_sizes == [block_bytes]:
            return wrong(f"결과는 맞지만 {facts[0]}. 단계마다 블록 전체를 보냈습니다. 블록을 n조각으로 잘라 단계마다 "
                         f"조각 하나({chunk:,}바이트)만 보내세요",
                         f"the result is right, but {facts[1]}: each step sends the whole block; cut it into n "
                         f"chunks and send one chunk ({chunk:,} bytes) per step")
        return wrong(f"결과는 맞지만 {facts[0]}. 단계마다 조각 하나({chunk:,}바이트)를 보내는지, 단계가 "
                     f"2(n − 1) = {2 * (n - 1)}개인지 보세요",
                     f"the result is right, but {facts[1]}: look at whether each step sends one chunk "
                     f"({chunk:,} bytes), in 2(n − 1) = {2 * (n - 1)} steps")
    ko = (f"collective-permute {steps}단계로 디바이스마다 {sent:,.0f}바이트를 보내, 링 공식 2(n − 1)/n × S와 "
          f"같습니다(n = {n}, S = {block_bytes:,}바이트)")
    en = f"{steps} collective-permute steps, {sent:,.0f} bytes sent by each device: the ring formula 2(n − 1)/n × S " \
         f"(n = {n}, S = {block_bytes:,} bytes)"
    if steps != 2 * (n - 1):
        return right(f"{ko}. 단계가 링의 2(n − 1) = {2 * (n - 1)}개와 달라, 바이트는 같아도 단계마다 지연 시간을 "
                     "한 번씩 더 치릅니다",
                     f"{en}; not the ring's 2(n − 1) = {2 * (n - 1)} steps: the same bytes, but each step pays a "
                     "latency")
    return right(ko, en)


check = checks(ring_all_reduce=ring_all_reduce)
