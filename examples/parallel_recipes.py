"""Data parallelism, FSDP and tensor parallelism for one MLP's training step, compared on paper.

The lesson "Parallelism recipes". The program builds a small MLP (plain JAX: a list of
``{"w", "b"}`` dicts), one SGD training step (mean squared error, ``jax.value_and_grad``), and
compiles that step once per recipe, with ``jax.jit(in_shardings=, out_shardings=)`` on a mesh of
simulated CPU devices (``AxisType.Auto``: the compiler partitions the step and inserts the collectives):

- DP: the batch split on the mesh axis "data", every parameter replicated;
- FSDP: the batch split on "data" and every parameter split on "data" along its first axis;
- TP: Megatron style on the axis "model": the 1st, 3rd, ... layers' weights split by columns, the
  2nd, 4th, ... by rows, the batch replicated;
- DP×TP: both on a 2-D mesh, the batch on "data", the weights as in TP on "model".

For each recipe it prints what the compiled program holds: its collectives by kind and the bytes
each device sends (``collectives.py``, ring formulas), the memory per device from
``compiled.memory_analysis()`` (arguments, outputs, temporaries), and the largest difference of the
updated parameters and loss from the same step on one device. Then two estimates on paper for 8
NVIDIA H100 SXM GPUs of one HGX board: the collectives' time at the NVLink bandwidth of one
direction (``device_peaks.link_bandwidth``: a ring, bytes only, no latency, no overlap with compute)
and the compute time, the step's FLOPs per device over the dense TF32 peak (float32 matrix products
at JAX's default precision on that GPU). The FLOPs are XLA's estimate (``cost_analysis()``, read by
``compiler_cost.xla_cost``) where it counts the whole program, which the CPU compiler does; else the
step's matrix products counted by hand (``step_matmul_flops``), and the table says so. Both come
from datasheets, not from a measurement: the simulated devices have no interconnect.

On these CPU devices XLA sums FSDP's gradients with an all-reduce followed by a slice: the CPU
compiler has no pass that turns that pair into a reduce-scatter (XLA's GPU compiler has one), so
FSDP here sends DP's bytes plus the all-gathers of the weights. The lesson writes FSDP by hand with
``jax.shard_map`` to compare; it reads its own compiled steps with ``summarize`` and ``print_table``.

    python examples/parallel_recipes.py --width 128 --depth 2 --batch 2048 --mesh 4x2 --plot recipes.png

writes recipes.ko.png and recipes.en.png: memory per device and bytes sent per recipe.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from collectives import bytes_sent, collectives, count, ring_seconds, table  # noqa: E402, F401 (table: for the lesson)
from compiler_cost import xla_cost  # noqa: E402
from device_peaks import link_bandwidth, lookup, matmul_peak  # noqa: E402
from plotting import PLOT_HELP, new_figure, save, say, write_plot  # noqa: E402

RECIPE_NAMES = ("DP", "FSDP", "TP", "DP×TP")
GPU = "NVIDIA H100 80GB HBM3"  # the SXM board; 8 of them on one HGX board, linked by NVLink
MIB = 2**20


def mlp_widths(width: int, depth: int) -> list[int]:
    """Layer widths of an MLP with ``depth`` layers: in and out ``width``, hidden layers 4 x ``width``.

    >>> mlp_widths(128, 2), mlp_widths(64, 3)
    ([128, 512, 128], [64, 256, 256, 64])
    """
    return [width] + [4 * width] * (depth - 1) + [width]


def init_mlp(rng: np.random.Generator, widths: list[int]) -> list[dict]:
    """Parameters: one ``{"w": (in, out), "b": (out,)}`` dict per layer, float32 NumPy arrays on the host.

    On the host, ``jax.device_put(params, shardings)`` sends each device only its own shard.

    >>> [{k: v.shape for k, v in layer.items()} for layer in init_mlp(np.random.default_rng(0), [4, 16, 4])]
    [{'w': (4, 16), 'b': (16,)}, {'w': (16, 4), 'b': (4,)}]
    """
    return [{"w": rng.standard_normal((a, b), dtype=np.float32) / math.sqrt(a), "b": np.zeros(b, np.float32)}
            for a, b in zip(widths[:-1], widths[1:], strict=True)]


def loss_fn(params, x, y):
    """Mean squared error of the MLP (ReLU between layers) on a batch."""
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    out = x @ params[-1]["w"] + params[-1]["b"]
    return jnp.mean((out - y) ** 2)


def train_step(params, x, y, lr=0.1):
    """One step of plain SGD: the updated parameters and the loss before the update."""
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss


def recipe_specs(name: str, layers: int, mesh: tuple[int, int]) -> tuple[tuple, tuple, list[dict], P]:
    """``(mesh shape, axis names, one spec dict per layer, the batch's spec)`` of a recipe.

    ``mesh`` is the 2-D shape (data, model) of DP×TP; the other recipes put all its devices on one axis.

    >>> shape, names, specs, batch = recipe_specs("FSDP", 2, (4, 2))
    >>> shape, names, specs[0] == {"w": P("data", None), "b": P("data")}, batch == P("data")
    ((8,), ('data',), True, True)
    >>> [s["w"] for s in recipe_specs("TP", 2, (4, 2))[2]] == [P(None, "model"), P("model", None)]
    True
    >>> recipe_specs("DP×TP", 2, (4, 2))[:2]
    ((4, 2), ('data', 'model'))
    """
    n = math.prod(mesh)
    if name == "DP":
        return (n,), ("data",), [{"w": P(), "b": P()} for _ in range(layers)], P("data")
    if name == "FSDP":
        return (n,), ("data",), [{"w": P("data", None), "b": P("data")} for _ in range(layers)], P("data")
    tp = [{"w": P(None, "model"), "b": P("model")} if i % 2 == 0 else {"w": P("model", None), "b": P()}
          for i in range(layers)]
    if name == "TP":
        return (n,), ("model",), tp, P()
    if name == "DP×TP":
        return tuple(mesh), ("data", "model"), tp, P("data")
    raise ValueError(f"unknown recipe {name!r}: one of {RECIPE_NAMES}")


def sharded_step(name: str, layers: int, mesh_shape: tuple[int, int]):
    """``(step, parameter shardings, batch sharding)``: ``train_step`` jitted with a recipe's shardings.

    The mesh is made of simulated CPU devices with ``AxisType.Auto`` axes: the compiler partitions
    the step and inserts the collectives. The updated parameters keep the recipe's shardings.
    """
    shape, names, specs, batch_spec = recipe_specs(name, layers, mesh_shape)
    mesh = jax.make_mesh(shape, names, (AxisType.Auto,) * len(shape), devices=jax.devices("cpu")[:math.prod(shape)])
    p_shard = [{k: NamedSharding(mesh, s) for k, s in layer.items()} for layer in specs]
    b_shard = NamedSharding(mesh, batch_spec)
    step = jax.jit(train_step, in_shardings=(p_shard, b_shard, b_shard),
                   out_shardings=(p_shard, NamedSharding(mesh, P())))
    return step, p_shard, b_shard


def step_matmul_flops(widths: list[int], batch: int) -> int:
    """The matrix products of one training step, counted by hand: 2·batch·a·b for each layer a -> b in
    the forward pass, twice that backward (the weights' gradient and the activations' gradient), less
    the first layer's activation gradient (the input x is not differentiated).

    >>> step_matmul_flops([128, 512, 128], 2048) == 2 * 2048 * (128 * 512 + 512 * 128) * 3 - 2 * 2048 * 128 * 512
    True
    """
    products = sum(a * b for a, b in zip(widths[:-1], widths[1:], strict=False))
    return 2 * batch * products * 3 - 2 * batch * widths[0] * widths[1]


def summarize(name: str, compiled, outputs, reference) -> dict:
    """What one compiled step holds and what it computed, against the one-device ``reference``.

    ``compiled`` is ``jax.jit(...).lower(...).compile()`` of a step taking ``(params, x, y)``;
    ``outputs`` are ``(new params, loss)`` from running it. Collectives and bytes sent from its HLO,
    memory per device from ``memory_analysis()``, FLOPs per device from XLA's estimate where it counts
    the whole program (``flops_by`` "XLA"), else by hand, an equal share of ``step_matmul_flops``
    (``flops_by`` "hand"), and the two estimates on paper for 8 H100s (module docstring).
    """
    hlo = compiled.as_text()
    ops = collectives(hlo)
    memory = compiled.memory_analysis()
    new_params, loss = outputs
    diffs = [float(np.max(np.abs(np.asarray(a) - np.asarray(b))))
             for a, b in zip(jax.tree.leaves(outputs), jax.tree.leaves(reference), strict=True)]
    peaks = lookup(GPU)
    mesh = jax.tree.leaves(new_params)[0].sharding.mesh
    cost = xla_cost(compiled)  # of the program each device runs
    widths = [layer["w"].shape[0] for layer in new_params] + [new_params[-1]["w"].shape[1]]
    batch = compiled.args_info[0][1].shape[0]  # x, the step's second argument: its global shape
    flops = cost.flops_or(step_matmul_flops(widths, batch) / mesh.size)
    return {"name": name, "mesh": dict(mesh.shape), "hlo": hlo, "ops": ops, "counts": count(hlo),
            "sent": sum(bytes_sent(op) for op in ops),
            "argument": memory.argument_size_in_bytes, "output": memory.output_size_in_bytes,
            "temp": memory.temp_size_in_bytes, "flops": flops, "flops_by": "XLA" if cost.counted else "hand",
            "comm_s": ring_seconds(ops, link_bandwidth(peaks)[0]),
            "compute_s": flops / matmul_peak(peaks, "float32")[0],
            "max_diff": max(diffs), "loss": float(loss),
            "out_specs": [{k: v.sharding.spec for k, v in layer.items()} for layer in new_params]}


def analyse(name: str, params, x, y, mesh_shape: tuple[int, int], reference) -> dict:
    """Compile one recipe's step once, run the compiled step, and ``summarize`` it."""
    step, p_shard, b_shard = sharded_step(name, len(params), mesh_shape)
    compiled = step.lower(params, x, y).compile()
    # Call the compiled program itself: calling ``step`` would compile the step a second time.
    outputs = compiled(jax.device_put(params, p_shard), jax.device_put(x, b_shard), jax.device_put(y, b_shard))
    return summarize(name, compiled, outputs, reference)


def print_table(results: list[dict]) -> None:
    """One line per recipe: collectives, bytes sent, memory per device, the estimates, the largest difference."""
    results = list(results)
    kinds = [", ".join(f"{v} {k}" for k, v in r["counts"].items()) or "none" for r in results]
    w_name = max(len("recipe"), *(len(r["name"]) for r in results)) + 1
    w_kinds = max(len("collectives"), *(len(k) for k in kinds)) + 1
    print(f"{'recipe':<{w_name}}{'collectives':<{w_kinds}}{'sent MiB':>9}{'arg MiB':>9}{'out MiB':>9}"
          f"{'temp MiB':>9}{'comm us':>9}{'compute us':>11}{'max diff':>10}")
    for r, k in zip(results, kinds, strict=True):
        print(f"{r['name']:<{w_name}}{k:<{w_kinds}}{r['sent'] / MIB:9.3f}{r['argument'] / MIB:9.3f}"
              f"{r['output'] / MIB:9.3f}{r['temp'] / MIB:9.3f}{r['comm_s'] * 1e6:9.2f}{r['compute_s'] * 1e6:11.2f}"
              f"{r['max_diff']:10.1e}")
    by_hand = [r["name"] for r in results if r.get("flops_by", "XLA") != "XLA"]
    if by_hand:
        print(f"compute us of {', '.join(by_hand)}: the FLOPs counted by hand (XLA could not count the whole "
              "program: a library call counts -1)")


def plot(results: list[dict], path: str, language: str) -> None:
    """Two panels per recipe: memory per device (arguments, outputs, temporaries stacked) and bytes sent."""
    fig, left = new_figure()
    fig.set_size_inches(8.0, 4.2)
    left.remove()
    left, right = fig.subplots(1, 2)
    names = [r["name"] for r in results]
    xs = np.arange(len(names))
    bottom = np.zeros(len(names))
    for key, ko, en in (("argument", "인자", "arguments"), ("output", "출력", "outputs"),
                        ("temp", "임시", "temporaries")):
        values = np.array([r[key] / MIB for r in results])
        left.bar(xs, values, bottom=bottom, label=say(language, ko, en))
        bottom += values
    left.set_xticks(xs, names, rotation=30)
    left.set_ylabel(say(language, "디바이스당 메모리(MiB)", "memory per device (MiB)"))
    left.legend(fontsize=10)
    right.bar(xs, [r["sent"] / MIB for r in results], color="tab:red")
    right.set_xticks(xs, names, rotation=30)
    right.set_ylabel(say(language, "디바이스가 보내는 바이트(MiB)", "bytes each device sends (MiB)"))
    save(fig, path)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=128,
                        help="input and output width; hidden layers are 4x (default: %(default)s)")
    parser.add_argument("--depth", type=int, default=2, help="number of layers (default: %(default)s)")
    parser.add_argument("--batch", type=int, default=2048, help="examples per step (default: %(default)s)")
    parser.add_argument("--mesh", default="4x2", help="DATAxMODEL shape of DP×TP's mesh; the other recipes "
                        "put all its devices on one axis (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    mesh_shape = tuple(int(v) for v in args.mesh.split("x"))
    jax.config.update("jax_num_cpu_devices", 8)  # simulated CPU devices; a no-op if JAX started with 8
    if math.prod(mesh_shape) > len(jax.devices("cpu")):
        raise SystemExit(f"--mesh {args.mesh} needs {math.prod(mesh_shape)} CPU devices; "
                         f"JAX has {len(jax.devices('cpu'))}")
    widths = mlp_widths(args.width, args.depth)
    rng = np.random.default_rng(0)
    params = init_mlp(rng, widths)
    x = rng.standard_normal((args.batch, widths[0]), dtype=np.float32)
    y = rng.standard_normal((args.batch, widths[-1]), dtype=np.float32)
    one = jax.devices("cpu")[0]
    reference = jax.jit(train_step)(*jax.device_put((params, x, y), one))  # one device
    param_bytes = sum(a.nbytes for a in jax.tree.leaves(params))
    bandwidth, what = link_bandwidth(lookup(GPU))
    print(f"MLP widths {widths}, batch {args.batch}, float32: parameters {param_bytes / MIB:.2f} MiB, "
          f"batch x {x.nbytes / MIB:.2f} MiB; mesh of {math.prod(mesh_shape)} simulated CPU devices")
    print(f"estimates on paper for 8 x {GPU}: {what}, {bandwidth / 1e9:,.0f} GB/s; compute at the peak "
          f"for float32 matrix products ({matmul_peak(lookup(GPU), 'float32')[1]})")
    results = [analyse(name, params, x, y, mesh_shape, reference) for name in RECIPE_NAMES]
    print_table(results)
    least = min(results, key=lambda r: r["sent"])
    print(f"least bytes sent: {least['name']}")
    write_plot(plot, args.plot, results)
    return {"widths": widths, "batch": args.batch, "mesh": mesh_shape, "param_bytes": param_bytes,
            "batch_bytes": x.nbytes, "reference": reference, "results": {r["name"]: r for r in results},
            "least": least["name"], "bandwidth": (bandwidth, what)}


if __name__ == "__main__":
    recipes_result = main()
