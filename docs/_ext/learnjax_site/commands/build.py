"""Build the site: stage, execute what has no outputs yet, render both languages, then the root page.

    python -m learnjax_site.commands.build [--source docs] [--out docs/_build] [--lang ko en] [--kept reports/gpu]

1. **Stage** (``learnjax_site.execution.stage``): each page's notebook as the execution cache looks it up.
2. **Choose** each page's outputs: kept ones (``reports/gpu``, executed on a GPU) where they were made
   from this very code; else this machine's own from an earlier build (``<out>/executed/<machine>/``);
   else the page is executed now, by the runner (``learnjax_site.execution.runner``), in a fresh kernel. Every
   failing page is reported, with its file and line, and the build stops before rendering. With
   ``LEARNJAX_REQUIRE_ACCELERATOR=1`` a page without a GPU's outputs stops it, named, when this
   machine's kernel is a CPU.
3. **Render** each language in its own ``sphinx-build`` process with ``-W --keep-going`` (any warning
   fails the build): myst-nb takes every page's outputs from a cache filled with the chosen notebooks
   (``<out>/.jupyter_cache/render``) and executes nothing. Sphinx keeps each language's environment
   between builds (``<out>/doctrees/<lang>``) and re-reads only what changed: a page whose source, or
   a program it shows, or whose chosen outputs changed, and every page when the site's own code or
   configuration changed (``learnjax_site_code`` in ``conf.py``).

``nox -s docs`` runs this, and so do the tests, on small fixture sites.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import nbformat

from ..core import paths
from ..core.languages import LANGUAGE_NAMES, LANGUAGES
from ..execution import kernel, outputs, runner, stage
from ..execution.kernel import REQUIRE_ACCELERATOR, accelerator_required
from ..web import not_found, sitemap
from ..web.site_url import base_url

CONF_DIR = paths.DOCS  # where conf.py is

ROOT_PAGE = """<!DOCTYPE html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>JAX 배우기 · Learning JAX</title>
<link rel="alternate" hreflang="ko" href="ko/index.html">
<link rel="alternate" hreflang="en" href="en/index.html">
<link rel="alternate" hreflang="x-default" href="index.html">
<script>
  // Korean browsers go to ko/, every other browser to en/. The links below work without this.
  (function () {
    var langs = navigator.languages || [navigator.language || ""];
    var korean = langs.some(function (l) { return /^ko\\b/i.test(l); });
    window.location.replace(korean ? "ko/index.html" : "en/index.html");
  })();
</script>
<style>
  body { font-family: system-ui, "Apple SD Gothic Neo", "Noto Sans KR", "Malgun Gothic", sans-serif;
         max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.7; word-break: keep-all; }
  a { font-size: 1.25rem; }
</style>
</head>
<body>
<h1>JAX 배우기 · Learning JAX</h1>
<ul>
<li><a href="ko/index.html" hreflang="ko" lang="ko">한국어로 읽기</a></li>
<li><a href="en/index.html" hreflang="en" lang="en">Read in English</a></li>
</ul>
</body>
</html>
"""


def sphinx_command(source: Path, out: Path, language: str, extra: list[str]) -> list[str]:
    return [
        sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going",
        "-c", str(CONF_DIR), "-D", f"language={language}", "-D", f"learnjax_outputs={out / OUTPUTS_FILE}",
        "-d", str(out / "doctrees" / language),
        str(source), str(out / "html" / language), *extra,
    ]


OUTPUTS_FILE = "outputs.json"  # what the render is told: the cache, and each page's outputs
KEPT = CONF_DIR.parent / "reports" / "gpu"  # the kept GPU outputs of docs/


def refuse_cpu(pages: list[str], machine: dict) -> None:
    """Stop a build that must show a GPU's outputs where pages have none and this kernel is a CPU."""
    sys.exit(f"{REQUIRE_ACCELERATOR}=1, but the kernel's default JAX backend is '{machine['backend']}' "
             f"(device kind {machine['device_kind']!r}, jax {machine['jax']}) and {len(pages)} page(s) have no "
             f"outputs executed on a GPU: {', '.join(pages)}.\n    What to do: run them on a GPU machine and "
             "import the results (README: \"Running the lessons on a GPU machine without network\"), build on a "
             f"GPU (LEARNJAX_GPU=1 installs JAX for CUDA), or unset {REQUIRE_ACCELERATOR} for a CPU build")


def prepare(source: Path, out: Path, kept_folder: Path | None) -> Path:
    """Stage, choose each page's outputs, execute the rest here, fill the render's cache; return outputs.json."""
    staged = stage.stage(source, out / "stage")
    try:
        kept = outputs.KeptOutputs(kept_folder) if kept_folder else None
    except outputs.KeptOutputsError as error:
        sys.exit(f"kept outputs: {error}")
    code = {page: entry for page, entry in staged["pages"].items() if entry["code"]}
    kept_hashes = {page: entry["hash"] for page, entry in kept.pages.items()} if kept else {}
    kept_pages = {page for page, entry in code.items() if kept_hashes.get(page) == entry["hash"]}
    pending = [page for page in code if page not in kept_pages]
    machine, local, manifest = kept.machine if kept else None, None, {"pages": {}}
    if pending:
        kernel.set_kernel_memory_settings()
        try:
            machine = kernel.probe(kernel.kernel_python())
        except kernel.ProbeError as error:
            sys.exit(f"{error}\n    What to do: install the docs dependencies in the kernel's environment "
                     "(nox -s docs does)")
        if accelerator_required() and machine["backend"] == "cpu":
            refuse_cpu(pending, machine)
        local = out / "executed" / kernel.machine_key(machine)
        print(f"executing {len(pending)} page(s) without kept outputs, where {local} lacks them", flush=True)
        manifest = runner.run(out / "stage", source, local, pages=pending, machine=machine)
        failed = [page for page in pending if manifest["pages"][page]["status"] != runner.OK]
        if failed:
            text, _ = runner.summary({"pages": {page: manifest["pages"][page] for page in failed}})
            sys.exit(f"{text}\nThe build stopped before rendering: {len(failed)} page(s) failed (above).")
    executed_here = outputs.results_notebooks(local) if local else {}
    chosen, pages = {}, {}
    for page, entry in staged["pages"].items():
        if not entry["code"]:  # nothing to execute: the staged notebook is its own outputs
            chosen[page] = (nbformat.read(out / "stage" / entry["notebook"], as_version=4), 0.0)
            continue
        if page in kept_pages:
            notebook, seconds, how = kept.notebook(page), kept.pages[page]["seconds"], "kept"
        else:
            ran = manifest["pages"][page]
            notebook, seconds = executed_here[page], ran["seconds"]
            how = "executed" if ran.get("run") == manifest.get("started") else "cache"
        chosen[page] = (notebook, seconds)
        record = outputs.glued_record(notebook)
        pages[page] = {"outputs": how, "seconds": seconds, "ran_at": record["ran_at"] if record else None}
    hashes = outputs.fill_cache(out / ".jupyter_cache" / "render", chosen,
                                {page: source / entry["source"] for page, entry in staged["pages"].items()})
    mismatched = [page for page, entry in staged["pages"].items() if hashes[page] != entry["hash"]]
    if mismatched:
        sys.exit(f"the executed notebooks of {', '.join(mismatched)} hash differently from their staged notebooks: "
                 "the runner changed what the cache hashes (cell metadata?); report it")
    report = out / OUTPUTS_FILE
    report.write_text(json.dumps({"cache": str((out / ".jupyter_cache" / "render").resolve()), "machine": machine,
                                  "pages": pages}, indent=1) + "\n", encoding="utf8")
    counts = {how: sum(p["outputs"] == how for p in pages.values()) for how in ("kept", "cache", "executed")}
    made_on = f" (made on {kept.machine['device_kind']})" if kept and kept.machine else ""
    print(f"outputs: {counts['kept']} kept{made_on}, {counts['cache']} from this machine's earlier builds, "
          f"{counts['executed']} executed now", flush=True)
    return report


def build(source: Path, out: Path, languages: list[str], extra: list[str],
          kept_folder: Path | None = None) -> dict[str, float]:
    """Prepare every page's outputs, then render each language in turn; return the seconds each took.

    Exits on the first failure."""
    prepare(source, out, kept_folder)
    html = out / "html"
    html.mkdir(parents=True, exist_ok=True)
    (html / "build-report.json").unlink(missing_ok=True)
    seconds = {}
    for language in languages:
        print(f"\n=== Building {LANGUAGE_NAMES[language]} ({language}) ===", flush=True)
        started = time.perf_counter()
        result = subprocess.run(sphinx_command(source, out, language, extra))
        seconds[language] = time.perf_counter() - started
        if result.returncode != 0:
            sys.exit(f"The {language} build failed (exit {result.returncode}); see the messages above.")
    (html / "index.html").write_text(ROOT_PAGE, encoding="utf8")
    (html / ".nojekyll").write_text("", encoding="utf8")
    not_found.write_root_page(html, base_url())  # GitHub Pages serves the root 404.html for any miss
    sitemap.write_root_files(html, base_url())
    return seconds


def summary(out: Path, seconds: dict[str, float]) -> str:
    pages = json.loads((out / "html" / "build-report.json").read_text(encoding="utf8"))["pages"]
    lines = [f"{lang}: built in {s:.1f} s" for lang, s in seconds.items()]
    for page in pages:
        lines.append(f"  {page['language']} {page['page']}: {page['outputs']} "
                     f"({page['execution_seconds']:.1f} s on {page['backend']} / {page['device_kind']})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=CONF_DIR, help="folder of the pages (default: docs)")
    parser.add_argument("--out", type=Path, default=CONF_DIR / "_build", help="build folder (default: docs/_build)")
    parser.add_argument("--lang", nargs="+", choices=LANGUAGES, default=list(LANGUAGES))
    parser.add_argument("--kept", type=Path, help="kept GPU outputs (default: reports/gpu for docs/, none for "
                        "another source folder)")
    args, extra = parser.parse_known_args(argv)
    kept = args.kept or (KEPT if args.source.resolve() == CONF_DIR.resolve() else None)
    seconds = build(args.source, args.out, args.lang, extra, kept)
    print("\n" + summary(args.out, seconds))
    print(f"\nThe site is in {args.out / 'html'}; open index.html there.")


if __name__ == "__main__":
    main()
