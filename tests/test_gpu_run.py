"""Stage, execute, keep, render: the path a GPU run takes, checked on the CPU with fixture sites.

* the staged notebooks are exactly what the render's execution cache looks up;
* a run within a budget reports every failing page with its file and line, keeps every finished page,
  and a second run completes the rest;
* kept outputs of a (fake) H100 render with nothing executed, and the record says gpu; a build that
  requires the accelerator names the pages without them; kept outputs never mix device kinds or JAX;
* what the machine receives and what comes back fit its limits; the documented command is short;
* no lesson reads ``cost_analysis()`` but through ``examples/compiler_cost.py``'s guard.
"""

from __future__ import annotations

import ast
import gzip
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest
from learnjax_site.commands import gpu_run, gpu_table, record
from learnjax_site.execution import outputs, runner
from sitebuild import ROOT, build, copy_fixture, page

H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"


def stage(source: Path, out: Path) -> dict:
    ran = subprocess.run([sys.executable, "-m", "learnjax_site.execution.stage", "--source", str(source),
                          "--out", str(out)],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "docs" / "_ext")},
                         timeout=300)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    return json.loads((out / "pages.json").read_text(encoding="utf8"))


# --- stage ----------------------------------------------------------------------------------------

def test_staged_notebooks_are_what_the_render_looks_up(site):
    """Each staged notebook matches, by jupyter-cache's own look-up, the record the render found."""
    from jupyter_cache import get_cache

    staged = json.loads((site["out"] / "stage" / "pages.json").read_text(encoding="utf8"))
    assert sorted(p for p, entry in staged["pages"].items() if entry["code"]) == ["part/first", "part/second"]
    assert "index" in staged["pages"] and not staged["pages"]["index"]["code"]  # staged, never executed
    cache = get_cache(str(site["out"] / ".jupyter_cache" / "render"))
    for name, entry in staged["pages"].items():
        if not entry["code"]:
            assert cache.match_cache_notebook(nbformat.read(site["out"] / "stage" / entry["notebook"],
                                                            as_version=4)).hashkey == entry["hash"]
            continue
        notebook = nbformat.read(site["out"] / "stage" / entry["notebook"], as_version=4)
        assert cache.match_cache_notebook(notebook).hashkey == entry["hash"], name
        assert "learnjax-provenance" in notebook.cells[-1].metadata["tags"]  # the hidden record cell is staged
        assert entry["source"] == f"{name}.md" and entry["source_map"][0] > 1


# --- execute: every failure, a budget, a second run -----------------------------------------------

@pytest.fixture
def staged_runs(tmp_path):
    """The runs fixture staged, with the slow page expected to take longer than the first run's budget."""
    source = copy_fixture("runs", tmp_path / "pages")
    staged = stage(source, tmp_path / "stage")
    staged["pages"]["e-slow"]["expected_seconds"] = 100
    (tmp_path / "stage" / "pages.json").write_text(json.dumps(staged), encoding="utf8")
    return source, tmp_path / "stage", tmp_path / "results"


def test_a_run_reports_every_failure_keeps_finished_pages_and_resumes(staged_runs):
    source, staged, results = staged_runs
    first = runner.run(staged, source, results, budget=60, cell_timeout=3, expected_default=1, log=lambda line: None)
    statuses = {name: entry["status"] for name, entry in first["pages"].items()}
    assert statuses == {"a-ok": "ok", "b-assert": "failed", "c-ok": "ok", "d-timeout": "failed", "e-slow": "left"}
    text, status = runner.summary(first)
    assert status == 1
    claim = "this code cell raised AssertionError: the page's claim no longer holds"
    assert f"{source / 'b-assert.md'}:18: {claim}" in text
    assert f"{source / 'd-timeout.md'}:18: the cell ran past 3 s (--cell-timeout)" in text
    (assertion,) = first["pages"]["b-assert"]["errors"]  # the traceback's end comes back, colour codes stripped
    assert assertion["traceback"].splitlines()[-1] == "AssertionError: the page's claim no longer holds"
    assert "\x1b[" not in assertion["traceback"] and "The traceback's end:" in text
    (stopped,) = first["pages"]["d-timeout"]["slow_cells"]   # the cell that timed out is listed, however short
    assert stopped["where"] == f"{source / 'd-timeout.md'}:18" and stopped["seconds"] >= 3
    assert first["pages"]["a-ok"]["slow_cells"] == []
    with zipfile.ZipFile(results / runner.OUTPUTS) as archive:  # written after every page
        assert sorted(archive.namelist()) == ["a-ok.ipynb", "c-ok.ipynb"]
        assert "A-OK" in archive.read("a-ok.ipynb").decode()
    on_disk = runner.read_manifest(results)
    assert on_disk["pages"] == first["pages"] and on_disk["budget_seconds"] == 60

    second = runner.run(staged, source, results, cell_timeout=3, pages=["a-ok", "c-ok", "e-slow"],
                        log=lambda line: None)
    assert second["pages"]["e-slow"]["status"] == "ok"
    assert second["pages"]["a-ok"]["run"] == first["pages"]["a-ok"]["run"]  # done pages are not run again
    assert second["pages"]["e-slow"]["run"] == second["started"] != first["started"]
    with zipfile.ZipFile(results / runner.OUTPUTS) as archive:
        assert sorted(archive.namelist()) == ["a-ok.ipynb", "c-ok.ipynb", "e-slow.ipynb"]
    assert runner.summary(second)[1] == 1  # the two failures are still reported


def test_a_page_running_when_the_budget_ends_is_stopped_at_its_cell(staged_runs):
    """A cell still running when the budget ends fails its page there, named, inside the budget."""
    source, staged, results = staged_runs
    manifest = runner.run(staged, source, results, budget=4, cell_timeout=120, pages=["d-timeout"], expected_default=1,
                          log=lambda line: None)
    (error,) = manifest["pages"]["d-timeout"]["errors"]
    assert error["where"] == f"{source / 'd-timeout.md'}:18"
    assert error["problem"].startswith("the run's budget ended while this cell ran")
    assert "----> 2 time.sleep(60)" in error["traceback"]   # where it was stopped, from the interrupt's traceback
    assert manifest["pages"]["d-timeout"]["seconds"] < 30   # not the cell's 60 s, nor its 120 s timeout


def test_skip_failed_runs_a_failed_page_again_only_when_asked(staged_runs):
    source, staged, results = staged_runs
    first = runner.run(staged, source, results, cell_timeout=3, pages=["b-assert"], log=lambda line: None)
    again = runner.run(staged, source, results, cell_timeout=3, pages=["b-assert"], skip_failed=True,
                       log=lambda line: None)
    assert again["pages"]["b-assert"]["run"] == first["pages"]["b-assert"]["run"] == first["started"]
    retried = runner.run(staged, source, results, cell_timeout=3, pages=["b-assert"], log=lambda line: None)
    assert retried["pages"]["b-assert"]["run"] == retried["started"] != first["started"]


def test_a_page_whose_hash_is_kept_is_skipped(staged_runs, tmp_path):
    source, staged, results = staged_runs
    pages = json.loads((staged / "pages.json").read_text(encoding="utf8"))["pages"]
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / outputs.KEPT_INDEX).write_text(json.dumps({"pages": {"a-ok": {"hash": pages["a-ok"]["hash"]}}}))
    manifest = runner.run(staged, source, results, kept=kept, pages=["a-ok", "c-ok"], log=lambda line: None)
    assert sorted(manifest["pages"]) == ["c-ok"]


# --- keep and render ------------------------------------------------------------------------------

def as_made_on(notebook_text: str, device_kind: str, jax_version: str | None = None) -> str:
    """An executed notebook whose provenance record says it ran on a GPU of ``device_kind``."""
    notebook = nbformat.reads(notebook_text, as_version=4)
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            glued = output.get("metadata", {}).get("scrapbook", {})
            if glued.get("name") == "learnjax_provenance":
                key = glued["mime_prefix"] + "text/plain"
                made = json.loads(ast.literal_eval(output["data"][key]))  # a repr of a JSON string
                made.update(backend="gpu", device_kind=device_kind, jax=jax_version or made["jax"])
                output["data"][key] = repr(json.dumps(made))
    return nbformat.writes(notebook)


def fake_gpu_results(site_out: Path, folder: Path, device_kind: str, pages=None, jax_version=None) -> Path:
    """A runner's results folder, as a GPU of ``device_kind`` would bring back, from the fixture's CPU outputs."""
    (local,) = (site_out / "executed").iterdir()
    manifest = runner.read_manifest(local)
    folder.mkdir(parents=True)
    with zipfile.ZipFile(local / runner.OUTPUTS) as source, zipfile.ZipFile(folder / runner.OUTPUTS, "w") as target:
        for name in source.namelist():
            if pages is None or name.removesuffix(".ipynb") in pages:
                target.writestr(name, as_made_on(source.read(name).decode(), device_kind, jax_version))
    manifest["machine"].update(backend="gpu", device_kind=device_kind, jax=jax_version or manifest["machine"]["jax"])
    manifest["pages"] = {name: entry for name, entry in manifest["pages"].items() if pages is None or name in pages}
    (folder / runner.MANIFEST).write_text(json.dumps(manifest), encoding="utf8")
    return folder


def test_the_lesson_table_sets_gpu_figures_beside_the_cpu_build(site, tmp_path, monkeypatch):
    """reports/gpu/README.md's table: seconds and key figures of each lesson, GPU and CPU, between markers."""
    kept = tmp_path / "kept"
    results = fake_gpu_results(site["out"], tmp_path / "results", H100, pages=["part/first"])
    (results / outputs.RUN_LOG).write_text(f"gpu-run: ...\n{H100}, 580.159.04, 81559 MiB\n", encoding="utf8")
    outputs.KeptOutputs(kept).keep(results)
    monkeypatch.setitem(gpu_table.KEY_FIGURES, "part/first", (("answer", "the answer"), ("missing", "not glued")))
    (local,) = (site["out"] / "executed").iterdir()   # the CPU runner's results of the fixture's build
    text = gpu_table.table(kept, local)
    assert f"GPU: **{H100}**, driver 580.159.04" in text
    rows = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines() if line.startswith("| part/")}
    assert sorted(rows) == ["part/first", "part/second"]
    first = rows["part/first"].split(" | ")
    assert first[3] == first[4].removesuffix(" |") == "the answer: 42"   # the fake GPU ran the CPU's notebook
    assert rows["part/second"].split(" | ")[1] == "not yet"
    readme = kept / "README.md"
    readme.write_text(f"# head\n{gpu_table.START}\nold\n{gpu_table.END}\ntail\n", encoding="utf8")
    gpu_table.write(readme, text)
    gpu_table.write(readme, text)   # again: the same file
    assert readme.read_text(encoding="utf8") == f"# head\n{gpu_table.START}\n{text}\n{gpu_table.END}\ntail\n"
    readme.write_text("no markers\n", encoding="utf8")
    with pytest.raises(SystemExit, match="lacks the markers"):
        gpu_table.write(readme, text)


def test_the_render_takes_kept_gpu_outputs_and_executes_nothing(site, tmp_path):
    kept = tmp_path / "kept"
    results = fake_gpu_results(site["out"], tmp_path / "results", H100)
    (results / outputs.RUN_LOG).write_text("gpu-run: what the machine printed\n", encoding="utf8")
    found = outputs.KeptOutputs(kept).keep(results)
    assert found == {"kept": ["part/first", "part/second"], "failed": [], "left": []}
    assert {p.name for p in (kept / "outputs" / "part").iterdir()} == {"first.ipynb.gz", "second.ipynb.gz"}
    (manifest,) = (kept / "runs").glob("*.json")
    assert manifest.with_suffix(".log").read_text(encoding="utf8") == "gpu-run: what the machine printed\n"

    source, out = copy_fixture("site", tmp_path / "pages"), tmp_path / "out"
    result = build(source, out, env={"LEARNJAX_REQUIRE_ACCELERATOR": "1"}, kept=kept)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert (f"outputs: 2 kept (made on {H100}), 0 from this machine's earlier builds, 0 executed now"
            in result.stdout)
    assert "Executing notebook" not in result.stdout + result.stderr and not (out / "executed").exists()
    site_out = {"html": out / "html"}
    assert "NVIDIA H100 80GB HBM3 GPU" in page(site_out, "en", "part/first").select_one(".learnjax-provenance").text
    made = record.make_record(out)
    assert made["backend"] == "gpu" and made["device_kind"] == H100
    assert made["checks"]["outputs"]["kept"] == ["part/first", "part/second"]
    assert made["checks"]["gpu_pages"] == ["part/first", "part/second"] and made["checks"]["cpu_pages"] == []
    assert made["checks"]["every_page_on_a_gpu"] is True


def test_a_required_accelerator_build_names_the_pages_without_gpu_outputs(site, tmp_path):
    kept = tmp_path / "kept"
    outputs.KeptOutputs(kept).keep(fake_gpu_results(site["out"], tmp_path / "results", H100, pages=["part/first"]))
    result = build(copy_fixture("site", tmp_path / "pages"), tmp_path / "out", "ko",
                   env={"LEARNJAX_REQUIRE_ACCELERATOR": "1"}, kept=kept)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "1 page(s) have no outputs executed on a GPU: part/second." in output
    assert "Executing notebook" not in output and "ok     part" not in output  # refused before anything ran


def test_kept_outputs_never_mix_device_kinds_or_jax_versions(site, tmp_path):
    kept = outputs.KeptOutputs(tmp_path / "kept")
    kept.keep(fake_gpu_results(site["out"], tmp_path / "h100", H100, pages=["part/first"]))
    with pytest.raises(outputs.KeptOutputsError, match="may not mix device kinds or JAX versions"):
        kept.keep(fake_gpu_results(site["out"], tmp_path / "h200", H200, pages=["part/second"]))
    with pytest.raises(outputs.KeptOutputsError, match="may not mix device kinds or JAX versions"):
        kept.keep(fake_gpu_results(site["out"], tmp_path / "newer", H100, pages=["part/second"], jax_version="0.12.0"))
    with pytest.raises(outputs.KeptOutputsError, match="only outputs made on gpu are kept"):
        (local,) = (site["out"] / "executed").iterdir()
        kept.keep(local)  # the CPU's own
    assert sorted(outputs.KeptOutputs(tmp_path / "kept").pages) == ["part/first"]  # nothing written by a refusal

    # a notebook that another run slipped in, made elsewhere: the whole kept set is refused on reading
    planted = kept.notebook_file("part/first")
    text = gzip.decompress(planted.read_bytes()).decode()
    planted.write_bytes(gzip.compress(as_made_on(text, H200).encode()))
    with pytest.raises(outputs.KeptOutputsError, match="part/first was made on NVIDIA H200"):
        outputs.KeptOutputs(tmp_path / "kept")
    result = build(copy_fixture("site", tmp_path / "pages"), tmp_path / "out", "ko", kept=tmp_path / "kept")
    assert result.returncode != 0 and "kept outputs: " in result.stdout + result.stderr

    fresh = outputs.KeptOutputs(tmp_path / "kept", check=False)
    fresh.keep(fake_gpu_results(site["out"], tmp_path / "h200-fresh", H200), fresh=True)
    assert outputs.KeptOutputs(tmp_path / "kept").machine["device_kind"] == H200


# --- the machine's limits and the documented command ----------------------------------------------

def test_what_the_machine_receives_is_the_tree_git_shows_plus_the_carried_folder(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("ignored/\n.gpu-run/\n")
    for name, size in (("tracked.txt", 10), ("untracked.txt", 20), ("ignored/big.bin", 5000),
                       (".gpu-run/wheels/a.whl", 300)):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"x" * size)
    subprocess.run(["git", "-C", str(tmp_path), "add", "tracked.txt", ".gitignore"], check=True)
    files = gpu_run.carried_files(tmp_path, tmp_path / ".gpu-run")
    assert sorted(p.relative_to(tmp_path).as_posix() for p in files) == [
        ".gitignore", ".gpu-run/wheels/a.whl", "tracked.txt", "untracked.txt"]
    assert gpu_run.carried_bytes(files) == 10 + 20 + 300 + len("ignored/\n.gpu-run/\n")
    gpu_run.copy_carried(files, tmp_path / "copy", tmp_path)
    assert (tmp_path / "copy" / ".gpu-run" / "wheels" / "a.whl").stat().st_size == 300


def test_the_tracked_tree_leaves_room_for_what_a_run_carries():
    """The tree (with the kept GPU outputs) plus the staged notebooks and wheels (about 15 MiB, measured by
    nox -s gpu-prepare and the dry run in CI) must stay under the machine's 64 MiB."""
    tracked = gpu_run.carried_bytes(gpu_run.carried_files(ROOT, ROOT / "no-such-folder"))
    assert tracked < 32 * 2**20, f"the tree alone is {tracked / 2**20:.1f} MiB"


DEVICE_CALL = re.compile(r"run\(carry=\[\"\.gpu-run\"\], timeout_s=(\d+),"
                         r"\s*command=\s*\"(.*?)\"\)", re.DOTALL)


def test_the_gpu_command_is_documented_whole_and_short():
    readme = (ROOT / "README.md").read_text(encoding="utf8")
    section = readme.split("## Running the lessons on a GPU machine without network")[1].split("\n## ")[0]
    found = DEVICE_CALL.search(section)
    assert found, "the README's GPU section shows the device call"
    timeout, command = int(found.group(1)), " ".join(found.group(2).split())
    assert len(command) < 2000 and "bash .ci/gpu-run --budget" in command
    budget = int(re.search(r"--budget (\d+)", command).group(1))
    assert budget + 60 <= timeout <= 600  # the budget ends well inside the command's limit
    for step in ("nox -s gpu-prepare", "nox -s gpu-import", "nox -s gpu-dryrun"):
        assert step in section


# --- no unguarded read of XLA's cost estimate -------------------------------------------------------

CODE_CELL = re.compile(r"^```\{code-cell\}.*?$(.*?)^```$", re.MULTILINE | re.DOTALL)


def cost_reads() -> list[str]:
    """``file:line`` of every ``.cost_analysis()`` call in lesson code or a program, but for its guard."""
    found = []
    for path in sorted((ROOT / "docs").glob("*/*.md")):
        text = path.read_text(encoding="utf8")
        for cell in CODE_CELL.finditer(text):
            for offset, line in enumerate(cell.group(1).splitlines()):
                if ".cost_analysis(" in line:
                    found.append(f"{path.relative_to(ROOT)}:{text[:cell.start(1)].count(chr(10)) + offset}")
    for path in sorted((ROOT / "examples").glob("*.py")):
        if path.name != "compiler_cost.py":
            found += [f"{path.relative_to(ROOT)}:{n}" for n, line in enumerate(path.read_text().splitlines(), 1)
                      if ".cost_analysis(" in line and not line.lstrip().startswith(("#", '"', "*", "``"))]
    return found


def test_every_cost_estimate_is_read_through_its_guard():
    """On a GPU, cuBLAS calls make XLA's totals wrong (-1 each): compiler_cost.xla_cost says when."""
    assert cost_reads() == []
