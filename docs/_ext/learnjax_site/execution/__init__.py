"""Execute and record: each page's notebook staged, executed once per machine, kept, and recorded.

Needing no Sphinx (a GPU machine without it runs them): ``kernel`` (the probe, the kernel's
environment, the provenance cell), ``cell_errors``, ``runner`` (executes staged pages within a
budget), ``outputs`` (kept GPU outputs, the render's cache). Sphinx's side: ``stage`` (the builder
that writes each page's notebook as the cache looks it up), ``portable_outputs`` (outputs that name
no folder of the build machine), ``provenance`` (refusals, records, the build report).
"""


def setup(app) -> None:
    """Register this stage's nodes, directives, roles and settings (its handlers: ``learnjax_site.PIPELINE``)."""
    from . import provenance, stage

    for module in (provenance, stage):
        module.setup(app)
