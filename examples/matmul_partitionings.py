"""One matrix product partitioned several ways over a mesh: the collectives inserted and the bytes they move.

C = A @ B with A (M, K) and B (K, N), on a 1-D mesh of ``--devices`` CPU devices with one axis "x"
of type Auto. Each partitioning fixes how A and B come in and how C goes out
(``jax.jit(..., in_shardings=..., out_shardings=...)``); the compiler's partitioner decides the rest
and inserts the collectives it needs. They are read from the compiled program's HLO with
``collectives.py``, with the bytes each device sends in a ring. For each partitioning the program
prints the collectives, the bytes sent per device, the bytes each device holds (its shards of A, B
and C), the temporary bytes the compiled program needs per device besides them (its
``memory_analysis()``: a gathered matrix, partial sums), the output's sharding, and checks the result
against the same product on one device.

"Fully sharded" partitionings keep 1/n of every matrix on each device (no copy of a whole matrix
anywhere); among them, the one that moves least is reported. The last column is an estimate on paper:
the time of those bytes over one GPU's NVLink on an 8-GPU H100 board (``device_peaks.link_bandwidth``,
a ring, bytes only: no latency, no overlap with compute). The simulated devices have no interconnect.

    python examples/matmul_partitionings.py --m 1024 --k 512 --n 256 --plot partitionings.png

writes partitionings.ko.png and partitionings.en.png: bytes sent per device, labelled in each language.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from collectives import Collective, bytes_sent, collectives, ring_seconds  # noqa: E402
from device_peaks import link_bandwidth, lookup  # noqa: E402
from plotting import PLOT_HELP, new_figure, save, say, write_plot  # noqa: E402

ESTIMATE_GPU = "NVIDIA H100 80GB HBM3"  # the board the on-paper time is for


@dataclasses.dataclass(frozen=True)
class Partitioning:
    """How A, B and C are laid out: a spec per matrix, one entry per dimension ("x" or None)."""

    key: str
    ko: str
    en: str
    a: tuple
    b: tuple
    c: tuple

    @property
    def fully_sharded(self) -> bool:
        """Whether every matrix is split over the mesh (no device holds a whole one).

        >>> PARTITIONINGS[0].fully_sharded, PARTITIONINGS[2].fully_sharded
        (False, True)
        """
        return all("x" in spec for spec in (self.a, self.b, self.c))


PARTITIONINGS = (
    Partitioning("rows_b_replicated", "A 행 분할, B 복제 → C 행", "A rows, B replicated → C rows",
                 ("x", None), (None, None), ("x", None)),
    Partitioning("k_c_replicated", "A·B 모두 K 분할 → C 복제", "A and B split on K → C replicated",
                 (None, "x"), ("x", None), (None, None)),
    Partitioning("k_c_rows", "A·B 모두 K 분할 → C 행", "A and B split on K → C rows",
                 (None, "x"), ("x", None), ("x", None)),
    Partitioning("b_cols_c_replicated", "A 복제, B 열 분할 → C 복제", "A replicated, B columns → C replicated",
                 (None, None), (None, "x"), (None, None)),
    Partitioning("rows_b_rows", "A 행, B 행(K) 분할 → C 행", "A rows, B rows (K) → C rows",
                 ("x", None), ("x", None), ("x", None)),
    Partitioning("k_b_cols", "A 열(K), B 열 분할 → C 열", "A columns (K), B columns → C columns",
                 (None, "x"), (None, "x"), (None, "x")),
)


def shard_bytes(shape: tuple[int, int], spec: tuple, devices: int, itemsize: int = 4) -> int:
    """Bytes of one device's shard of an array of ``shape`` laid out as ``spec`` over ``devices``.

    >>> shard_bytes((1024, 512), ("x", None), 8), shard_bytes((1024, 512), (None, None), 8)
    (262144, 2097152)
    """
    dims = [size // devices if axis == "x" else size for size, axis in zip(shape, spec, strict=True)]
    return math.prod(dims) * itemsize


def fewest_bytes(rows: list[dict], fully_sharded: bool = True) -> list[str]:
    """The keys of the partitionings that send fewest bytes per device (several if they tie),
    among the fully sharded ones unless ``fully_sharded`` is False.

    >>> rows = [{"key": "a", "fully_sharded": False, "sent": 0.0},
    ...         {"key": "b", "fully_sharded": True, "sent": 8.0}, {"key": "c", "fully_sharded": True, "sent": 8.0}]
    >>> fewest_bytes(rows), fewest_bytes(rows, fully_sharded=False)
    (['b', 'c'], ['a'])
    """
    pool = [row for row in rows if row["fully_sharded"] or not fully_sharded]
    least = min(row["sent"] for row in pool)
    return [row["key"] for row in pool if row["sent"] == least]


def describe(ops: list[Collective]) -> str:
    """The collectives of a program in a few words: each kind with its count, or "none".

    >>> describe([]), describe([Collective("all-gather", "f32[4]", 16, 8)] * 2)
    ('none', 'all-gather ×2')
    """
    kinds: dict[str, int] = {}
    for op in ops:
        kinds[op.kind] = kinds.get(op.kind, 0) + 1
    return ", ".join(f"{kind} ×{n}" if n > 1 else kind for kind, n in kinds.items()) or "none"


def spec_text(spec: tuple) -> str:
    """A spec as ``P(...)`` is written in code.

    >>> spec_text(("x", None)), spec_text((None, None))
    ("P('x', None)", 'P()')
    """
    return "P()" if all(axis is None for axis in spec) else f"P({', '.join(map(repr, spec))})"


def measure(m: int, k: int, n: int, devices: int, seed: int = 0) -> list[dict]:
    """Compile and run every partitioning of ``A @ B``; one row of facts per partitioning."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    cpus = jax.devices("cpu")
    if len(cpus) < devices:
        raise SystemExit(f"--devices {devices}: JAX has only {len(cpus)} CPU devices")
    mesh = jax.make_mesh((devices,), ("x",), (AxisType.Auto,), devices=cpus[:devices])
    rng = np.random.default_rng(seed)
    a_host = rng.standard_normal((m, k), dtype=np.float32)
    b_host = rng.standard_normal((k, n), dtype=np.float32)
    # The reference: the same product on one CPU device.
    one = np.asarray(jnp.matmul(jax.device_put(a_host, cpus[0]), jax.device_put(b_host, cpus[0])))
    bandwidth = link_bandwidth(lookup(ESTIMATE_GPU))[0]
    rows = []
    for part in PARTITIONINGS:
        sharding = {name: NamedSharding(mesh, P(*getattr(part, name))) for name in "abc"}
        product = jax.jit(jnp.matmul, in_shardings=(sharding["a"], sharding["b"]), out_shardings=sharding["c"])
        a, b = jax.device_put(a_host, sharding["a"]), jax.device_put(b_host, sharding["b"])
        compiled = product.lower(a, b).compile()
        ops, memory = collectives(compiled.as_text()), compiled.memory_analysis()
        c = compiled(a, b)
        error = float(np.max(np.abs(np.asarray(c) - one)) / np.max(np.abs(one)))
        rows.append({
            "key": part.key, "ko": part.ko, "en": part.en, "fully_sharded": part.fully_sharded,
            "specs": {name: spec_text(getattr(part, name)) for name in "abc"},
            "ops": ops, "kinds": [op.kind for op in ops], "sent": sum(bytes_sent(op) for op in ops),
            "held": (shard_bytes((m, k), part.a, devices) + shard_bytes((k, n), part.b, devices)
                     + shard_bytes((m, n), part.c, devices)),
            "compiled_held": memory.argument_size_in_bytes + memory.output_size_in_bytes,
            "temp": memory.temp_size_in_bytes,
            "out_spec": c.sharding.spec, "c_shard_shape": c.addressable_shards[0].data.shape,
            "relative_error": error, "estimate_us": ring_seconds(ops, bandwidth) * 1e6})
    return rows


def format_table(rows: list[dict]) -> str:
    """One line per partitioning: specs, collectives, KiB sent, held and temporary per device, the estimate."""
    lines = [f"{'A':<14}{'B':<14}{'C':<14}{'collectives':<20}{'sent KiB':>10}{'held KiB':>10}{'temp KiB':>10}"
             f"{'H100 µs*':>10}{'rel. error':>12}"]
    for row in rows:
        s = row["specs"]
        mark = " (fully sharded)" if row["fully_sharded"] else ""
        lines.append(f"{s['a']:<14}{s['b']:<14}{s['c']:<14}{describe(row['ops']):<20}"
                     f"{row['sent'] / 2**10:>10,.0f}{row['held'] / 2**10:>10,.0f}{row['temp'] / 2**10:>10,.0f}"
                     f"{row['estimate_us']:>10,.2f}"
                     f"{row['relative_error']:>12.1e}{mark}")
    return "\n".join(lines)


def draw(rows: list[dict], shape: tuple[int, int, int], path: str, language: str) -> None:
    """Bytes sent per device, one horizontal bar per partitioning, fully sharded ones in their own colour."""
    fig, ax = new_figure()
    names = [row[language] for row in rows]
    kib = [row["sent"] / 2**10 for row in rows]
    colours = ["tab:blue" if row["fully_sharded"] else "tab:gray" for row in rows]
    bars = ax.barh(range(len(rows)), kib, color=colours)
    labels = [describe(row["ops"]) if row["ops"] else say(language, "없음", "none") for row in rows]
    ax.bar_label(bars, labels=labels, padding=3, fontsize=10)
    ax.set_yticks(range(len(rows)), names, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, max(kib + [1]) * 1.6)
    ax.set_xlabel(say(language, "디바이스마다 보내는 바이트 (KiB)", "bytes sent per device (KiB)"))
    m, k, n = shape
    ax.set_title(say(language, f"C = A @ B, M={m} K={k} N={n}\n(파랑: 완전 샤딩)",
                     f"C = A @ B, M={m} K={k} N={n}\n(blue: fully sharded)"), fontsize=11)
    save(fig, path)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--m", type=int, default=1024, help="rows of A and C (default: %(default)s)")
    parser.add_argument("--k", type=int, default=512, help="columns of A, rows of B (default: %(default)s)")
    parser.add_argument("--n", type=int, default=256, help="columns of B and C (default: %(default)s)")
    parser.add_argument("--devices", type=int, default=8, help="devices on the mesh (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    if any(size % args.devices for size in (args.m, args.k, args.n)):
        parser.error(f"M, K and N must be multiples of --devices {args.devices}")
    import jax  # noqa: PLC0415

    try:  # a fresh process: ask for the simulated devices before JAX starts its CPU backend
        jax.config.update("jax_num_cpu_devices", args.devices)
    except RuntimeError:  # JAX already started (as under %run in a notebook that set it)
        pass
    rows = measure(args.m, args.k, args.n, args.devices)
    print(f"C = A @ B, A {args.m}×{args.k}, B {args.k}×{args.n}, float32, on {args.devices} CPU devices (mesh axis x)")
    print(format_table(rows))
    winners = fewest_bytes(rows)
    print("fewest bytes among the fully sharded:", ", ".join(winners))
    gbs, what = link_bandwidth(lookup(ESTIMATE_GPU))
    print(f"* estimate on paper, not measured: the collectives' bytes over {what} = {gbs / 1e9:,.0f} GB/s "
          f"per GPU ({ESTIMATE_GPU}), a ring, no latency, no overlap with compute")
    for row in rows:
        assert row["relative_error"] < 1e-5, (row["key"], row["relative_error"])
    write_plot(draw, args.plot, rows, (args.m, args.k, args.n))
    return {"rows": rows, "winners": winners, "shape": (args.m, args.k, args.n), "devices": args.devices,
            "bandwidth": (gbs, what)}


if __name__ == "__main__":
    partitionings = main()
