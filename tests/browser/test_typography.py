"""Korean typography as a reader's browser applies it: whole words, Hangul fonts, leading, no faux italics."""

from __future__ import annotations

from .harness import LESSON

STYLE = """selector => {
  const style = getComputedStyle(document.querySelector(selector));
  return {wordBreak: style.wordBreak, fontStyle: style.fontStyle, fontFamily: style.fontFamily,
          lineHeight: parseFloat(style.lineHeight) / parseFloat(style.fontSize)};
}"""
PROSE = "article.bd-article section p"


def test_korean_prose_breaks_between_words_in_a_hangul_font_with_room_between_lines(page, console):
    page.goto(f"ko/{LESSON}.html")
    prose = page.evaluate(STYLE, PROSE)
    assert prose["wordBreak"] == "keep-all"
    assert prose["lineHeight"] >= 1.7
    assert any(font in prose["fontFamily"] for font in ("Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic"))
    page.evaluate("() => document.querySelector('article.bd-article section p').insertAdjacentHTML("
                  "'beforeend', '<em id=probe>강조</em>')")
    assert page.evaluate(STYLE, "#probe")["fontStyle"] == "normal"
    assert console.problems == []


def test_english_keeps_its_italics_and_normal_breaking(page, console):
    page.goto(f"en/{LESSON}.html")
    assert page.evaluate(STYLE, PROSE)["wordBreak"] == "normal"
    page.evaluate("() => document.querySelector('article.bd-article section p').insertAdjacentHTML("
                  "'beforeend', '<em id=probe>stress</em>')")
    assert page.evaluate(STYLE, "#probe")["fontStyle"] == "italic"
    assert console.problems == []
