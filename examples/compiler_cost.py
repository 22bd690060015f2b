"""XLA's cost estimate of a compiled program, and whether it counted the whole program.

``compiled.cost_analysis()`` is the compiler's estimate (FLOPs, bytes accessed, transcendentals),
worked out from the optimized HLO. It cannot see into a custom call: on a GPU every matrix
product that XLA hands to cuBLAS or cuBLASLt (``custom_call_target="__cublas$gemm"``), and
every cuDNN call, is such a call, and XLA's generic cost analysis adds -1 for each of them to the
totals (jax-ml/jax#22249). The totals are then too small, or negative, with no warning. On a CPU
the same program usually has no custom call and the count is whole.

This is the site's one place that reads ``cost_analysis()`` (a test checks that no lesson or
program reads it elsewhere): ``xla_cost`` returns the figures together with the custom calls that
make them incomplete, so a page can use a count only when it is whole and choose its sentence by
the outcome.

Runs on its own: ``python examples/compiler_cost.py`` prints the estimate of a small matmul.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CUSTOM_CALL = re.compile(r"custom-call\(.*?custom_call_target=\"?([^\",\s]+)")


@dataclass(frozen=True)
class XlaCost:
    """What XLA estimated for one compiled program.

    ``flops``, ``bytes_accessed`` and ``transcendentals`` are the estimate's totals as XLA reports
    them (a missing key reads as None); ``opaque_calls`` names the custom calls in the optimized
    program, each counted by XLA as -1. ``counted`` is True only when the totals cover the whole
    program: no custom call, and every total present and not negative.
    """

    flops: float | None
    bytes_accessed: float | None
    transcendentals: float | None
    opaque_calls: tuple[str, ...]

    @property
    def counted(self) -> bool:
        totals = (self.flops, self.bytes_accessed)
        return not self.opaque_calls and all(t is not None and t >= 0 for t in totals)

    def flops_or(self, by_hand: float) -> float:
        """The compiler's FLOPs where it counted the whole program, else ``by_hand``.

        >>> XlaCost(16.0, 48.0, 0.0, ()).flops_or(99.0), XlaCost(-1.0, -1.0, 0.0, ("__cublas$gemm",)).flops_or(99.0)
        (16.0, 99.0)
        """
        return self.flops if self.counted else float(by_hand)

    def bytes_or(self, by_hand: float) -> float:
        """The compiler's bytes accessed where it counted the whole program, else ``by_hand``."""
        return self.bytes_accessed if self.counted else float(by_hand)


def opaque_calls(hlo_text: str) -> tuple[str, ...]:
    """The targets of the custom calls in an optimized HLO text, in order (one entry per call).

    >>> opaque_calls('%c = (f32[4,4]{1,0}, s8[0]{0}) custom-call(%a, %b), custom_call_target="__cublas$gemm"')
    ('__cublas$gemm',)
    >>> opaque_calls("%f = f32[4]{0} fusion(%a), kind=kLoop, calls=%fused")
    ()
    """
    return tuple(_CUSTOM_CALL.findall(hlo_text))


def as_dict(cost) -> dict:
    """``cost_analysis()``'s result as one dict (JAX 0.4 returned a list of dicts, later ones a dict).

    >>> as_dict([{"flops": 2.0}]), as_dict({"flops": 2.0}), as_dict(None)
    ({'flops': 2.0}, {'flops': 2.0}, {})
    """
    if cost is None:
        return {}
    if isinstance(cost, (list, tuple)):
        return dict(cost[0]) if cost else {}
    return dict(cost)


def xla_cost(compiled) -> XlaCost:
    """XLA's estimate for ``compiled`` (a ``jax.stages.Compiled``), with the custom calls it could not count.
    A ``jax.stages.Lowered`` gives the estimate before optimization (no library call is chosen yet).

    >>> import jax, jax.numpy as jnp
    >>> a = jnp.ones((64, 64), jnp.float32)
    >>> cost = xla_cost(jax.jit(jnp.matmul).lower(a, a).compile())
    >>> cost.flops_or(2 * 64**3) == 2 * 64**3  # counted by XLA on a CPU, by hand where a library ran it
    True
    """
    found = as_dict(compiled.cost_analysis())

    def total(key: str) -> float | None:
        return None if found.get(key) is None else float(found[key])

    return XlaCost(total("flops"), total("bytes accessed"), total("transcendentals"),
                   opaque_calls(compiled.as_text()))


def main() -> None:
    import argparse

    import jax
    import jax.numpy as jnp

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1024, help="the matmul's size (default 1024)")
    args = parser.parse_args()
    a = jnp.ones((args.n, args.n), jnp.float32)
    cost = xla_cost(jax.jit(jnp.matmul).lower(a, a).compile())
    print(f"{jax.devices()[0].device_kind}: matmul {args.n}: flops {cost.flops}, bytes {cost.bytes_accessed}, "
          f"custom calls {list(cost.opaque_calls) or 'none'}, counted: {cost.counted} (by hand: {2 * args.n**3:.4g})")


if __name__ == "__main__":
    main()
