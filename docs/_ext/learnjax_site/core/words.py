"""Hangul and ids: what several stages need to tell Korean text apart and name things in ASCII."""

import re

HANGUL_SYLLABLE = re.compile(r"[\uac00-\ud7a3]")  # a written syllable: what a Korean reader reads
HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")  # syllables and single letters (jamo)


def slug(text: str) -> str:
    """``text`` in lower-case ASCII letters and digits, runs of anything else as one dash.

    >>> slug("NVIDIA H100 80GB HBM3"), slug("cache hit / miss")
    ('nvidia-h100-80gb-hbm3', 'cache-hit-miss')
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
