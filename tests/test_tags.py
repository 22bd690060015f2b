"""Topic tags: names in both languages from tags.toml, bad lines named, and the course's taxonomy."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from learnjax_site.core.errors import LessonError
from learnjax_site.source.tags import check_lesson_tags, read_tags
from sitebuild import build, copy_fixture

DOCS = Path(__file__).resolve().parents[1] / "docs"
TAGS = """# tags
jit = { ko = "JIT 컴파일", en = "JIT compilation" }
{line}
xla = { ko = "XLA", en = "XLA" }
"""


def test_each_line_is_a_tag_with_a_name_in_each_language():
    tags = read_tags(TAGS.replace("{line}", 'control-flow = { ko = "제어 흐름", en = "Control flow" }'), "tags.toml")
    assert tags == {"jit": {"ko": "JIT 컴파일", "en": "JIT compilation"},
                    "control-flow": {"ko": "제어 흐름", "en": "Control flow"},
                    "xla": {"ko": "XLA", "en": "XLA"}}


@pytest.mark.parametrize(("line", "words"), [
    ('vmap = { en = "Vectorization" }', "no name in ko"),
    ('vmap = { ko = "", en = "Vectorization" }', "no name in ko"),
    ('vmap = { ko = "벡터화" }', "no name in en"),
    ('vmap = "벡터화"', "no name in ko, en"),
    ('Vmap = { ko = "벡터화", en = "Vectorization" }', "not lowercase words"),
    ('vmap = { ko = "벡터화", en = "Vectorization" ', "not a TOML line"),
])
def test_a_bad_line_is_named_with_what_to_write(line, words):
    with pytest.raises(LessonError) as error:
        read_tags(TAGS.replace("{line}", line), "docs/tags.toml")
    assert error.value.where == "docs/tags.toml:3"
    assert words in error.value.problem
    assert 'ko = "' in error.value.fix


def test_a_lesson_tag_missing_from_the_file_is_named_by_its_line():
    known = read_tags(TAGS.replace("{line}", ""), "tags.toml")
    lines = ["---", "lesson:", "  summary: {ko: 가, en: a}", "  tags: [jit,", "    vmap]", "---", "# Title"]
    check_lesson_tags(known, ["jit"], "docs/x.md", lines)  # known: nothing raised
    with pytest.raises(LessonError) as error:
        check_lesson_tags(known, ["jit", "vmap"], "docs/x.md", lines)
    assert error.value.where == "docs/x.md:5"
    assert "'vmap' is not in docs/tags.toml" in error.value.problem
    assert "jit, xla" in error.value.fix and 'vmap = { ko = "' in error.value.fix


def test_a_tag_without_a_korean_name_stops_the_build_naming_the_line(tmp_path):
    source = copy_fixture("site", tmp_path / "pages")
    path = source / "tags.toml"
    lines = path.read_text(encoding="utf8").splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("fixture ="))
    lines[number - 1] = 'fixture = { en = "Fixture" }'
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    result = build(source, tmp_path / "out", "ko")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output[-3000:]
    assert f"tags.toml:{number}:" in output and "the tag 'fixture' has no name in ko" in output, output[-3000:]
    assert "Executing notebook" not in output  # stopped before reading any page


def lesson_tags() -> dict[str, list[str]]:
    found = {}
    for path in sorted(DOCS.glob("*/*.md")):
        front = yaml.safe_load(path.read_text(encoding="utf8").split("---\n")[1])
        if "lesson" in front:
            found[path.relative_to(DOCS).as_posix()] = front["lesson"]["tags"]
    return found


def test_the_course_has_a_handful_of_tags_per_lesson_and_none_unused():
    tags = read_tags((DOCS / "tags.toml").read_text(encoding="utf8"), "docs/tags.toml")
    lessons = lesson_tags()
    assert lessons
    for lesson, its in lessons.items():
        assert 2 <= len(its) <= 4, f"{lesson}: {its}: give a lesson two to four of the topics in docs/tags.toml"
        assert len(set(its)) == len(its), lesson
    used = {tag for its in lessons.values() for tag in its}
    assert set(tags) == used, f"tags no lesson uses: {sorted(set(tags) - used)}"
    assert len(tags) <= 15, "keep the taxonomy short: a tag is a topic a reader browses by"
