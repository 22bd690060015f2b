"""Temporary memory of reverse mode through a long scan, written three ways, against its trip count.

The exercise of the lesson "Branches and derivatives under jit": the loss of its section on the
memory of reverse mode through scan (a float32 carry ``h``, ``sin(w * h + x)`` applied a few times
per iteration, the sum of the last carry), differentiated with respect to ``w``, its loop written
as

* ``plain``: one scan of n iterations, its body as it is: every iteration stacks the values that the
  derivatives of its sines need;
* ``checkpoint``: the same scan with its body wrapped in ``jax.checkpoint``: every iteration stacks
  only its input carry, and the backward pass runs the body again;
* ``nested``: the n iterations split into n/k segments of k iterations (k = √n unless given): an
  inner scan runs one segment with the plain body, and an outer scan runs the segments, its body
  (the whole inner scan) wrapped in ``jax.checkpoint``. The forward pass stacks one carry per
  segment; the backward pass runs each segment again and stacks its k iterations' values only
  while it differentiates that segment.

For each trip count n it checks that the three ways give the same gradient, and reports
``memory_analysis().temp_size_in_bytes`` of ``jax.jit(jax.grad(loss))``: the bytes of temporary
buffers XLA assigns to the compiled program. It comes from compiling alone, without running, so
it does not fluctuate as a timing does.

    python examples/scan_memory.py --lengths 64 256 1024 4096
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from timing import machine  # noqa: E402

WAYS = ("plain", "checkpoint", "nested")
DEFAULT_LENGTHS = (64, 256, 1024, 4096)


def segment_length(n: int) -> int:
    """The segment length k of the nested way for n iterations: the divisor of n nearest to √n,
    the smaller one on a tie.

    >>> segment_length(1024), segment_length(64), segment_length(12), segment_length(7)
    (32, 8, 3, 1)
    """
    return min((k for k in range(1, n + 1) if n % k == 0), key=lambda k: (abs(k - math.sqrt(n)), k))


def make_loss(way: str, inner: int = 4, segment: int | None = None):
    """``loss(w, xs)``: the sum of the last carry of a scan over the rows of ``xs``, each iteration
    applying ``sin(w * h + x)`` ``inner`` times to the carry ``h``, the loop written the way ``way``
    (one of ``WAYS``) says; ``segment`` is the nested way's k (default: ``segment_length(n)``).

    >>> xs = jnp.full((16, 3), 0.01)
    >>> grads = [float(jax.grad(make_loss(way))(0.5, xs)) for way in WAYS]
    >>> np.allclose(grads, grads[0], rtol=1e-5)
    True
    """
    def loss(w, xs):
        def body(h, x):
            for _ in range(inner):
                h = jnp.sin(w * h + x)
            return h, None

        h0 = jnp.zeros(xs.shape[1:], xs.dtype)
        if way == "plain":
            return lax.scan(body, h0, xs)[0].sum()
        if way == "checkpoint":
            return lax.scan(jax.checkpoint(body), h0, xs)[0].sum()
        if way != "nested":
            raise ValueError(f"unknown way {way!r}: one of {WAYS}")
        n = xs.shape[0]
        k = segment or segment_length(n)
        if n % k:
            raise ValueError(f"a segment of {k} iterations does not divide n = {n}")

        def run_segment(h, segment_xs):             # the outer body: a whole segment, one inner scan
            return lax.scan(body, h, segment_xs)[0], None

        segments = xs.reshape(n // k, k, *xs.shape[1:])
        return lax.scan(jax.checkpoint(run_segment), h0, segments)[0].sum()
    return loss


def temp_bytes(way: str, n: int, carry: int = 256, inner: int = 4, segment: int | None = None) -> int:
    """Bytes of temporary buffers XLA assigns to ``jit(grad(loss))`` for a scan of n iterations.

    >>> temp_bytes("checkpoint", 64, carry=8) < temp_bytes("plain", 64, carry=8)
    True
    """
    xs = jnp.full((n, carry), 0.01, jnp.float32)
    compiled = jax.jit(jax.grad(make_loss(way, inner, segment))).lower(0.5, xs).compile()
    return compiled.memory_analysis().temp_size_in_bytes


def check_gradients(lengths, carry: int, inner: int, segment: int | None) -> None:
    """Stop unless the three ways give the same gradient at every trip count."""
    for n in lengths:
        xs = jnp.full((n, carry), 0.01, jnp.float32)
        grads = {way: float(jax.jit(jax.grad(make_loss(way, inner, segment)))(0.5, xs)) for way in WAYS}
        if not np.allclose(list(grads.values()), grads["plain"], rtol=1e-4):
            raise SystemExit(f"the ways disagree at n = {n}: {grads}")


def format_table(temp: dict, lengths, segment: int | None) -> str:
    """Temporary memory in KiB, one row per trip count, one column per way.

    >>> print(format_table({(w, 4): 2048 for w in WAYS}, [4], segment=None))
    trip count  segment k       plain  checkpoint      nested
             4          2         2.0         2.0         2.0
    """
    rows = [f"{'trip count':>10} {'segment k':>10}" + "".join(f"{way:>12}" for way in WAYS)]
    for n in lengths:
        rows.append(f"{n:>10,} {segment or segment_length(n):>10,}"
                    + "".join(f"{temp[way, n] / 1024:>12,.1f}" for way in WAYS))
    return "\n".join(rows)


def main(argv: list[str] | None = None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=list(DEFAULT_LENGTHS),
                        help="trip counts n (default: %(default)s)")
    parser.add_argument("--carry", type=int, default=256, help="length of the float32 carry h (default: 256)")
    parser.add_argument("--inner", type=int, default=4,
                        help="times sin(w * h + x) is applied per iteration (default: 4)")
    parser.add_argument("--segment", type=int,
                        help="the nested way's segment length k, dividing every n (default: near √n)")
    args = parser.parse_args(argv)
    lengths = sorted(set(args.lengths))
    print(f"{machine()}; carry of {args.carry} float32 ({args.carry * 4:,} bytes), "
          f"{args.inner} sines per iteration")
    check_gradients(lengths, args.carry, args.inner, args.segment)
    print("the three ways give the same gradient at every trip count")
    temp = {(way, n): temp_bytes(way, n, args.carry, args.inner, args.segment) for way in WAYS for n in lengths}
    print("\ntemporary memory of jit(grad(loss)), KiB\n" + format_table(temp, lengths, args.segment))
    return temp


if __name__ == "__main__":
    temp = main()
