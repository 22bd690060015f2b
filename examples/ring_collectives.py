"""A ring all-reduce built from ``jax.lax.ppermute``, checked against ``jax.lax.psum``.

The lesson "shard_map and collectives". Each of ``n`` devices holds a block of ``size`` float32
values; the all-reduce leaves on every device the sum of all the blocks. The ring algorithm cuts
each block into ``n`` chunks and runs in two phases of ``n - 1`` steps, every step one
``ppermute`` in which each device sends one chunk to the next device of the ring and receives one
from the previous:

1. reduce-scatter: a device adds the chunk it receives into its own copy of that chunk, and passes
   the running sum on; after ``n - 1`` steps device ``i`` holds the full sum of chunk ``(i + 1) % n``;
2. all-gather: the finished chunks travel once more round the ring, each device storing what it
   receives, until every device holds every summed chunk.

For each size the program checks the result against ``psum`` (the same numbers up to the order of
the additions), counts the ``collective-permute`` instructions in the compiled HLO (2 (n - 1)), and
adds up the bytes each device sends, read from the HLO with ``collectives.py``: 2 (n - 1) steps of
``size / n`` values, the ring formula that ``collectives.bytes_sent`` charges the ``all-reduce`` of
``psum``.

    python examples/ring_collectives.py --sizes 8 64 1024      # on 8 simulated CPU devices
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax
import numpy as np
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from collectives import bytes_sent, collectives, count  # noqa: E402

AXIS = "x"


def ring_pairs(n: int) -> list[tuple[int, int]]:
    """The ``perm`` of one step round a ring of ``n`` devices: each device sends to the next one.

    >>> ring_pairs(4)
    [(0, 1), (1, 2), (2, 3), (3, 0)]
    """
    return [(i, (i + 1) % n) for i in range(n)]


def schedule(n: int, device: int) -> list[tuple[str, int, int]]:
    """Which chunk ``device`` sends and which it receives at each step: (phase, sent, received).

    >>> for step in schedule(4, 0):
    ...     print(step)
    ('reduce-scatter', 0, 3)
    ('reduce-scatter', 3, 2)
    ('reduce-scatter', 2, 1)
    ('all-gather', 1, 0)
    ('all-gather', 0, 3)
    ('all-gather', 3, 2)
    """
    steps = [("reduce-scatter", (device - s) % n, (device - s - 1) % n) for s in range(n - 1)]
    return steps + [("all-gather", (device + 1 - s) % n, (device - s) % n) for s in range(n - 1)]


def ring_all_reduce(block, axis_name: str = AXIS):
    """The sum of ``block`` over the devices of ``axis_name``, by ``ppermute`` steps; inside ``shard_map``.

    >>> n = len(jax.devices("cpu"))
    >>> mesh = jax.make_mesh((n,), ("x",), devices=jax.devices("cpu"))
    >>> f = jax.shard_map(ring_all_reduce, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    >>> x = jax.device_put(jnp.arange(4.0 * n * n), NamedSharding(mesh, P("x")))
    >>> bool(jnp.allclose(f(x)[:4 * n], x.reshape(n, 4 * n).sum(0)))
    True
    """
    n = jax.lax.axis_size(axis_name)
    if block.shape[0] % n:
        raise ValueError(f"ring_all_reduce: a block of {block.shape[0]} values does not cut into {n} chunks")
    me = jax.lax.axis_index(axis_name)
    chunks = block.reshape(n, -1)
    perm = ring_pairs(n)
    for s in range(n - 1):  # reduce-scatter: pass a running sum on, add what arrives
        sent = jax.lax.dynamic_index_in_dim(chunks, (me - s) % n, keepdims=False)
        received = jax.lax.ppermute(sent, axis_name, perm)
        chunks = chunks.at[(me - s - 1) % n].add(received)
    for s in range(n - 1):  # all-gather: pass the finished sums on, store what arrives
        sent = jax.lax.dynamic_index_in_dim(chunks, (me + 1 - s) % n, keepdims=False)
        received = jax.lax.ppermute(sent, axis_name, perm)
        chunks = chunks.at[(me - s) % n].set(received)
    return chunks.reshape(block.shape)


def compare(mesh, size: int, seed: int = 0) -> dict:
    """Ring all-reduce and ``psum`` of float32 blocks of ``size`` values: results, HLO counts, bytes.

    Returns the largest difference between the two results, the collectives of each compiled
    program, the sizes of the ring's ``collective-permute`` steps, and the bytes each device sends
    in each program (read from the HLO, ring formulas).
    """
    n = mesh.shape[AXIS]
    rng = np.random.default_rng(seed)
    x = jax.device_put(rng.standard_normal(n * size, dtype=np.float32), NamedSharding(mesh, P(AXIS)))
    ring = jax.jit(jax.shard_map(ring_all_reduce, mesh=mesh, in_specs=P(AXIS), out_specs=P(AXIS)))
    psum = jax.jit(jax.shard_map(lambda b: jax.lax.psum(b, AXIS), mesh=mesh, in_specs=P(AXIS), out_specs=P()))
    by_ring, by_psum = np.asarray(ring(x)).reshape(n, size), np.asarray(psum(x))
    one_device = np.asarray(x).reshape(n, size).sum(axis=0)
    ring_hlo, psum_hlo = ring.lower(x).compile().as_text(), psum.lower(x).compile().as_text()
    ring_ops, psum_ops = collectives(ring_hlo), collectives(psum_hlo)
    return {"size": size, "devices": n,
            "max_diff": float(np.abs(by_ring - by_psum[None]).max()),
            "max_diff_one": float(np.abs(by_ring - one_device[None]).max()),
            "ring_counts": count(ring_hlo),
            "psum_counts": count(psum_hlo),
            "ring_step_bytes": sorted({op.result_bytes for op in ring_ops}),  # one chunk per step: [4 * size / n]
            "ring_bytes": sum(bytes_sent(op) for op in ring_ops),
            "psum_bytes": sum(bytes_sent(op) for op in psum_ops)}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 1024],
                        help="float32 values per device (each a multiple of the device count)")
    parser.add_argument("--devices", type=int, default=8, help="simulated CPU devices in the ring")
    args = parser.parse_args(argv)
    try:  # alone, ask for the devices; inside a notebook that already has them, use those
        jax.config.update("jax_num_cpu_devices", args.devices)
    except RuntimeError:
        pass
    devices = jax.devices("cpu")[: args.devices]
    mesh = jax.make_mesh((len(devices),), (AXIS,), devices=devices)
    n = len(devices)
    print(f"ring all-reduce over {n} CPU devices; bytes each device sends, from the compiled HLO")
    print(f"{'values':>8} {'ring max diff':>14} {'collective-permutes':>20} {'ring bytes':>11} "
          f"{'psum (all-reduce)':>18} {'psum bytes':>11}")
    rows = []
    for size in args.sizes:
        row = compare(mesh, size)
        rows.append(row)
        print(f"{size:>8,} {row['max_diff']:>14.2e} {row['ring_counts'].get('collective-permute', 0):>20} "
              f"{row['ring_bytes']:>11,.0f} {row['psum_counts'].get('all-reduce', 0):>18} {row['psum_bytes']:>11,.0f}")
    return rows


if __name__ == "__main__":
    ring_rows = main()
