"""What a GPU build needs that a CPU build can check too: no JAX in Sphinx, the kernels' memory
settings, the table of datasheet peaks, and the record of a build (reports/gpu/)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import device_peaks
import pytest
from learnjax_site.commands import record
from learnjax_site.core.errors import LessonError
from learnjax_site.execution import kernel, provenance

ROOT = Path(__file__).resolve().parents[1]
H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"

# --- the Sphinx process and the kernels' environment ------------------------------------------

NO_JAX_HERE = """
import pkgutil, runpy, sys
sys.path.insert(0, "docs/_ext")
import learnjax_site
for module in pkgutil.iter_modules(learnjax_site.__path__):
    __import__(f"learnjax_site.{module.name}")
conf = runpy.run_path("docs/conf.py")
for extension in conf["extensions"]:
    __import__(extension)
print(sorted(m for m in sys.modules if m.split(".")[0] in ("jax", "jaxlib")))
"""


def test_the_site_extensions_and_conf_import_no_jax():
    """What the Sphinx process loads (conf.py, its extensions, every module of ours) imports no JAX."""
    result = subprocess.run([sys.executable, "-c", NO_JAX_HERE], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_a_process_that_imported_jax_is_refused():
    import jax  # noqa: F401  (this test process has JAX, as a Sphinx process must not)

    assert "jax" in kernel.jax_modules()
    with pytest.raises(LessonError) as error:
        provenance.check_no_jax_here("the Sphinx process")
    assert "has imported JAX" in error.value.problem


def test_the_kernels_environment_carries_the_memory_setting(monkeypatch):
    """The probe runs as the kernels do: a child of this process, with its environment."""
    monkeypatch.delenv("XLA_PYTHON_CLIENT_PREALLOCATE", raising=False)
    monkeypatch.delenv("XLA_PYTHON_CLIENT_MEM_FRACTION", raising=False)
    assert kernel.set_kernel_memory_settings() == {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    probed = kernel.probe(sys.executable)
    assert probed["memory_settings"] == {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    monkeypatch.setenv("XLA_PYTHON_CLIENT_MEM_FRACTION", ".25")  # a machine's own setting is kept
    assert kernel.probe(sys.executable)["memory_settings"]["XLA_PYTHON_CLIENT_MEM_FRACTION"] == ".25"


def test_the_build_report_records_the_kernels_memory_setting(site):
    kernels = json.loads((site["html"] / "build-report.json").read_text(encoding="utf8"))["kernels"]
    assert set(kernels) == {"ko", "en"}
    import os

    expected = os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    for machine in kernels.values():
        assert machine["backend"] == "cpu"
        assert machine["memory_settings"]["XLA_PYTHON_CLIENT_PREALLOCATE"] == expected


# --- the table of datasheet peaks -------------------------------------------------------------

SPARSE = re.compile(r"BFLOAT16 ([\d,]+)\* and TF32 ([\d,]+)\* TFLOPS, FP32 ([\d.]+) TFLOPS")
LOW_PRECISION = re.compile(r"FP16 ([\d,]+)\*(?: and FP8 ([\d,]+)\*)? TFLOPS(?:, no FP8)?, (\d+) GB;")
NVLINK = re.compile(r"; (?:NVLink(?: bridge)? ([\d,]+) GB/s|no NVLink)$")


@pytest.mark.parametrize("kind", sorted(device_peaks.PEAKS))
def test_every_entry_is_the_datasheet_it_cites(kind):
    """Dense tensor rates are half the datasheet's sparse ones; the figures match the cited source."""
    peaks = device_peaks.PEAKS[kind]
    assert peaks.source.startswith("https://www.nvidia.com/")
    sparse_bf16, sparse_tf32, fp32 = SPARSE.search(peaks.source).groups()
    assert peaks.bf16_tflops == float(sparse_bf16.replace(",", "")) / 2
    assert peaks.tf32_tflops == float(sparse_tf32.replace(",", "")) / 2
    assert peaks.fp32_tflops == float(fp32)
    sparse_fp16, sparse_fp8, memory = LOW_PRECISION.search(peaks.source).groups()
    assert peaks.fp16_tflops == float(sparse_fp16.replace(",", "")) / 2
    assert peaks.fp8_tflops == (None if sparse_fp8 is None else float(sparse_fp8.replace(",", "")) / 2)
    assert ("no FP8" in peaks.source) == (sparse_fp8 is None)
    assert peaks.memory_gb == float(memory)
    (nvlink,) = NVLINK.search(peaks.source).groups()
    assert peaks.nvlink_gbs == (None if nvlink is None else float(nvlink.replace(",", "")))
    assert device_peaks.lookup(kind) is peaks


def test_peaks_of_the_gpus_the_site_is_built_on():
    h100, h200 = device_peaks.lookup(H100), device_peaks.lookup(H200)
    assert (h100.bf16_tflops, h100.bandwidth_gbs) == (989.5, 3350)
    assert (h200.bf16_tflops, h200.bandwidth_gbs) == (989.5, 4800)  # the H100's chip, faster memory
    assert (h100.fp8_tflops, h100.memory_gb, h200.memory_gb) == (1979, 80, 141)
    assert device_peaks.lookup("nvidia h100 80gb hbm3") is h100  # the documented normalisation
    assert device_peaks.lookup("cpu") is None and device_peaks.lookup("NVIDIA B300") is None


@pytest.mark.parametrize(("kind", "backend", "dtype"), [
    (H100, "gpu", "bfloat16"), (H200, "gpu", "bfloat16"), ("NVIDIA Unknown GPU", "gpu", "bfloat16"),
    ("cpu", "cpu", "float32"),
])
def test_the_largest_matmul_runs_in_bfloat16_where_it_is_fast(kind, backend, dtype):
    assert device_peaks.matmul_dtype(kind, backend) == dtype


def test_the_ratio_lines_a_page_prints():
    matmul = device_peaks.limit_line("matmul bfloat16", 7.8e14, device_peaks.matmul_peak(
        device_peaks.lookup(H200), "bfloat16"), "FLOP/s", H200)
    assert matmul == ("matmul bfloat16: 780.0 TFLOP/s achieved / 989.5 TFLOP/s peak (dense bfloat16) "
                      "= 79% of peak")
    copy = device_peaks.limit_line("fused kernel", 4.3e12, device_peaks.bandwidth_peak(
        device_peaks.lookup(H200)), "B/s", H200)
    assert copy == "fused kernel: 4.30 TB/s achieved / 4.80 TB/s peak (memory bandwidth) = 90% of peak"
    unknown = device_peaks.limit_line("fused kernel", 3.58e10, None, "B/s", "cpu")
    assert unknown == "fused kernel: 35.8 GB/s achieved; no peak in the table for cpu: achieved only"


# --- the record of a build --------------------------------------------------------------------

def test_the_record_of_the_fixture_build(site, tmp_path):
    path = record.main(["--build", str(site["out"]), "--out", str(tmp_path), "--date", "2026-11-22"])
    assert path == tmp_path / "cpu-2026-11-22.json"
    made = json.loads(path.read_text(encoding="utf8"))
    assert made["backend"] == "cpu" and made["device_kind"] == "cpu"
    assert made["checks"]["outputs"] == {"kept": [], "cache": [], "executed": ["part/first", "part/second"]}
    assert made["checks"]["every_page_executed_in_this_build"] is True
    assert made["checks"]["languages_agree"] is True
    assert made["checks"]["cpu_pages"] == ["part/first", "part/second"] and made["checks"]["gpu_pages"] == []
    assert made["numbers"]["part/first"]["answer"] == 42  # first.md glues 6 * 7
    assert made["build_report"]["kernels"]["ko"]["backend"] == "cpu"
    with pytest.raises(SystemExit, match="not only on 'gpu'"):
        record.main(["--build", str(site["out"]), "--out", str(tmp_path), "--require-backend", "gpu"])


def test_the_record_of_a_gpu_build(site, tmp_path):
    """The fixture build, with its device kind and backend made an H100's, and one page measuring a limit."""
    build = tmp_path / "build"
    shutil.copytree(site["out"] / "html", build / "html", ignore=shutil.ignore_patterns("*.html", "_*"))
    shutil.copytree(site["out"] / "jupyter_execute", build / "jupyter_execute")
    report_file = build / "html" / "build-report.json"
    report = json.loads(report_file.read_text(encoding="utf8"))
    for page in report["pages"]:
        page.update(backend="gpu", device_kind=H100)
    report_file.write_text(json.dumps(report), encoding="utf8")
    limit = device_peaks.limit_record("matmul 8192x8192 bfloat16", 6.0e14, device_peaks.matmul_peak(
        device_peaks.lookup(H100), "bfloat16"), "FLOP/s", H100)
    glue_file = build / "jupyter_execute" / "ko" / "part" / "second.glue.json"
    glued = json.loads(glue_file.read_text(encoding="utf8"))
    glued["limit_matmul"] = {"data": {"text/plain": repr(json.dumps(limit))}, "metadata": {}}
    glue_file.write_text(json.dumps(glued), encoding="utf8")

    path = record.main(["--build", str(build), "--out", str(tmp_path / "gpu"), "--date", "2026-11-22",
                        "--require-backend", "gpu"])
    assert path.name == "nvidia-h100-80gb-hbm3-2026-11-22.json"
    made = json.loads(path.read_text(encoding="utf8"))
    assert made["limits"]["part/second"]["matmul"]["peak"] == 989.5e12
    assert made["checks"]["limits_reached_goal"] == {"part/second matmul": False}  # 61% < 70%
