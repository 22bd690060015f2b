"""Lighthouse over the built site, served as GitHub Pages serves it; scores asserted and reported.

    python -m learnjax_tools.lighthouse --lighthouse CLI [--site docs/_build/html] [--out docs/_build/lighthouse]
                                       [--record reports/lighthouse] [--before BEFORE.json] [--pages home,lesson]

``nox -s lighthouse`` installs the pinned Lighthouse (``tools/lighthouse``, ``npm ci``) and runs this.
It serves the site on 127.0.0.1 with ``learnjax_tools.pages_server`` (gzip, content types, the 404
page) under the path it is published at, and runs Lighthouse with the system's Chromium
(``LEARNJAX_CHROMIUM``, default /usr/bin/chromium) on ``PAGES`` in both languages, mobile and desktop,
one run at a time (simulated throttling, Lighthouse's default). Chromium resolves no host but
127.0.0.1, so nothing is fetched from elsewhere; a request outside the local server fails the run.

Accessibility, best practices and SEO must score 100 (``ASSERTED``): otherwise it stops, naming the
page, the mode, the score and the failing audits. Performance is a benchmark: reported with its LCP,
CLS, total bytes and requests, never asserted (it depends on the machine). The report is written to
``--out`` (``report.md``, ``report.json``) and, with ``--record``, to ``<record>/<date>.md`` and
``.json`` as well; ``--before`` adds a table from an earlier report.json to compare with.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from .pages_server import PagesServer

LANGUAGES = ("ko", "en")

BUILD = Path(__file__).resolve().parents[2] / "_build"

PAGES = {"home": "index.html", "lesson": "origins/what-is-jax.html", "search": "search.html",
         "glossary": "glossary.html"}
"""The pages measured in each language: the home page, one lesson, the search page, the glossary."""

MODES = ("mobile", "desktop")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
ASSERTED = ("accessibility", "best-practices", "seo")
"""Categories that must score 100 in every run; performance is reported only."""

CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-quic", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")


def published_prefix(site: Path) -> str:
    """The path the site is published under, from the Korean home page's canonical link ('' at the root)."""
    found = re.search(r'<link rel="canonical" href="([^"]+)"', (site / "ko" / "index.html").read_text(encoding="utf8"))
    return urlsplit(found.group(1)).path.removesuffix("/ko/index.html").rstrip("/") if found else ""


def lighthouse_command(cli: Path, url: str, mode: str, output: Path) -> list[str]:
    """The command line of one Lighthouse run (``cli``: lighthouse's ``cli/index.js``).

    >>> command = lighthouse_command(Path("cli/index.js"), "http://127.0.0.1:1/ko/", "desktop", Path("o.json"))
    >>> command[:3], "--preset=desktop" in command
    (['node', 'cli/index.js', 'http://127.0.0.1:1/ko/'], True)
    """
    return ["node", str(cli), url, "--output=json", f"--output-path={output}", "--quiet",
            f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={' '.join(CHROMIUM_FLAGS)}",
            *(["--preset=desktop"] if mode == "desktop" else [])]


def offenders(audit: dict, most: int = 3) -> str:
    """What an audit found at fault, for the failure message: the first elements' HTML or URLs.

    >>> offenders({"details": {"items": [{"node": {"snippet": '<a onclick="f()">'}}, {"url": "x.js"}]}})
    ' at <a onclick="f()">, x.js'
    >>> offenders({"details": {}})
    ''
    """
    items = (audit.get("details") or {}).get("items") or []
    named = [item.get("node", {}).get("snippet") or item.get("url") for item in items]
    named = [name for name in named if name][:most]
    return f" at {', '.join(named)}" if named else ""


def summary(lhr: dict, origin: str) -> dict:
    """What the report keeps of one Lighthouse result (``lhr``): scores, metrics, failing audits.

    ``failing`` maps each category to its audits that count towards the score and did not pass;
    ``outside`` lists requests that went anywhere but ``origin`` (``data:`` URLs are the page's own).
    """
    audits = lhr["audits"]

    def details(audit: str) -> dict:
        return audits.get(audit, {}).get("details") or {}

    requests = details("network-requests").get("items", [])
    failing = {}
    for name in CATEGORIES:
        category = lhr["categories"][name]
        failing[name] = [f"{ref['id']}: {audits[ref['id']]['title']}{offenders(audits[ref['id']])}"
                         for ref in category["auditRefs"]
                         if ref.get("weight") and audits[ref["id"]].get("score") is not None
                         and audits[ref["id"]]["score"] < 1]
    return {
        "scores": {name: round(100 * (lhr["categories"][name]["score"] or 0)) for name in CATEGORIES},
        "lcp_s": round(audits["largest-contentful-paint"]["numericValue"] / 1000, 2),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "total_kib": round(audits["total-byte-weight"]["numericValue"] / 1024),
        "requests": len(requests),
        "unused_css_kib": round(details("unused-css-rules").get("overallSavingsBytes", 0) / 1024),
        "render_blocking": len(details("render-blocking-resources").get("items", [])),
        "failing": failing,
        "outside": [item["url"] for item in requests
                    if not item["url"].startswith((origin + "/", "data:", "blob:"))],
        "lighthouse": lhr["lighthouseVersion"],
        "throttling": lhr["configSettings"]["throttlingMethod"],
    }


def problems(runs: list[dict]) -> list[str]:
    """Each asserted category under 100, and each request outside the site, as one line.

    >>> run = {"page": "lesson", "language": "ko", "mode": "mobile", "outside": [],
    ...        "scores": {"performance": 61, "accessibility": 96, "best-practices": 100, "seo": 100},
    ...        "failing": {"accessibility": ["color-contrast: Background and foreground colors ..."]}}
    >>> problems([run])
    ['ko lesson, mobile: accessibility 96 (color-contrast: Background and foreground colors ...)']
    """
    found = []
    for run in runs:
        where = f"{run['language']} {run['page']}, {run['mode']}"
        for name in ASSERTED:
            if run["scores"][name] < 100:
                found.append(f"{where}: {name} {run['scores'][name]} ({'; '.join(run['failing'].get(name, []))})")
        found += [f"{where}: request outside the site: {url}" for url in run["outside"]]
    return found


def table(runs: list[dict]) -> str:
    """A markdown table of the runs, one line each.

    >>> print(table([{"page": "home", "language": "en", "mode": "mobile", "lcp_s": 2.1, "cls": 0.0,
    ...               "total_kib": 310, "requests": 20, "scores": {"performance": 91, "accessibility": 100,
    ...               "best-practices": 100, "seo": 100}}]))
    | page | mode | performance | accessibility | best practices | SEO | LCP | CLS | bytes | requests |
    | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
    | en home | mobile | 91 | 100 | 100 | 100 | 2.1 s | 0.000 | 310 KiB | 20 |
    """
    lines = ["| page | mode | performance | accessibility | best practices | SEO | LCP | CLS | bytes | requests |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for run in runs:
        scores = " | ".join(str(run["scores"][name]) for name in CATEGORIES)
        lines.append(f"| {run['language']} {run['page']} | {run['mode']} | {scores} | {run['lcp_s']} s "
                     f"| {run['cls']:.3f} | {run['total_kib']:,} KiB | {run['requests']} |")
    return "\n".join(lines)


def machine() -> str:
    """The machine, in a line: CPU model, cores, OS, Chromium's version."""
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").is_file() else ""
    chromium = subprocess.run([os.environ.get("LEARNJAX_CHROMIUM", "/usr/bin/chromium"), "--version"],
                              capture_output=True, text=True).stdout.strip()
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; {chromium}"


def markdown(report: dict, before: dict | None) -> str:
    """The report as markdown: what was measured how, then the tables (before first, when given)."""
    head = (f"# Lighthouse: {report['date']}\n\n"
            f"Lighthouse {report['lighthouse']}, {report['throttling']} throttling, on {report['machine']}.\n"
            "The built site served on 127.0.0.1 as GitHub Pages serves it (gzip, content types: "
            "`learnjax_tools.pages_server`); `nox -s lighthouse` made this. Goal, mobile: performance >= 90 "
            "(a benchmark, not asserted), accessibility, best practices and SEO 100 (asserted).\n")
    parts = [head]
    if before:
        parts.append(f"## Before ({before.get('label') or before['date']})\n\nLighthouse {before['lighthouse']}, "
                     f"{before['throttling']} throttling, {before['date']}.\n\n{table(before['runs'])}\n")
        parts.append(f"## After ({report.get('label') or report['date']})\n\n{table(report['runs'])}\n")
    else:
        parts.append(table(report["runs"]) + "\n")
    return "\n".join(parts)


def measure(cli: Path, site: Path, pages: dict[str, str], work: Path) -> list[dict]:
    """Run Lighthouse on each page in each language and mode; the summaries, in that order."""
    chromium = os.environ.get("LEARNJAX_CHROMIUM", "/usr/bin/chromium")
    env = {**os.environ, "CHROME_PATH": chromium}
    runs = []
    with PagesServer(site, published_prefix(site)) as server:
        for language in LANGUAGES:
            for page, path in pages.items():
                for mode in MODES:
                    output = work / f"{language}-{page}-{mode}.json"
                    url = f"{server.url}/{language}/{path}"
                    print(f"lighthouse: {language} {page} ({mode}) {url}", flush=True)
                    done = subprocess.run(lighthouse_command(cli, url, mode, output), env=env)
                    if done.returncode or not output.is_file():
                        sys.exit(f"Lighthouse failed on {url} ({mode}), exit status {done.returncode}")
                    lhr = json.loads(output.read_text(encoding="utf8"))
                    if lhr.get("runtimeError"):
                        sys.exit(f"Lighthouse could not measure {url} ({mode}): {lhr['runtimeError']}")
                    runs.append({"page": page, "language": language, "mode": mode,
                                 **summary(lhr, server.origin)})
    return runs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m learnjax_tools.lighthouse", description=__doc__.split("\n")[0])
    parser.add_argument("--lighthouse", type=Path, required=True, help="lighthouse's cli/index.js")
    parser.add_argument("--site", type=Path, default=BUILD / "html")
    parser.add_argument("--out", type=Path, default=BUILD / "lighthouse")
    parser.add_argument("--record", type=Path, help="also write the report to RECORD/<date>.md and .json")
    parser.add_argument("--before", type=Path, help="an earlier report.json to compare with")
    parser.add_argument("--label", help="what was measured, e.g. a commit (shown in the report)")
    parser.add_argument("--pages", help=f"some of {','.join(PAGES)} (default: all)")
    args = parser.parse_args(argv)
    if not all((args.site / language / "index.html").is_file() for language in LANGUAGES):
        sys.exit(f"No built site in {args.site}: run nox -s docs first.")
    pages = {name: PAGES[name] for name in args.pages.split(",")} if args.pages else PAGES
    with tempfile.TemporaryDirectory() as work:
        runs = measure(args.lighthouse, args.site, pages, Path(work))
    report = {"date": datetime.date.today().isoformat(), "label": args.label, "machine": machine(),
              "lighthouse": runs[0]["lighthouse"], "throttling": runs[0]["throttling"], "runs": runs}
    before = json.loads(args.before.read_text(encoding="utf8")) if args.before else None
    text = markdown(report, before)
    for folder, name in [(args.out, "report"), *([(args.record, report["date"])] if args.record else [])]:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.md").write_text(text, encoding="utf8")
        (folder / f"{name}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf8")
    print(text)
    found = problems(runs)
    if found:
        sys.exit("Lighthouse: below 100 where 100 is required (fix the audits named):\n" + "\n".join(found))


if __name__ == "__main__":
    main()
