"""Plots for the programs in ``examples/``: labels in Korean and English, drawn without missing glyphs."""

from __future__ import annotations

import importlib.util
from pathlib import Path


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
    """A figure and axes of the size every example plot uses, for files (no display needed).

    >>> fig, ax = new_figure()
    >>> fig.get_size_inches().tolist()
    [7.0, 4.5]
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    use_hangul_font()
    return plt.subplots(figsize=(7, 4.5), layout="constrained")


def save(fig, path: str) -> None:
    """Write ``fig`` to ``path`` as a PNG and free it."""
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_medians(ax, results: dict, keys, labels: dict | None = None, dashed=()) -> None:
    """Draw, for each key, the median milliseconds against size with min-max bars, on log-log axes.

    ``results`` maps a size to ``{key: Timing}``; ``labels`` renames keys in the legend; keys in
    ``dashed`` are drawn dashed (e.g. cold calls) and the time axis is labelled in both languages.

    >>> from timing import Timing
    >>> fig, ax = new_figure()
    >>> plot_medians(ax, {8: {"a": Timing([0.001, 0.003])}, 16: {"a": Timing([0.002])}}, ["a"])
    >>> [line.get_ydata().tolist() for line in ax.get_lines()[:1]]
    [[2.0, 2.0]]
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
    ax.set_ylabel("시간 (ms, 중앙값) · time (ms, median)")
    ax.grid(True, which="both", alpha=0.3)


def write_plot(draw, path: str | None, *data) -> None:
    """``draw(*data, path)`` when the user asked for a plot (``--plot FILE``), and say where it went.

    >>> write_plot(lambda *args: print("drawn", args), None, {1: 2})  # no --plot: nothing drawn
    >>> write_plot(lambda *args: None, "p.png", {1: 2})
    plot written to p.png
    """
    if path:
        draw(*data, path)
        print(f"plot written to {path}")
