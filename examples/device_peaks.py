"""Datasheet peaks of accelerators, keyed by JAX's device kind, and how near a measured rate came to them.

A measured FLOP/s or GB/s means little without a yardstick. This table holds, for each device it
knows, the vendor's datasheet figures: dense matrix arithmetic in bfloat16, float16, FP8 and TF32
(tensor cores, without structured sparsity), plain float32 arithmetic (no tensor cores), memory
bandwidth, memory capacity, and the NVLink bandwidth between GPUs. A program or lesson looks its
device up by ``jax.devices()[0].device_kind`` and prints
"achieved / peak = ratio"; for a device the table does not know, the CPU included (a CPU's peak
depends on its exact part, cores, clocks and vector units), it prints the achieved figure only.

Every figure is NVIDIA's own, from the datasheet or product page named in the entry's ``source``.
NVIDIA prints tensor-core rates "with sparsity" (2:4 structured sparsity, marked with an asterisk);
the dense rates here are half of those, as the datasheets' footnotes say. Datasheet peaks are
upper bounds at the boost clock: real kernels reach a share of them, which is what the ratio shows.

    python examples/device_peaks.py                  # this machine's device (asks JAX), then the table
    python examples/device_peaks.py --device-kind "NVIDIA H100 80GB HBM3"
"""

from __future__ import annotations

import argparse
import dataclasses
import re


@dataclasses.dataclass(frozen=True)
class Peaks:
    """One device's datasheet peaks. Rates in TFLOP/s (10^12 per second), bandwidth in GB/s (10^9 bytes)."""

    name: str
    bf16_tflops: float | None  # dense bfloat16 on tensor cores (None: no fast bfloat16)
    tf32_tflops: float | None  # dense TF32 on tensor cores (None: no TF32)
    fp32_tflops: float  # plain float32, no tensor cores
    bandwidth_gbs: float  # memory bandwidth
    source: str
    fp16_tflops: float | None = None  # dense float16 on tensor cores (None: no fast float16)
    fp8_tflops: float | None = None  # dense FP8 (E4M3/E5M2) on tensor cores (None: no FP8)
    memory_gb: float | None = None  # the board's memory capacity, GB (10^9 bytes) as the datasheet prints it
    nvlink_gbs: float | None = None  # NVLink GPU-to-GPU bandwidth per GPU, both directions (None: no NVLink)


_H100 = "https://www.nvidia.com/en-us/data-center/h100/ (H100 datasheet table)"
_H200 = "https://www.nvidia.com/en-us/data-center/h200/ (H200 datasheet table)"
_A100 = ("https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
         "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf (A100 datasheet table)")

# Keyed by the device kind JAX reports (the CUDA device name). Tensor-core figures: half the
# datasheet's "with sparsity" figure. Memory bandwidth: the datasheet's "GPU memory bandwidth".
PEAKS: dict[str, Peaks] = {
    "NVIDIA H100 80GB HBM3": Peaks(  # the SXM5 board
        "H100 SXM", bf16_tflops=1979 / 2, tf32_tflops=989 / 2, fp32_tflops=67, bandwidth_gbs=3350,
        source=f"{_H100}: H100 SXM, BFLOAT16 1,979* and TF32 989* TFLOPS, FP32 67 TFLOPS, 3.35 TB/s"
               "; FP16 1,979* and FP8 3,958* TFLOPS, 80 GB; NVLink 900 GB/s",
        fp16_tflops=1979 / 2, fp8_tflops=3958 / 2, memory_gb=80, nvlink_gbs=900),
    "NVIDIA H100 PCIe": Peaks(
        "H100 PCIe", bf16_tflops=1513 / 2, tf32_tflops=756 / 2, fp32_tflops=51, bandwidth_gbs=2000,
        source=f"{_H100}: H100 PCIe, BFLOAT16 1,513* and TF32 756* TFLOPS, FP32 51 TFLOPS, 2 TB/s"
               "; FP16 1,513* and FP8 3,026* TFLOPS, 80 GB; NVLink bridge 600 GB/s",
        fp16_tflops=1513 / 2, fp8_tflops=3026 / 2, memory_gb=80, nvlink_gbs=600),
    "NVIDIA H100 NVL": Peaks(
        "H100 NVL", bf16_tflops=1671 / 2, tf32_tflops=835 / 2, fp32_tflops=60, bandwidth_gbs=3900,
        source=f"{_H100}: H100 NVL, BFLOAT16 1,671* and TF32 835* TFLOPS, FP32 60 TFLOPS, 3.9 TB/s"
               "; FP16 1,671* and FP8 3,341* TFLOPS, 94 GB; NVLink 600 GB/s",
        fp16_tflops=1671 / 2, fp8_tflops=3341 / 2, memory_gb=94, nvlink_gbs=600),
    "NVIDIA H200": Peaks(  # the SXM board; the same chip as the H100 SXM with more, faster memory
        "H200 SXM", bf16_tflops=1979 / 2, tf32_tflops=989 / 2, fp32_tflops=67, bandwidth_gbs=4800,
        source=f"{_H200}: H200 SXM, BFLOAT16 1,979* and TF32 989* TFLOPS, FP32 67 TFLOPS, 4.8 TB/s"
               "; FP16 1,979* and FP8 3,958* TFLOPS, 141 GB; NVLink 900 GB/s",
        fp16_tflops=1979 / 2, fp8_tflops=3958 / 2, memory_gb=141, nvlink_gbs=900),
    "NVIDIA H200 NVL": Peaks(
        "H200 NVL", bf16_tflops=1671 / 2, tf32_tflops=835 / 2, fp32_tflops=60, bandwidth_gbs=4800,
        source=f"{_H200}: H200 NVL, BFLOAT16 1,671* and TF32 835* TFLOPS, FP32 60 TFLOPS, 4.8 TB/s"
               "; FP16 1,671* and FP8 3,341* TFLOPS, 141 GB; NVLink bridge 900 GB/s",
        fp16_tflops=1671 / 2, fp8_tflops=3341 / 2, memory_gb=141, nvlink_gbs=900),
    "NVIDIA A100-SXM4-80GB": Peaks(
        "A100 80GB SXM", bf16_tflops=624 / 2, tf32_tflops=312 / 2, fp32_tflops=19.5, bandwidth_gbs=2039,
        source=f"{_A100}: A100 80GB SXM, BFLOAT16 624* and TF32 312* TFLOPS, FP32 19.5 TFLOPS, 2,039 GB/s"
               "; FP16 624* TFLOPS, no FP8, 80 GB; NVLink 600 GB/s",
        fp16_tflops=624 / 2, fp8_tflops=None, memory_gb=80, nvlink_gbs=600),
    "NVIDIA A100-SXM4-40GB": Peaks(
        "A100 40GB SXM", bf16_tflops=624 / 2, tf32_tflops=312 / 2, fp32_tflops=19.5, bandwidth_gbs=1555,
        source=f"{_A100}: A100 40GB SXM, BFLOAT16 624* and TF32 312* TFLOPS, FP32 19.5 TFLOPS, 1,555 GB/s"
               "; FP16 624* TFLOPS, no FP8, 40 GB; NVLink 600 GB/s",
        fp16_tflops=624 / 2, fp8_tflops=None, memory_gb=40, nvlink_gbs=600),
    "NVIDIA A100 80GB PCIe": Peaks(
        "A100 80GB PCIe", bf16_tflops=624 / 2, tf32_tflops=312 / 2, fp32_tflops=19.5, bandwidth_gbs=1935,
        source=f"{_A100}: A100 80GB PCIe, BFLOAT16 624* and TF32 312* TFLOPS, FP32 19.5 TFLOPS, 1,935 GB/s"
               "; FP16 624* TFLOPS, no FP8, 80 GB; NVLink bridge 600 GB/s",
        fp16_tflops=624 / 2, fp8_tflops=None, memory_gb=80, nvlink_gbs=600),
    "NVIDIA A100-PCIE-40GB": Peaks(
        "A100 40GB PCIe", bf16_tflops=624 / 2, tf32_tflops=312 / 2, fp32_tflops=19.5, bandwidth_gbs=1555,
        source=f"{_A100}: A100 40GB PCIe, BFLOAT16 624* and TF32 312* TFLOPS, FP32 19.5 TFLOPS, 1,555 GB/s"
               "; FP16 624* TFLOPS, no FP8, 40 GB; NVLink bridge 600 GB/s",
        fp16_tflops=624 / 2, fp8_tflops=None, memory_gb=40, nvlink_gbs=600),
    "NVIDIA L4": Peaks(
        "L4", bf16_tflops=242 / 2, tf32_tflops=120 / 2, fp32_tflops=30.3, bandwidth_gbs=300,
        source="https://www.nvidia.com/en-us/data-center/l4/ (L4 datasheet table): "
               "BFLOAT16 242* and TF32 120* TFLOPS, FP32 30.3 TFLOPS, 300 GB/s"
               "; FP16 242* and FP8 485* TFLOPS, 24 GB; no NVLink",
        fp16_tflops=242 / 2, fp8_tflops=485 / 2, memory_gb=24),
    "NVIDIA L40S": Peaks(
        "L40S", bf16_tflops=733 / 2, tf32_tflops=366 / 2, fp32_tflops=91.6, bandwidth_gbs=864,
        source="https://www.nvidia.com/en-us/data-center/l40s/ (L40S datasheet table): "
               "BFLOAT16 733* and TF32 366* TFLOPS, FP32 91.6 TFLOPS, 864 GB/s"
               "; FP16 733* and FP8 1,466* TFLOPS, 48 GB; no NVLink",
        fp16_tflops=733 / 2, fp8_tflops=1466 / 2, memory_gb=48),
}

GOAL = 0.7  # the share of a peak this site's GPU build aims for on its largest kernels


def normalise(device_kind: str) -> str:
    """The form two device kinds are compared in when they do not match exactly.

    Case, runs of spaces, hyphens and underscores, and a leading "NVIDIA" or "Tesla" are ignored,
    so "nvidia a100 sxm4 80gb" finds "NVIDIA A100-SXM4-80GB".

    >>> normalise("NVIDIA A100-SXM4-80GB")
    'a100 sxm4 80gb'
    >>> normalise("  Tesla   T4 ")
    't4'
    """
    words = re.sub(r"[\s_\-]+", " ", device_kind).strip().lower()
    return re.sub(r"^(nvidia|tesla) ", "", words)


_BY_NORMAL_FORM = {normalise(kind): peaks for kind, peaks in PEAKS.items()}


def lookup(device_kind: str) -> Peaks | None:
    """The peaks for a device kind: an exact match first, then one after ``normalise``; else None.

    >>> lookup("NVIDIA H100 80GB HBM3").name
    'H100 SXM'
    >>> lookup("nvidia h200").bandwidth_gbs
    4800
    >>> lookup("cpu") is None  # a CPU's peak depends on its exact part: no entry
    True
    """
    return PEAKS.get(device_kind) or _BY_NORMAL_FORM.get(normalise(device_kind))


def matmul_dtype(device_kind: str, backend: str) -> str:
    """The dtype for the largest matrix product on this device: bfloat16 where it is fast, else float32.

    A device in the table has fast bfloat16 when the table gives a bfloat16 rate; a device not in
    it is taken to have it on an accelerator backend (``gpu``, ``tpu``) and not on the CPU, where
    bfloat16 matrix products are mostly no faster than float32.

    >>> matmul_dtype("NVIDIA H100 80GB HBM3", "gpu"), matmul_dtype("cpu", "cpu")
    ('bfloat16', 'float32')
    """
    peaks = lookup(device_kind)
    if peaks is not None:
        return "bfloat16" if peaks.bf16_tflops else "float32"
    return "float32" if backend == "cpu" else "bfloat16"


def matmul_peak(peaks: Peaks | None, dtype: str) -> tuple[float, str] | None:
    """``(peak FLOP/s, what that peak is)`` for a matrix product in ``dtype`` on this device, or None.

    float32 on a GPU with TF32 tensor cores is measured against the TF32 rate: JAX's default
    precision lets XLA compute float32 matrix products in TF32 there
    (https://docs.jax.dev/en/latest/201/precision.html).

    >>> h100 = lookup("NVIDIA H100 80GB HBM3")
    >>> matmul_peak(h100, "bfloat16")
    (989500000000000.0, 'dense bfloat16')
    >>> matmul_peak(h100, "float32")[1]
    "dense TF32, JAX's default precision for float32"
    >>> matmul_peak(h100, "float8_e4m3fn")
    (1979000000000000.0, 'dense FP8')
    >>> matmul_peak(lookup("NVIDIA A100-SXM4-80GB"), "float8_e4m3fn") is None  # no FP8 tensor cores
    True
    >>> matmul_peak(None, "float32") is None
    True
    """
    if peaks is None:
        return None
    if dtype == "bfloat16" and peaks.bf16_tflops:
        return peaks.bf16_tflops * 1e12, "dense bfloat16"
    if dtype == "float32" and peaks.tf32_tflops:
        return peaks.tf32_tflops * 1e12, "dense TF32, JAX's default precision for float32"
    if dtype == "float32":
        return peaks.fp32_tflops * 1e12, "float32"
    if dtype == "float16" and peaks.fp16_tflops:
        return peaks.fp16_tflops * 1e12, "dense float16"
    if dtype.startswith("float8") and peaks.fp8_tflops:
        return peaks.fp8_tflops * 1e12, "dense FP8"
    return None


def bandwidth_peak(peaks: Peaks | None) -> tuple[float, str] | None:
    """``(peak bytes/s, what that peak is)`` of the device's memory, or None.

    >>> bandwidth_peak(lookup("NVIDIA H200"))
    (4800000000000.0, 'memory bandwidth')
    """
    return None if peaks is None else (peaks.bandwidth_gbs * 1e9, "memory bandwidth")


_PREFIXES = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""))


def format_rate(value: float, unit: str, scale: float | None = None) -> str:
    """A rate with an SI prefix and three significant digits at least; ``scale`` picks the prefix.

    >>> format_rate(2.03e11, "FLOP/s"), format_rate(3.35e12, "B/s"), format_rate(7.5e11, "FLOP/s", 1e12)
    ('203.0 GFLOP/s', '3.35 TB/s', '0.750 TFLOP/s')
    """
    if scale is None:
        scale = next((size for size, _ in _PREFIXES if abs(value) >= size), 1.0)
    digits = 3 if abs(value) < scale else 2 if abs(value) < 10 * scale else 1
    return f"{value / scale:,.{digits}f} {dict(_PREFIXES)[scale]}{unit}"


_LABELS_KO = {  # what a peak is, in Korean, for limit_line(..., language="ko")
    "dense bfloat16": "희소성 없는 bfloat16 텐서 코어 연산",
    "dense TF32, JAX's default precision for float32": "희소성 없는 TF32 텐서 코어 연산, JAX의 float32 기본 정밀도",
    "float32": "텐서 코어 없는 float32",
    "dense float16": "희소성 없는 float16 텐서 코어 연산",
    "dense FP8": "희소성 없는 FP8 텐서 코어 연산",
    "memory bandwidth": "메모리 대역폭",
}


def limit_line(what: str, achieved: float, peak: tuple[float, str] | None, unit: str, device_kind: str,
               language: str = "en") -> str:
    """"achieved / peak = ratio" for one measurement, or the achieved figure alone for an unknown device.

    ``achieved`` and the peak are in base units (FLOP/s, bytes/s); the peak comes from
    ``matmul_peak`` or ``bandwidth_peak``. ``language="ko"`` says the same in Korean, for a page's
    Korean text (``what`` is then the caller's Korean name for the measurement).

    >>> h100 = lookup("NVIDIA H100 80GB HBM3")
    >>> print(limit_line("matmul", 7.8e14, matmul_peak(h100, "bfloat16"), "FLOP/s", "NVIDIA H100 80GB HBM3"))
    matmul: 780.0 TFLOP/s achieved / 989.5 TFLOP/s peak (dense bfloat16) = 79% of peak
    >>> print(limit_line("copy", 3.1e12, bandwidth_peak(h100), "B/s", "NVIDIA H100 80GB HBM3"))
    copy: 3.10 TB/s achieved / 3.35 TB/s peak (memory bandwidth) = 93% of peak
    >>> print(limit_line("copy", 2.03e11, None, "B/s", "cpu"))
    copy: 203.0 GB/s achieved; no peak in the table for cpu: achieved only
    >>> print(limit_line("행렬 곱", 7.8e14, matmul_peak(h100, "bfloat16"), "FLOP/s", "NVIDIA H100 80GB HBM3", "ko"))
    행렬 곱: 780.0 TFLOP/s 달성, 최대 성능 989.5 TFLOP/s(희소성 없는 bfloat16 텐서 코어 연산)의 79%
    >>> print(limit_line("복사", 2.03e11, None, "B/s", "cpu", "ko"))
    복사: 203.0 GB/s 달성(표에 CPU의 최대 성능 없음)
    """
    if language not in ("en", "ko"):
        raise ValueError(f"language must be 'en' or 'ko', not {language!r}")
    if peak is None:
        if language == "ko":
            kind = "CPU" if normalise(device_kind) == "cpu" else device_kind
            return f"{what}: {format_rate(achieved, unit)} 달성(표에 {kind}의 최대 성능 없음)"
        return f"{what}: {format_rate(achieved, unit)} achieved; no peak in the table for {device_kind}: achieved only"
    value, label = peak
    scale = next(size for size, _ in _PREFIXES if value >= size)
    if language == "ko":
        return (f"{what}: {format_rate(achieved, unit, scale)} 달성, 최대 성능 {format_rate(value, unit, scale)}"
                f"({_LABELS_KO.get(label, label)})의 {achieved / value:.0%}")
    return (f"{what}: {format_rate(achieved, unit, scale)} achieved / {format_rate(value, unit, scale)} peak "
            f"({label}) = {achieved / value:.0%} of peak")


def limit_record(what: str, achieved: float, peak: tuple[float, str] | None, unit: str, device_kind: str) -> dict:
    """The same measurement as data, for a build's record: achieved, peak, ratio (None without a peak).

    >>> record = limit_record("copy", 3.0e12, bandwidth_peak(lookup("NVIDIA H100 80GB HBM3")), "B/s",
    ...                       "NVIDIA H100 80GB HBM3")
    >>> record["peak"], record["peak_is"], round(record["ratio"], 3), record["goal"]
    (3350000000000.0, 'memory bandwidth', 0.896, 0.7)
    >>> limit_record("copy", 2.0e11, None, "B/s", "cpu")["ratio"] is None
    True
    """
    value, label = peak if peak is not None else (None, None)
    return {"what": what, "device_kind": device_kind, "unit": unit, "achieved": achieved, "peak": value,
            "peak_is": label, "ratio": None if value is None else achieved / value, "goal": GOAL}


def memory_capacity(peaks: Peaks | None) -> float | None:
    """The board's memory in bytes, as its datasheet prints it (GB = 10^9 bytes), or None.

    What a program can allocate is less: the driver and JAX's own allocator keep some (on a GPU,
    ``jax.devices()[0].memory_stats()["bytes_limit"]`` says how much JAX may use).

    >>> memory_capacity(lookup("NVIDIA H200"))
    141000000000.0
    >>> memory_capacity(None) is None
    True
    """
    return None if peaks is None or peaks.memory_gb is None else peaks.memory_gb * 1e9


_NVLINK_BOTH_WAYS = ("https://www.nvidia.com/en-us/technologies/hopper-architecture/: fourth-generation NVLink, "
                     "900 GB/s bidirectional per GPU")


def link_bandwidth(peaks: Peaks | None) -> tuple[float, str] | None:
    """``(bytes/s, what that is)`` one GPU can send to the others over NVLink, one direction; or None.

    The datasheets print NVLink bandwidth per GPU with both directions added together (for the
    Hopper GPUs, NVIDIA says so: ``_NVLINK_BOTH_WAYS``). A GPU sending in a ring sends one way while
    it receives the other, so an estimate of the time to send S bytes is S / (half that figure).

    >>> link_bandwidth(lookup("NVIDIA H100 80GB HBM3"))
    (450000000000.0, 'NVLink, one direction (half of 900 GB/s bidirectional)')
    >>> link_bandwidth(lookup("NVIDIA L4")) is None, link_bandwidth(None) is None
    (True, True)
    """
    if peaks is None or peaks.nvlink_gbs is None:
        return None
    return peaks.nvlink_gbs / 2 * 1e9, f"NVLink, one direction (half of {peaks.nvlink_gbs:,.0f} GB/s bidirectional)"


def format_table() -> str:
    """Every entry of the table, one line each.

    >>> print(format_table().splitlines()[0])
    device kind (JAX)        board            bf16 TFLOP/s  TF32 TFLOP/s  fp32 TFLOP/s  fp8 TFLOP/s ... memory GB
    """
    rows = [f"{'device kind (JAX)':<24} {'board':<15} {'bf16 TFLOP/s':>13} {'TF32 TFLOP/s':>13}"
            f" {'fp32 TFLOP/s':>13} {'fp8 TFLOP/s':>12} {'memory GB/s':>12} {'memory GB':>10}"]
    for kind, p in PEAKS.items():
        rows.append(f"{kind:<24} {p.name:<15} {p.bf16_tflops or 0:>13,.1f} {p.tf32_tflops or 0:>13,.1f}"
                    f" {p.fp32_tflops:>13,.1f} {p.fp8_tflops or 0:>12,.1f} {p.bandwidth_gbs:>12,.0f}"
                    f" {p.memory_gb or 0:>10,.0f}")
    return "\n".join(rows)


def describe(device_kind: str) -> str:
    """What the table says about one device kind, as the program prints it.

    >>> print(describe("cpu"))
    device kind 'cpu': no peak in the table (a CPU's peak depends on its exact part): achieved figures only
    """
    peaks = lookup(device_kind)
    if peaks is None:
        why = " (a CPU's peak depends on its exact part)" if normalise(device_kind) == "cpu" else ""
        return f"device kind {device_kind!r}: no peak in the table{why}: achieved figures only"
    return (f"device kind {device_kind!r}: {peaks.name}; dense bf16 {peaks.bf16_tflops or 0:,.1f} TFLOP/s, "
            f"dense TF32 {peaks.tf32_tflops or 0:,.1f} TFLOP/s, fp32 {peaks.fp32_tflops:,.1f} TFLOP/s, "
            f"dense fp8 {peaks.fp8_tflops or 0:,.1f} TFLOP/s, memory {peaks.bandwidth_gbs:,.0f} GB/s, "
            f"{peaks.memory_gb or 0:,.0f} GB\n  source: {peaks.source}")


def main(argv: list[str] | None = None) -> Peaks | None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device-kind", metavar="KIND",
                        help="a device kind as JAX reports it (default: this machine's first JAX device)")
    parser.add_argument("--no-table", action="store_true", help="print only the device's own line")
    args = parser.parse_args(argv)
    kind = args.device_kind
    if kind is None:
        import jax

        kind = jax.devices()[0].device_kind
    print(describe(kind))
    if not args.no_table:
        print("\n" + format_table())
    return lookup(kind)


if __name__ == "__main__":
    device_limits = main()
