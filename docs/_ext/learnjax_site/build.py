"""Build the site: both languages one after the other, then the root page that picks one.

    python -m learnjax_site.build [--source docs] [--out docs/_build] [--lang ko en]

Each language is its own ``sphinx-build`` process with ``-W --keep-going`` (any warning fails the
build) and a fresh environment (``-E``, so every page's record says how this build got its
outputs; unchanged pages cost a cache look-up, not an execution). The first language executes
what the cache lacks; the second finds everything in the cache. ``nox -s docs`` runs this, and
so do the tests, on a small fixture site.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from . import not_found, sitemap
from .bilingual import LANGUAGE_NAMES, LANGUAGES
from .site_url import base_url

CONF_DIR = Path(__file__).resolve().parents[2]  # docs/, where conf.py is

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
        sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-E",
        "-c", str(CONF_DIR), "-D", f"language={language}",
        "-d", str(out / "doctrees" / language),
        str(source), str(out / "html" / language), *extra,
    ]


def build(source: Path, out: Path, languages: list[str], extra: list[str]) -> dict[str, float]:
    """Build each language in turn; return the seconds each took. Exits on the first failure."""
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
    args, extra = parser.parse_known_args(argv)
    seconds = build(args.source, args.out, args.lang, extra)
    print("\n" + summary(args.out, seconds))
    print(f"\nThe site is in {args.out / 'html'}; open index.html there.")


if __name__ == "__main__":
    main()
