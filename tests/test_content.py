"""Rules for the site's content that the build itself does not check."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted(p for p in (ROOT / "docs").rglob("*.md")
                 if "_build" not in p.parts and not p.name.startswith("_")  # the lesson template: test_lesson_template
                 and "\nlesson:" in p.read_text(encoding="utf8"))
PROGRAMS = sorted(p for p in (ROOT / "examples").glob("*.py")
                  if 'if __name__ == "__main__":' in p.read_text(encoding="utf8"))

RUN = re.compile(r"^%run\s+(?:-\w+\s+)*(\S+\.py)", re.MULTILINE)  # options such as -n before the program
SIBLING_IMPORT = re.compile(r"^from (\w+) import ", re.MULTILINE)
PROGRAM_SOURCE = re.compile(r"^```\{program-source\}\s+(.+)$", re.MULTILINE)


def test_there_are_lessons_and_programs():
    assert len(LESSONS) >= 5 and len(PROGRAMS) >= 1


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_every_program_explains_itself(program):
    result = subprocess.run([sys.executable, str(program), "--help"], capture_output=True, text=True,
                            cwd=ROOT / "docs", timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage:") and len(result.stdout.splitlines()) > 3


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_a_lesson_shows_the_source_of_every_program_it_runs(lesson):
    text = lesson.read_text(encoding="utf8")
    shown = {arg for args in PROGRAM_SOURCE.findall(text) for arg in args.split()}
    for program in RUN.findall(text):
        assert (lesson.parent / program).resolve().is_file(), f"{lesson.name} runs a missing {program}"
        assert program in shown, f"{lesson.name} runs {program} without showing it: add a {{program-source}}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_a_lesson_shows_the_helpers_its_programs_import(lesson):
    text = lesson.read_text(encoding="utf8")
    shown = {Path(arg).name: lesson.parent / arg for args in PROGRAM_SOURCE.findall(text) for arg in args.split()}
    for name, path in shown.items():
        for module in SIBLING_IMPORT.findall(path.read_text(encoding="utf8")):
            if (ROOT / "examples" / f"{module}.py").is_file():
                assert f"{module}.py" in shown, f"{lesson.name} shows {name} but not {module}.py, which it imports"
