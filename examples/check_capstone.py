"""Check your answer to the exercise of "Capstone: a small model end to end": import its ``check``, then

    from check_capstone import check
    check.bits_per_byte(your_function)

``your_function(bits_per_character, text)`` should turn a loss in bits per character of the string
``text`` into bits per UTF-8 byte: multiply by the text's characters over its bytes. The check calls
it on texts of its own, Korean, English and a mix with symbols such as × and → (2 and 3 bytes in
UTF-8), and compares with the answer computed in float64; for a wrong answer it names the formula
the numbers match, where it knows one (bytes per character instead of characters per byte, every
character or every non-Hangul one taken as 3 or 1 bytes, UTF-16 bytes).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import checks, right, run_reader, wrong  # noqa: E402

# (bits per character, text): a Korean sentence with its spaces and punctuation, an English one, and a mix
# whose symbols are neither Hangul nor ASCII.
CASES = (
    (2.5, "바이트당 비트로 보면 순서가 같습니까?"),
    (1.75, "Bits per byte, not per character."),
    (3.25, "폭 × 4 → 매개변수 16배 · 배치 ÷ 16"),
)
RTOL = 1e-6


def _hangul(c: str) -> bool:
    return "가" <= c <= "힣"


# Formulas a reader may have used instead, as a function of (bits, text), with what they show.
MISTAKES = (
    (lambda bits, text: bits * len(text.encode("utf-8")) / len(text),
     "문자당 바이트를 곱했습니다. 바이트는 문자보다 작은 단위이니, 문자 수 ÷ 바이트 수를 곱해야 합니다",
     "they match multiplying by bytes per character: a byte is smaller than a character, so multiply by "
     "characters over bytes"),
    (lambda bits, text: bits,
     "문자당 비트를 그대로 돌려주었습니다. 문자 수 ÷ 바이트 수를 곱하세요",
     "they are the bits per character unchanged: multiply by characters over bytes"),
    (lambda bits, text: bits / 3,
     "모든 문자를 3바이트로 셌습니다. 공백, 문장 부호, ASCII 문자는 1바이트입니다. len(text.encode(\"utf-8\"))로 "
     "바이트를 세세요",
     "they count every character as 3 bytes: spaces, punctuation and ASCII take 1; count the bytes with "
     "len(text.encode(\"utf-8\"))"),
    (lambda bits, text: bits * len(text) / sum(3 if _hangul(c) else 1 for c in text),
     "한글 음절만 3바이트로, 나머지는 모두 1바이트로 셌습니다. ×나 →처럼 ASCII가 아닌 기호는 2~3바이트입니다. "
     "len(text.encode(\"utf-8\"))로 바이트를 세세요",
     "they count Hangul as 3 bytes and everything else as 1: symbols such as × and → take 2 or 3 bytes; count "
     "the bytes with len(text.encode(\"utf-8\"))"),
    (lambda bits, text: bits * len(text) / len(text.encode("utf-16-le")),
     "UTF-16 바이트로 셌습니다. UTF-8로 인코딩해 세세요",
     "they count UTF-16 bytes: encode in UTF-8"),
    (lambda bits, text: bits * len(text) / len(text.encode("utf-16")),
     "UTF-16 바이트(BOM 포함)로 셌습니다. UTF-8로 인코딩해 세세요",
     "they count UTF-16 bytes (with the BOM): encode in UTF-8"),
)


def _close(got: list[float], want: list[float]) -> bool:
    return all(abs(g - w) <= RTOL * abs(w) + 1e-9 for g, w in zip(got, want, strict=True))


def bits_per_byte(function):
    """Check ``function(bits_per_character, text)`` against bits x characters / UTF-8 bytes on ``CASES``."""
    got = []
    for bits, text in CASES:
        value, problem = run_reader(function, bits, text)
        if problem is not None:
            return problem
        try:
            got.append(float(value))
        except (TypeError, ValueError):
            return wrong(f"함수가 숫자 하나가 아니라 {type(value).__name__} 값을 돌려주었습니다. 바이트당 비트 하나를 "
                         "돌려주세요",
                         f"your function returned a {type(value).__name__}, not one number: return the bits per byte")
    want = [bits * len(text) / len(text.encode("utf-8")) for bits, text in CASES]
    if _close(got, want):
        shown = ", ".join(f"{len(t.encode('utf-8')) / len(t):.2f}" for _, t in CASES)
        return right(f"세 본문 모두 바이트당 비트가 맞습니다(문자당 바이트가 각각 {shown}인 한국어, 영어, "
                     "기호가 섞인 본문)",
                     f"the bits per byte are right for all three texts (Korean, English and one with symbols, at "
                     f"{shown} bytes per character)")
    for formula, ko, en in MISTAKES:
        if _close(got, [formula(bits, text) for bits, text in CASES]):
            return wrong(f"바이트당 비트가 틀렸습니다. {ko}", f"the bits per byte are wrong: {en}")
    i = next(i for i, (g, w) in enumerate(zip(got, want, strict=True)) if not _close([g], [w]))
    bits, text = CASES[i]
    return wrong(f"바이트당 비트가 틀렸습니다. 문자당 비트 {bits}, 본문 {text!r}(문자 {len(text)}개, UTF-8 "
                 f"{len(text.encode('utf-8'))}바이트)에 대해 받은 값은 {got[i]:.6g}, 맞는 값은 {want[i]:.6g}입니다",
                 f"the bits per byte are wrong: for the text {text!r} ({len(text)} characters, "
                 f"{len(text.encode('utf-8'))} UTF-8 bytes) at {bits} bits per character, {got[i]:.6g}, where "
                 f"{want[i]:.6g} is right")


check = checks(bits_per_byte=bits_per_byte)
