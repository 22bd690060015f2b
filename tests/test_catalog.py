"""The catalogue on the fixture site: lesson lists, tag links and tag pages, progress hooks."""

from __future__ import annotations

import pytest
from sitebuild import page

LESSONS = ["part/first", "part/second"]


def resolve(site, language: str, name: str, href: str):
    return (site["html"] / language / name).parent.joinpath(href).resolve()


@pytest.mark.parametrize("language", ["ko", "en"])
def test_home_lists_each_part_with_its_lessons(site, language):
    soup = page(site, language, "index")
    parts = soup.select(".learnjax-catalog section.learnjax-part")
    assert [p["data-part"] for p in parts] == ["part/index"]
    entries = parts[0].select("li.learnjax-lesson-entry")
    assert [e["data-docname"] for e in entries] == LESSONS
    for entry in entries:
        link = entry.select_one("a.learnjax-lesson-link")
        target = resolve(site, language, "index", link["href"])
        assert target == (site["html"] / language / f"{entry['data-docname']}.html").resolve()
        assert link.get_text() == page(site, language, entry["data-docname"]).h1.get_text().rstrip("#")
        assert entry.select_one(".learnjax-lesson-summary").get_text().strip()
        facts = entry.select_one(".learnjax-lesson-facts").get_text()
        assert ("분" in facts) == (language == "ko") and ("min read" in facts) == (language == "en")
    total = soup.select_one('.learnjax-progress-count[data-scope="all"]')
    assert total["data-lessons"].split() == LESSONS
    assert parts[0].select_one(".learnjax-progress-count")["data-lessons"].split() == LESSONS
    assert soup.select_one("button.learnjax-progress-reset")


@pytest.mark.parametrize("language", ["ko", "en"])
def test_part_page_lists_its_lessons_and_counts_them(site, language):
    soup = page(site, language, "part/index")
    assert [e["data-docname"] for e in soup.select("li.learnjax-lesson-entry")] == LESSONS
    count = soup.select_one(".learnjax-progress-count")
    assert count["data-scope"] == "part/index" and count["data-lessons"].split() == LESSONS
    assert "{done}" in count["data-format"] and "{total}" in count["data-format"]


TAG_NAMES = {"ko": ["시험용", "가나다순"], "en": ["Fixture", "Sorting"]}  # tests/fixtures/site/tags.toml


@pytest.mark.parametrize("language", ["ko", "en"])
def test_lesson_tags_link_to_tag_pages_that_list_the_lesson(site, language):
    soup = page(site, language, "part/first")
    tags = soup.select(".learnjax-lesson-header a.learnjax-tag")
    assert [t.get_text() for t in tags] == TAG_NAMES[language]  # names in the page's language
    tag_file = resolve(site, language, "part/first", tags[0]["href"])
    assert tag_file == (site["html"] / language / "tags" / "fixture.html").resolve()  # the same address
    tag_page = page(site, language, "tags/fixture")
    assert tag_page.html["lang"] == language
    assert tag_page.select_one("article h1").get_text() == {"ko": "태그: 시험용", "en": "Tag: Fixture"}[language]
    listed = [e["data-docname"] for e in tag_page.select("li.learnjax-lesson-entry")]
    assert "part/first" in listed
    entry_tags = tag_page.select("li.learnjax-lesson-entry a.learnjax-tag")
    assert entry_tags[0].get_text() == TAG_NAMES[language][0]


@pytest.mark.parametrize(("language", "order"), [("ko", ["가나다순", "시험용"]), ("en", ["Fixture", "Sorting"])])
def test_the_tags_index_lists_tags_by_name_sorted_in_the_pages_language(site, language, order):
    index = page(site, language, "tags/index")
    links = index.select("a.learnjax-tag")
    assert [a.get_text() for a in links] == order
    assert sorted(a["href"] for a in links) == ["fixture.html", "sorting.html"]


@pytest.mark.parametrize("language", ["ko", "en"])
def test_lesson_has_a_progress_toggle_hidden_until_script_runs(site, language):
    soup = page(site, language, "part/first")
    button = soup.select_one(".learnjax-lesson-header button.learnjax-progress-toggle")
    assert button["data-docname"] == "part/first" and button["aria-pressed"] == "false"
    assert button.has_attr("hidden")
    scripts = [s.get("src", "") for s in soup.select("script")]
    assert any(src.split("?")[0].endswith("learnjax-progress.js") for src in scripts)
    assert (site["html"] / language / "_static" / "learnjax-progress.js").is_file()
