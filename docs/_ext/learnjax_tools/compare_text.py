"""What a reader reads, before and after a change: the article text of two built sites, compared.

    python -m learnjax_tools.compare_text BEFORE_HTML AFTER_HTML [--numbers]

Each page's article (``<article>``: the lesson, not the sidebar or the header's buttons) is taken
as text, one paragraph per line, from both builds; the pages whose text differs are printed as a
unified diff. Measured numbers move from build to build, so every run of digits is written ``#``
(``--numbers`` keeps them); a page in only one build is named. Exit status 1 when any page
differs, so a refactoring that must change nothing a reader sees can be checked.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "tr", "dt", "dd", "figcaption", "caption",
          "div", "section", "table", "blockquote"}
SKIPPED = {"script", "style", "button"}
_NUMBER = re.compile(r"\d[\d,.]*")


class ArticleText(HTMLParser):
    """The text inside ``<article>``, one block per line."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth, self.skipping, self.lines, self.current = 0, 0, [], []

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self.depth += 1
        elif self.depth and tag in SKIPPED:
            self.skipping += 1
        elif self.depth and tag in BLOCKS:
            self.flush()

    def handle_endtag(self, tag):
        if tag == "article" and self.depth:
            self.flush()
            self.depth -= 1
        elif self.depth and tag in SKIPPED and self.skipping:
            self.skipping -= 1
        elif self.depth and tag in BLOCKS:
            self.flush()

    def handle_data(self, data):
        if self.depth and not self.skipping:
            self.current.append(data)

    def flush(self):
        line = " ".join("".join(self.current).split())
        if line:
            self.lines.append(line)
        self.current = []


def article_lines(html: str, numbers: bool = False) -> list[str]:
    """The article's text of a built page, one block per line, digits as ``#`` unless ``numbers``.

    >>> article_lines("<nav>menu</nav><article><h1>Title</h1><p>It took <b>1,234.5</b> ms.</p></article>")
    ['Title', 'It took # ms.']
    """
    parser = ArticleText()
    parser.feed(html)
    parser.flush()
    return parser.lines if numbers else [_NUMBER.sub("#", line) for line in parser.lines]


def compare(before: Path, after: Path, numbers: bool = False) -> list[str]:
    """The report: a diff per page whose article text differs, and the pages only one build has."""
    pages_before = {p.relative_to(before).as_posix() for p in before.rglob("*.html")}
    pages_after = {p.relative_to(after).as_posix() for p in after.rglob("*.html")}
    report = [f"only before: {page}" for page in sorted(pages_before - pages_after)]
    report += [f"only after: {page}" for page in sorted(pages_after - pages_before)]
    for page in sorted(pages_before & pages_after):
        old = article_lines((before / page).read_text(encoding="utf8"), numbers)
        new = article_lines((after / page).read_text(encoding="utf8"), numbers)
        if old != new:
            report += list(difflib.unified_diff(old, new, f"before/{page}", f"after/{page}", lineterm="", n=0))
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--numbers", action="store_true", help="compare numbers too")
    args = parser.parse_args(argv)
    report = compare(args.before, args.after, args.numbers)
    print("\n".join(report) if report else "the article text of every page is the same")
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())
