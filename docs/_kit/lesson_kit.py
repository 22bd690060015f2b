"""The lesson kit: what a lesson's hidden cells use to hand the page what they measured.

Every lesson's kernel has this folder and ``examples/`` on its path (the build sets ``PYTHONPATH``;
see ``learnjax_site.execution.kernel``), so a hidden cell writes ``from lesson_kit import glue, mib`` and
``from timing import compare`` with no ``sys.path`` line. The reader's notebook never holds a
hidden cell, so it needs neither this kit nor myst-nb.

* ``glue(name, value)``: a value for the page's ``{glue:text}`name``` (shown nowhere else);
* ``glue(name, outcome)`` also picks a sentence: the page's language cells hold each outcome's
  sentence in an ``:::{outcomes} name`` block and say ``{outcome}`name``` where it goes;
* ``glue_figure(stem)``: the plot a program drew as ``stem.ko.png`` and ``stem.en.png``, one per
  language, for ``{glue:figure} stem_ko`` and ``stem_en``;
* ``mib``, ``sci``: numbers written the one way the prose writes them;
* ``raises``: check that a call fails the way a page says it does;
* ``ON_ACCELERATOR``: whether the kernel's JAX runs on a GPU (sizes and sentences depend on it).

Timing and verdicts come from ``examples/timing.py`` (``compare``, ``Comparison.glue``), which the
lessons also show their readers.
"""

from __future__ import annotations

from pathlib import Path

SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def glue(name: str, value) -> None:
    """Glue ``value`` as ``name`` for the page's prose (myst-nb; the cell shows nothing).

    A NumPy scalar is glued as the Python number or bool it holds: the page shows ``True``, never
    ``np.True_``, and an ``{outcomes}`` block's ``True`` matches it.
    """
    from myst_nb import glue as myst_glue

    if type(value).__module__ == "numpy" and hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        value = value.item()
    myst_glue(name, value, display=False)


def glue_figure(stem: str, folder: str | Path = ".") -> None:
    """Glue ``stem.ko.png`` and ``stem.en.png`` as ``stem_ko`` and ``stem_en``: each language's plot.

    Both files must exist: a plot drawn in one language only stops the page here.
    """
    from IPython.display import Image

    for language in ("ko", "en"):
        path = Path(folder) / f"{stem}.{language}.png"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: the program drew no {language} plot (draw one per language)")
        glue(f"{stem}_{language}", Image(str(path)))


def mib(nbytes: float, digits: int = 1) -> str:
    """Bytes in MiB as the prose writes them: thousands separated, ``digits`` after the point.

    >>> mib(3 * 2**20), mib(1536 * 2**20 + 2**19, 2)
    ('3.0', '1,536.50')
    """
    return f"{nbytes / 2**20:,.{digits}f}"


def sci(value: float, digits: int = 2) -> str:
    """A number with ``digits`` significant figures as the prose writes it: 1.2×10⁻⁷; a power of ten as 10⁻².

    >>> sci(1.1920929e-07, 3), sci(0.0123), sci(1e-2, 1), sci(-3.5e5)
    ('1.19×10⁻⁷', '1.2×10⁻²', '10⁻²', '-3.5×10⁵')
    """
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    power = "10" + str(int(exponent)).translate(SUPERSCRIPT)
    return power if mantissa == "1" else f"{mantissa}×{power}"


def raises(call, kind: type[BaseException], fragment: str) -> str:
    """Call ``call``; check it raises ``kind`` with ``fragment`` in its message; return the message.

    >>> raises(lambda: int("x"), ValueError, "invalid literal")
    "invalid literal for int() with base 10: 'x'"
    >>> raises(lambda: 1, ValueError, "x")
    Traceback (most recent call last):
    ...
    AssertionError: expected ValueError, and nothing was raised
    """
    try:
        call()
    except kind as error:
        assert fragment in str(error), f"{fragment!r} is not in the message: {error}"
        return str(error)
    raise AssertionError(f"expected {kind.__name__}, and nothing was raised")


def _on_accelerator() -> bool:
    import jax

    return jax.default_backend() != "cpu"


def __getattr__(name: str):
    if name == "ON_ACCELERATOR":  # computed on first use: importing the kit does not start JAX
        return _on_accelerator()
    raise AttributeError(name)
