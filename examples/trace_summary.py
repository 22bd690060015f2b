"""Read a profiler trace back: the operations that took the most time, and the gaps between them.

The exercise of the lesson "Profiling and compile time". ``record`` runs a call a few times under
``jax.profiler.trace(..., create_perfetto_trace=True)`` in a temporary directory and reads back
``perfetto_trace.json.gz``: JSON in the Chrome trace format, whose complete events (``"ph": "X"``)
each have a name, a start ``ts`` and a duration ``dur`` in microseconds, on a process ``pid`` and a
thread ``tid`` named by metadata events (``"ph": "M"``). An event is a *device operation* when it
ran on a process named ``/device:…`` (a GPU's streams); in a trace without such a process (the CPU
backend's, whose operations run on the host's threads) it is one that carries the XLA operation it
executed in its ``args`` (``hlo_op``). On a GPU the host's calls that launch the kernels carry
``hlo_op`` too, so there the process decides. Every other event is *host* work: Python, JAX's
dispatch, the runtime. Python function frames (names starting with ``$``) are left out.

``top_operations`` sums each operation's time and ``device_gaps`` measures the idle time between
consecutive device operations. Run as a program, it profiles the function of the exercise, a
layer normalisation written as many small operations, first op by op without ``jax.jit`` and then
under ``jax.jit``, and prints both tables:

    python examples/trace_summary.py --size 512 --plot trace_summary.png

writes trace_summary.ko.png and trace_summary.en.png: the device operations of one call of each on
a timeline, labelled in Korean and in English.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import re
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, new_figure, save, say, write_plot  # noqa: E402
from timing import compare, machine, ms  # noqa: E402

# A tiny trace in the same format, for the doctests: one host call that runs two device operations,
# the second one twice, with a gap before each.
EXAMPLE = [
    {"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "/host:CPU"}},
    {"ph": "M", "pid": 1, "tid": 7, "name": "thread_name", "args": {"name": "python"}},
    {"ph": "X", "pid": 1, "tid": 7, "name": "PjitFunction(f)", "ts": 0.0, "dur": 100.0},
    {"ph": "X", "pid": 1, "tid": 7, "name": "PjitFunction(f)", "ts": 1.0, "dur": 98.0},  # nested in itself
    {"ph": "X", "pid": 1, "tid": 7, "name": "$python frame", "ts": 0.0, "dur": 100.0},
    {"ph": "X", "pid": 1, "tid": 9, "name": "dot_fusion", "ts": 10.0, "dur": 40.0, "args": {"hlo_op": "dot_fusion"}},
    {"ph": "X", "pid": 1, "tid": 9, "name": "end: dot_fusion", "ts": 50.0, "dur": 0.1},
    {"ph": "X", "pid": 1, "tid": 9, "name": "exp_fusion", "ts": 60.0, "dur": 10.0, "args": {"hlo_op": "exp_fusion"}},
    {"ph": "X", "pid": 1, "tid": 8, "name": "exp_fusion", "ts": 80.0, "dur": 10.0, "args": {"hlo_op": "exp_fusion"}},
]


@dataclasses.dataclass
class Operation:
    """One row of the table: every event of one name on one side (host or device), summed."""

    side: str
    name: str
    count: int
    total_us: float
    share: float  # of the recorded window's wall time

    def __str__(self) -> str:
        name = self.name if len(self.name) <= 44 else self.name[:43] + "…"
        return (f"{self.side:<7}{name:<46}{self.count:>6}{ms(self.total_us / 1e6):>10}"
                f"{self.share:>8.1%}")


HEADER = f"{'side':<7}{'operation':<46}{'count':>6}{'total ms':>10}{'share':>8}"


def load_events(trace_dir: str | Path) -> list[dict]:
    """The events of the Perfetto trace that ``jax.profiler.trace`` wrote under ``trace_dir``."""
    path, = Path(trace_dir).glob("plugins/profile/*/perfetto_trace.json.gz")
    with gzip.open(path) as file:
        return json.load(file)["traceEvents"]


def record(call: Callable, repeats: int = 3) -> list[dict]:
    """Run ``call()`` ``repeats`` times, blocking on each result, under the profiler; its events.

    The trace goes to a temporary directory, removed afterwards. Call once before, so that the
    trace holds runs, not compilation.

    >>> events = record(lambda: jnp.ones(4) + 1, repeats=2)
    >>> any(e.get("ph") == "X" for e in events)
    True
    """
    with tempfile.TemporaryDirectory() as trace_dir:
        with jax.profiler.trace(trace_dir, create_perfetto_trace=True):
            for _ in range(repeats):
                jax.block_until_ready(call())
        return load_events(trace_dir)


def process_names(events: list[dict]) -> dict[int, str]:
    """Process id → name, from the metadata events.

    >>> process_names(EXAMPLE)
    {1: '/host:CPU'}
    """
    return {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}


def is_device(event: dict, processes: dict[int, str]) -> bool:
    """Whether ``event`` is an operation that ran on the device: one on a ``/device:…`` process (a
    GPU's streams) where the trace has such a process, else one that carries the XLA operation it
    executed (``hlo_op``): the CPU backend's trace has only ``/host:CPU``.

    >>> cpu = {1: "/host:CPU"}
    >>> [is_device(e, cpu) for e in ({"pid": 1, "name": "PjitFunction(f)"},
    ...                              {"pid": 1, "name": "fusion", "args": {"hlo_op": "fusion"}})]
    [False, True]
    >>> gpu = {1: "/host:CPU", 2: "/device:GPU:0"}   # the host's launch of a kernel carries hlo_op too
    >>> launch = {"pid": 1, "name": "loop_add_fusion_1", "args": {"hlo_op": "loop_add_fusion.1"}}
    >>> kernel = {"pid": 2, "name": "loop_add_fusion_1", "args": {"hlo_op": "loop_add_fusion.1"}}
    >>> [is_device(e, gpu) for e in (launch, kernel)]
    [False, True]
    """
    if any(name.startswith("/device:") for name in processes.values()):
        return processes.get(event["pid"], "").startswith("/device:")
    return "hlo_op" in event.get("args", {})


def spans(events: list[dict]) -> list[dict]:
    """The complete events worth counting, by start time: no Python frames (``$…``), no ``end: …``
    markers, and an event nested in one of the same name on its thread counted once.

    >>> [e["name"] for e in spans(EXAMPLE)]
    ['PjitFunction(f)', 'dot_fusion', 'exp_fusion', 'exp_fusion']
    """
    kept, open_until = [], {}
    for e in sorted((e for e in events if e.get("ph") == "X" and "dur" in e), key=lambda e: (e["ts"], -e["dur"])):
        if e["name"].startswith(("$", "end: ")):
            continue
        key = (e["pid"], e["tid"], e["name"])
        if open_until.get(key, -1.0) >= e["ts"] + e["dur"]:
            continue  # inside an event of the same name: already counted
        open_until[key] = e["ts"] + e["dur"]
        kept.append(e)
    return kept


def window_us(events: list[dict]) -> float:
    """Wall time the counted events cover (``spans``), first start to last end, in microseconds.

    >>> window_us(EXAMPLE)
    100.0
    """
    timed = spans(events)
    return max(e["ts"] + e["dur"] for e in timed) - min(e["ts"] for e in timed)


def device_operation(event: dict) -> str:
    """The name a device event is counted under: the XLA operation it ran (``hlo_op``), else its own
    name; and its own name too where the operation is a command buffer (XLA:GPU runs a sequence of
    kernels as one CUDA graph, ``command_buffer_<n>``, and each kernel in it carries that name).

    >>> device_operation({"name": "loop_add_fusion_1", "args": {"hlo_op": "loop_add_fusion.1"}})
    'loop_add_fusion.1'
    >>> device_operation({"name": "loop_add_fusion_1", "args": {"hlo_op": "command_buffer_3"}})
    'loop_add_fusion_1'
    >>> device_operation({"name": "MemcpyD2H"})
    'MemcpyD2H'
    """
    operation = event.get("args", {}).get("hlo_op", event["name"])
    return event["name"] if operation.startswith("command_buffer") else operation


def top_operations(events: list[dict], n: int = 8, side: str | None = None) -> list[Operation]:
    """The ``n`` operations with the most total time, host and device apart (or only ``side``).

    A device operation is named by the XLA operation it ran where its event says (``hlo_op``), else
    by the event's own name (on a GPU, the kernel's or the copy's; ``device_operation``). Host events
    nest (a call contains the runtime's work for it), and so do device events inside a loop (a
    ``while`` holds its body's operations), so the shares can add up to more than 100%.

    >>> for op in top_operations(EXAMPLE):
    ...     print(op.side, op.name, op.count, op.total_us, f"{op.share:.0%}")
    host PjitFunction(f) 1 100.0 100%
    device dot_fusion 1 40.0 40%
    device exp_fusion 2 20.0 20%
    >>> [op.name for op in top_operations(EXAMPLE, side="device")]
    ['dot_fusion', 'exp_fusion']
    """
    processes, window = process_names(events), window_us(events)
    totals: dict[tuple[str, str], list[float]] = {}
    for e in spans(events):
        where = "device" if is_device(e, processes) else "host"
        name = device_operation(e) if where == "device" else e["name"]
        if side in (None, where):
            totals.setdefault((where, name), []).append(e["dur"])
    rows = [Operation(where, name, len(d), sum(d), sum(d) / window) for (where, name), d in totals.items()]
    return sorted(rows, key=lambda op: -op.total_us)[:n]


def table(operations: list[Operation]) -> str:
    """The rows under a header, as the page prints them.

    >>> print(table(top_operations(EXAMPLE, n=1)))
    side   operation                                      count  total ms   share
    host   PjitFunction(f)                                    1     0.100  100.0%
    """
    return "\n".join([HEADER] + [str(op) for op in operations])


def hlo_scopes(hlo_text: str) -> dict[str, str]:
    """Instruction name → the ``op_name`` in its metadata, from a compiled program's HLO text
    (``compiled.as_text()``): where ``jax.named_scope`` names end up.

    >>> hlo_scopes('  %fusion.2 = f32[8]{0} fusion(%p), kind=kLoop, metadata={op_name="jit(f)/attention/exp"}')
    {'fusion.2': 'jit(f)/attention/exp'}
    """
    return {m[1]: m[2] for m in re.finditer(r'^\s*(?:ROOT )?%?([\w.\-]+) = .*?metadata=\{op_name="([^"]*)"',
                                             hlo_text, re.MULTILINE)}


def device_intervals(events: list[dict]) -> list[tuple[float, float]]:
    """When the device was busy: the device operations' (start, end), overlapping ones merged.

    >>> device_intervals(EXAMPLE)
    [(10.0, 50.0), (60.0, 70.0), (80.0, 90.0)]
    """
    processes = process_names(events)
    merged: list[list[float]] = []
    for e in sorted((e for e in spans(events) if is_device(e, processes)), key=lambda e: e["ts"]):
        start, end = e["ts"], e["ts"] + e["dur"]
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


@dataclasses.dataclass
class Gaps:
    """The device's idle time between consecutive operations, in microseconds."""

    operations: int   # busy intervals (device operations, overlapping ones merged)
    busy_us: float    # their total length
    span_us: float    # first start to last end
    gaps_us: list[float]

    @property
    def median_us(self) -> float:
        return statistics.median(self.gaps_us) if self.gaps_us else 0.0

    @property
    def busy(self) -> float:
        """The fraction of the span the device was running an operation."""
        return self.busy_us / self.span_us if self.span_us else 0.0


def device_gaps(events: list[dict]) -> Gaps:
    """Gaps between consecutive device operations.

    >>> g = device_gaps(EXAMPLE)
    >>> g.operations, g.gaps_us, g.median_us, f"{g.busy:.0%}"
    (3, [10.0, 10.0], 10.0, '75%')
    """
    intervals = device_intervals(events)
    if not intervals:
        return Gaps(0, 0.0, 0.0, [])
    gaps = [b[0] - a[1] for a, b in zip(intervals[:-1], intervals[1:], strict=True)]
    return Gaps(len(intervals), sum(end - start for start, end in intervals),
                intervals[-1][1] - intervals[0][0], gaps)


# --- the exercise ---------------------------------------------------------------------------------

def layer_norm(x, scale, bias):
    """A layer normalisation written as small steps, then a GELU: about ten operations.

    >>> args = jnp.arange(8.0).reshape(2, 4), jnp.ones(4), jnp.zeros(4)
    >>> y = layer_norm(*args)
    >>> y.shape, bool(jnp.allclose(y, jax.jit(layer_norm)(*args), atol=1e-6))
    ((2, 4), True)
    """
    mean = jnp.mean(x, axis=-1, keepdims=True)
    centred = x - mean
    variance = jnp.mean(centred * centred, axis=-1, keepdims=True)
    normed = centred * jax.lax.rsqrt(variance + 1e-5)
    return jax.nn.gelu(normed * scale + bias)


def one_call_window(events: list[dict]) -> list[tuple[float, float]]:
    """The device operations of the last recorded call, (start, end) relative to its first one (µs)."""
    processes = process_names(events)
    intervals = sorted((e["ts"], e["ts"] + e["dur"]) for e in spans(events) if is_device(e, processes))
    host = [e for e in spans(events) if e["name"] == "call"]
    if host:  # the annotation of the last call bounds it
        last = max(host, key=lambda e: e["ts"])
        intervals = [(a, b) for a, b in intervals if last["ts"] <= a <= last["ts"] + last["dur"]]
    start = intervals[0][0] if intervals else 0.0
    return [(a - start, b - start) for a, b in intervals]


def plot(timelines: dict[str, list[tuple[float, float]]], path: str, language: str = "en") -> None:
    """The device operations of one call of each variant as bars on a timeline."""
    fig, ax = new_figure()
    names = {"op by op": say(language, "연산마다 실행", "op by op"), "jit": say(language, "jax.jit", "jax.jit")}
    for row, intervals in enumerate(timelines.values()):
        for k, (a, b) in enumerate(intervals):  # alternate shades, so that neighbouring operations show apart
            ax.broken_barh([(a / 1e3, max(b - a, 1.0) / 1e3)], (row - 0.3, 0.6), color=f"C{row}",
                           alpha=1.0 if k % 2 == 0 else 0.55)
    ax.set_yticks(range(len(timelines)), [names[v] for v in timelines])
    ax.set_xlabel(say(language, "호출 시작부터 걸린 시간 (ms)", "time from the call's start (ms)"))
    ax.set_title(say(language, "호출 한 번의 디바이스 연산 타임라인", "device operations on the timeline: one call")
                 + f"\n{jax.default_backend().upper()}, jax {jax.__version__}")
    ax.grid(True, axis="x", alpha=0.3)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=512, help="rows and columns of the input (default: 512)")
    parser.add_argument("--top", type=int, default=6, help="rows of each table (default: 6)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    print(f"{machine()}; layer_norm of a {args.size}×{args.size} float32 matrix, 3 calls recorded")
    x = jax.random.normal(jax.random.key(0), (args.size, args.size))
    scale, bias = jnp.ones(args.size), jnp.zeros(args.size)
    variants = {"op by op": layer_norm, "jit": jax.jit(layer_norm)}
    results = {}
    for name, fn in variants.items():
        fn(x, scale, bias).block_until_ready()  # compile (each small operation, or the whole) first

        def annotated(fn=fn):
            with jax.profiler.TraceAnnotation("call"):
                return jax.block_until_ready(fn(x, scale, bias))

        events = record(annotated)
        top = [op for op in top_operations(events, args.top + 1) if op.name != "call"][:args.top]  # not our label
        results[name] = {"events": events, "top": top,
                         "device": top_operations(events, 10**6, side="device"), "gaps": device_gaps(events)}
        g = results[name]["gaps"]
        print(f"\n{name}: {len(results[name]['device'])} distinct device operations, {g.operations} runs of "
              f"the device, median gap {g.median_us:,.1f} µs, busy {g.busy:.0%} of the span")
        print(table(results[name]["top"]))
    timing = compare({name: (lambda fn=fn: fn(x, scale, bias)) for name, fn in variants.items()}, rounds=8)
    print("\nwarm calls, interleaved:\n" + timing.table())
    write_plot(plot, args.plot, {name: one_call_window(r["events"]) for name, r in results.items()})
    return {"results": results, "timing": timing}


if __name__ == "__main__":
    summary = main()
