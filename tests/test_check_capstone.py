"""The exercise check of "Capstone: a small model end to end" (``examples/check_capstone.py``): it passes
the solution's conversion to bits per byte, and names each known-wrong one, in Korean and in English."""

from __future__ import annotations

from check_capstone import check
from readers_checks import said


def solution(bits, text):
    """The page's solution: bits per character times the held-out text's characters over its UTF-8 bytes."""
    per_byte = len(text) / len(text.encode("utf-8"))
    return bits * per_byte


def test_the_check_passes_the_solution():
    result = check.bits_per_byte(solution)
    assert result.ok, result
    assert "2.52, 1.00, 1.81" in result.en and "2.52, 1.00, 1.81" in result.ko, result


def test_the_check_names_each_wrong_conversion():
    said(check.bits_per_byte(lambda bits, text: bits * len(text.encode("utf-8")) / len(text)),
         "bytes per character", korean="문자당 바이트를 곱했습니다")
    said(check.bits_per_byte(lambda bits, text: bits), "unchanged", korean="그대로")
    said(check.bits_per_byte(lambda bits, text: bits / 3), "every character as 3 bytes", korean="모든 문자를 3바이트로")
    said(check.bits_per_byte(lambda bits, text: bits * len(text) / sum(3 if "가" <= c <= "힣" else 1 for c in text)),
         "Hangul as 3 bytes and everything else as 1", korean="한글 음절만 3바이트로")
    said(check.bits_per_byte(lambda bits, text: bits * len(text) / len(text.encode("utf-16"))), "UTF-16",
         korean="UTF-16")
    said(check.bits_per_byte(lambda bits, text: bits / 2 + 0.1), "where", "is right", korean="맞는 값은")
    said(check.bits_per_byte(lambda bits, text: [bits]), "not one number", korean="숫자 하나가 아니라")
    said(check.bits_per_byte(lambda bits, text: text.encode("ascii")), "raised UnicodeEncodeError",
         korean="UnicodeEncodeError")
