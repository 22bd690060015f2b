"""Compiled temporary memory against step time of a deep MLP's gradient, for each checkpoint policy.

The exercise of the lesson "Rematerialization": a deep MLP of residual blocks
``h + gelu(h @ W1) @ W2``, its layers run by ``jax.lax.scan`` over stacked weights, and the gradient
of a mean-square loss with respect to every weight, compiled with ``jax.jit``. The scan's body is
used as it is (``plain``) or wrapped in ``jax.checkpoint`` with one of the policies of
``jax.checkpoint_policies``:

* ``everything``: ``everything_saveable``, save every residual (as without ``jax.checkpoint``);
* ``dots``: ``dots_saveable``, allow saving the outputs of matrix multiplications, recompute the
  rest (the backward pass needs only ``h @ W1``'s output: ``hidden @ W2``'s is never read);
* ``names``: ``save_only_these_names("hidden")``, save only the value named with ``checkpoint_name``
  (the block's hidden activation ``gelu(h @ W1)``);
* ``nothing``: ``nothing_saveable``, save only the body's inputs, recompute everything.

Each policy's step is jitted once and used for everything below. For each policy it reports what
the compiler says (``memory_analysis().temp_size_in_bytes``, the temporary buffers of one step; the
matrix multiplications in the optimized program; and XLA's cost estimate, bytes accessed and flops,
read with ``compiler_cost.xla_cost``; a loop body counted once), checks that every policy gives the
same gradient (by norm, with a looser tolerance off CPU, where float32 matmuls may run in TF32), and
times one step of every policy in one ``timing.compare`` (interleaved rounds; median and spread).

The cost estimate is printed "not counted" where XLA could not count the whole program: on a GPU
the matrix multiplications usually become cuBLAS calls, which it counts as -1 each. Even where it
is counted, it is an estimate, not a measurement of traffic: for a scan body that writes one slice
of a stacked output, it charges every iteration with the whole stacked buffer.

    python examples/remat_policies.py --depth 16 --width 64 --hidden 256 --batch 512 --plot remat_policies.png

writes remat_policies.ko.png and remat_policies.en.png: temporary memory against step time, one point
per policy, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.ad_checkpoint import checkpoint_name

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from compiler_cost import xla_cost  # noqa: E402
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import Comparison, compare, machine  # noqa: E402

POLICIES = ("plain", "everything", "dots", "names", "nothing")


def policy(name: str):
    """The ``policy=`` argument of ``jax.checkpoint`` for a policy's name (``None`` for ``plain``:
    no ``jax.checkpoint`` at all).

    >>> policy("dots") is jax.checkpoint_policies.dots_saveable
    True
    >>> policy("plain") is None
    True
    """
    policies = jax.checkpoint_policies
    return {"plain": None, "everything": policies.everything_saveable, "dots": policies.dots_saveable,
            "names": policies.save_only_these_names("hidden"), "nothing": policies.nothing_saveable}[name]


def block(h, weights):
    """One residual block, the body of the scan over layers: ``h + gelu(h @ W1) @ W2``.

    >>> h, _ = block(jnp.ones((2, 3)), (jnp.zeros((3, 5)), jnp.zeros((5, 3))))
    >>> h.tolist()
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    """
    w1, w2 = weights
    hidden = checkpoint_name(jax.nn.gelu(h @ w1), "hidden")
    return h + hidden @ w2, None


def make_loss(name: str):
    """The loss of the deep MLP, its scan body wrapped in ``jax.checkpoint`` as policy ``name`` says.

    >>> ws, x = init(depth=3, width=4, hidden=8, batch=2)
    >>> losses = [float(make_loss(name)(ws, x)) for name in POLICIES]
    >>> np.allclose(losses, losses[0])
    True
    """
    body = block if name == "plain" else jax.checkpoint(block, policy=policy(name))

    def loss(weights, x):
        h, _ = jax.lax.scan(body, x, weights)
        return jnp.mean(h ** 2)

    return loss


def init(depth: int, width: int, hidden: int, batch: int, seed: int = 0):
    """Stacked weights ``(W1, W2)`` of ``depth`` blocks, and a batch of inputs, from ``seed``.

    >>> (w1, w2), x = init(depth=3, width=4, hidden=8, batch=2)
    >>> w1.shape, w2.shape, x.shape
    ((3, 4, 8), (3, 8, 4), (2, 4))
    """
    k1, k2, k3 = jax.random.split(jax.random.key(seed), 3)
    w1 = jax.random.normal(k1, (depth, width, hidden), jnp.float32) / np.sqrt(width)
    w2 = jax.random.normal(k2, (depth, hidden, width), jnp.float32) / np.sqrt(hidden)
    return (w1, w2), jax.random.normal(k3, (batch, width), jnp.float32)


def matmuls(hlo_text: str) -> int:
    """Matrix multiplications in an optimized HLO module: ``dot`` instructions (inside fusions too)
    and GEMM library calls (a GPU's cuBLAS custom calls); a loop body is counted once.

    >>> matmuls("%d = f32[2,2]{1,0} dot(%a, %b)\\n%c = (f32[2,2]{1,0}, s8[4]{0}) custom-call(%a, %b), "
    ...         'custom_call_target="__cublas$gemm"\\n%e = f32[2]{0} add(%x, %y)')
    2
    """
    dots = len(re.findall(r"= \S+ dot\(", hlo_text))
    gemms = len(re.findall(r'custom-call\([^\n]*custom_call_target="[^"]*(?:gemm|matmul)[^"]*"', hlo_text, re.I))
    return dots + gemms


def make_steps() -> dict:
    """One step (the gradient of the loss) per policy, each jitted once: the same function is
    lowered, compiled, run and timed below.

    >>> sorted(make_steps()) == sorted(POLICIES)
    True
    """
    return {name: jax.jit(jax.grad(make_loss(name))) for name in POLICIES}


def compiled_figures(step, weights, x) -> dict:
    """What the compiler made of a jitted ``step``: temporary bytes, matrix multiplications in the
    optimized program and in the program JAX handed it (StableHLO), and XLA's cost estimate
    (``compiler_cost.xla_cost``; a loop body counted once): ``counted`` says whether it covers the
    whole program, and ``bytes`` and ``flops`` are None where it does not (a GPU's cuBLAS calls).

    >>> ws, x = init(depth=4, width=8, hidden=32, batch=16)
    >>> steps = make_steps()
    >>> plain, nothing = compiled_figures(steps["plain"], ws, x), compiled_figures(steps["nothing"], ws, x)
    >>> nothing["temp"] < plain["temp"], nothing["matmuls"] > plain["matmuls"]
    (True, True)
    >>> plain["lowered_matmuls"], nothing["lowered_matmuls"]  # forward 2, backward 4; h @ W1 again
    (6, 7)
    >>> not (plain["counted"] and nothing["counted"]) or nothing["flops"] > plain["flops"]  # recomputing adds work
    True
    """
    lowered = step.lower(weights, x)
    compiled = lowered.compile()
    cost = xla_cost(compiled)
    return {"temp": compiled.memory_analysis().temp_size_in_bytes,
            "matmuls": matmuls(compiled.as_text()),
            "lowered_matmuls": lowered.as_text().count("stablehlo.dot_general"),
            "counted": cost.counted,
            "bytes": cost.bytes_accessed if cost.counted else None,
            "flops": cost.flops if cost.counted else None}


def estimate_text(value: float | None, scale: float, digits: int, width: int) -> str:
    """One cell of the cost-estimate columns: the value over ``scale``, or "not counted" (None).

    >>> estimate_text(3.5e9, 1e9, 3, 8), estimate_text(None, 1e9, 3, 14)
    ('   3.500', '   not counted')
    """
    return f"{'not counted':>{width}}" if value is None else f"{value / scale:>{width},.{digits}f}"


def tolerance() -> float:
    """The relative tolerance (by norm) for two programs' gradients to count as the same: float32
    rounding on a CPU; more elsewhere, where float32 matmuls may run in TF32 and two programs
    may round their inputs differently."""
    return 1e-5 if jax.default_backend() == "cpu" else 2e-3


def close(a, b) -> bool:
    """Whether ``a`` is ``b`` within ``tolerance()``, relative to ``b``'s norm.

    >>> close(np.ones(4), np.ones(4) + 1e-7), close(np.ones(4), np.ones(4) * 1.1)
    (True, False)
    """
    a, b = np.asarray(a), np.asarray(b)
    return bool(np.linalg.norm(a - b) <= tolerance() * np.linalg.norm(b))


def gradients_agree(steps: dict, weights, x) -> bool:
    """Whether every policy's step gives the same gradient as ``plain`` (``close`` for each weight).

    >>> gradients_agree(make_steps(), *init(depth=3, width=4, hidden=8, batch=2))
    True
    """
    grads = {name: step(weights, x) for name, step in steps.items()}
    return all(close(a, b) for name in POLICIES for a, b in zip(grads[name], grads["plain"], strict=True))


def time_steps(steps: dict, weights, x, rounds: int) -> Comparison:
    """One step (the gradient) of every policy, timed interleaved in ``rounds`` rounds."""
    return compare({name: (lambda step=step: step(weights, x)) for name, step in steps.items()}, rounds=rounds)


LABELS = {"plain": ("jax.checkpoint 없음", "no checkpoint"), "everything": ("everything", "everything"),
          "dots": ("dots", "dots"), "names": ('names("hidden")', 'names("hidden")'),
          "nothing": ("nothing", "nothing")}


def plot(figures: dict, timings: Comparison, path: str, language: str = "en") -> None:
    """Temporary memory (MiB) against the median step time (ms, fastest-to-slowest bars), one point
    per policy."""
    fig, ax = new_figure()
    for name in POLICIES:
        timing = timings.timing(name)
        median = timing.median * 1e3
        ax.errorbar([median], [figures[name]["temp"] / 2**20], marker="o", capsize=3, linestyle="none",
                    xerr=[[median - timing.fastest * 1e3], [timing.slowest * 1e3 - median]],
                    label=say(language, *LABELS[name]))
    ax.set_xlabel(say(language, "스텝 시간 (ms, 중앙값)", "step time (ms, median)"))
    ax.set_ylabel(say(language, "임시 메모리 (MiB)", "temporary memory (MiB)"))
    ax.set_ylim(bottom=0)
    ax.set_title(say(language, "체크포인트 정책별 메모리와 시간", "memory and time per checkpoint policy")
                 + f"\n{jax.default_backend().upper()}, jax {jax.__version__}")
    ax.grid(True, which="both", alpha=0.3)
    legend_below(fig, ax, columns=3)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=16, help="blocks in the MLP (default: 16)")
    parser.add_argument("--width", type=int, default=64, help="width of h (default: 64)")
    parser.add_argument("--hidden", type=int, default=256, help="width of a block's hidden layer (default: 256)")
    parser.add_argument("--batch", type=int, default=512, help="rows of the input batch (default: 512)")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds of timing (default: 9)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    weights, x = init(args.depth, args.width, args.hidden, args.batch)
    print(f"{machine()}; {args.depth} blocks h + gelu(h @ W1) @ W2, h: {args.batch}×{args.width}, "
          f"hidden: {args.batch}×{args.hidden}, float32; one step = jit(grad(loss))")
    steps = make_steps()
    figures = {name: compiled_figures(steps[name], weights, x) for name in POLICIES}
    agree = gradients_agree(steps, weights, x)
    print(f"every policy gives the same gradient (relative tolerance {tolerance():g} by norm): {agree}")
    timings = time_steps(steps, weights, x, args.rounds)
    print(f"{'policy':<12}{'temp (MiB)':>11}{'matmuls':>9}{'MiB accessed':>14}{'Gflop':>12}"
          f"  step time, {timings.rounds} interleaved rounds")
    for name in POLICIES:
        f = figures[name]
        print(f"{name:<12}{f['temp'] / 2**20:>11,.2f}{f['matmuls']:>9}{estimate_text(f['bytes'], 2**20, 1, 14)}"
              f"{estimate_text(f['flops'], 1e9, 3, 12)}  {timings.timing(name)}")
    print("MiB accessed, Gflop: XLA's cost estimate for one step, a loop body counted once; not counted where "
          "the program calls a library XLA cannot see into (cuBLAS on a GPU)")
    write_plot(plot, args.plot, figures, timings)
    return {"figures": figures, "timings": timings, "agree": agree, "args": vars(args)}


if __name__ == "__main__":
    remat = main()
