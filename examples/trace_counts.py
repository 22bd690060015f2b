"""Predict, then count: which calls of a jitted function trace it again, and which compile.

The exercise of the lesson "What jit does". One jitted function,
``double``, is called with a sequence of arguments. For each call the program reports:

* ``traced``: how many times Python ran the function's body (a counter inside it; the body runs
  only while JAX traces it);
* ``compiled``: how many programs XLA compiled during the call (a ``jax.monitoring`` listener on
  JAX's compile event);
* the dtype of the result, and the warning, if any, raised while the argument was made.

    python examples/trace_counts.py
    python examples/trace_counts.py --explain   # JAX also logs why it traced again
"""

from __future__ import annotations

import argparse
import dataclasses
import warnings

import jax
import jax.numpy as jnp
import numpy as np

COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"  # JAX records one per XLA compile


@dataclasses.dataclass
class Row:
    """What one call did."""

    label: str
    traced: int
    compiled: int
    dtype: str
    warning: str = ""


class Counter:
    """Counts traces of the functions it wraps, and XLA compiles in this process, call by call.

    Use it as a context manager: it listens to JAX's compile events until the block ends.

    >>> with Counter() as counter:
    ...     add_one = counter.jit(lambda x: x + 1)
    ...     first = counter.call(add_one, jnp.ones(2))[:2]
    ...     second = counter.call(add_one, jnp.zeros(2))[:2]
    >>> first, second
    ((1, 1), (0, 0))
    """

    def __init__(self):
        self.traces = 0
        self.compiles = 0

    def _on_duration(self, event: str, duration: float, **kwargs) -> None:
        if event == COMPILE_EVENT:
            self.compiles += 1

    def __enter__(self) -> Counter:
        jax.monitoring.register_event_duration_secs_listener(self._on_duration)
        return self

    def __exit__(self, *exc) -> None:
        jax.monitoring.unregister_event_duration_listener(self._on_duration)

    def jit(self, fn, **jit_options):
        """``jax.jit(fn)``, with every trace of ``fn`` counted."""

        def counted(*args, **kwargs):
            self.traces += 1  # Python runs this line only while JAX traces the function
            return fn(*args, **kwargs)

        return jax.jit(counted, **jit_options)

    def call(self, jitted, *args, **kwargs) -> tuple[int, int, jax.Array]:
        """Call ``jitted``; return (new traces, new compiles, result).

        Make the arguments before: creating an array can compile small programs of its own.
        """
        traces, compiles = self.traces, self.compiles
        result = jax.block_until_ready(jitted(*args, **kwargs))
        return self.traces - traces, self.compiles - compiles, result


def made_with_warnings(make):
    """``make()``, and the names of the warnings it raised.

    >>> made_with_warnings(lambda: 3)
    (3, '')
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = make()
    return value, ", ".join(sorted({w.category.__name__ for w in caught}))


def run() -> list[Row]:
    """Call ``double`` with the exercise's sequence of arguments; one ``Row`` per call.

    >>> [(row.traced, row.compiled) for row in run()]
    [(1, 1), (0, 0), (1, 1), (0, 0), (1, 1), (1, 1), (0, 0), (1, 1), (0, 0), (1, 1)]
    """
    rows = []
    with Counter() as counter:
        # The exercise's jax.jit(lambda x: 2 * x), with the lambda wrapped in a def that counts traces.
        double = counter.jit(lambda x: 2 * x)

        def record(label, make, **kwargs):
            # Made before the call: the compiles of jnp.arange(10.0) + 1 and the like are not counted.
            argument, warned = made_with_warnings(make)
            if kwargs.get("keyword"):
                traced, compiled, result = counter.call(double, x=argument)
            else:
                traced, compiled, result = counter.call(double, argument)
            rows.append(Row(label, traced, compiled, str(result.dtype), warned))

        record("1  jnp.arange(10.0)", lambda: jnp.arange(10.0))
        record("2  jnp.arange(10.0) + 1", lambda: jnp.arange(10.0) + 1)
        record("3  jnp.arange(20.0)", lambda: jnp.arange(20.0))
        record("4  jnp.arange(20.0, dtype=jnp.float64)", lambda: jnp.arange(20.0, dtype=jnp.float64))
        with jax.enable_x64(True):
            record("5  same as 4, inside jax.enable_x64(True)", lambda: jnp.arange(20.0, dtype=jnp.float64))
        record("6  jnp.arange(20)", lambda: jnp.arange(20))
        record("7  np.arange(20.0)  (NumPy, float64)", lambda: np.arange(20.0))
        record("8  3.0", lambda: 3.0)
        record("9  4.0", lambda: 4.0)
        record("10 x=jnp.arange(10.0)  (by keyword)", lambda: jnp.arange(10.0), keyword=True)
    return rows


def format_table(rows: list[Row]) -> str:
    """The rows as a plain-text table, with the totals.

    >>> print(format_table([Row("1  a", 1, 1, "float32"), Row("2  b", 0, 0, "float32", "UserWarning")]))
    call     traced  compiled  result   warning
    1  a          1         1  float32
    2  b          0         0  float32  UserWarning
    total         1         1
    """
    width = max(len("call"), *(len(row.label) for row in rows))
    lines = [f"{'call':<{width}}  traced  compiled  result   warning"]
    for row in rows:
        line = f"{row.label:<{width}}  {row.traced:>6}  {row.compiled:>8}  {row.dtype:<7}  {row.warning}"
        lines.append(line.rstrip())
    lines.append(f"{'total':<{width}}  {sum(r.traced for r in rows):>6}  {sum(r.compiled for r in rows):>8}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--explain", action="store_true",
                        help="turn on jax_explain_cache_misses: JAX logs why each trace happened")
    args = parser.parse_args(argv)
    print(f"JAX {jax.__version__}, default backend {jax.default_backend()}, "
          f"x64 {'on' if jax.config.jax_enable_x64 else 'off'} outside call 5")
    before = jax.config.jax_explain_cache_misses
    jax.config.update("jax_explain_cache_misses", args.explain or before)
    try:
        rows = run()
    finally:
        jax.config.update("jax_explain_cache_misses", before)
    print(format_table(rows))
    return rows


if __name__ == "__main__":
    results = main()
