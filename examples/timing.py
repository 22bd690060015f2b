"""The site's timing method, for the programs in ``examples/``.

Dispatch is asynchronous, so every run blocks on its result (``jax.block_until_ready``) before the
clock (``time.perf_counter``) is read. Warm calls are timed several times after a warm-up; a cold
call (tracing and compiling included) is timed on a freshly jitted function, which no cache holds.
Programs report the median and the spread (fastest to slowest) of the runs.
"""

from __future__ import annotations

import dataclasses
import statistics
import time

import jax


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


def device() -> str:
    """The device the programs run on, as their output and plots name it: ``kind (backend)``.

    >>> device() == f"{jax.devices()[0].device_kind} ({jax.default_backend()})"
    True
    """
    return f"{jax.devices()[0].device_kind} ({jax.default_backend()})"


def machine() -> str:
    """The first words of every program's output: the JAX version and the device.

    >>> machine().startswith(f"JAX {jax.__version__} on ")
    True
    """
    return f"JAX {jax.__version__} on {device()}"
