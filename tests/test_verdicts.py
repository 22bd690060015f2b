"""A page whose measurements are forced each way says each outcome's sentence, in both languages.

The fixture (tests/fixtures/verdicts) glues, with ``examples/timing.py``: a real interleaved
comparison of a 1 ms and a 6 ms sleep, read in both directions (faster, slower); samples that are
alike by construction (about the same); samples too scattered to separate although their medians
differ twofold (the measurement could not tell); and a sentence chosen by an outcome, both ways.
"""

from __future__ import annotations

import re

import pytest
from sitebuild import FIXTURES, build

NUMBER = r"[\d,]+(?:\.\d+)?"
MEDIANS = {"ko": rf"\(라운드별 비율의 중앙값이며, 시간의 중앙값은 {NUMBER} ms 대 {NUMBER} ms입니다\)",
           "en": rf"\(median of the per-round ratios; median times {NUMBER} ms and {NUMBER} ms\)"}


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    out = tmp_path_factory.mktemp("verdicts")
    result = build(FIXTURES / "verdicts", out)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return {language: " ".join((out / "html" / language / "verdicts.html").read_text(encoding="utf8").split())
            for language in ("ko", "en")}


EXPECTED = {
    "ko": [rf"빠름: 짧은 잠은 긴 잠보다 {NUMBER}배 빨랐습니다{MEDIANS['ko']}\.",
           rf"느림: 긴 잠은 짧은 잠보다 {NUMBER}배 느렸습니다{MEDIANS['ko']}\.",
           r"같음: 이 기계에서 짧은 잠과 긴 잠은 걸린 시간이 거의 같았습니다"
           r"\(시간의 중앙값은 1\.50 ms 대 1\.50 ms, 라운드별 비율의 중앙값은 1\.07배입니다\)\.",
           r"가릴 수 없음: 이 측정으로는 짧은 잠과 긴 잠 가운데 어느 쪽이 빠른지 가릴 수 없었습니다"
           r"\(시간의 중앙값은 1\.00 ms 대 2\.00 ms, 라운드별 비율의 중앙값은 2\.00배입니다\)\.",
           r"복사: 복사가 일어났습니다\. 복사 없음: 복사는 일어나지 않았습니다\."],
    "en": [rf"Faster: the short sleep was {NUMBER}× faster than the long sleep {MEDIANS['en']}\.",
           rf"Slower: the long sleep was {NUMBER}× slower than the short sleep {MEDIANS['en']}\.",
           r"Same: the short sleep and the long sleep took about the same time on this machine "
           r"\(median times 1\.50 ms and 1\.50 ms; median per-round ratio 1\.07\)\.",
           r"Untold: this measurement could not tell the short sleep and the long sleep apart "
           r"\(median times 1\.00 ms and 2\.00 ms; median per-round ratio 2\.00\)\.",
           r"Copy: a copy was made\. No copy: no copy was made\."],
}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_each_outcome_has_its_sentence(verdicts, language):
    text = re.sub(r"<[^>]+>", "", verdicts[language])
    for sentence in EXPECTED[language]:
        assert re.search(sentence, text), f"{language}: no {sentence!r} on the page"


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_forced_factor_is_the_measured_one(verdicts, language):
    """A 6 ms sleep against a 1 ms sleep: the factor glued is near 6, in both directions."""
    text = re.sub(r"<[^>]+>", "", verdicts[language])
    factors = [float(f) for f in re.findall(r"(\d+(?:\.\d+)?)(?:배 (?:빨랐|느렸)|× (?:faster|slower))", text)]
    assert len(factors) == 2 and all(3 < f < 7 for f in factors), factors
