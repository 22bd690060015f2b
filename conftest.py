"""Shared by every doctest (examples/ and the site's extensions): names and settings.

Doctests see ``np``, ``jax`` and ``jnp`` without importing them. JAX runs on the CPU here, with
x64 off (its default), as on the site.
"""

import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def doctest_names(doctest_namespace):
    doctest_namespace.update(np=np, jax=jax, jnp=jnp)
