"""The environment's switches, read one way everywhere: the build, its commands and nox.

A switch is on when it is ``1``, ``true`` or ``yes`` and off when it is unset, empty, ``0``,
``false`` or ``no`` (any case, spaces ignored); anything else stops with a message naming it.
"""

from __future__ import annotations

import os

REQUIRE_ACCELERATOR = "LEARNJAX_REQUIRE_ACCELERATOR"  # every page must show outputs executed on a GPU
GPU = "LEARNJAX_GPU"  # nox installs JAX for CUDA (the lock's gpu group)

ON, OFF = {"1", "true", "yes"}, {"", "0", "false", "no"}


class FlagError(ValueError):
    """A switch set to something that is neither on nor off."""


def flag(name: str, environ=os.environ) -> bool:
    """Whether the switch ``name`` is on in ``environ``.

    >>> flag(GPU, {GPU: " True "}), flag(GPU, {GPU: "0"}), flag(GPU, {})
    (True, False, False)
    >>> flag(GPU, {GPU: "cuda"})
    Traceback (most recent call last):
    ...
    learnjax_site.core.flags.FlagError: LEARNJAX_GPU='cuda' is neither on (1, true, yes) nor off (0, false, no, empty)
    """
    value = environ.get(name, "").strip().lower()
    if value in ON:
        return True
    if value in OFF:
        return False
    raise FlagError(f"{name}={environ[name]!r} is neither on (1, true, yes) nor off (0, false, no, empty)")
