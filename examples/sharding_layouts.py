"""How a 2-D array is laid out on a 2-D mesh of devices, for each common PartitionSpec.

The lesson "Meshes and shardings". For a mesh of ``--mesh R C`` devices (axes named "x" and "y") and
an array of ``--shape M N`` float32 elements, the program puts the array onto the mesh with each
PartitionSpec in ``SPECS`` and prints, from the array's ``addressable_shards``: the shape of each
device's shard, the bytes each device holds, and how many devices hold each element (its
replication). Beside them it prints what it predicted on paper, from the spec alone (an array axis
split over mesh axes of sizes a, b, ... is cut into a × b × ... pieces; an element is held by as many
devices as the mesh axes the spec leaves out have), and checks that the two agree.

For each layout it also compiles ``a.sum(axis=0)`` and ``a.sum(axis=1)`` and lists the collectives
the compiler inserted (read from the compiled HLO with ``collectives.py``), with the size of the
device groups that take part: summing over an array axis split over mesh axes of total size k needs
an ``all-reduce`` in groups of k; summing over an axis that is not split needs none.

The devices are simulated CPU devices (``jax_num_cpu_devices``), as many as the mesh has: shapes,
bytes and collectives are facts of the compiled program; nothing here is timed.

    python examples/sharding_layouts.py --mesh 4 2 --shape 1024 512
    python examples/sharding_layouts.py --mesh 8 1
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import math
import sys
from pathlib import Path

import jax
import numpy as np
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from collectives import collectives  # noqa: E402

AXES = ("x", "y")
# The five common specs, then P("y", "x"): the mesh axes swapped between the array axes.
SPECS = (P("x", "y"), P("x"), P(None, "y"), P(("x", "y")), P(), P("y", "x"))


def split_ways(entry, mesh_sizes: dict[str, int]) -> int:
    """Into how many pieces one entry of a PartitionSpec cuts its array axis.

    >>> sizes = {"x": 4, "y": 2}
    >>> split_ways("x", sizes), split_ways(None, sizes), split_ways(("x", "y"), sizes)
    (4, 1, 8)
    """
    if entry is None:
        return 1
    names = entry if isinstance(entry, tuple) else (entry,)
    return math.prod(mesh_sizes[name] for name in names)


def predicted_shard_shape(shape: tuple[int, ...], spec: P, mesh_sizes: dict[str, int]) -> tuple[int, ...]:
    """The shape of each device's shard, on paper: each array axis divided by its split.

    >>> predicted_shard_shape((1024, 512), P("x", "y"), {"x": 4, "y": 2})
    (256, 256)
    >>> predicted_shard_shape((1024, 512), P(None, "y"), {"x": 4, "y": 2})
    (1024, 256)
    >>> predicted_shard_shape((1024, 512), P("y", "x"), {"x": 4, "y": 2})
    (512, 128)
    >>> predicted_shard_shape((1024, 512), P(), {"x": 4, "y": 2})
    (1024, 512)
    """
    entries = tuple(spec) + (None,) * (len(shape) - len(spec))
    return tuple(size // split_ways(entry, mesh_sizes) for size, entry in zip(shape, entries, strict=True))


def predicted_replication(spec: P, mesh_sizes: dict[str, int]) -> int:
    """How many devices hold each element, on paper: the product of the mesh axes the spec leaves out.

    >>> sizes = {"x": 4, "y": 2}
    >>> [predicted_replication(spec, sizes) for spec in (P("x", "y"), P("x"), P(None, "y"), P())]
    [1, 2, 4, 8]
    """
    used = {name for entry in spec if entry is not None
            for name in (entry if isinstance(entry, tuple) else (entry,))}
    return math.prod(size for name, size in mesh_sizes.items() if name not in used)


@dataclasses.dataclass
class Layout:
    """One PartitionSpec of one array on one mesh, as the shards show it."""

    spec: P
    type: str  # jax.typeof of the array, e.g. float32[1024@x,512@y]
    shard_shape: tuple[int, ...]
    bytes_per_device: int
    replication: int  # devices holding each element
    reductions: dict[int, list[tuple[str, int]]]  # axis summed over -> [(collective, group size), ...]


def measure(host: np.ndarray, mesh, spec: P) -> Layout:
    """Put ``host`` onto ``mesh`` with ``spec``; read its shards; compile a sum over each axis.

    On a mesh of one device every layout is one whole shard, held once, and no sum needs a collective:

    >>> mesh = jax.make_mesh((1, 1), AXES, devices=jax.devices("cpu")[:1])
    >>> layout = measure(np.ones((4, 2), np.float32), mesh, P("x", "y"))
    >>> layout.type, layout.shard_shape, layout.bytes_per_device, layout.replication, layout.reductions
    ('float32[4@x,2@y]', (4, 2), 32, 1, {0: [], 1: []})
    """
    array = jax.device_put(host, NamedSharding(mesh, spec))
    shards = array.addressable_shards
    shapes = {shard.data.shape for shard in shards}
    sizes = {shard.data.nbytes for shard in shards}
    assert len(shapes) == 1 and len(sizes) == 1, (shapes, sizes)  # every device holds an equal piece
    # Each distinct index is one piece of the array; count the devices holding it.
    holders = collections.Counter(tuple((s.start, s.stop) for s in shard.index) for shard in shards)
    assert len(set(holders.values())) == 1, holders
    reductions = {}
    for axis in range(host.ndim):
        summed = jax.jit(lambda a, axis=axis: a.sum(axis=axis))
        hlo = summed.lower(array).compile().as_text()
        np.testing.assert_allclose(summed(array), host.sum(axis=axis), rtol=1e-5)  # as on one device
        reductions[axis] = [(op.kind, op.group_size) for op in collectives(hlo)]
    return Layout(spec, str(jax.typeof(array)), shapes.pop(), sizes.pop(), next(iter(holders.values())),
                  reductions)


def spec_text(spec: P) -> str:
    """A PartitionSpec as one would type it.

    >>> spec_text(P("x", "y")), spec_text(P(None, "y")), spec_text(P(("x", "y"))), spec_text(P())
    ("P('x', 'y')", "P(None, 'y')", "P(('x', 'y'),)", 'P()')
    """
    return repr(spec)


def reduction_text(ops: list[tuple[str, int]]) -> str:
    """The collectives of one reduction, short: "none" or "all-reduce/4" (kind/group size).

    >>> reduction_text([]), reduction_text([("all-reduce", 4)]), reduction_text([("all-reduce", 2), ("all-reduce", 4)])
    ('none', 'all-reduce/4', 'all-reduce/2 all-reduce/4')
    """
    return " ".join(f"{kind}/{size}" for kind, size in ops) or "none"


def table(layouts: list[Layout], total_bytes: int) -> str:
    """One line per layout: spec, shard shape, KiB per device, copies, reductions, share of the array.

    The first four columns fit a phone's width; the rest scroll.
    """
    lines = [f"{'spec':<14}{'shard':>8}{'KiB/dev':>8}{'copies':>7}  {'sum(axis=0)':<14}{'sum(axis=1)':<14}share"]
    for layout in layouts:
        shard = "×".join(str(n) for n in layout.shard_shape)
        share = f"1/{total_bytes // layout.bytes_per_device}"
        lines.append(f"{spec_text(layout.spec):<14}{shard:>8}{layout.bytes_per_device / 2**10:>8,.0f}"
                     f"{layout.replication:>7}  {reduction_text(layout.reductions[0]):<14}"
                     f"{reduction_text(layout.reductions[1]):<14}{share}")
    return "\n".join(lines)


def run(mesh_shape: tuple[int, int], shape: tuple[int, int]) -> dict:
    """Measure every spec of ``SPECS`` on a mesh of ``mesh_shape`` CPU devices; check the predictions."""
    n_devices = math.prod(mesh_shape)
    devices = jax.devices("cpu")
    if len(devices) < n_devices:
        raise SystemExit(f"sharding_layouts: the mesh needs {n_devices} CPU devices, JAX has {len(devices)}")
    mesh = jax.make_mesh(mesh_shape, AXES, devices=devices[:n_devices])
    sizes = dict(zip(AXES, mesh_shape, strict=True))
    host = np.arange(math.prod(shape), dtype=np.float32).reshape(shape) / math.prod(shape)
    layouts = []
    for spec in SPECS:
        layout = measure(host, mesh, spec)
        assert layout.shard_shape == predicted_shard_shape(shape, spec, sizes), (spec, layout)
        assert layout.replication == predicted_replication(spec, sizes), (spec, layout)
        assert layout.bytes_per_device == host.nbytes * layout.replication // n_devices, (spec, layout)
        entries = tuple(spec) + (None,) * (len(shape) - len(spec))
        for axis, entry in enumerate(entries):  # a sum over a split axis: all-reduces over its k devices
            ops, ways = layout.reductions[axis], split_ways(entry, sizes)
            assert all(kind == "all-reduce" for kind, _ in ops), (spec, axis, ops)
            assert math.prod(size for _, size in ops) == ways and (ways == 1) == (not ops), (spec, axis, ops)
        layouts.append(layout)
    print(f"mesh {dict(mesh.shape)}: {n_devices} CPU devices")
    print(f"array float32{list(shape)}: {host.nbytes / 2**10:,.0f} KiB")
    print(table(layouts, host.nbytes))
    return {"mesh": mesh, "layouts": layouts, "nbytes": host.nbytes}


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mesh", type=int, nargs=2, default=(4, 2), metavar=("X", "Y"),
                        help="devices along the mesh axes x and y (default: 4 2)")
    parser.add_argument("--shape", type=int, nargs=2, default=(1024, 512), metavar=("M", "N"),
                        help="the array's shape; each side divisible by the mesh's device count (default: 1024 512)")
    args = parser.parse_args()
    needed = math.prod(args.mesh)
    if any(side % size for side in args.shape for size in (*args.mesh, needed)):
        parser.error(f"each side of --shape must be divisible by {needed} (the mesh's device count)")
    try:  # works only before JAX starts its CPU backend (run from a notebook, JAX may have started)
        jax.config.update("jax_num_cpu_devices", max(needed, 1))
    except RuntimeError:
        pass
    return run(tuple(args.mesh), tuple(args.shape))


if __name__ == "__main__":
    result = main()  # run from a notebook with %run, the layouts stay in its namespace
