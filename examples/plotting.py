"""Plots for the programs in ``examples/``: one figure per language from the same measurements,
labelled in Korean or in English (drawn without missing glyphs), sized to stay legible on a phone.

writes X.ko.png and X.en.png: the same measurements, labelled in Korean and in English.
language's page its own figure, and drawing twice repeats no measurement.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

LANGUAGES = ("ko", "en")

# Inches and dots per inch of every figure, and font sizes in points: a 6-inch figure shown 330 CSS
# px wide (a phone's column) draws a 13-point tick label about 10 CSS px tall.
FIGURE_SIZE = (6.0, 4.2)
DPI = 150
PLOT_HELP = ("also write two PNG plots of the same measurements, labelled in Korean and in English: "
             "FILE with .ko or .en before its suffix (X.png: X.ko.png, X.en.png)")
FONT_SIZES = {"font.size": 13, "axes.titlesize": 13, "axes.labelsize": 13, "xtick.labelsize": 13,
              "ytick.labelsize": 13, "legend.fontsize": 12, "legend.title_fontsize": 12}


def use_hangul_font() -> None:
    """Let matplotlib draw Hangul: NanumGothic (shipped in the koreanize-matplotlib wheel) as fallback.

    The package's own import hook uses a deprecated API, so only its font files are used here.

    >>> use_hangul_font()
    >>> import matplotlib.pyplot as plt
    >>> plt.rcParams["font.family"]
    ['DejaVu Sans', 'NanumGothic']
    """
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec is None:
        raise SystemExit("--plot needs the koreanize-matplotlib package for its Hangul font: "
                         "pip install koreanize-matplotlib")
    for ttf in sorted((Path(spec.submodule_search_locations[0]) / "fonts").glob("*.ttf")):
        font_manager.fontManager.addfont(str(ttf))
    plt.rcParams["font.family"] = ["DejaVu Sans", "NanumGothic"]


def new_figure():
    """A figure and axes of the size every example plot uses, for files (no display needed), with
    fonts large enough for a phone.

    >>> fig, ax = new_figure()
    >>> fig.get_size_inches().tolist(), ax.xaxis.get_ticklabels()[0].get_fontsize()
    ([6.0, 4.2], 13.0)
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    use_hangul_font()
    plt.rcParams.update(FONT_SIZES)
    return plt.subplots(figsize=FIGURE_SIZE, layout="constrained")


def save(fig, path: str) -> None:
    """Write ``fig`` to ``path`` as a PNG and free it."""
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def say(language: str, ko: str, en: str) -> str:
    """The words of a label in ``language``: ``ko`` in Korean, ``en`` in English.

    >>> say("ko", "시간", "time"), say("en", "시간", "time")
    ('시간', 'time')
    >>> say("fr", "시간", "time")
    Traceback (most recent call last):
    ValueError: a plot's language is one of ('ko', 'en'), not 'fr'
    """
    if language not in LANGUAGES:
        raise ValueError(f"a plot's language is one of {LANGUAGES}, not {language!r}")
    return ko if language == "ko" else en


def legend_below(fig, ax, columns: int = 2, **options) -> None:
    """The legend under the axes, in at most ``columns`` columns, so that it hides no data and leaves
    the axes the figure's whole width (a legend beside them squeezes them on a phone). Where the
    labels are too long for one row of ``columns`` (a language's words are longer), fewer columns.

    >>> fig, ax = new_figure()
    >>> for name in ("a rather long first label", "a second long label", "and a third one"):
    ...     _ = ax.plot([0, 1], label=name)
    >>> legend_below(fig, ax, columns=3)
    >>> fig.legends[0]._ncols, fits_width(fig, fig.legends[0])
    (2, True)
    """
    for ncols in range(columns, 0, -1):
        legend = fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=ncols, **options)
        if ncols == 1 or fits_width(fig, legend):
            return
        legend.remove()


def fits_width(fig, artist) -> bool:
    """Whether ``artist``, drawn, lies within the figure's width."""
    fig.canvas.draw()
    box = artist.get_window_extent()
    return bool(box.x0 >= 0 and box.x1 <= fig.bbox.width)


def plot_medians(ax, results: dict, keys, labels: dict | None = None, dashed=(), language: str = "en") -> None:
    """Draw, for each key, the median milliseconds against size with min-max bars, on log-log axes.

    ``results`` maps a size to ``{key: Timing}``; ``labels`` renames keys in the legend; keys in
    ``dashed`` are drawn dashed (e.g. cold calls) and the time axis is labelled in ``language``.

    >>> from timing import Timing
    >>> fig, ax = new_figure()
    >>> plot_medians(ax, {8: {"a": Timing([0.001, 0.003])}, 16: {"a": Timing([0.002])}}, ["a"], language="ko")
    >>> [line.get_ydata().tolist() for line in ax.get_lines()[:1]], ax.get_ylabel()
    ([[2.0, 2.0]], '시간 (ms, 중앙값)')
    """
    import numpy as np

    sizes = list(results)
    for key in keys:
        median = np.array([results[n][key].median for n in sizes]) * 1e3
        low = median - np.array([results[n][key].fastest for n in sizes]) * 1e3
        high = np.array([results[n][key].slowest for n in sizes]) * 1e3 - median
        ax.errorbar(sizes, median, yerr=[low, high], marker="o", capsize=3, label=(labels or {}).get(key, key),
                    linestyle="--" if key in dashed else "-")
    ax.set_yscale("log")
    ax.set_ylabel(say(language, "시간 (ms, 중앙값)", "time (ms, median)"))
    ax.grid(True, which="both", alpha=0.3)


def plot_paths(path: str) -> dict[str, str]:
    """Where ``--plot path`` writes each language's figure: the language before the suffix.

    >>> plot_paths("out/loop_compile.png")
    {'ko': 'out/loop_compile.ko.png', 'en': 'out/loop_compile.en.png'}
    """
    file = Path(path)
    return {language: str(file.with_name(f"{file.stem}.{language}{file.suffix or '.png'}"))
            for language in LANGUAGES}


def write_plot(draw, path: str | None, *data) -> dict[str, str]:
    """``draw(*data, file, language)`` for each language when the user asked for a plot (``--plot
    FILE``): the same data drawn twice, to ``plot_paths(FILE)``; say where they went.

    >>> write_plot(lambda *args: print("drawn", args), None, {1: 2})  # no --plot: nothing drawn
    {}
    >>> write_plot(lambda *args: print("drawn", args), "p.png", {1: 2})
    drawn ({1: 2}, 'p.ko.png', 'ko')
    drawn ({1: 2}, 'p.en.png', 'en')
    plots written to p.ko.png (Korean) and p.en.png (English)
    {'ko': 'p.ko.png', 'en': 'p.en.png'}
    """
    if not path:
        return {}
    paths = plot_paths(path)
    for language, file in paths.items():
        draw(*data, file, language)
    print(f"plots written to {paths['ko']} (Korean) and {paths['en']} (English)")
    return paths
