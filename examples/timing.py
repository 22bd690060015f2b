"""The site's timing method, for the lessons and the programs in ``examples/``.

Dispatch is asynchronous, so every run blocks on its result (``jax.block_until_ready``) before the
clock (``time.perf_counter``) is read. Warm calls are timed several times after a warm-up; a cold
call (tracing and compiling included) is timed on a freshly jitted function, which no cache holds.
Every figure is the median of its runs, shown with its spread (fastest to slowest).

Two or more things compared are measured together by ``compare``: after each one's warm-up, in
rounds, each round running every variant once, in an order that changes from round to round (A B,
B A, A B, … for two; a fresh shuffle, seeded, for three or more, so that no variant always follows
the same one), so that a machine that slows down or speeds up during the measurement hits them all
alike. Every sample is
kept, and the comparison is made round by round.

**The rule for "faster".** For two variants A and B, each round gives the ratio of their times,
A's over B's. The verdict rests on the median of these paired ratios and its 95% confidence interval
from order statistics (the interval of the sign test: it assumes nothing about how the times are
distributed, only that rounds are independent, which suits a noisy machine and 6 to 30 samples).
A and B **separate** when that interval lies wholly above 1 or wholly below 1; only then does a
sentence say which was faster, by the median ratio. Otherwise the sentence says they took about the
same time on this machine when that ratio is below 1.10, and that this measurement could not tell
them apart when it is larger, with both median times either way. With fewer than 6 rounds the interval always contains
1 (the sign test's smallest possible p-value, 2 × ½⁵ = 0.0625, exceeds 0.05), so ``compare`` asks
for at least 6.

Numbers are written one way everywhere (``ms``, ``ratio_text``), and the sentences that carry a
verdict are made here, in Korean and English, from the outcome (``Comparison.sentences``).
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
import time
from collections.abc import Callable

import jax

MIN_ROUNDS = 6
CONFIDENCE = 0.95
# Two variants that do not separate are "about the same" when their median per-round ratio is below
# this; above it the sentence says the measurement could not tell them apart (a 2.25× ratio that the
# rule cannot separate is not "about the same": the rounds were too scattered to say).
ABOUT_THE_SAME = 1.10
HANGUL = range(0xAC00, 0xD7A4)  # the precomposed syllables, 가 to 힣


@dataclasses.dataclass
class Timing:
    """Seconds of several runs of one call.

    >>> t = Timing([0.3, 0.1, 0.2])
    >>> t.median, t.fastest, t.slowest
    (0.2, 0.1, 0.3)
    """

    samples: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def fastest(self) -> float:
        return min(self.samples)

    @property
    def slowest(self) -> float:
        return max(self.samples)

    def __str__(self) -> str:
        """Median and spread in milliseconds, as every table of the site shows a timing.

        >>> print(Timing([0.0012, 0.00125, 0.0031]))
        1.25 ms (1.20–3.10)
        """
        return f"{ms(self.median)} ms ({ms(self.fastest)}–{ms(self.slowest)})"


def time_call(call, repeats: int = 5, warmup: int = 1) -> Timing:
    """Time ``call()`` ``repeats`` times after ``warmup`` untimed calls, blocking on each result.

    >>> t = time_call(lambda: jnp.ones(3) * 2, repeats=4)
    >>> len(t.samples), all(s > 0 for s in t.samples)
    (4, True)
    """
    for _ in range(warmup):
        jax.block_until_ready(call())
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(call())
        samples.append(time.perf_counter() - start)
    return Timing(samples)


def time_throughput(call, calls: int = 100, repeats: int = 5, warmup: int = 1) -> Timing:
    """Seconds per call when ``calls`` calls are dispatched one after another and only the last
    result is waited for: throughput, not the latency of one call plus a synchronization.

    >>> t = time_throughput(lambda: jnp.ones(3) * 2, calls=10, repeats=3)
    >>> len(t.samples), t.fastest > 0
    (3, True)
    """
    def many():
        for _ in range(calls - 1):
            call()
        return call()

    return Timing([seconds / calls for seconds in time_call(many, repeats, warmup).samples])


def time_cold_jit(fn, *args, repeats: int = 3) -> Timing:
    """Time the first call of a freshly jitted copy of ``fn``: trace, compile and run.

    Each run wraps a new function object, so nothing is found in JAX's caches.

    >>> t = time_cold_jit(lambda x: x + 1, jnp.ones(3), repeats=2)
    >>> len(t.samples)
    2
    """
    samples = []
    for _ in range(repeats):
        fresh = jax.jit(lambda *a: fn(*a))  # a new function: a cache miss every time
        start = time.perf_counter()
        jax.block_until_ready(fresh(*args))
        samples.append(time.perf_counter() - start)
    return Timing(samples)


# --- comparing, interleaved ---------------------------------------------------------------------

def compare(calls: dict[str, Callable], rounds: int = 9, warmup: int = 1) -> Comparison:
    """Time every call of ``calls`` (name → zero-argument callable) in ``rounds`` interleaved rounds.

    Each variant gets ``warmup`` untimed calls first. Round ``i`` then runs every variant once,
    blocking on each result: two variants alternate which goes first; three or more run in an order
    shuffled afresh each round (seeded, so a page measures the same way every time).

    >>> c = compare({"one": lambda: jnp.ones(3), "two": lambda: jnp.ones(3) * 2}, rounds=6)
    >>> sorted(c.samples), [len(s) for s in c.samples.values()]
    (['one', 'two'], [6, 6])
    >>> compare({"one": lambda: 1, "two": lambda: 2}, rounds=5)
    Traceback (most recent call last):
    ...
    ValueError: compare needs at least 6 rounds: with 5 no difference can separate (see timing.py)
    """
    if rounds < MIN_ROUNDS:
        raise ValueError(f"compare needs at least {MIN_ROUNDS} rounds: with {rounds} no difference "
                         "can separate (see timing.py)")
    if len(calls) < 2:
        raise ValueError("compare needs two variants or more")
    names = list(calls)
    for name in names:
        for _ in range(warmup):
            jax.block_until_ready(calls[name]())
    samples: dict[str, list[float]] = {name: [] for name in names}
    for order in round_orders(names, rounds):
        for name in order:
            start = time.perf_counter()
            jax.block_until_ready(calls[name]())
            samples[name].append(time.perf_counter() - start)
    return Comparison(samples)


def round_orders(names: list[str], rounds: int) -> list[list[str]]:
    """The order of the variants in each round: alternating for two, shuffled (seeded) for more.

    >>> round_orders(["a", "b"], 3)
    [['a', 'b'], ['b', 'a'], ['a', 'b']]
    >>> orders = round_orders(["a", "b", "c"], 30)
    >>> all(sorted(o) == ["a", "b", "c"] for o in orders), len({o.index("a") for o in orders})
    (True, 3)
    """
    if len(names) == 2:
        return [list(names) if i % 2 == 0 else list(reversed(names)) for i in range(rounds)]
    shuffle = random.Random(len(names) * 1000 + rounds).shuffle
    orders = []
    for _ in range(rounds):
        order = list(names)
        shuffle(order)
        orders.append(order)
    return orders


def sign_test_rank(n: int, confidence: float = CONFIDENCE) -> int:
    """The 1-based rank k whose order statistics (k-th smallest, k-th largest) of ``n`` paired
    samples bound the median with at least ``confidence``; 0 if no interval does.

    >>> [sign_test_rank(n) for n in (5, 6, 7, 9, 15, 30)]
    [0, 1, 1, 2, 4, 10]
    """
    tail = (1 - confidence) / 2
    k, cumulative = 0, 0.0
    while True:
        cumulative += math.comb(n, k) / 2**n  # P(fewer than k + 1 samples fall below the median)
        if cumulative > tail:
            return k
        k += 1


@dataclasses.dataclass
class Verdict:
    """How variant ``a`` compared with ``b``: ``outcome`` is "faster", "slower" or "same";
    ``factor`` (≥ 1) is how many times faster or slower, from the median of the paired ratios."""

    a: str
    b: str
    outcome: str
    factor: float
    interval: tuple[float, float]  # the confidence interval of the median ratio, time of a / time of b

    @property
    def direction(self) -> int:
        """-1 when ``a`` separated as the faster (or higher rate), 1 as the slower, 0 when they did
        not separate: for code that acts on the outcome.

        >>> Comparison({"a": [1.0] * 6, "b": [2.0] * 6}).verdict("a", "b").direction
        -1
        """
        return {"faster": -1, "slower": 1, "same": 0}[self.outcome]


# What a rate in each unit is called in Korean ("처리량" for everything else: steps, numbers per second).
RATE_NAMES_KO = {"GFLOP/s": "연산 속도", "TFLOP/s": "연산 속도", "GB/s": "달성한 대역폭"}


@dataclasses.dataclass
class Comparison:
    """Interleaved samples of two or more variants, in seconds, round by round.

    >>> c = Comparison({"a": [1.0, 1.1, 0.9, 1.0, 1.2, 1.0, 1.1], "b": [2.0, 2.1, 2.2, 1.9, 2.4, 2.0, 2.2]})
    >>> c.verdict("a", "b").outcome, ratio_text(c.verdict("a", "b").factor)
    ('faster', '2.00')
    >>> c.verdict("b", "a").outcome
    'slower'
    >>> mixed = Comparison({"a": [1, 2, 1, 2, 1, 2, 1], "b": [2, 1, 2, 1, 2, 1, 2]})
    >>> mixed.verdict("a", "b").outcome
    'same'
    """

    samples: dict[str, list[float]]

    def __post_init__(self):
        lengths = {len(s) for s in self.samples.values()}
        if len(lengths) != 1:
            raise ValueError(f"every variant needs the same number of rounds, not {sorted(lengths)}")

    @property
    def rounds(self) -> int:
        return len(next(iter(self.samples.values())))

    def timing(self, name: str) -> Timing:
        return Timing(self.samples[name])

    def ratios(self, a: str, b: str) -> list[float]:
        """Time of ``a`` over time of ``b`` in each round."""
        return [x / y for x, y in zip(self.samples[a], self.samples[b], strict=True)]

    def verdict(self, a: str, b: str, work: dict[str, float] | None = None) -> Verdict:
        """``a`` against ``b`` under the rule in this module's docstring. With ``work`` (name → the
        amount each call does: FLOPs, bytes), the rounds' ratios are of time per unit of work, so
        "faster" means a higher rate (FLOP/s, bytes/s) and ``factor`` is the ratio of the rates.

        >>> c = Comparison({"a": [2.0] * 6, "b": [1.0] * 6})
        >>> c.verdict("a", "b").outcome, c.verdict("a", "b", work={"a": 4, "b": 1}).outcome
        ('slower', 'faster')
        """
        per_unit = work or {a: 1.0, b: 1.0}
        ratios = sorted(r * per_unit[b] / per_unit[a] for r in self.ratios(a, b))
        median = statistics.median(ratios)
        k = sign_test_rank(len(ratios))
        interval = (ratios[k - 1], ratios[-k]) if k else (0.0, math.inf)
        if interval[0] > 1:
            return Verdict(a, b, "slower", median, interval)
        if interval[1] < 1:
            return Verdict(a, b, "faster", 1 / median, interval)
        return Verdict(a, b, "same", max(median, 1 / median), interval)

    def table(self) -> str:
        """One line per variant: its median and spread, in milliseconds.

        >>> print(Comparison({"jit": [0.001, 0.002, 0.003], "eager": [0.01, 0.02, 0.04]}).table())
        jit     2.00 ms (1.00–3.00)
        eager   20.0 ms (10.0–40.0)
        """
        width = max(len(name) for name in self.samples) + 2
        return "\n".join(f"{name:<{width}}{self.timing(name)}" for name in self.samples)

    def sentences(self, a: str, b: str, labels: dict[str, dict[str, str]] | str) -> dict[str, str]:
        """The sentence that says how ``a`` compared with ``b``, in Korean and English, without its
        final full stop. ``labels`` names each variant per language; a Korean label must end in a
        Hangul syllable, so that its particles can be chosen. On a page, ``labels`` is rather the
        name of the ``{labels}`` block that the page's language cells hold (``page_labels``).

        The factor is the median of the per-round ratios (what the rule judges), which can differ
        from the ratio of the two median times; the sentence says which is which. When the pair do
        not separate, a factor below ``ABOUT_THE_SAME`` reads "about the same"; a larger one, that
        the measurement could not tell them apart.

        >>> import textwrap
        >>> labels = {"a": {"ko": "jit 함수", "en": "jit"}, "b": {"ko": "NumPy 코드", "en": "NumPy"}}
        >>> c = Comparison({"a": [1.0, 1.1, 0.9, 1.0, 1.2, 1.0, 1.1], "b": [2.0, 2.1, 2.2, 1.9, 2.4, 2.0, 2.2]})
        >>> s = c.sentences("a", "b", labels)
        >>> print(textwrap.fill(s["ko"], 50)); print(textwrap.fill(s["en"], 90))
        jit 함수는 NumPy 코드보다 2.00배 빨랐습니다(라운드별 비율의 중앙값이며,
        시간의 중앙값은 1,000 ms 대 2,100 ms입니다)
        jit was 2.00× faster than NumPy (median of the per-round ratios; median times 1,000 ms and
        2,100 ms)
        >>> near = Comparison({"a": [1.0, 1.1, 1.0, 1.1, 1.0, 1.1], "b": [1.05, 1.05, 1.05, 1.05, 1.05, 1.05]})
        >>> s = near.sentences("a", "b", labels)
        >>> print(textwrap.fill(s["ko"], 50)); print(textwrap.fill(s["en"], 90))
        이 기계에서 jit 함수와 NumPy 코드는 걸린 시간이 거의 같았습니다(시간의
        중앙값은 1,050 ms 대 1,050 ms, 라운드별 비율의 중앙값은 1.00배입니다)
        jit and NumPy took about the same time on this machine (median times 1,050 ms and 1,050 ms;
        median per-round ratio 1.00)
        >>> spread = Comparison({"a": [1, 1, 1, 4, 4, 4, 1], "b": [2] * 7})
        >>> s = spread.sentences("a", "b", labels)
        >>> print(textwrap.fill(s["ko"], 50)); print(textwrap.fill(s["en"], 90))
        이 측정으로는 jit 함수와 NumPy 코드 가운데 어느 쪽이 빠른지 가릴 수
        없었습니다(시간의 중앙값은 1,000 ms 대 2,000 ms, 라운드별 비율의 중앙값은
        2.00배입니다)
        this measurement could not tell jit and NumPy apart (median times 1,000 ms and 2,000 ms;
        median per-round ratio 2.00)
        """
        labels = page_labels(labels, (a, b))
        verdict = self.verdict(a, b)
        figures = (f"{ms(self.timing(a).median)} ms", f"{ms(self.timing(b).median)} ms")
        ko_a, ko_b = (korean_label(labels[name]["ko"]) for name in (a, b))
        en_a, en_b = labels[a]["en"], labels[b]["en"]
        factor = ratio_text(verdict.factor)
        if verdict.outcome == "same":
            pair_ko = f"{ko_a}{particle(ko_a, '와', '과')} {ko_b}"
            return _undecided(verdict, f"시간의 중앙값은 {figures[0]} 대 {figures[1]}",
                              f"median times {figures[0]} and {figures[1]}",
                              {"ko": f"이 기계에서 {pair_ko}{particle(ko_b, '는', '은')} 걸린 시간이 거의 같았습니다",
                               "en": f"{en_a} and {en_b} took about the same time on this machine"},
                              {"ko": f"이 측정으로는 {pair_ko} 가운데 어느 쪽이 빠른지 가릴 수 없었습니다",
                               "en": f"this measurement could not tell {en_a} and {en_b} apart"})
        ko_word, en_word = {"faster": ("빨랐습니다", "faster"), "slower": ("느렸습니다", "slower")}[verdict.outcome]
        return {"ko": f"{ko_a}{particle(ko_a, '는', '은')} {ko_b}보다 {factor}배 {ko_word}"
                      f"(라운드별 비율의 중앙값이며, 시간의 중앙값은 {figures[0]} 대 {figures[1]}입니다)",
                "en": f"{en_a} was {factor}× {en_word} than {en_b} "
                      f"(median of the per-round ratios; median times {figures[0]} and {figures[1]})"}

    def rate_sentences(self, a: str, b: str, work: dict[str, float], unit: str | dict[str, str],
                       labels: dict[str, dict[str, str]] | str) -> dict[str, str]:
        """Like ``sentences``, for the rates ``work / time`` of ``a`` and ``b`` (in ``unit``, e.g.
        "GFLOP/s", with ``work`` in that unit's amount; a dict gives the unit per language, e.g.
        ``{"ko": "백만 개/초", "en": "M numbers/s"}``): whose rate was higher, by the rule.

        >>> import textwrap
        >>> labels = {"mm": {"ko": "행렬 곱", "en": "the matmul"}, "ew": {"ko": "원소별 연산", "en": "the chain"}}
        >>> c = Comparison({"mm": [1.0] * 6, "ew": [1.0] * 6})
        >>> s = c.rate_sentences("mm", "ew", {"mm": 70.0, "ew": 10.0}, "GFLOP/s", labels)
        >>> print(textwrap.fill(s["ko"], 50)); print(textwrap.fill(s["en"], 90))
        연산 속도(GFLOP/s)는 행렬 곱이 원소별 연산의 7.00배였습니다(라운드별 비율의
        중앙값이며, 연산 속도의 중앙값은 70.0 대 10.0입니다)
        the matmul reached 7.00× the GFLOP/s of the chain (median of the per-round ratios; medians
        70.0 and 10.0 GFLOP/s)
        >>> s = c.rate_sentences("ew", "mm", {"mm": 70.0, "ew": 10.0}, {"ko": "스텝/초", "en": "steps/s"}, labels)
        >>> print(textwrap.fill(s["ko"], 50)); print(textwrap.fill(s["en"], 90))
        처리량(스텝/초)은 원소별 연산이 행렬 곱의 7.00분의 1이었습니다(라운드별 비율의
        중앙값이며, 처리량의 중앙값은 10.0 대 70.0입니다)
        the chain reached 1/7.00 of the steps/s of the matmul (median of the per-round ratios;
        medians 10.0 and 70.0 steps/s)
        >>> s = c.rate_sentences("ew", "mm", {"mm": 10.0, "ew": 10.0}, "GB/s", labels)
        >>> print(textwrap.fill(s["ko"], 50)); print(textwrap.fill(s["en"], 90))
        이 기계에서 원소별 연산과 행렬 곱의 달성한 대역폭(GB/s)은 거의 같았습니다(달성한
        대역폭의 중앙값은 10.0 대 10.0, 라운드별 비율의 중앙값은 1.00배입니다)
        the chain and the matmul reached about the same GB/s on this machine (medians 10.0 and 10.0
        GB/s; median per-round ratio 1.00)
        """
        labels = page_labels(labels, (a, b))
        units = unit if isinstance(unit, dict) else {"ko": unit, "en": unit}
        rate_name = RATE_NAMES_KO.get(units["ko"], "처리량")
        verdict = self.verdict(a, b, work)
        figures = tuple(ratio_text(work[name] / self.timing(name).median) for name in (a, b))
        ko_a, ko_b = (korean_label(labels[name]["ko"]) for name in (a, b))
        en_a, en_b = labels[a]["en"], labels[b]["en"]
        factor = ratio_text(verdict.factor)
        rate_ko, rate_en = f"{rate_name}({units['ko']})", units["en"]
        medians_ko = f"{rate_name}의 중앙값은 {figures[0]} 대 {figures[1]}"
        medians_en = f"medians {figures[0]} and {figures[1]} {rate_en}"
        if verdict.outcome == "same":
            return _undecided(verdict, medians_ko, medians_en,
                              {"ko": f"이 기계에서 {ko_a}{particle(ko_a, '와', '과')} {ko_b}의 {rate_ko}"
                                     f"{particle(rate_name, '는', '은')} 거의 같았습니다",
                               "en": f"{en_a} and {en_b} reached about the same {rate_en} on this machine"},
                              {"ko": f"이 측정으로는 {ko_a}{particle(ko_a, '와', '과')} {ko_b} 가운데 어느 쪽의 "
                                     f"{rate_ko}{particle(rate_name, '가', '이')} 높은지 가릴 수 없었습니다",
                               "en": f"this measurement could not tell {en_a} and {en_b} apart in {rate_en}"})
        note_ko = f"(라운드별 비율의 중앙값이며, {medians_ko}입니다)"
        note_en = f"(median of the per-round ratios; {medians_en})"
        measured_ko = f"{rate_ko}{particle(rate_name, '는', '은')} {ko_a}{particle(ko_a, '가', '이')} {ko_b}의"
        if verdict.outcome == "faster":
            return {"ko": f"{measured_ko} {factor}배였습니다{note_ko}",
                    "en": f"{en_a} reached {factor}× the {rate_en} of {en_b} {note_en}"}
        return {"ko": f"{measured_ko} {factor}분의 1이었습니다{note_ko}",
                "en": f"{en_a} reached 1/{factor} of the {rate_en} of {en_b} {note_en}"}

    def glue_rates(self, name: str, a: str, b: str, work: dict[str, float], unit: str | dict[str, str],
                   labels: dict[str, dict[str, str]] | str) -> Verdict:
        """Glue ``rate_sentences`` for a page (``name_ko``, ``name_en``); return the verdict."""
        from myst_nb import glue

        for language, sentence in self.rate_sentences(a, b, work, unit, labels).items():
            glue(f"{name}_{language}", sentence, display=False)
        return self.verdict(a, b, work)

    def glue(self, name: str, a: str, b: str, labels: dict[str, dict[str, str]] | str) -> Verdict:
        """Glue the sentences (``name_ko``, ``name_en``) for a page, with myst-nb; return the verdict."""
        from myst_nb import glue

        for language, sentence in self.sentences(a, b, labels).items():
            glue(f"{name}_{language}", sentence, display=False)
        return self.verdict(a, b)


def sentence_of(outcome, texts: dict) -> dict[str, str]:
    """The sentence, per language, that ``outcome`` picks from ``texts`` (outcome → {"ko", "en"}):
    for a sentence whose truth depends on what the build measured, written once per outcome.

    >>> texts = {True: {"ko": "복사했습니다", "en": "it copied"}, False: {"ko": "복사하지 않았습니다", "en": "no copy"}}
    >>> sentence_of(False, texts)["en"]
    'no copy'
    >>> sentence_of(None, texts)
    Traceback (most recent call last):
    ...
    ValueError: no sentence for the outcome None (there are sentences for True, False)
    >>> sentence_of(True, {True: {"ko": "복사했습니다"}, False: {"ko": "아님", "en": "no"}})
    Traceback (most recent call last):
    ...
    ValueError: the sentences for True lack en
    """
    for key, sentences in texts.items():
        missing = [language for language in ("ko", "en") if not sentences.get(language)]
        if missing:
            raise ValueError(f"the sentences for {key!r} lack {', '.join(missing)}")
    if outcome not in texts:
        raise ValueError(f"no sentence for the outcome {outcome!r} (there are sentences for "
                         f"{', '.join(map(repr, texts))})")
    return {language: texts[outcome][language] for language in ("ko", "en")}


def glue_sentence(name: str, outcome, texts: dict) -> None:
    """Glue ``sentence_of(outcome, texts)`` for a page as ``name_ko`` and ``name_en``, with myst-nb."""
    from myst_nb import glue

    for language, sentence in sentence_of(outcome, texts).items():
        glue(f"{name}_{language}", sentence, display=False)


def _undecided(verdict: Verdict, figures_ko: str, figures_en: str, same: dict[str, str],
               untold: dict[str, str]) -> dict[str, str]:
    """The sentence for two variants that did not separate: ``same`` when the median per-round
    ratio is below ``ABOUT_THE_SAME``, else ``untold`` (that this measurement could not tell them
    apart), each followed by the medians (``figures_ko``, ``figures_en``) and the median ratio."""
    factor = ratio_text(verdict.factor)
    notes = {"ko": f"({figures_ko}, 라운드별 비율의 중앙값은 {factor}배입니다)",
             "en": f" ({figures_en}; median per-round ratio {factor})"}
    chosen = same if verdict.factor < ABOUT_THE_SAME else untold
    return {language: chosen[language] + notes[language] for language in ("ko", "en")}


# --- one way of writing numbers, and Korean particles -------------------------------------------

def ms(seconds: float) -> str:
    """Seconds as milliseconds with three significant figures (whole numbers from 100 on, with
    thousands separators): the site's one format for a duration.

    >>> [ms(s) for s in (1.2345, 0.12345, 0.012345, 0.0012345, 0.00012345, 0.0000012345)]
    ['1,234', '123', '12.3', '1.23', '0.123', '0.00123']
    """
    value = seconds * 1e3
    return f"{value:,.0f}" if value >= 100 else f"{value:.{max(2 - math.floor(math.log10(value)), 0)}f}"


def ratio_text(ratio: float) -> str:
    """A ratio with three significant figures (whole numbers from 100 on, with thousands
    separators): the site's one format for "N× faster".

    >>> [ratio_text(r) for r in (1.0049, 1.5, 21.37, 153.2, 1160.8)]
    ['1.00', '1.50', '21.4', '153', '1,161']
    """
    return f"{ratio:,.0f}" if ratio >= 100 else f"{ratio:.{max(2 - math.floor(math.log10(ratio)), 0)}f}"


def page_labels(labels: dict[str, dict[str, str]] | str, names) -> dict[str, dict[str, str]]:
    """The labels of the variants ``names``: ``labels`` itself, or, when it is the name of a set of
    labels the page writes in its language cells (a ``{labels}`` block), a token per variant,
    ``⟦set:variant⟧``, which the site replaces with that block's label in the page's language.

    >>> page_labels("ways", ["jit"])
    {'jit': {'ko': '⟦ways:jit⟧', 'en': '⟦ways:jit⟧'}}
    """
    if isinstance(labels, str):
        return {name: {language: f"⟦{labels}:{name}⟧" for language in ("ko", "en")} for name in names}
    return labels


def korean_label(label: str) -> str:
    """``label`` if it ends in a Hangul syllable, whose final consonant picks the particle (or if it is a
    page's label token, whose particle the site picks).

    >>> korean_label("NumPy")
    Traceback (most recent call last):
    ...
    ValueError: the Korean label 'NumPy' must end in a Hangul word, e.g. 'NumPy 코드', for its particles
    """
    if label.endswith("⟧"):
        return label
    if not label or ord(label[-1]) not in HANGUL:
        raise ValueError(f"the Korean label {label!r} must end in a Hangul word, e.g. {label + ' 코드'!r}, "
                         "for its particles")
    return label


def particle(word: str, after_vowel: str, after_consonant: str) -> str:
    """The particle that follows ``word`` (ending in a Hangul syllable): ``after_consonant`` if
    that syllable has a final consonant.

    >>> particle("함수", "는", "은"), particle("코드", "와", "과"), particle("호출", "는", "은")
    ('는', '와', '은')
    >>> particle("⟦ways:jit⟧", "는", "은")   # the site picks it, with the page's label
    '⟦|는/은⟧'
    """
    if word.endswith("⟧"):
        return f"⟦|{after_vowel}/{after_consonant}⟧"
    return after_consonant if (ord(korean_label(word)[-1]) - HANGUL.start) % 28 else after_vowel


def device() -> str:
    """The device the programs run on, as their output and plots name it: its kind, then the
    backend in capitals unless the kind says it ("CPU", "NVIDIA H100 80GB HBM3 GPU").

    >>> kind, backend = jax.devices()[0].device_kind, jax.default_backend().upper()
    >>> device() == (backend if kind.upper() == backend else f"{kind} {backend}")
    True
    """
    kind, backend = jax.devices()[0].device_kind, jax.default_backend().upper()
    if kind.upper() == backend:
        return backend
    return kind if backend in kind.upper().split() else f"{kind} {backend}"


def machine() -> str:
    """The first words of every program's output: the JAX version and the device.

    >>> machine().startswith(f"JAX {jax.__version__} on ")
    True
    """
    return f"JAX {jax.__version__} on {device()}"
