"""Two sweeps placed on the device's roofline: square matrix products of growing size, and elementwise
chains of growing length on one large array.

The lesson "The roofline". For every point the program takes the FLOPs and bytes the compiler
estimates (XLA's ``cost_analysis()``, read through ``compiler_cost.xla_cost``, which also says
whether the estimate covers the whole program), times the compiled call (the site's ``time_throughput``:
many calls dispatched, the last one waited for), and prints the arithmetic intensity (FLOPs per
byte), the achieved FLOP/s and bytes/s, and whether the point lies left or right of the ridge point.

* matmul n: ``a @ b`` for two n × n matrices in ``--dtype``. It does 2n³ FLOPs and must move at least
  3n² elements (two inputs, one output), so its intensity is 2n³ / (3n² · itemsize) = n / (1.5 · itemsize):
  it grows with n.
* chain k: ``x = x * 0.999 + 0.001`` k times on a float32 vector. XLA fuses the chain into one kernel
  (the program checks the optimized HLO), which reads x once and writes the result once, so the bytes
  stay the same while the FLOPs, 2 per element per step, grow with k.

Which figures are whose: a chain's FLOPs are always counted by hand (2 per element per step; the
compiler's count is kept as ``compiler_flops`` and printed), its bytes are the compiler's. A matrix
product's FLOPs and bytes are the compiler's, except where the estimate does not cover the whole
program: XLA's cost analysis counts a library call it cannot see into (a custom call to cuBLAS on a
GPU) as -1, which leaves a total that is negative, or positive but short of the product, and then the
program uses the counted 2n³ and 3n² · itemsize. A line under the table says which were used.

The roofs come from ``device_peaks.py``: the peak for matrix products in ``--dtype``, the plain
float32 peak (no tensor cores) for the chains, and the memory bandwidth. A device without peaks in
that table (a CPU) gets a "measured ceiling" instead: the best FLOP/s and the best bytes/s measured
in this run. Such a ceiling is made of the sweep's own best points, so they touch it by definition: it
ranks the points against each other and says nothing about the hardware's limit.

The sweep measures its points one after another, which is no comparison between them: the machine
may drift from one point to the next. Where the program says how two points compare (the chain just
before its ridge point and the first one past it: did its FLOP/s rise or fall?), it measures the two
again together, in interleaved rounds, with the site's ``compare`` (``together``).

    python examples/roofline_sweep.py --sizes 64 128 256 512 --steps 1 4 16 64 --plot roofline.png

writes roofline.ko.png and roofline.en.png: the same points, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from compiler_cost import xla_cost  # noqa: E402
from device_peaks import bandwidth_peak, format_rate, limit_line, lookup, matmul_peak  # noqa: E402
from plotting import PLOT_HELP, legend_below, new_figure, save, say, write_plot  # noqa: E402
from timing import Comparison, compare, machine, time_throughput  # noqa: E402

CHAIN_FLOPS_PER_STEP = 2  # one multiply and one add per element


def roof(intensity, peak_flops: float, bandwidth: float):
    """The roofline: the most FLOP/s a kernel of this intensity can reach, min(peak, intensity × bandwidth).

    >>> float(roof(1.0, 100.0, 10.0)), float(roof(50.0, 100.0, 10.0))
    (10.0, 100.0)
    >>> roof(np.array([2.0, 20.0]), 100.0, 10.0).tolist()
    [20.0, 100.0]
    """
    return np.minimum(peak_flops, np.asarray(intensity) * bandwidth)


def ridge_point(peak_flops: float, bandwidth: float) -> float:
    """The intensity (FLOP/B) where the slanted roof meets the flat one: peak FLOP/s over bytes/s.

    >>> ridge_point(989.5e12, 3.35e12)  # an H100 SXM's dense bfloat16 peak over its memory bandwidth
    295.37313432835823
    """
    return peak_flops / bandwidth


def matmul_intensity(n: int, itemsize: int) -> float:
    """The intensity of an n × n matrix product that moves each operand and the result once.

    >>> matmul_intensity(512, 4), matmul_intensity(8192, 2)  # n/6 in float32, n/3 in bfloat16
    (85.33333333333333, 2730.6666666666665)
    """
    return 2 * n**3 / (3 * n * n * itemsize)


def chain(x, steps: int):
    """``x * 0.999 + 0.001``, ``steps`` times: 2 FLOPs per element per step, one input, one output.

    >>> float(chain(jnp.float32(1.0), 3))
    1.0
    """
    for _ in range(steps):
        x = x * 0.999 + 0.001
    return x


def _entry(hlo_text: str) -> str:
    """The ENTRY computation of an optimized HLO module's text."""
    entry = hlo_text[hlo_text.index("\nENTRY"):] if "\nENTRY" in hlo_text else hlo_text
    return entry[:entry.find("\n}") + 1 or None]


def entry_fusions(hlo_text: str) -> int:
    """The number of fusion instructions in the ENTRY computation of an optimized HLO module.

    >>> entry_fusions("%f (p: f32[4]) -> f32[4] {\\n  %m = f32[4] multiply(%p, %p)\\n}\\n\\n"
    ...               "ENTRY %main (x: f32[4]) -> f32[4] {\\n  ROOT %r = f32[4]{0} fusion(%x), kind=kLoop\\n}")
    1
    """
    return len(re.findall(r"=\s*\S+\s+fusion\(", _entry(hlo_text)))


def entry_library_calls(hlo_text: str) -> int:
    """The number of custom calls (library calls such as cuBLAS) in the ENTRY computation.

    >>> entry_library_calls("ENTRY %main (a: f32[4,4]) -> f32[4,4] {\\n  %c = (f32[4,4]{1,0}, s8[0]{0}) "
    ...                     "custom-call(%a, %a), custom_call_target=__cublas$gemm\\n}")
    1
    """
    return _entry(hlo_text).count(" custom-call(")


def dispatch(call, calls: int):
    """A zero-argument function that dispatches ``call()`` ``calls`` times and returns the last
    result: one run of throughput, for ``compare`` to block on.

    >>> seen = []
    >>> dispatch(lambda: seen.append(1) or len(seen), 3)()
    3
    """
    def run():
        for _ in range(calls - 1):
            call()
        return call()
    return run


def measure(fn, args: tuple, calls: int, repeats: int = 5) -> dict:
    """Compile ``fn`` for ``args``, read its cost estimate and time it: one point of the sweep.

    ``flops`` and ``bytes`` are the compiler's estimate here (``flops_counted`` and ``bytes_counted``,
    False, say so), ``xla_counted`` whether that estimate covers the whole program, and ``use_count``
    replaces them by a count made by hand where it does not. ``run`` dispatches ``calls`` calls of
    the compiled function, for measuring the point again, together with another (``together``).
    """
    compiled = jax.jit(fn).lower(*args).compile()
    cost = xla_cost(compiled)
    timing = time_throughput(lambda: compiled(*args), calls=calls, repeats=repeats)
    flops, nbytes = cost.flops or 0.0, cost.bytes_accessed or 0.0   # a missing figure reads as 0
    hlo = compiled.as_text()
    return {"flops": flops, "bytes": nbytes, "compiler_flops": flops, "compiler_bytes": nbytes,
            "transcendentals": cost.transcendentals or 0.0, "timing": timing,
            "xla_counted": cost.counted, "opaque_calls": cost.opaque_calls,
            "fusions": entry_fusions(hlo), "library_calls": entry_library_calls(hlo),
            "flops_counted": False, "bytes_counted": False,
            "run": dispatch(lambda: compiled(*args), calls), "calls": calls}


def together(points: dict[str, dict], rounds: int = 15) -> Comparison:
    """Measure the named points again, together: the site's ``compare``, interleaved rounds in which
    every point runs once (``run``: its ``calls`` calls dispatched, the last waited for).

    Points the sweep measured one after another are not a comparison: the machine may have drifted
    between them. Two points measured here are.

    >>> points = {"a": {"run": dispatch(lambda: jnp.ones(3), 2)}, "b": {"run": dispatch(lambda: jnp.zeros(3), 2)}}
    >>> sorted((name, len(s)) for name, s in together(points, rounds=6).samples.items())
    [('a', 6), ('b', 6)]
    """
    return compare({name: p["run"] for name, p in points.items()}, rounds=rounds)


def per_run(points: dict[str, dict], key: str) -> dict[str, float]:
    """Each named point's ``key`` (``flops`` or ``bytes``) in one run of ``together``, in billions:
    the work for ``Comparison.rate_sentences`` in GFLOP/s or GB/s.

    >>> per_run({"a": {"flops": 2e9, "calls": 3}}, "flops")
    {'a': 6.0}
    """
    return {name: p[key] * p["calls"] / 1e9 for name, p in points.items()}


def past_ridge(points: list[dict]) -> tuple[dict, dict] | None:
    """The last chain left of its ridge point and the first one right of it, or None if no chain
    crossed (or the first already had).

    >>> sides = ((1, "memory"), (4, "memory"), (16, "compute"))
    >>> chains = [{"series": "chain", "size": k, "bound": b} for k, b in sides]
    >>> [p["size"] for p in past_ridge(chains)]
    [4, 16]
    >>> past_ridge(chains[:2]) is None
    True
    """
    chains = [p for p in points if p["series"] == "chain"]
    for before, after in itertools.pairwise(chains):
        if before["bound"] == "memory" and after["bound"] == "compute":
            return before, after
    return None


def chain_label(k: int) -> dict[str, str]:
    """A chain's name in a sentence, Korean and English (the Korean one ends in Hangul, for its particles).

    >>> chain_label(64)["ko"], chain_label(64)["en"]
    ('k = 64인 체인', 'the chain k = 64')
    """
    return {"ko": f"k = {k}인 체인", "en": f"the chain k = {k}"}


def use_count(point: dict, flops: float, nbytes: float | None = None) -> dict:
    """Put counted FLOPs (and bytes) in a point where the compiler's estimate is not usable.

    The compiler's figures stay in ``compiler_flops`` and ``compiler_bytes``. An estimate is not
    usable when it does not cover the whole program (``xla_counted`` False): XLA's cost analysis
    counts an operation it cannot see into, such as a library call (a custom call to cuBLAS on a
    GPU), as -1, which leaves a total that is negative, or positive but short. Nor is a figure that
    is not positive.

    >>> p = use_count({"flops": -1.0, "bytes": -1.0, "compiler_flops": -1.0, "compiler_bytes": -1.0}, 16.0, 48.0)
    >>> p["flops"], p["bytes"], p["flops_counted"], p["bytes_counted"]
    (16.0, 48.0, True, True)
    >>> p = use_count({"flops": 3.0, "bytes": 40.0, "xla_counted": False}, 16.0, 48.0)  # positive, but short
    >>> p["flops"], p["bytes"], p["flops_counted"], p["bytes_counted"]
    (16.0, 48.0, True, True)
    >>> use_count({"flops": 16.0, "bytes": 48.0, "xla_counted": True}, 16.0, 48.0)["flops_counted"]
    False
    """
    whole = point.get("xla_counted", True)
    if not whole or point["flops"] <= 0:
        point.update(flops=float(flops), flops_counted=True)
    else:
        point.setdefault("flops_counted", False)
    if nbytes is not None and (not whole or point["bytes"] <= 0):
        point.update(bytes=float(nbytes), bytes_counted=True)
    else:
        point.setdefault("bytes_counted", False)
    return point


def sweep(sizes, steps, elements: int, dtype: str, calls: int) -> list[dict]:
    """Measure every matmul size and every chain length; one dict per point."""
    points = []
    for k, n in enumerate(sizes):
        a, b = (jax.random.normal(key, (n, n), dtype=dtype) for key in jax.random.split(jax.random.key(k), 2))
        p = measure(jnp.matmul, (a, b), calls)
        itemsize = jnp.dtype(dtype).itemsize
        p.update(series="matmul", size=n, formula_flops=2.0 * n**3, formula_bytes=3.0 * n * n * itemsize)
        points.append(use_count(p, p["formula_flops"], p["formula_bytes"]))   # counted where XLA misses some
    x = jax.random.normal(jax.random.key(100), (elements,), dtype=jnp.float32)
    for k in steps:
        p = measure(lambda v, k=k: chain(v, k), (x,), calls)
        # the FLOPs a chain does, always counted by hand; the compiler's count is kept in compiler_flops
        p.update(series="chain", size=k, flops=float(CHAIN_FLOPS_PER_STEP * k * elements), flops_counted=True,
                 formula_flops=float(CHAIN_FLOPS_PER_STEP * k * elements), formula_bytes=2.0 * x.nbytes)
        points.append(use_count(p, p["flops"], p["formula_bytes"]))
    for p in points:
        median = p["timing"].median
        p.update(intensity=p["flops"] / p["bytes"], flop_rate=p["flops"] / median, byte_rate=p["bytes"] / median)
    return points


def roofs(points: list[dict], dtype: str, device_kind: str) -> dict:
    """The roofs the points are held to: datasheet peaks where the table knows the device, else the
    best rates measured in this run (a "measured ceiling")."""
    peaks = lookup(device_kind)
    matmul, bandwidth = matmul_peak(peaks, dtype), bandwidth_peak(peaks)
    if matmul and bandwidth:
        vector = (peaks.fp32_tflops * 1e12, "plain float32, no tensor cores, an FMA counted as 2 FLOPs")
        return {"measured": False, "matmul": matmul, "chain": vector, "bandwidth": bandwidth}
    best_flops = max(points, key=lambda p: p["flop_rate"])
    best_bytes = max(points, key=lambda p: p["byte_rate"])
    ceiling = (best_flops["flop_rate"], f"best measured: {best_flops['series']} {best_flops['size']}")
    return {"measured": True, "matmul": ceiling, "chain": ceiling,
            "bandwidth": (best_bytes["byte_rate"], f"best measured: {best_bytes['series']} {best_bytes['size']}")}


def classify(points: list[dict], limits: dict) -> None:
    """Add to each point its ridge point, the roof above it, the share of that roof it reached, and
    which side of the ridge point it lies on."""
    for p in points:
        peak, bandwidth = limits[p["series"]][0], limits["bandwidth"][0]
        p["ridge"] = ridge_point(peak, bandwidth)
        p["roof"] = float(roof(p["intensity"], peak, bandwidth))
        p["share"] = p["flop_rate"] / p["roof"]
        p["bound"] = "compute" if p["intensity"] >= p["ridge"] else "memory"


def plot(points: list[dict], limits: dict, dtype: str, path: str, language: str = "en") -> None:
    """Log-log: intensity against achieved FLOP/s, the roofs as lines, the two sweeps as points."""
    from matplotlib.ticker import NullFormatter

    fig, ax = new_figure()
    intensities = [p["intensity"] for p in points]
    lo, hi = min(intensities) / 4, max(intensities) * 4
    bandwidth = limits["bandwidth"][0]
    grid = np.geomspace(lo, hi, 200)
    roof_names = {"matmul": say(language, f"행렬 곱 {dtype}", f"matmul {dtype}"),
                  "chain": say(language, "float32 원소별 연산", "float32 elementwise")}
    shown = set()
    for series, style in (("matmul", "-"), ("chain", "--")):
        peak = limits[series][0]
        if peak in shown:
            continue
        shown.add(peak)
        name = (say(language, "측정한 천장", "measured ceiling") if limits["measured"]
                else say(language, "루프라인: ", "roofline: ") + roof_names[series])
        ax.plot(grid, roof(grid, peak, bandwidth), style, color="gray", linewidth=1.5, label=name)
        ax.axvline(ridge_point(peak, bandwidth), color="gray", linestyle=":", linewidth=1)
    markers = {"matmul": ("o", say(language, "행렬 곱 (n)", "matmul (n)")),
               "chain": ("s", say(language, "원소별 연산 체인 (k)", "elementwise chain (k)"))}
    for series, (marker, label) in markers.items():
        mine = [p for p in points if p["series"] == series]
        ax.plot([p["intensity"] for p in mine], [p["flop_rate"] for p in mine], marker, linestyle="none", label=label)
        for p in (mine[0], mine[-1]):
            ax.annotate(str(p["size"]), (p["intensity"], p["flop_rate"]), textcoords="offset points",
                        xytext=(4, -12), fontsize=10)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(say(language, "산술 강도 (FLOP/B)", "arithmetic intensity (FLOP/B)"))
    ax.set_ylabel(say(language, "달성한 FLOP/s", "achieved FLOP/s"))
    ax.set_title(say(language, "루프라인 위의 두 스윕", "two sweeps on the roofline")
                 + f"\n{jax.default_backend().upper()}, jax {jax.__version__}", fontsize=12)
    ax.grid(True, which="major", alpha=0.3)
    ax.yaxis.set_minor_formatter(NullFormatter())
    legend_below(fig, ax, columns=2)
    save(fig, path)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 128, 256, 512],
                        help="matrix sizes n of the matmul sweep (default: %(default)s)")
    parser.add_argument("--steps", type=int, nargs="+", default=[1, 4, 16, 64],
                        help="chain lengths k of the elementwise sweep (default: %(default)s)")
    parser.add_argument("--elements", type=int, default=2**22,
                        help="length of the float32 vector the chains work on (default: %(default)s)")
    parser.add_argument("--dtype", default="float32", help="dtype of the matrices (default: %(default)s)")
    parser.add_argument("--calls", type=int, default=3,
                        help="calls dispatched per timed run (default: %(default)s; more on a GPU)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    kind = jax.devices()[0].device_kind
    print(f"{machine()}; matmul {args.dtype} n = {args.sizes}; chain of k steps on {args.elements:,} float32, "
          f"k = {args.steps}")
    points = sweep(args.sizes, args.steps, args.elements, args.dtype, args.calls)
    limits = roofs(points, args.dtype, kind)
    classify(points, limits)
    print(f"{'point':<12} {'GFLOP':>9} {'MB':>8} {'FLOP/B':>8} {'time ms (spread)':>24} {'FLOP/s':>14} "
          f"{'B/s':>11} {'of roof':>8}  side of the ridge")
    for p in points:
        print(f"{p['series'] + ' ' + str(p['size']):<12} {p['flops'] / 1e9:9.3f} {p['bytes'] / 1e6:8.2f} "
              f"{p['intensity']:8.2f} {str(p['timing']):>24} {format_rate(p['flop_rate'], 'FLOP/s'):>14} "
              f"{format_rate(p['byte_rate'], 'B/s'):>11} {p['share']:8.0%}  {p['bound']}-bound")
    for series in ("matmul", "chain"):   # which figures are the compiler's estimate, which are counted
        mine = [p for p in points if p["series"] == series]
        sources = {f"{'counted' if p['flops_counted'] else 'XLA'} FLOPs, {'counted' if p['bytes_counted'] else 'XLA'} "
                   "bytes" for p in mine}
        calls = sorted({call for p in mine for call in p["opaque_calls"]})
        print(f"{series}: {'; '.join(sorted(sources))} (XLA = cost_analysis(), where it covers the whole program)"
              + (f"; library calls it cannot see into: {', '.join(calls)}" if calls else ""))
    per_step = ", ".join(f"k={p['size']}: {p['compiler_flops'] / (args.elements * p['size']):g}"
                         for p in points if p["series"] == "chain")
    print(f"chain FLOPs counted by hand, {CHAIN_FLOPS_PER_STEP} per element per step; XLA's estimate per element "
          f"per step: {per_step}")
    for series in ("matmul", "chain"):
        peak, bandwidth = limits[series][0], limits["bandwidth"][0]
        print(f"ridge point for the {series} roof: {ridge_point(peak, bandwidth):,.2f} FLOP/B "
              f"({format_rate(peak, 'FLOP/s')}, {limits[series][1]} / {format_rate(bandwidth, 'B/s')}, "
              f"{limits['bandwidth'][1]})")
    if limits["measured"]:
        print("no datasheet peaks for this device: the roofs are the best rates this run measured")
    best_matmul = max((p for p in points if p["series"] == "matmul"), key=lambda p: p["flop_rate"])
    best_chain = max((p for p in points if p["series"] == "chain"), key=lambda p: p["byte_rate"])
    peaks = lookup(kind)
    print(limit_line(f"best matmul (n={best_matmul['size']})", best_matmul["flop_rate"],
                     matmul_peak(peaks, args.dtype), "FLOP/s", kind))
    print(limit_line(f"best chain (k={best_chain['size']})", best_chain["byte_rate"], bandwidth_peak(peaks),
                     "B/s", kind))
    crossing = past_ridge(points)
    past = None
    if crossing:   # did the chain's FLOP/s rise or fall past its ridge point? the two measured together
        pair = {f"chain k={p['size']}": p for p in crossing}
        before, after = pair
        comparison = together(pair)
        labels = {name: chain_label(p["size"]) for name, p in pair.items()}
        sentence = comparison.rate_sentences(after, before, per_run(pair, "flops"), "GFLOP/s", labels)
        print(f"past the ridge point, measured again together ({comparison.rounds} interleaved rounds of "
              f"{args.calls} calls each):\n{comparison.table()}\n{sentence['en']}")
        past = {"before": crossing[0], "after": crossing[1], "names": (before, after), "comparison": comparison,
                "verdict": comparison.verdict(after, before, per_run(pair, "flops")), "labels": labels,
                "sentences": sentence}
    write_plot(plot, args.plot, points, limits, args.dtype)
    best_bytes = max(points, key=lambda p: p["byte_rate"])
    return {"points": points, "limits": limits, "dtype": args.dtype, "elements": args.elements,
            "device_kind": kind, "best_matmul": best_matmul, "best_chain": best_chain, "best_bytes": best_bytes,
            "past_ridge": past}


if __name__ == "__main__":
    sweep_result = main()
