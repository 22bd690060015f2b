"""What XLA says a kernel costs, and what it achieves: FLOPs, bytes, intensity, time, rates, fusions.

The exercise of the lesson "Looking inside a compiled program". For each kernel (matrix products
at two sizes, an elementwise chain, a sum, a softmax) it compiles the function ahead of time and reads:

* from XLA's cost estimate (``cost_analysis()`` of the compiled program, read by
  ``compiler_cost.xla_cost``): the FLOPs and the bytes accessed. Where XLA cannot count the whole
  kernel (on a GPU a matrix product usually becomes a cuBLAS call, which the estimate counts as -1),
  the row uses the kernel's count by hand instead (``by_hand``), and its "cost by" column says so
  ("hand"; "none" where there is no count by hand either);
* from ``compiled.as_text()`` (the optimized HLO): how many fusions the entry computation runs;
* from the clock: warm calls of every kernel measured together, in interleaved rounds
  (``timing.compare``), so that the figures of one kernel can be set against another's; each
  kernel's median, with its spread (fastest to slowest).

From these it computes the arithmetic intensity (FLOPs per byte) and the achieved FLOP/s and bytes/s
at the median time. With no table of device peaks, the highest FLOP/s and bytes/s measured in the run
stand in for the roofs of a roofline: a kernel whose intensity is below their ratio looks
memory-bound, above it compute-bound. Sizes follow the backend (small on a CPU) unless given.

    python examples/cost_report.py --plot cost_report.png

writes cost_report.ko.png and cost_report.en.png: the same measurements, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import re
import sys
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from compiler_cost import xla_cost  # noqa: E402
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import Timing, compare, device, machine, ms  # noqa: E402

ON_ACCELERATOR = jax.default_backend() != "cpu"
DEFAULT_MATMUL_SIZES = (1024, 8192) if ON_ACCELERATOR else (256, 1024)
DEFAULT_ELEMENTS = 2**26 if ON_ACCELERATOR else 2**22
DEFAULT_SOFTMAX_SHAPE = (16384, 4096) if ON_ACCELERATOR else (2048, 1024)

# A small optimized-HLO module of the kind compiled.as_text() prints, for the doctests.
SAMPLE_HLO = """\
HloModule jit_f, entry_computation_layout={(f32[8]{0})->(f32[8]{0}, f32[])}

%fused_computation (param_0: f32[8]) -> f32[8] {
  %param_0 = f32[8]{0} parameter(0)
  %constant.1 = f32[] constant(2)
  %broadcast.1 = f32[8]{0} broadcast(%constant.1), dimensions={}
  ROOT %multiply.1 = f32[8]{0} multiply(%param_0, %broadcast.1), metadata={op_name="jit(f)/mul"}
}

%region_0 (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %add.2 = f32[] add(%a, %b)
}

%fused_computation.1 (param_0.1: f32[8]) -> f32[] {
  %param_0.1 = f32[8]{0} parameter(0)
  %constant.2 = f32[] constant(0)
  ROOT %reduce.1 = f32[] reduce(%param_0.1, %constant.2), dimensions={0}, to_apply=%region_0
}

ENTRY %main (x: f32[8]) -> (f32[8], f32[]) {
  %x = f32[8]{0} parameter(0)
  %multiply_fusion = f32[8]{0} fusion(%x), kind=kLoop, calls=%fused_computation
  %reduce_fusion = f32[] fusion(%x), kind=kLoop, calls=%fused_computation.1
  ROOT %tuple = (f32[8]{0}, f32[]) tuple(%multiply_fusion, %reduce_fusion)
}
"""

_HEADER = re.compile(r"^(ENTRY\s+)?%?([\w.\-]+)")
_INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*(.+)$")
_CALLS = re.compile(r"\bcalls=%?([\w.\-]+)")


@dataclasses.dataclass
class Instruction:
    """One HLO instruction: its name, its opcode, and the computation it calls (a fusion's body)."""

    name: str
    opcode: str
    calls: str | None = None


def _closing(text: str) -> int:
    """Index of the parenthesis that closes the one ``text`` starts with.

    >>> _closing("(f32[8]{0}, (s32[], f32[])) tuple(%a)")
    26
    """
    depth = 0
    for index, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if depth == 0:
            return index
    return len(text) - 1


def parse_instruction(line: str) -> Instruction | None:
    """The instruction on one line of HLO text, or None if the line holds none.

    The shape comes between ``=`` and the opcode; a tuple shape is skipped to its closing parenthesis.

    >>> parse_instruction("  ROOT %f = f32[8]{0} fusion(%x), kind=kLoop, calls=%fused_computation")
    Instruction(name='f', opcode='fusion', calls='fused_computation')
    >>> parse_instruction("  %t = (f32[8]{0}, f32[]) tuple(%a, %b)")
    Instruction(name='t', opcode='tuple', calls=None)
    >>> parse_instruction("}") is None
    True
    """
    match = _INSTRUCTION.match(line)
    if match is None:
        return None
    name, rest = match.groups()
    if rest.startswith("("):  # a tuple shape: skip to its closing parenthesis
        rest = rest[_closing(rest) + 1:]
    else:
        rest = rest.split(" ", 1)[1] if " " in rest else ""
    opcode = re.match(r"\s*([\w\-]+)\(", rest)
    if opcode is None:
        return None
    calls = _CALLS.search(rest)
    return Instruction(name, opcode.group(1), calls.group(1) if calls else None)


def hlo_computations(hlo_text: str) -> tuple[dict[str, list[Instruction]], str]:
    """Split HLO text into its computations: ``({name: [Instruction, ...]}, name of the entry one)``.

    >>> computations, entry = hlo_computations(SAMPLE_HLO)
    >>> entry, sorted(computations)
    ('main', ['fused_computation', 'fused_computation.1', 'main', 'region_0'])
    """
    computations: dict[str, list[Instruction]] = {}
    entry, current = "", None
    for line in hlo_text.splitlines():
        stripped = line.strip()
        if current is None:
            if stripped.endswith("{") and " = " not in stripped and not stripped.startswith("HloModule"):
                header = _HEADER.match(stripped)
                current = header.group(2)
                computations[current] = []
                if header.group(1):
                    entry = current
        elif stripped == "}":
            current = None
        else:
            instruction = parse_instruction(line)
            if instruction is not None:
                computations[current].append(instruction)
    return computations, entry


def entry_opcodes(hlo_text: str) -> list[str]:
    """Opcodes of the entry computation's instructions, parameters and constants left out.

    >>> entry_opcodes(SAMPLE_HLO)
    ['fusion', 'fusion', 'tuple']
    """
    computations, entry = hlo_computations(hlo_text)
    return [i.opcode for i in computations[entry] if i.opcode not in ("parameter", "constant")]


def count_fusions(hlo_text: str) -> int:
    """How many fusions the entry computation runs (each becomes one kernel or loop nest).

    >>> count_fusions(SAMPLE_HLO)
    2
    """
    return entry_opcodes(hlo_text).count("fusion")


def fused_opcodes(hlo_text: str) -> dict[str, list[str]]:
    """For each fusion in the entry computation, the opcodes inside it (nested fusions opened up).

    >>> fused_opcodes(SAMPLE_HLO)
    {'multiply_fusion': ['broadcast', 'multiply'], 'reduce_fusion': ['reduce']}
    """
    computations, entry = hlo_computations(hlo_text)

    def inside(name: str) -> list[str]:
        ops = []
        for i in computations.get(name, []):
            if i.opcode == "fusion" and i.calls:
                ops += inside(i.calls)
            elif i.opcode not in ("parameter", "constant"):
                ops.append(i.opcode)
        return ops

    return {i.name: inside(i.calls) for i in computations[entry] if i.opcode == "fusion" and i.calls}


def intensity(flops: float, nbytes: float) -> float:
    """Arithmetic intensity: floating-point operations per byte moved.

    >>> intensity(2 * 1024**3, 3 * 1024**2 * 4)  # a 1024x1024 float32 matmul: n / 6
    170.66666666666666
    """
    return flops / nbytes


def rate(amount: float, seconds: float) -> float:
    """Amount per second, e.g. FLOPs or bytes divided by the median time.

    >>> rate(3e9, 0.5)
    6000000000.0
    """
    return amount / seconds


@dataclasses.dataclass
class Report:
    """What one kernel costs and what it achieved (measured). ``source`` says where the cost comes
    from: ``"XLA"`` (the compiler's estimate, counted whole), ``"hand"`` (the count by hand, where XLA
    could not count the kernel) or ``"none"`` (neither: the FLOPs and bytes are NaN).

    >>> r = Report("k", flops=2e9, bytes_accessed=1e9, fusions=1, timing=Timing([0.5]))
    >>> r.intensity, r.flop_rate, r.byte_rate, r.source
    (2.0, 4000000000.0, 2000000000.0, 'XLA')
    """

    name: str
    flops: float
    bytes_accessed: float
    fusions: int
    timing: Timing
    fused: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    source: str = "XLA"

    @property
    def intensity(self) -> float:
        return intensity(self.flops, self.bytes_accessed)

    @property
    def flop_rate(self) -> float:
        return rate(self.flops, self.timing.median)

    @property
    def byte_rate(self) -> float:
        return rate(self.bytes_accessed, self.timing.median)


def counted(reports) -> list[Report]:
    """The reports that have a cost (from XLA or by hand): a report without one has NaN figures.

    >>> [r.name for r in counted([Report("a", 1.0, 1.0, 1, Timing([1.0])),
    ...                            Report("b", math.nan, math.nan, 1, Timing([1.0]), source="none")])]
    ['a']
    """
    return [r for r in reports if math.isfinite(r.flops) and math.isfinite(r.bytes_accessed)]


def empirical_roofs(reports) -> tuple[float, float]:
    """The highest FLOP/s and bytes/s among the reports with a cost: lower bounds of the device's true peaks.

    >>> a = Report("a", 8e9, 1e9, 1, Timing([1.0]))
    >>> b = Report("b", 1e9, 4e9, 1, Timing([1.0]))
    >>> empirical_roofs([a, b])
    (8000000000.0, 4000000000.0)
    """
    reports = counted(reports)
    return max(r.flop_rate for r in reports), max(r.byte_rate for r in reports)


def bound(report: Report, roofs: tuple[float, float]) -> str:
    """``"compute"`` if the kernel's intensity reaches the ridge point (peak FLOP/s / peak bytes/s), else ``"memory"``.

    >>> a = Report("a", 8e9, 1e9, 1, Timing([1.0]))
    >>> b = Report("b", 1e9, 4e9, 1, Timing([1.0]))
    >>> roofs = empirical_roofs([a, b])
    >>> bound(a, roofs), bound(b, roofs)
    ('compute', 'memory')
    """
    peak_flops, peak_bytes = roofs
    return "compute" if report.intensity >= peak_flops / peak_bytes else "memory"


def roof_fraction(report: Report, roofs: tuple[float, float]) -> float:
    """The roofline's lower bound on the time, max(FLOPs / peak, bytes / bandwidth), over the measured time.

    With the empirical roofs this is at most 1; far below 1 means neither roof explains the time.

    >>> a = Report("a", 8e9, 1e9, 1, Timing([1.0]))
    >>> b = Report("b", 1e9, 4e9, 1, Timing([1.0]))
    >>> c = Report("c", 1e9, 1e9, 1, Timing([1.0]))
    >>> roofs = empirical_roofs([a, b, c])
    >>> roof_fraction(a, roofs), roof_fraction(b, roofs), roof_fraction(c, roofs)
    (1.0, 1.0, 0.25)
    """
    peak_flops, peak_bytes = roofs
    return max(report.flops / peak_flops, report.bytes_accessed / peak_bytes) / report.timing.median


def softmax(x):
    """Softmax over the last axis, written out (the max is subtracted so that exp cannot overflow)."""
    e = jnp.exp(x - jnp.max(x, axis=-1, keepdims=True))
    return e / jnp.sum(e, axis=-1, keepdims=True)


def chain(x):
    """Five elementwise operations: a bias, a ReLU, a scale and a residual add."""
    return jnp.maximum(x * 2.0 + 1.0, 0.0) * 0.5 + x


def by_hand(name: str) -> tuple[float, float]:
    """A kernel's (FLOPs, bytes) counted by hand from its name, float32, each input read once and the
    output written once: a matmul n does 2n³ FLOPs on 3n² elements; the chain 5 per element; the sum
    one addition per element; the softmax 4 per element (max, subtract, sum, divide; ``exp`` is a
    transcendental, not a FLOP).

    >>> by_hand("matmul 4"), by_hand("chain 8"), by_hand("sum 8"), by_hand("softmax 2x3")
    ((128, 192), (40, 64), (8, 36), (24, 48))
    """
    kind, size = name.split()
    if kind == "matmul":
        n = int(size)
        return 2 * n**3, 3 * n * n * 4
    if kind == "softmax":
        rows, cols = (int(s) for s in size.split("x"))
        return 4 * rows * cols, 2 * rows * cols * 4
    n = int(size)
    return {"chain": (5 * n, 2 * n * 4), "sum": (n, n * 4 + 4)}[kind]


def kernels(matmul_sizes, elements: int, softmax_shape) -> dict[str, tuple]:
    """The kernels to report on: ``{name: (function, arguments)}``, float32 inputs.

    >>> sorted(kernels([4], 8, (2, 3)))
    ['chain 8', 'matmul 4', 'softmax 2x3', 'sum 8']
    """
    keys = iter(jax.random.split(jax.random.key(0), 8))
    chosen = {}
    for n in matmul_sizes:
        a = jax.random.normal(next(keys), (n, n), jnp.float32)
        b = jax.random.normal(next(keys), (n, n), jnp.float32)
        chosen[f"matmul {n}"] = (jnp.matmul, (a, b))
    v = jax.random.normal(next(keys), (elements,), jnp.float32)
    chosen[f"chain {elements}"] = (chain, (v,))
    chosen[f"sum {elements}"] = (jnp.sum, (v,))
    rows, cols = softmax_shape
    chosen[f"softmax {rows}x{cols}"] = (softmax, (jax.random.normal(next(keys), (rows, cols), jnp.float32),))
    return chosen


def compile_kernel(name: str, function, args, hand: tuple[float, float] | None = None) -> tuple:
    """Compile ``function`` for ``args``; return the compiled program and an untimed ``Report``.

    The cost is XLA's estimate where it counted the whole program (``xla_cost(...).counted``), else
    ``hand``, the (FLOPs, bytes) counted by hand, else NaN. The report's timing is empty until ``run``
    measures it.

    >>> compiled, r = compile_kernel("double", lambda x: x * 2, (jnp.ones(1024),))
    >>> r.flops, r.bytes_accessed, r.fusions, r.source
    (1024.0, 8192.0, 1, 'XLA')
    """
    compiled = jax.jit(function).lower(*args).compile()
    cost = xla_cost(compiled)
    if cost.counted:
        flops, nbytes, source = cost.flops, cost.bytes_accessed, "XLA"
    elif hand is not None:
        flops, nbytes, source = float(hand[0]), float(hand[1]), "hand"
    else:
        flops, nbytes, source = math.nan, math.nan, "none"
    hlo = compiled.as_text() or ""
    report = Report(name, flops, nbytes, count_fusions(hlo), Timing([]), fused_opcodes(hlo), source)
    return compiled, report


def run(chosen: dict[str, tuple], rounds: int = 7) -> dict[str, Report]:
    """Compile every kernel, then time their warm calls together, interleaved; returns ``{name: Report}``.

    One ``timing.compare`` measures all the kernels in ``rounds`` rounds, each round calling every
    kernel once in a rotating order, so that a machine that drifts during the run hits all alike.

    >>> reports = run(kernels([4], 8, (2, 3)), rounds=6)
    >>> [len(r.timing.samples) for r in reports.values()]
    [6, 6, 6, 6]
    >>> reports["matmul 4"].flops == 2 * 4**3
    True
    """
    compiled = {}
    reports = {}
    for name, (function, args) in chosen.items():
        compiled[name], reports[name] = compile_kernel(name, function, args, by_hand(name))
    calls = {name: (lambda program=compiled[name], args=args: program(*args))
             for name, (_, args) in chosen.items()}
    comparison = compare(calls, rounds=rounds)
    for name, report in reports.items():
        report.timing = comparison.timing(name)
    return reports


def format_table(reports: dict[str, Report]) -> str:
    """A plain-text table, one row per kernel: its cost and where it comes from (XLA, hand, none), its
    time (median, fastest–slowest), its rates at the median, and its bound and share of the roof from
    the empirical roofs ("-" where the kernel has no cost).

    >>> a = Report("a", 8e9, 1e9, 1, Timing([1.0, 0.9, 1.2]))
    >>> b = Report("b", 1e9, 4e9, 2, Timing([1.0, 1.1, 0.95]), source="hand")
    >>> c = Report("c", 1e9, 1e9, 1, Timing([1.0, 1.3, 0.8]))
    >>> print(format_table({"a": a, "b": b, "c": c}))  # doctest: +NORMALIZE_WHITESPACE
    kernel  GFLOP      MB  FLOP/B  cost by  median ms (fastest–slowest)  GFLOP/s  GB/s  fusions  bound    of roof
    a       8.000  1000.0    8.00  XLA          1,000 (900–1,200)            8.0   1.0        1  compute    100%
    b       1.000  4000.0    0.25  hand         1,000 (950–1,100)            1.0   4.0        2  memory     100%
    c       1.000  1000.0    1.00  XLA          1,000 (800–1,300)            1.0   1.0        1  memory      25%
    """
    roofs = empirical_roofs(reports.values())
    width = max(len("kernel"), *(len(name) for name in reports))
    times = {name: f"{ms(r.timing.median)} ({ms(r.timing.fastest)}–{ms(r.timing.slowest)})"
             for name, r in reports.items()}
    time_header = "median ms (fastest–slowest)"
    time_width = max(len(time_header), *(len(t) for t in times.values()))
    rows = [f"{'kernel':<{width}}  {'GFLOP':>8}  {'MB':>8}  {'FLOP/B':>7}  {'cost by':<7}  {time_header:<{time_width}}"
            f"  {'GFLOP/s':>8}  {'GB/s':>7}  {'fusions':>7}  {'bound':<7}  {'of roof':>7}"]
    for name, r in reports.items():
        has_cost = bool(counted([r]))
        rows.append(f"{name:<{width}}  {r.flops / 1e9:>8.3f}  {r.bytes_accessed / 1e6:>8.1f}  {r.intensity:>7.2f}"
                    f"  {r.source:<7}  {times[name]:<{time_width}}"
                    f"  {r.flop_rate / 1e9:>8.1f}  {r.byte_rate / 1e9:>7.1f}"
                    f"  {r.fusions:>7}  {bound(r, roofs) if has_cost else '-':<7}"
                    f"  {format(roof_fraction(r, roofs), '>7.0%') if has_cost else '-':>7}")
    return "\n".join(rows)


def plot(reports: dict[str, Report], path: str, language: str = "en") -> None:
    """A roofline chart: achieved GFLOP/s against intensity, under the roofs min(peak, intensity x
    bandwidth), labelled in ``language``."""
    import numpy as np

    peak_flops, peak_bytes = empirical_roofs(reports.values())
    fig, ax = new_figure()
    reports = {r.name: r for r in counted(reports.values())}   # a kernel without a cost has no point
    low = min(r.intensity for r in reports.values()) / 4
    high = max(r.intensity for r in reports.values()) * 4
    x = np.geomspace(low, high, 200)
    ax.plot(x, np.minimum(peak_flops, x * peak_bytes) / 1e9, color="gray", linestyle="--",
            label=say(language, "측정한 천장", "roofs from the best measured rates"))
    for name, r in reports.items():
        label = name if r.source == "XLA" else say(language, f"{name} (손으로 센 비용)", f"{name} (cost by hand)")
        ax.plot(r.intensity, r.flop_rate / 1e9, marker="o", linestyle="none", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(say(language, "산술 강도(FLOP/B)", "arithmetic intensity (FLOP/byte)"))
    ax.set_ylabel(say(language, "연산 속도(GFLOP/s)", "achieved GFLOP/s"))
    ax.set_title(say(language, f"루프라인, {device()}", f"roofline on {device()}"))
    ax.grid(True, which="both", alpha=0.3)
    legend_below(fig, ax)
    save(fig, path)


def main(argv: list[str] | None = None) -> dict[str, Report]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matmul-sizes", type=int, nargs="+", default=list(DEFAULT_MATMUL_SIZES),
                        help="sides n of the n x n matrix products (default on this backend: %(default)s)")
    parser.add_argument("--elements", type=int, default=DEFAULT_ELEMENTS,
                        help="length of the vector for the chain and the sum (default: %(default)s)")
    parser.add_argument("--softmax-shape", type=int, nargs=2, default=list(DEFAULT_SOFTMAX_SHAPE),
                        metavar=("ROWS", "COLS"), help="shape of the softmax input (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=7,
                        help="interleaved rounds, each timing one warm call of every kernel (6 at least; default: 7)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    print(f"{machine()}; {args.rounds} interleaved rounds of warm calls (timing.compare); "
          "FLOPs and bytes from XLA's cost estimate (xla_cost) where it counted the kernel whole; "
          "rates at the median time")
    reports = run(kernels(args.matmul_sizes, args.elements, args.softmax_shape), args.rounds)
    print(format_table(reports))
    by_hand_rows = [r.name for r in reports.values() if r.source != "XLA"]
    if by_hand_rows:
        print(f"XLA could not count {', '.join(by_hand_rows)} whole (a library call such as cuBLAS counts -1): "
              "those rows use the count by hand (cost by: hand)")
    else:
        print("XLA counted every kernel whole: every row's cost is the compiler's estimate")
    peak_flops, peak_bytes = empirical_roofs(reports.values())
    print(f"roofs (best measured): {peak_flops / 1e9:,.1f} GFLOP/s, {peak_bytes / 1e9:,.1f} GB/s; "
          f"ridge point {peak_flops / peak_bytes:,.2f} FLOP/B")
    write_plot(plot, args.plot, reports)
    return reports


if __name__ == "__main__":
    results = main()
