"""Execution: where each page's outputs were made, refusals of wrong builds, the build report.

* Before the build, the kernels' JAX memory settings go into the environment they inherit, the
  kernel is probed (``kernel.probe``) and myst-nb's cache is pointed at a folder for that backend
  and device kind, so one machine's outputs never stand for another's. With
  ``LEARNJAX_REQUIRE_ACCELERATOR=1`` a CPU kernel stops the build there.
* The Sphinx process itself must never import JAX (on a GPU it would hold device memory for the
  whole build): the build stops if it has, before the build and after it.
* Every page with code gets a hidden last cell that glues the kernel's own record.
* After a page is read: a cell that raised (and is not tagged ``raises-exception``) stops the
  build with the file and line of that cell; otherwise the page's record is kept in the env.
* After the build, ``build-report.json`` beside the language folders gets this language's records,
  and the probe's record of the kernel (memory settings included).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from ..core.errors import LessonError, lesson_error, stops_build
from ..core.pagedata import SUMMARIES, PageData, note_summary
from ..core.texts import text
from ..source import page
from ..source.callouts import program_fingerprints
from . import kernel
from .cell_errors import cell_problems
from .portable_outputs import page_outputs

RECORDS = PageData("learnjax_provenance")

LOGGER = logging.getLogger(__name__)
REQUIRE_ACCELERATOR = kernel.REQUIRE_ACCELERATOR
accelerator_required = kernel.accelerator_required
REPORT_NAME = "build-report.json"


def check_accelerator(record: dict, where: str) -> None:
    """Refuse a CPU record when the build was told an accelerator is required."""
    if accelerator_required() and record["backend"] == "cpu":
        raise LessonError(
            where,
            f"{REQUIRE_ACCELERATOR}=1, but the kernel's default JAX backend is 'cpu' "
            f"(device kind {record['device_kind']!r}, jax {record['jax']})",
            "install a JAX build for this machine's accelerator in the docs environment (LEARNJAX_GPU=1 "
            f"nox -s docs installs the locked gpu group, jax[cuda13]), or unset {REQUIRE_ACCELERATOR} "
            "for a CPU build",
        )


def check_no_jax_here(where: str) -> None:
    """Refuse a Sphinx process that has imported JAX: on a GPU it would hold memory the kernels need."""
    imported = kernel.jax_modules()
    if imported:
        raise LessonError(
            where, f"the Sphinx process has imported JAX ({', '.join(imported[:3])}), which on a GPU holds "
            "device memory for the whole build",
            "import JAX only in lesson code (it runs in the kernel) or in a subprocess, as kernel.probe does",
        )


# --- before the build -------------------------------------------------------------------------

@stops_build
def on_config_inited(app: Sphinx, config) -> None:
    app.learnjax_prepared = None
    if config.nb_execution_mode == "off":  # staging (learnjax_site.execution.stage): nothing executes
        return
    check_no_jax_here(str(Path(app.confdir) / "conf.py"))
    if config.learnjax_outputs:  # the render: every page's outputs were prepared before Sphinx started
        prepared = json.loads(Path(config.learnjax_outputs).read_text(encoding="utf8"))
        config.nb_execution_cache_path = prepared["cache"]
        app.learnjax_prepared = prepared["pages"]
        app.learnjax_machine = prepared["machine"]
        LOGGER.info(f"outputs: {len(prepared['pages'])} page(s) prepared in {prepared['cache']}")
        return
    # Without prepared outputs (nox -s docs-live), myst-nb executes what its cache lacks, in a cache
    # of this machine's own.
    memory = kernel.set_kernel_memory_settings()
    python = kernel.kernel_python()
    try:
        machine = kernel.probe(python)
    except kernel.ProbeError as error:
        raise LessonError(str(Path(app.confdir) / "conf.py"), str(error),
                          "install the docs dependencies in the kernel's environment (nox -s docs does)") from None
    check_accelerator(machine, f"kernel python3 ({python})")
    build_root = Path(app.outdir).parents[1]
    config.nb_execution_cache_path = str(build_root / ".jupyter_cache" / kernel.machine_key(machine))
    app.learnjax_machine = machine
    app.learnjax_build_started = dt.datetime.now(dt.UTC)
    LOGGER.info(f"kernel: {machine['backend']} / {machine['device_kind']}; "
                f"cache: {config.nb_execution_cache_path}; memory: "
                + (", ".join(f"{name}={value}" for name, value in memory.items()) or "JAX's defaults"))


def on_builder_inited(app: Sphinx) -> None:
    # myst-nb writes executed notebooks, images and glue data to one folder beside outdir; the two
    # languages would overwrite each other's notebooks there, so each language gets its own.
    folder = Path(app.outdir).parents[1] / "jupyter_execute" / app.config.language
    app.env.mystnb_config = app.env.mystnb_config.copy(output_folder=str(folder.resolve()))


# --- while reading ----------------------------------------------------------------------------

@stops_build
def on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    written = page.current(app.env)
    if written.notebook is None:
        return
    if any(cell.kind == "code" for cell in written.notebook.cells):
        # from the page as written, not this language's text: both languages must hash the same code
        programs = program_fingerprints(written.text, Path(written.path).parent)
        source[0] = source[0].rstrip("\n") + "\n" + kernel.provenance_cell(programs)


def check_cell_errors(cells: list[dict], path: str, source_map: list[int]) -> None:
    """Stop at the first problem of the executed cells (``cell_errors``), naming the page's line.

    >>> error = {"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero"}
    >>> try:
    ...     check_cell_errors([{"metadata": {}, "outputs": []}, {"metadata": {}, "outputs": [error]}], "p.md", [3, 9])
    ... except LessonError as stop:
    ...     print(stop.where, stop.problem)
    p.md:9 this code cell raised ZeroDivisionError: division by zero
    """
    problems = cell_problems(cells, source_map)
    if problems:
        raise lesson_error(path, problems[0].line, problems[0].problem, problems[0].fix)


@stops_build
def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    if app.config.nb_execution_mode == "off":  # staging (learnjax_site.execution.stage): nothing ran
        return
    docname = app.env.docname
    path = str(app.env.doc2path(docname))
    read = page_outputs(app, docname)
    cells = read.notebook.cells if read.notebook is not None else []
    check_cell_errors(cells, path, app.env.metadata[docname].get("source_map", []))
    record = kernel.glued_record(read.glue)
    records = RECORDS.of(app.env)
    records.pop(docname, None)
    if record is None:
        return
    check_accelerator(record, path)
    if app.learnjax_prepared is not None:
        prepared = app.learnjax_prepared.get(docname)
        if prepared is None or prepared["ran_at"] != record["ran_at"]:
            raise LessonError(path, "the render executed this page: none of the prepared outputs matched its "
                              "code, so myst-nb ran it in the Sphinx process",
                              "the staged notebook differs from what the execution cache looks up; report it "
                              "(learnjax_site.execution.stage and myst-nb disagree), and build again with nox -s docs")
        record["outputs"], record["execution_seconds"] = prepared["outputs"], prepared["seconds"]
    else:
        from myst_nb.sphinx_ import NbMetadataCollector

        exec_data = NbMetadataCollector.get_exec_data(app.env, docname) or {}
        ran_at = dt.datetime.fromisoformat(record["ran_at"])
        record["outputs"] = "executed" if ran_at >= app.learnjax_build_started else "cache"
        record["execution_seconds"] = exec_data.get("runtime")
    records[docname] = record


def page_record(env, docname: str) -> dict | None:
    return RECORDS.of(env).get(docname)


def on_env_get_outdated(app: Sphinx, env, added, changed, removed) -> list[str]:
    """Pages whose source did not change but whose prepared outputs did (executed again, or kept from
    a GPU run since): Sphinx keeps its environment between builds, so it must read them again."""
    prepared = getattr(app, "learnjax_prepared", None)
    if prepared is None:
        return []
    records = RECORDS.of(env)
    return sorted(docname for docname, entry in prepared.items()
                  if docname in env.all_docs and (records.get(docname) or {}).get("ran_at") != entry["ran_at"])


def current_records(app: Sphinx) -> dict[str, dict]:
    """Each page's record, with how its outputs were had in this build (kept, this machine's cache,
    executed now): a page Sphinx did not read again keeps the record of the build that read it."""
    prepared = getattr(app, "learnjax_prepared", None) or {}
    records = {}
    for docname, record in RECORDS.of(app.env).items():
        entry = prepared.get(docname)
        if entry is not None and entry["ran_at"] == record["ran_at"]:
            record = {**record, "outputs": entry["outputs"], "execution_seconds": entry["seconds"]}
        records[docname] = record
    return records


# --- what readers see -------------------------------------------------------------------------

def format_seconds(seconds: float | None) -> str:
    return "?" if seconds is None else f"{seconds:.1f}"


def format_when(record: dict) -> str:
    return dt.datetime.fromisoformat(record["ran_at"]).strftime("%Y-%m-%d %H:%M UTC")


def device_kind(record: dict) -> str:
    """The device kind as a table shows it: in capitals where it is only the backend's name.

    >>> device_kind({"backend": "cpu", "device_kind": "cpu"})
    'CPU'
    >>> device_kind({"backend": "gpu", "device_kind": "NVIDIA H200"})
    'NVIDIA H200'
    """
    kind = record["device_kind"]
    return kind.upper() if kind.upper() == record["backend"].upper() else kind


def device_name(record: dict) -> str:
    """The device as prose names it: the device kind, then the backend in capitals unless the kind
    already says it.

    >>> device_name({"backend": "cpu", "device_kind": "cpu"})
    'CPU'
    >>> device_name({"backend": "gpu", "device_kind": "NVIDIA H100 80GB HBM3"})
    'NVIDIA H100 80GB HBM3 GPU'
    >>> device_name({"backend": "tpu", "device_kind": "TPU v5 lite"})
    'TPU v5 lite'
    """
    backend, kind = record["backend"].upper(), device_kind(record)
    if kind == backend:
        return backend
    return kind if backend in kind.upper().split() else f"{kind} {backend}"


def provenance_text(record: dict | None, language: str, when: str | None = None) -> str:
    """The provenance line of a lesson page, in ``language`` (``when`` in place of the date, if given)."""
    if record is None:
        return text(language, "provenance_missing")
    count = record["device_count"]
    return text(
        language, "provenance", when=format_when(record) if when is None else when, device=device_name(record),
        count=count, devices="device" if count == 1 else "devices", jax=record["jax"],
        jaxlib=record["jaxlib"], seconds=format_seconds(record["execution_seconds"]),
    )


def provenance_paragraph(record: dict | None, language: str) -> nodes.paragraph:
    """The provenance line as the lesson header shows it: the date and time in a span of their own,
    ``learnjax-when``, that a narrow screen does not break ("2026-11-/24")."""
    line = nodes.paragraph("", "", classes=["learnjax-provenance"])
    if record is None:
        line += nodes.Text(provenance_text(None, language))
        return line
    marker = "\x00"
    before, after = provenance_text(record, language, when=marker).split(marker)
    line += [nodes.Text(before), nodes.inline("", format_when(record), classes=["learnjax-when"]), nodes.Text(after)]
    return line


class build_report_table(nodes.General, nodes.Element):
    """Placeholder replaced by the table of every page's record once all pages are read."""


class BuildReportDirective(SphinxDirective):
    def run(self):
        note_summary(self.env)
        return [build_report_table()]


def report_table(app: Sphinx, language: str, fromdocname: str) -> nodes.Node:
    env = app.env
    records = sorted(current_records(app).items())
    if not records:
        return nodes.paragraph(text=text(language, "report_empty"))
    columns = ["report_page", "report_outputs", "report_seconds", "report_device",
               "report_backend", "report_versions", "report_when"]
    table = nodes.table(classes=["learnjax-build-report"])
    group = nodes.tgroup(cols=len(columns))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in columns)
    head = nodes.thead()
    head += _row([nodes.Text(text(language, c)) for c in columns])
    body = nodes.tbody()
    for docname, record in records:
        link = nodes.reference("", "", internal=True, refuri=app.builder.get_relative_uri(fromdocname, docname))
        link += nodes.Text(env.titles[docname].astext() if docname in env.titles else docname)
        body += _row([
            link,
            nodes.Text(text(language, f"report_{record['outputs']}")),
            nodes.Text(format_seconds(record["execution_seconds"])),
            nodes.Text(f"{device_kind(record)} × {record['device_count']}"),
            nodes.Text(record["backend"].upper()),
            nodes.Text(f"{record['jax']} / {record['jaxlib']}"),
            nodes.Text(format_when(record)),
        ])
    group += head
    group += body
    return table


def _row(cells: list[nodes.Node]) -> nodes.row:
    row = nodes.row()
    for content in cells:
        entry = nodes.entry()
        entry += nodes.paragraph("", "", content)
        row += entry
    return row


def on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(build_report_table)):
        node.replace_self(report_table(app, app.config.language, docname))


# --- after the build --------------------------------------------------------------------------

def report_records(app: Sphinx) -> list[dict]:
    language = app.config.language
    return [
        {"page": docname, "language": language, "html": f"{language}/{app.builder.get_target_uri(docname)}",
         **record}
        for docname, record in sorted(current_records(app).items())
    ]


def merge_report(report_file: Path, language: str, records: list[dict], machine: dict | None = None) -> None:
    """Replace ``language``'s records (and its kernel's probe record) in the report, keeping the other's."""
    kept, kernels = [], {}
    if report_file.exists():
        report = json.loads(report_file.read_text(encoding="utf8"))
        kept = [r for r in report["pages"] if r["language"] != language]
        kernels = report.get("kernels", {})
    if machine is not None:
        kernels[language] = machine
    pages = sorted(kept + records, key=lambda r: (r["page"], r["language"]))
    report_file.write_text(json.dumps({"kernels": kernels, "pages": pages}, indent=2, ensure_ascii=False) + "\n",
                           encoding="utf8")


@stops_build
def on_build_finished(app: Sphinx, exception) -> None:
    if exception is not None:
        return
    check_no_jax_here("the Sphinx process, after the build")
    if app.builder.format != "html":
        return
    merge_report(Path(app.outdir).parent / REPORT_NAME, app.config.language, report_records(app),
                 getattr(app, "learnjax_machine", None))


def setup(app: Sphinx) -> dict:
    # the outputs the build prepared before Sphinx started (learnjax_site.commands.build): a JSON file's path
    app.add_config_value("learnjax_outputs", "", "env", types=[str])
    # the site's code, digested (conf.py): when it changes, Sphinx reads every page again
    app.add_config_value("learnjax_site_code", "", "env", types=[str])
    RECORDS.connect(app)
    SUMMARIES.connect(app)
    app.add_node(build_report_table)
    app.add_directive("build-report", BuildReportDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
