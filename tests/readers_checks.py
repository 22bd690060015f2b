"""What the tests of the readers' exercise checks (``examples/check_<lesson>.py``) share."""

from __future__ import annotations

import re

from exercise_check import Result

HANGUL = re.compile("[가-힣]")


def said(result: Result, *english: str, korean: str = "") -> None:
    """``result`` is wrong, and its messages say ``english`` (all of it) and ``korean``."""
    assert not result.ok, result
    for words in english:
        assert words in result.en, result.en
    assert korean in result.ko and HANGUL.search(result.ko), result.ko
