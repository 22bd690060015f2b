"""The per-lesson table of ``reports/gpu/README.md``: each lesson's seconds and key figures, GPU beside CPU.

    python -m learnjax_site.commands.gpu_table [--kept reports/gpu] [--cpu docs/_build/executed/cpu-cpu]

reads the kept GPU outputs (``reports/gpu``: ``outputs.json``, ``outputs/<page>.ipynb.gz``, and the
runs' logs for the GPU's driver) and the CPU results of this machine's last build (the runner's
``manifest.json`` and ``outputs.zip``), and rewrites the part of ``reports/gpu/README.md`` between
its two markers. ``nox -s gpu-import`` runs it after the record. It imports no JAX and no Sphinx.

The figures are values the lessons glued (``KEY_FIGURES``, by page), and every limit a lesson
measured against the datasheet (``limit_<name>``); the seconds are each page's execution, kernel
start included, as the runner timed it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import zipfile
from pathlib import Path

from ..execution import runner
from ..execution.outputs import KEPT_INDEX, RUNS_FOLDER, notebook_glue

START, END = "<!-- gpu-table: start -->", "<!-- gpu-table: end -->"
# The figures worth reading side by side, by page: (glue name, what it is). Each is glued text as the page
# shows it, units included where the page writes them.
KEY_FIGURES = {
    "origins/numpy-on-accelerators": (("ex_cold_ms", "jit cold, largest exercise size (ms)"),
                                      ("ex_warm_ms", "jit warm, largest exercise size (ms)")),
    "origins/host-and-device": (("to_host_gbs", "device → host (GB/s)"), ("to_device_gbs", "host → device (GB/s)")),
    "jit/timing": (("naive_first_ms", "first call, compiling (ms)"), ("naive_ready_ms", "warm call, waited for (ms)")),
    "jit/throughput": (("extra_ms", "cost of compiling (ms)"), ("saved_ms", "saved per warm call (ms)")),
    "accelerator/pallas": (("ew_pallas_ms", "elementwise, Pallas (ms)"), ("ew_jnp_ms", "elementwise, jnp (ms)"),
                           ("mm_pallas_ms", "matmul, Pallas (ms)"), ("mm_jnp_ms", "matmul, jnp (ms)")),
    "accelerator/roofline": (("roofs_flop_rate", "best FLOP/s of the sweep"),),
    "programs/random-numbers": (("ex_rate_threefry2x32", "threefry2x32 (M numbers/s)"),
                                ("ex_rate_rbg", "rbg (M numbers/s)")),
    "parallel/capstone": (("step_ms", "training step (ms)"), ("achieved", "achieved FLOP/s"), ("mfu_share", "MFU")),
}
_DRIVER = re.compile(r"^(?P<gpu>[^,\n]+), (?P<driver>\d+(?:\.\d+)+), \d+ MiB$", re.MULTILINE)  # nvidia-smi's CSV line


def si(value: float, unit: str) -> str:
    """A rate with an SI prefix and three significant figures.

    >>> si(6.966e14, "FLOP/s"), si(2.56e12, "B/s"), si(3.5e9, "B/s"), si(12.0, "B/s")
    ('697 TFLOP/s', '2.56 TB/s', '3.50 GB/s', '12.0 B/s')
    """
    for scale, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")):
        if abs(value) >= scale or scale == 1.0:
            number = value / scale
            return f"{number:.{max(0, 2 - len(str(int(abs(number)))) + 1)}f} {prefix}{unit}"
    raise AssertionError("unreachable")


def limit_value(record: dict) -> str:
    """One measured limit: achieved, and its share of the datasheet peak where there is one.

    >>> limit_value({"unit": "FLOP/s", "achieved": 6.966e14, "peak": 9.895e14, "ratio": 0.704})
    '697 TFLOP/s, 70% of the datasheet peak'
    >>> limit_value({"unit": "B/s", "achieved": 3.1e10, "peak": None, "ratio": None})
    '31.0 GB/s'
    """
    share = f", {record['ratio']:.0%} of the datasheet peak" if record.get("ratio") is not None else ""
    return f"{si(record['achieved'], record['unit'])}{share}"


def figures(glue: dict, page: str) -> dict[str, str]:
    """A page's key figures, label → text: its limits, then its ``KEY_FIGURES``."""
    found = {}
    for name, value in sorted(glue.items()):
        if name.startswith("limit_") and isinstance(value, str):
            record = json.loads(value)
            found[record["what"]] = limit_value(record)
    for name, label in KEY_FIGURES.get(page, ()):
        if name in glue:
            found[label] = str(glue[name])
    return found


def gpu_outputs(kept: Path) -> tuple[dict, dict[str, dict]]:
    """The kept outputs' index and each kept page's glue."""
    index = json.loads((kept / KEPT_INDEX).read_text(encoding="utf8"))
    glue = {}
    for page in index["pages"]:
        with gzip.open(kept / "outputs" / f"{page}.ipynb.gz", "rt", encoding="utf8") as handle:
            glue[page] = notebook_glue(json.load(handle))
    return index, glue


def cpu_outputs(results: Path) -> tuple[dict, dict[str, dict]]:
    """A CPU runner's manifest and each finished page's glue."""
    manifest = runner.read_manifest(results) or {"machine": {}, "pages": {}}
    glue = {}
    if (results / runner.OUTPUTS).is_file():
        with zipfile.ZipFile(results / runner.OUTPUTS) as archive:
            for name in archive.namelist():
                glue[name.removesuffix(".ipynb")] = notebook_glue(json.loads(archive.read(name)))
    return manifest, glue


def gpu_driver(kept: Path) -> str:
    """The GPU's driver version, from the newest run log that printed nvidia-smi's line, else 'unknown'."""
    for log in sorted((kept / RUNS_FOLDER).glob("*.log"), reverse=True):
        match = _DRIVER.search(log.read_text(encoding="utf8", errors="replace"))
        if match:
            return match["driver"]
    return "unknown"


def cpu_name() -> str:
    """This machine's processor, as /proc/cpuinfo names it, and its core count."""
    cpuinfo = Path("/proc/cpuinfo")
    model = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(encoding="utf8"), re.MULTILINE) \
        if cpuinfo.is_file() else None
    return f"{model[1].strip() if model else 'a CPU'}, {os.cpu_count()} cores"


def cell(values: dict[str, str]) -> str:
    return "<br>".join(f"{label}: {text}" for label, text in values.items()) or "–"


def table(kept: Path, cpu_results: Path) -> str:
    """The Markdown between the markers."""
    index, gpu_glue = gpu_outputs(kept)
    cpu_manifest, cpu_glue = cpu_outputs(cpu_results)
    machine = index["machine"]
    runs = sorted({entry["run"] for entry in index["pages"].values()})
    pages = sorted(set(index["pages"]) | {p for p, e in cpu_manifest["pages"].items() if e.get("status") == "ok"})
    cpu_machine = cpu_manifest.get("machine", {})
    lines = [
        f"GPU: **{machine['device_kind']}**, driver {gpu_driver(kept)}, jax {machine['jax']} / jaxlib "
        f"{machine['jaxlib']}; runs {', '.join(runs)} (`runs/`). CPU: {cpu_name()}, jax {cpu_machine.get('jax', '?')}, "
        f"this machine's last build ({cpu_machine.get('ran_at', '?')[:10]}). "
        f"{len(index['pages'])} of {len(pages)} lessons have GPU outputs.",
        "",
        "| lesson | GPU s | CPU s | key figures on the GPU | on the CPU |",
        "| --- | ---: | ---: | --- | --- |",
    ]
    for page in pages:
        gpu = index["pages"].get(page)
        cpu = cpu_manifest["pages"].get(page, {})
        gpu_seconds = f"{gpu['seconds']:.1f}" if gpu else "not yet"
        cpu_seconds = f"{cpu['seconds']:.1f}" if cpu.get("status") == "ok" else "–"
        lines.append(f"| {page} | {gpu_seconds} | {cpu_seconds} | "
                     f"{cell(figures(gpu_glue[page], page)) if gpu else '–'} | "
                     f"{cell(figures(cpu_glue.get(page, {}), page))} |")
    return "\n".join(lines)


def write(readme: Path, text: str) -> None:
    """Replace what lies between the markers of ``readme`` with ``text``."""
    content = readme.read_text(encoding="utf8")
    if START not in content or END not in content:
        raise SystemExit(f"{readme}: lacks the markers {START} and {END}: put them where the table goes")
    head, rest = content.split(START, 1)
    readme.write_text(f"{head}{START}\n{text}\n{END}{rest.split(END, 1)[1]}", encoding="utf8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kept", type=Path, default=Path("reports") / "gpu", help="default: reports/gpu")
    parser.add_argument("--cpu", type=Path, default=Path("docs") / "_build" / "executed" / "cpu-cpu",
                        help="the CPU runner's results of this machine's build (default: %(default)s)")
    args = parser.parse_args(argv)
    if not (args.kept / KEPT_INDEX).is_file():
        print(f"gpu_table: {args.kept / KEPT_INDEX} does not exist: no GPU outputs are kept yet", file=sys.stderr)
        return 1
    write(args.kept / "README.md", table(args.kept, args.cpu))
    print(f"table written to {args.kept / 'README.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
