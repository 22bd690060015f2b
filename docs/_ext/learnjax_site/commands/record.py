"""The record of a build, to commit: where it ran, how each page got its outputs, and its numbers.

    python -m learnjax_site.commands.record [--build docs/_build] [--out reports/gpu] [--require-backend gpu]

reads what a build left (``html/build-report.json``, and the glue of every executed page in
``jupyter_execute/<language>/<page>.glue.json``) and writes ``<out>/<device kind>-<date>.json``:

* ``build_report``: the build report as the build wrote it (every page in both languages, where and
  when its outputs were made, executed or from the cache; the kernels' probe records);
* ``checks``: what the report shows at a glance: the backends, device kinds and JAX versions the
  pages ran on, the GPU pages and the CPU pages, where each page's outputs came from (``kept`` GPU
  outputs, this machine's ``cache``, or ``executed`` by this build), whether both languages show the
  same outputs, and for every measured limit whether it reached the site's goal;
* ``limits``: the measurements that lessons compare with the device's datasheet peaks (glued as
  ``limit_<name>``, a JSON object that ``examples/device_peaks.py``'s ``limit_record`` makes):
  achieved, peak, ratio;
* ``numbers``: every glued value of every page that is a number (``1,234.5`` and ``42`` count; the
  per-language phrases, the provenance record and the limits do not), by page and glue name, so
  two records can be compared figure by figure.

It imports no JAX and reads no notebook: only the JSON files the build wrote.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from pathlib import Path

from ..core import paths
from ..core.languages import LANGUAGES
from ..core.words import slug
from ..execution.kernel import PROVENANCE_KEY, glued_value

LIMIT_PREFIX = "limit_"
_NUMBER = re.compile(r"-?\d{1,3}(,\d{3})*(\.\d+)?|-?\d+(\.\d+)?")


def as_number(value) -> int | float | None:
    """A glued value as a number when it is one (thousands separators allowed), else None.

    >>> as_number("1,234.5"), as_number(42), as_number("0.94"), as_number("1.8× faster"), as_number(True)
    (1234.5, 42, 0.94, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        text = value.strip().replace(",", "")
        return float(text) if "." in text else int(text)
    return None


def page_figures(glue_file: Path) -> tuple[dict, dict]:
    """``(numbers, limits)`` of one page's glue file: its numeric glued values, and its measured limits.

    >>> import tempfile
    >>> glue_file = Path(tempfile.mkdtemp()) / "p.glue.json"
    >>> limit = {"what": "matmul", "achieved": 7.8e14, "peak": 9.895e14, "ratio": 0.79, "goal": 0.7}
    >>> _ = glue_file.write_text(json.dumps({
    ...     "n": {"data": {"text/plain": "8192"}}, "speed_en": {"data": {"text/plain": "'1.8× faster'"}},
    ...     "limit_matmul": {"data": {"text/plain": repr(json.dumps(limit))}}}))
    >>> numbers, limits = page_figures(glue_file)
    >>> numbers, limits["matmul"]["ratio"]
    ({'n': 8192}, 0.79)
    >>> _ = glue_file.write_text(json.dumps({"limit_gib": {"data": {"text/plain": "'23.5'"}}}))
    >>> page_figures(glue_file)
    Traceback (most recent call last):
    ValueError: p.glue.json: the glued value 'limit_gib' starts with 'limit_', which the record reads as a limit ...
    """
    glued = json.loads(glue_file.read_text(encoding="utf8"))
    numbers, limits = {}, {}
    for name, entry in glued.items():
        if name == PROVENANCE_KEY:
            continue
        value = glued_value(entry)
        if name.startswith(LIMIT_PREFIX):
            try:
                limit = json.loads(value)
            except json.JSONDecodeError:
                limit = None
            if not isinstance(limit, dict):
                raise ValueError(
                    f"{glue_file.name}: the glued value {name!r} starts with {LIMIT_PREFIX!r}, which the record "
                    "reads as a limit (the JSON of examples/device_peaks.py's limit_record), but it is not one: "
                    f"glue it under a name that does not start with {LIMIT_PREFIX!r}")
            limits[name[len(LIMIT_PREFIX):]] = limit
        elif (number := as_number(value)) is not None:
            numbers[name] = number
    return numbers, limits


def file_name(device_kind: str, date: dt.date) -> str:
    """``<device kind>-<date>.json``, the kind in lower case with dashes.

    >>> file_name("NVIDIA H100 80GB HBM3", dt.date(2026, 11, 22))
    'nvidia-h100-80gb-hbm3-2026-11-22.json'
    """
    kind = slug(device_kind)
    return f"{kind}-{date.isoformat()}.json"


def checks(report: dict, limits: dict) -> dict:
    """What the report shows at a glance; see the module's docstring.

    >>> pages = [{"page": "a", "language": "ko", "outputs": "kept", "backend": "gpu", "device_kind": "H",
    ...           "jax": "0.11.2", "ran_at": "t1"},
    ...          {"page": "a", "language": "en", "outputs": "kept", "backend": "gpu", "device_kind": "H",
    ...           "jax": "0.11.2", "ran_at": "t1"},
    ...          {"page": "b", "language": "ko", "outputs": "executed", "backend": "cpu", "device_kind": "cpu",
    ...           "jax": "0.11.2", "ran_at": "t2"}]
    >>> found = checks({"pages": pages}, {"a": {"m": {"ratio": 0.8, "goal": 0.7}}})
    >>> found["backends"], found["outputs"], found["gpu_pages"], found["cpu_pages"]
    (['cpu', 'gpu'], {'kept': ['a'], 'cache': [], 'executed': ['b']}, ['a'], ['b'])
    >>> found["every_page_on_a_gpu"], found["languages_agree"], found["limits_reached_goal"]
    (False, True, {'a m': True})
    """
    pages = report["pages"]
    names = sorted({p["page"] for p in pages})
    first = {}
    for p in pages:
        first.setdefault(p["page"], p)
    agree = all((p["ran_at"], p["outputs"]) == (first[p["page"]]["ran_at"], first[p["page"]]["outputs"])
                for p in pages)
    return {
        "backends": sorted({p["backend"] for p in pages}),
        "device_kinds": sorted({p["device_kind"] for p in pages}),
        "jax_versions": sorted({p["jax"] for p in pages}),
        "outputs": {how: [n for n in names if first[n]["outputs"] == how] for how in ("kept", "cache", "executed")},
        "gpu_pages": [n for n in names if first[n]["backend"] == "gpu"],
        "cpu_pages": [n for n in names if first[n]["backend"] == "cpu"],
        "every_page_on_a_gpu": bool(names) and all(first[n]["backend"] == "gpu" for n in names),
        "every_page_executed_in_this_build": all(first[n]["outputs"] == "executed" for n in names),
        "languages_agree": agree,
        "limits_reached_goal": {f"{page} {name}": None if limit.get("ratio") is None
                                else limit["ratio"] >= limit["goal"]
                                for page, page_limits in sorted(limits.items())
                                for name, limit in sorted(page_limits.items())},
    }


def make_record(build: Path) -> dict:
    """The record of the build in ``build`` (a folder with ``html/`` and ``jupyter_execute/``)."""
    report = json.loads((build / "html" / "build-report.json").read_text(encoding="utf8"))
    numbers, limits = {}, {}
    for page in sorted({p["page"] for p in report["pages"]}):
        for language in LANGUAGES:
            glue_file = build / "jupyter_execute" / language / f"{page}.glue.json"
            if glue_file.is_file():
                numbers[page], found = page_figures(glue_file)
                if found:
                    limits[page] = found
                break
    def one(key: str) -> str | None:  # the value every page shares, or "mixed"
        values = {p[key] for p in report["pages"]}
        return None if not values else values.pop() if len(values) == 1 else "mixed"

    return {
        "made_by": "python -m learnjax_site.commands.record",
        "device_kind": one("device_kind"), "backend": one("backend"), "jax": one("jax"), "jaxlib": one("jaxlib"),
        "checks": checks(report, limits),
        "limits": limits,
        "numbers": numbers,
        "build_report": report,
    }


def summary(record: dict) -> str:
    """The lines the command prints: the checks, then each limit."""
    found = record["checks"]
    lines = [f"device kind {record['device_kind']}, backend {record['backend']}, jax {record['jax']}",
             f"pages ran on: {', '.join(found['backends'])} / {', '.join(found['device_kinds'])}"]
    lines += [f"{how}: {len(pages)} page(s)" for how, pages in found["outputs"].items()]
    lines.append(f"GPU pages: {len(found['gpu_pages'])}; CPU pages: {', '.join(found['cpu_pages']) or 'none'}")
    lines.append(f"both languages show the same outputs: {found['languages_agree']}")
    for page, page_limits in record["limits"].items():
        for name, limit in page_limits.items():
            if limit.get("ratio") is None:
                lines.append(f"{page} {name}: {limit['achieved']:.4g} {limit['unit']} achieved, no peak in the table")
            else:
                verdict = "reached" if limit["ratio"] >= limit["goal"] else "NOT reached"
                lines.append(f"{page} {name}: {limit['achieved']:.4g} / {limit['peak']:.4g} {limit['unit']} = "
                             f"{limit['ratio']:.0%} (goal {limit['goal']:.0%}: {verdict})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, default=paths.BUILD,
                        help="the build folder (default: docs/_build)")
    parser.add_argument("--out", type=Path, default=Path("reports") / "gpu",
                        help="the folder to write the record to (default: reports/gpu)")
    parser.add_argument("--date", type=dt.date.fromisoformat, default=dt.datetime.now(dt.UTC).date(),
                        help="the date in the file name (default: today, UTC)")
    parser.add_argument("--require-backend", metavar="BACKEND",
                        help="exit with an error unless every page ran on this backend (e.g. gpu)")
    args = parser.parse_args(argv)
    record = make_record(args.build)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / file_name(record["device_kind"] or "unknown", args.date)
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf8")
    print(summary(record))
    print(f"record written to {path}")
    if args.require_backend and record["checks"]["backends"] != [args.require_backend]:
        others = [p for p in sorted({p["page"] for p in record["build_report"]["pages"]
                                     if p["backend"] != args.require_backend})]
        sys.exit(f"pages ran on {record['checks']['backends']}, not only on {args.require_backend!r}: "
                 f"{', '.join(others)}")
    return path


if __name__ == "__main__":
    main()
