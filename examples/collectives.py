"""The collectives in a compiled program, the bytes each moves, and its time on paper over a link.

When ``jax.jit`` partitions a program over several devices, the compiler inserts collective
operations wherever one device needs what another holds: ``all-reduce``, ``all-gather``,
``reduce-scatter``, ``all-to-all`` and ``collective-permute``. They are written in the optimized HLO
(``jax.jit(f).lower(*args).compile().as_text()``), one line each, with the shape of what each device
ends up holding and the groups of devices that take part. This module reads them from that text.

The time a collective takes depends on the interconnect, which simulated CPU devices do not have. So
``ring_seconds`` estimates it on paper, with the textbook cost of a ring over ``n`` devices, each
sending to the next one while it receives from the one before, at ``bandwidth`` bytes per second in
one direction (latency ignored):

- all-reduce of S bytes: each device sends 2 (n - 1) / n x S (a reduce-scatter, then an all-gather);
- all-gather to S bytes: (n - 1) / n x S;  reduce-scatter to S bytes per device: (n - 1) x S;
- all-to-all of S bytes: (n - 1) / n x S;  collective-permute of S bytes: S.

These are estimates for the bytes alone, not measurements: a real library (NCCL) picks other
algorithms too, overlaps collectives with compute, and pays a latency per step.

    python examples/collectives.py          # the collectives of a sharded matrix product on 8 CPU devices
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import re

KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")

_BITS = {"pred": 8, "s4": 4, "u4": 4, "s8": 8, "u8": 8, "s16": 16, "u16": 16, "f16": 16, "bf16": 16,
         "s32": 32, "u32": 32, "f32": 32, "s64": 64, "u64": 64, "f64": 64, "c64": 64, "c128": 128}

# "%all-reduce.3 = f32[64,128]{1,0} all-reduce(" or, on a GPU, the asynchronous "... all-reduce-start(".
# The "-done" half of an asynchronous pair moves nothing of its own, so it is not matched.
_OP = re.compile(r"=\s*(?P<shape>\(.*?\)|\S+)\s+(?P<kind>" + "|".join(KINDS) + r")(?:-start)?\(")
_ARRAY = re.compile(r"(?P<dtype>[a-z]+[0-9a-z]*)\[(?P<dims>[0-9,]*)\]")


@dataclasses.dataclass(frozen=True)
class Collective:
    """One collective of a compiled program: its kind, each device's result and the group size."""

    kind: str
    shape: str  # the result on each device, as the HLO writes it
    result_bytes: int  # bytes of that result on each device
    group_size: int  # devices that take part in each group


def array_bytes(shape: str) -> int:
    """Bytes of an HLO shape: an array ``f32[64,128]{1,0}`` or a tuple of them.

    >>> array_bytes("f32[64,128]{1,0}"), array_bytes("bf16[8]"), array_bytes("(f32[4]{0}, s32[2]{0})")
    (32768, 16, 24)
    """
    total = 0
    for match in _ARRAY.finditer(shape):
        dtype = match["dtype"]
        bits = _BITS.get(dtype) or (8 if dtype.startswith("f8") else None)
        if bits is None:
            raise ValueError(f"collectives: unknown HLO element type {dtype!r} in {shape!r}")
        dims = [int(d) for d in match["dims"].split(",") if d]
        total += math.prod(dims) * bits // 8
    return total


def group_size(line: str) -> int:
    """How many devices take part in each group of a collective, read from its HLO line.

    The compiler writes the groups as a list, as an iota ``[groups,size]<=[n]``, as named mesh axes
    (with the mesh's device order after them when it is not 0, 1, 2 ...), or, for a
    collective-permute, as source-target pairs (each pair is a group of two).

    >>> group_size("all-reduce(%a), replica_groups={{0,1},{2,3}}, to_apply=%add")
    2
    >>> group_size("all-gather(%a), replica_groups=[2,4]<=[8], dimensions={0}")
    4
    >>> group_size("all-gather(%a), replica_groups=mesh['axis_0'=4,'axis_1'=1,'axis_2'=2] {'axis_0'}, x")
    4
    >>> group_size("all-reduce(%a), replica_groups=mesh['axis_0'=2,'axis_1'=4], device_ids=([4,2]T(1,0)) {'axis_0'}")
    2
    >>> group_size("collective-permute(%a), source_target_pairs={{0,1},{1,0}}")
    2
    """
    if "source_target_pairs=" in line:
        return 2
    if match := re.search(r"replica_groups=\{\{([0-9,]*)\}", line):
        return len(match[1].split(","))
    if match := re.search(r"replica_groups=\[[0-9]+,([0-9]+)\]<=", line):
        return int(match[1])
    mesh_groups = r"replica_groups=mesh\[([^\]]*)\](?:,\s*device_ids=\(\[[0-9,]*\](?:T\([0-9,]*\))?\))?\s*\{([^}]*)\}"
    if match := re.search(mesh_groups, line):
        sizes = dict(re.findall(r"'([^']+)'=([0-9]+)", match[1]))
        return math.prod(int(sizes[name]) for name in re.findall(r"'([^']+)'", match[2]))
    raise ValueError(f"collectives: cannot read the device groups of this HLO line: {line.strip()[:200]}")


def collectives(hlo_text: str) -> list[Collective]:
    """Every collective in a compiled program's HLO text, in the order the text lists them.

    >>> hlo = '''
    ... %all-reduce = f32[64,128]{1,0} all-reduce(%d), channel_id=1, replica_groups={{0,1},{2,3}}, to_apply=%add
    ... ROOT %ag = f32[256,128]{1,0} all-gather(%all-reduce), replica_groups=[2,4]<=[8], dimensions={0}
    ... %ar-start = f32[8]{0} all-reduce-start(%p), replica_groups={{0,1,2,3,4,5,6,7}}, to_apply=%add
    ... %ar-done = f32[8]{0} all-reduce-done(%ar-start)
    ... '''
    >>> [(c.kind, c.result_bytes, c.group_size) for c in collectives(hlo)]
    [('all-reduce', 32768, 2), ('all-gather', 131072, 4), ('all-reduce', 32, 8)]
    """
    found = []
    for line in hlo_text.splitlines():
        if match := _OP.search(line):
            found.append(Collective(match["kind"], match["shape"], array_bytes(match["shape"]), group_size(line)))
    return found


def count(hlo_text: str) -> dict[str, int]:
    """How many of each kind of collective the program holds (kinds it lacks are absent).

    >>> count("%a = f32[2]{0} all-reduce(%x), replica_groups={{0,1}}, to_apply=%add")
    {'all-reduce': 1}
    """
    counts: dict[str, int] = {}
    for op in collectives(hlo_text):
        counts[op.kind] = counts.get(op.kind, 0) + 1
    return counts


def bytes_sent(op: Collective) -> float:
    """Bytes each device sends for ``op`` in a ring of ``op.group_size`` devices (the module docstring).

    >>> op = Collective("all-reduce", "f32[1024]", 4096, 4)
    >>> bytes_sent(op), bytes_sent(dataclasses.replace(op, kind="all-gather"))
    (6144.0, 3072.0)
    >>> bytes_sent(dataclasses.replace(op, kind="reduce-scatter")), bytes_sent(dataclasses.replace(op, group_size=1))
    (12288.0, 0.0)
    """
    n, size = op.group_size, op.result_bytes
    if n <= 1:
        return 0.0
    return {"all-reduce": 2 * (n - 1) / n * size, "all-gather": (n - 1) / n * size,
            "reduce-scatter": float((n - 1) * size), "all-to-all": (n - 1) / n * size,
            "collective-permute": float(size)}[op.kind]


def ring_seconds(ops: list[Collective], bandwidth: float) -> float:
    """Seconds the collectives ``ops`` take on paper, one after another, at ``bandwidth`` bytes/s one way.

    >>> ring_seconds([Collective("all-reduce", "f32[1024]", 4096, 4)], bandwidth=1e9)
    6.144e-06
    """
    return sum(bytes_sent(op) for op in ops) / bandwidth


def table(ops: list[Collective]) -> str:
    """One line per collective: kind, each device's result, group size, bytes each device sends."""
    lines = [f"{'collective':<20}{'result per device':<24}{'group':>6}{'bytes sent':>14}"]
    for op in ops:
        shape = re.sub(r"\{[0-9,]*\}", "", op.shape)
        lines.append(f"{op.kind:<20}{shape:<24}{op.group_size:>6}{bytes_sent(op):>14,.0f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    import jax  # noqa: PLC0415 (the device count must be set before JAX starts its CPU backend)

    jax.config.update("jax_num_cpu_devices", 8)
    import jax.numpy as jnp  # noqa: PLC0415
    from jax.sharding import AxisType, NamedSharding  # noqa: PLC0415
    from jax.sharding import PartitionSpec as P  # noqa: PLC0415

    mesh = jax.make_mesh((4, 2), ("x", "y"), (AxisType.Auto,) * 2, devices=jax.devices("cpu"))
    a = jax.device_put(jnp.ones((256, 512)), NamedSharding(mesh, P("x", "y")))
    b = jax.device_put(jnp.ones((512, 128)), NamedSharding(mesh, P("y", None)))
    product = jax.jit(lambda a, b: a @ b, out_shardings=NamedSharding(mesh, P()))
    print(table(collectives(product.lower(a, b).compile().as_text())))


if __name__ == "__main__":
    main()
