"""Commands, each run as ``python -m learnjax_site.commands.NAME`` and never imported by an extension:
``build`` (stage, execute, render both languages), ``record``, ``publish``, ``gpu_run``."""
