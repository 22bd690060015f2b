"""Pairwise distances between two sets of points, written four ways: time and compiled memory by size.

The exercise of the lesson "vmap in depth": the Euclidean distance between every row of ``x``
(n × d) and every row of ``y`` (n × d), an n × n matrix, computed as

* ``python loop``: a jitted ``dist`` of two vectors, called n² times from a Python double loop;
* ``vmap``: a hand-batched row, ``a`` against all of ``y``, mapped over the rows of ``x`` by ``jax.vmap``;
* ``vmap(vmap)``: ``dist`` of two vectors, mapped twice: ``vmap(vmap(dist, (None, 0)), (0, None))``;
* ``broadcasting``: by hand, ``x[:, None, :] - y[None, :, :]`` summed over the last axis.

Before any timing it checks that the four agree with NumPy, and it reads, for each jitted way at
each n, what XLA made of it: the compiled program's memory (``memory_analysis()``: arguments,
output, temporaries, or a note that the backend reports nothing) and whether the n × n × d array of
differences is a buffer of the program or stays inside a fusion (found in the compiled HLO text).
Then one ``timing.compare`` measures every way at every n interleaved, round by round, warm calls
only; the Python loop only at the sizes up to ``--loop-max`` (n² dispatches each call). Tables give
the median with the spread (fastest to slowest); ``verdicts`` says, under ``timing.py``'s rule,
how the ways compared at the largest n.

    python examples/pairwise_distances.py --sizes 16 32 256 1024 --plot pairwise_distances.png

writes pairwise_distances.ko.png and pairwise_distances.en.png: the same measurements, labelled in
Korean and in English.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from plotting import PLOT_HELP, legend_below, new_figure, plot_medians, save, say, write_plot  # noqa: E402
from timing import Comparison, Timing, compare, device, machine  # noqa: E402

WAYS = ("python loop", "vmap", "vmap(vmap)", "broadcasting")
JITTED = WAYS[1:]
DEFAULT_SIZES = (16, 32, 256, 1024)
DEFAULT_LOOP_MAX = 32


def dist(a, b):
    """The Euclidean distance between two vectors.

    >>> float(dist(jnp.array([0.0, 0.0]), jnp.array([3.0, 4.0])))
    5.0
    """
    return jnp.sqrt(jnp.sum((a - b) ** 2))


def row_distances(a, y):
    """The distances from one vector ``a`` to every row of ``y``: batched by hand, by broadcasting.

    >>> row_distances(jnp.zeros(2), jnp.array([[3.0, 4.0], [0.0, 1.0]])).tolist()
    [5.0, 1.0]
    """
    return jnp.sqrt(jnp.sum((a - y) ** 2, axis=1))


def broadcast_distances(x, y):
    """All pairwise distances by hand: the n × m × d differences, squared and summed over d.

    >>> broadcast_distances(jnp.zeros((1, 2)), jnp.array([[3.0, 4.0], [0.0, 1.0]])).tolist()
    [[5.0, 1.0]]
    """
    return jnp.sqrt(jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1))


_dist_jit = jax.jit(dist)


def loop_distances(x, y):
    """All pairwise distances from a Python double loop: one call of a jitted ``dist`` per pair.

    >>> loop_distances(jnp.zeros((1, 2)), jnp.array([[3.0, 4.0], [0.0, 1.0]])).tolist()
    [[5.0, 1.0]]
    """
    xs, ys = list(x), list(y)  # the rows, sliced once
    return jnp.array([[_dist_jit(a, b) for b in ys] for a in xs])


# The three vectorized ways, unjitted: a jaxpr of each shows what vmap wrote.
VECTORIZED = {
    "vmap": jax.vmap(row_distances, in_axes=(0, None)),
    "vmap(vmap)": jax.vmap(jax.vmap(dist, in_axes=(None, 0)), in_axes=(0, None)),
    "broadcasting": broadcast_distances,
}


def make(way: str):
    """The function that computes all pairwise distances of ``x`` and ``y`` the way ``way`` says;
    jitted, except the Python loop (whose ``dist`` is).

    >>> x, y = jnp.arange(6.0).reshape(3, 2), jnp.ones((4, 2))
    >>> outs = [make(way)(x, y) for way in WAYS]
    >>> [out.shape for out in outs][0], all(np.allclose(outs[0], out) for out in outs)
    ((3, 4), True)
    """
    if way == "python loop":
        return loop_distances
    if way in VECTORIZED:
        return jax.jit(VECTORIZED[way])
    raise ValueError(f"way must be one of {WAYS}, not {way!r}")


def points(n: int, d: int, seed: int = 0):
    """Two sets of n random points in d dimensions, float32.

    >>> x, y = points(5, 3)
    >>> x.shape, y.dtype
    ((5, 3), dtype('float32'))
    """
    kx, ky = jax.random.split(jax.random.key(seed))
    return jax.random.normal(kx, (n, d)), jax.random.normal(ky, (n, d))


def jaxpr_signature(jaxpr) -> list:
    """What a jaxpr computes, equation by equation: each primitive's name, its outputs' types and
    its parameters (not the variables' names, nor the order of an equation's operands).

    >>> a, b = points(4, 3)
    >>> sig = [jaxpr_signature(jax.make_jaxpr(VECTORIZED[way])(a, b)) for way in JITTED]
    >>> [name for name, _, _ in sig[0]]
    ['broadcast_in_dim', 'broadcast_in_dim', 'sub', 'integer_pow', 'reduce_sum', 'sqrt']
    >>> sig[0] == sig[1] == sig[2]
    True
    """
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    return [(eqn.primitive.name, [v.aval for v in eqn.outvars], eqn.params) for eqn in jaxpr.eqns]


# --- what XLA made of it: the compiled HLO text and memory_analysis() ---------------------------

_INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%\S+\s*=\s*(\S+?)(?:\{[^}]*\})?\s+([\w-]+)\(")
_COMPUTATION = re.compile(r"^(?:ENTRY\s+)?%(\S+)\s.*\{\s*$")


def hlo_computations(hlo: str) -> dict[str, list[str]]:
    """The lines of each computation of an HLO module's text, by name.

    >>> text = "%f (p: f32[2]) -> f32[2] {\\n  ROOT %n = f32[2]{0} negate(%p)\\n}\\n\\nENTRY %main {\\n  x\\n}"
    >>> {name: len(lines) for name, lines in hlo_computations(text).items()}
    {'f': 1, 'main': 1}
    """
    computations, name = {}, None
    for line in hlo.splitlines():
        match = _COMPUTATION.match(line)
        if match:
            name = match.group(1)
            computations[name] = []
        elif line.strip() == "}":
            name = None
        elif name is not None:
            computations[name].append(line)
    return computations


def buffer_shapes(hlo: str) -> Counter:
    """The (shape, opcode) of every instruction outside fused computations: the arrays the compiled
    program can hold in memory. What a fusion computes inside itself is never a buffer.

    >>> text = ("%fused (p: f32[4,4,2]) -> f32[4,4] {\\n  %s = f32[4,4,2]{2,1,0} multiply(%p, %p)\\n"
    ...         "  ROOT %r = f32[4,4]{1,0} reduce(%s, %c)\\n}\\n\\nENTRY %main (a: f32[4,2]) -> f32[4,4] {\\n"
    ...         "  %a = f32[4,2]{1,0} parameter(0)\\n"
    ...         "  ROOT %f = f32[4,4]{1,0} fusion(%a), kind=kLoop, calls=%fused\\n}")
    >>> sorted(buffer_shapes(text))
    [('f32[4,2]', 'parameter'), ('f32[4,4]', 'fusion')]
    """
    computations = hlo_computations(hlo)
    fused = set(re.findall(r"\bfusion\(.*?calls=%([\w.-]+)", hlo))
    shapes = Counter()
    for name, lines in computations.items():
        if name in fused:
            continue
        for line in lines:
            match = _INSTRUCTION.match(line)
            if match:
                shapes[match.group(1), match.group(2)] += 1
    return shapes


def materializes(hlo: str, shape: tuple[int, ...], dtype: str = "f32") -> bool:
    """Whether an array of ``shape`` is a buffer of the compiled program (outside every fusion).

    >>> x, y = points(8, 3)
    >>> hlo = jax.jit(broadcast_distances).lower(x, y).compile().as_text()
    >>> materializes(hlo, (8, 8)), materializes(hlo, (8, 1, 3))  # the output is; these differences are not
    (True, False)
    """
    wanted = f"{dtype}[{','.join(map(str, shape))}]"
    return any(found == wanted for found, _ in buffer_shapes(hlo))


def hlo_ops(hlo: str) -> Counter:
    """Every instruction of the module, fused ones included, as (shape, opcode): a fingerprint of the
    compiled program that ignores names and metadata.

    >>> x, y = points(8, 3)
    >>> texts = [jax.jit(make(way)).lower(x, y).compile().as_text() for way in JITTED]
    >>> hlo_ops(texts[0]) == hlo_ops(texts[1]) == hlo_ops(texts[2])
    True
    """
    ops = Counter()
    for lines in hlo_computations(hlo).values():
        for line in lines:
            match = _INSTRUCTION.match(line)
            if match:
                ops[match.group(1), match.group(2)] += 1
    return ops


MEMORY_FIELDS = ("argument_size_in_bytes", "output_size_in_bytes", "temp_size_in_bytes")


def compiled_report(way: str, n: int, d: int) -> dict:
    """What XLA made of ``way`` at size n: ``memory`` (``MEMORY_FIELDS`` → bytes, or None when the
    backend reports nothing), ``diffs_buffer`` (whether the n × n × d differences are a buffer of
    the program), ``ops`` (``hlo_ops``) and ``hlo`` (the text).

    >>> r = compiled_report("broadcasting", 16, 4)
    >>> r["diffs_buffer"], r["memory"] is None or r["memory"]["output_size_in_bytes"] == 16 * 16 * 4
    (False, True)
    """
    x, y = points(n, d)
    compiled = jax.jit(make(way)).lower(x, y).compile()
    stats = compiled.memory_analysis()
    memory = None if stats is None else {field: getattr(stats, field) for field in MEMORY_FIELDS}
    hlo = compiled.as_text()
    return {"memory": memory, "diffs_buffer": materializes(hlo, (n, n, d)), "ops": hlo_ops(hlo), "hlo": hlo}


def reports(sizes, d: int) -> dict[int, dict[str, dict]]:
    """``{n: {way: compiled_report}}`` for every jitted way at every n."""
    return {n: {way: compiled_report(way, n, d) for way in JITTED} for n in sizes}


def kib(size: int) -> str:
    """Bytes as KiB, one decimal, thousands separated.

    >>> kib(0), kib(1536), kib(4 * 2**20)
    ('0.0 KiB', '1.5 KiB', '4,096.0 KiB')
    """
    return f"{size / 2**10:,.1f} KiB"


def memory_table(compiled: dict[int, dict[str, dict]], d: int) -> str:
    """One row per n and jitted way: the compiled program's memory and whether the n × n × d
    differences are a buffer of it.

    >>> print(memory_table({4: {"vmap": {"memory": None, "diffs_buffer": False}}}, 2))  # doctest: +NORMALIZE_WHITESPACE
          n  way            arguments     output    temporaries   n×n×d buffer   (n×n×d = 0.1 KiB)
          4  vmap           (the backend reports nothing)         no
    """
    lines = []
    for n, ways in compiled.items():
        lines.append(f"{'n':>7}  {'way':<13}{'arguments':>12}{'output':>12}{'temporaries':>14}"
                     f"   n×n×d buffer   (n×n×d = {kib(n * n * d * 4)})")
        for way, report in ways.items():
            memory = report["memory"]
            widths = zip(MEMORY_FIELDS, (12, 12, 14), strict=True)
            cells = ("(the backend reports nothing)" if memory is None else
                     "".join(f"{kib(memory[field]):>{w}}" for field, w in widths))
            lines.append(f"{n:>7}  {way:<13}{cells}   {'yes' if report['diffs_buffer'] else 'no':>12}")
    return "\n".join(lines)


# --- timing ---------------------------------------------------------------------------------------

def variant(way: str, n: int) -> str:
    """The name of one way at one size in a measurement.

    >>> variant("vmap", 256)
    'vmap n=256'
    """
    return f"{way} n={n}"


def ways_at(n: int, loop_max: int) -> tuple[str, ...]:
    """The ways measured at size n: the Python loop only up to ``loop_max``.

    >>> ways_at(16, 32), ways_at(64, 32)
    (('python loop', 'vmap', 'vmap(vmap)', 'broadcasting'), ('vmap', 'vmap(vmap)', 'broadcasting'))
    """
    return WAYS if n <= loop_max else JITTED


def check(sizes, d: int, loop_max: int) -> None:
    """Check that every way agrees with NumPy (float64) at every size it is measured at.

    >>> check([3, 5], 2, loop_max=5)
    """
    for n in sizes:
        x, y = points(n, d)
        want = np.sqrt(((np.asarray(x, np.float64)[:, None] - np.asarray(y, np.float64)[None]) ** 2).sum(-1))
        for way in ways_at(n, loop_max):
            got = make(way)(x, y)
            assert np.allclose(got, want, rtol=1e-4, atol=1e-4), f"{way} disagrees with NumPy at n = {n}"


def measure(sizes, d: int, loop_max: int, rounds: int = 9) -> Comparison:
    """One ``Comparison`` of every way at every size it is measured at (``variant(way, n)``),
    interleaved, warm calls, ``rounds`` rounds.

    >>> m = measure([4, 8], 2, loop_max=4, rounds=6)
    >>> sorted(m.samples)[:2], len(m.samples)
    (['broadcasting n=4', 'broadcasting n=8'], 7)
    """
    calls, functions = {}, {way: make(way) for way in WAYS}
    for n in sizes:
        x, y = points(n, d)
        for way in ways_at(n, loop_max):
            calls[variant(way, n)] = lambda f=functions[way], x=x, y=y: f(x, y)
    return compare(calls, rounds=rounds)


def by_size(comparison: Comparison, sizes, loop_max: int) -> dict[int, dict[str, Timing]]:
    """``{n: {way: Timing}}`` from a measurement of every way at every n.

    >>> c = Comparison({variant(way, 4): [0.001, 0.002] for way in WAYS})
    >>> by_size(c, [4], 4)[4]["vmap"].median
    0.0015
    """
    return {n: {way: comparison.timing(variant(way, n)) for way in ways_at(n, loop_max)} for n in sizes}


def time_table(results: dict[int, dict[str, Timing]]) -> str:
    """A plain-text table: one row per n, one column per way, median ms (fastest–slowest).

    >>> print(time_table({4: {"vmap": Timing([0.001, 0.003])}}))  # doctest: +NORMALIZE_WHITESPACE
          n               python loop                      vmap                vmap(vmap)              broadcasting
          4                         —       2.00 ms (1.00–3.00)                         —                         —
    """
    width = 26
    lines = [f"{'n':>7}" + "".join(f"{way:>{width}}" for way in WAYS)]
    for n, cells in results.items():
        lines.append(f"{n:>7}" + "".join(f"{str(cells[way]) if way in cells else '—':>{width}}" for way in WAYS))
    return "\n".join(lines)


def labels(n: int) -> dict[str, dict[str, str]]:
    """Each way's name at size n, for ``Comparison.sentences``, in Korean and English.

    >>> labels(8)["vmap(vmap) n=8"]
    {'ko': 'vmap(vmap) 쪽', 'en': 'vmap(vmap)'}
    """
    korean = {"python loop": "Python 반복문", "vmap": "vmap 쪽", "vmap(vmap)": "vmap(vmap) 쪽",
              "broadcasting": "브로드캐스팅 쪽"}
    english = {"python loop": "the Python loop", "vmap": "vmap", "vmap(vmap)": "vmap(vmap)",
               "broadcasting": "broadcasting"}
    return {variant(way, n): {"ko": korean[way], "en": english[way]} for way in WAYS}


def verdicts(measured: Comparison, sizes, loop_max: int) -> list[str]:
    """Lines that say, under ``timing.py``'s rule, how the ways compared: the three jitted ways at
    the largest n, and the Python loop against ``vmap(vmap)`` at the largest n it ran at.

    >>> t = [1e-3, 1.1e-3, 0.9e-3, 1e-3, 1.2e-3, 1e-3]
    >>> c = Comparison({variant(w, n): [s * (50 if w == "python loop" else 1) for s in t]
    ...                 for n in (4, 8) for w in ways_at(n, 4)})
    >>> for line in verdicts(c, [4, 8], 4):
    ...     print(line.split(" (")[0])
    n = 8: vmap(vmap) and broadcasting took about the same time on this machine
    n = 8: vmap and broadcasting took about the same time on this machine
    n = 4: the Python loop was 50.0× slower than vmap(vmap)
    """
    largest = max(sizes)
    pairs = [(largest, "vmap(vmap)", "broadcasting"), (largest, "vmap", "broadcasting")]
    looped = [n for n in sizes if n <= loop_max]
    if looped:
        pairs.append((max(looped), "python loop", "vmap(vmap)"))
    return [f"n = {n}: " + measured.sentences(variant(a, n), variant(b, n), labels(n))["en"] for n, a, b in pairs]


def plot(results: dict[int, dict[str, Timing]], path: str, language: str = "en") -> None:
    """Write a log-log plot of the median time against n, one line per way (the Python loop only
    where it ran), labelled in ``language``."""
    fig, ax = new_figure()
    names = {"python loop": say(language, "Python 반복문", "Python loop"),
             "broadcasting": say(language, "브로드캐스팅", "broadcasting")}
    for way in WAYS:
        rows = {n: cells for n, cells in results.items() if way in cells}
        plot_medians(ax, rows, [way], labels={way: names.get(way, way)}, language=language)
    ax.set_xscale("log")
    ax.set_xlabel(say(language, "점의 수 n (n × n 거리)", "points n (n × n distances)"))
    ax.set_title(say(language, "모든 쌍의 거리, 웜 호출", "all pairwise distances, warm calls")
                 + f"\n{device()}")
    legend_below(fig, ax)
    save(fig, path)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES),
                        help="numbers of points n to measure (default: %(default)s)")
    parser.add_argument("--dim", type=int, default=64, help="dimension d of each point (default: 64)")
    parser.add_argument("--loop-max", type=int, default=DEFAULT_LOOP_MAX,
                        help="largest n for the Python loop, which makes n² calls (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=9,
                        help="interleaved rounds of the measurement, 6 or more (default: 9)")
    parser.add_argument("--plot", metavar="FILE", help=PLOT_HELP)
    args = parser.parse_args(argv)
    sizes = sorted(set(args.sizes))
    print(f"{machine()}; n points against n points in d = {args.dim} (float32); every way at every n "
          f"measured interleaved, {args.rounds} rounds; the Python loop up to n = {args.loop_max}")
    check(sizes, args.dim, args.loop_max)
    print("all four ways agree with NumPy")
    compiled = reports(sizes, args.dim)
    print("\ncompiled memory (memory_analysis) and whether the n×n×d differences are a buffer (HLO)\n"
          + memory_table(compiled, args.dim))
    for n, ways in compiled.items():
        same = all(report["ops"] == ways["broadcasting"]["ops"] for report in ways.values())
        print(f"n = {n}: the three jitted ways compile to {'the same' if same else 'different'} HLO instructions")
    measured = measure(sizes, args.dim, args.loop_max, args.rounds)
    results = by_size(measured, sizes, args.loop_max)
    print("\nwarm calls, median (fastest–slowest)\n" + time_table(results))
    print("\n" + "\n".join(verdicts(measured, sizes, args.loop_max)))
    write_plot(plot, args.plot, results)
    return measured, compiled


if __name__ == "__main__":
    measured, compiled = main()
