"""The error the site raises for a page that must not be published, and how it stops a build."""

from __future__ import annotations

import functools
from pathlib import Path

from sphinx.errors import SphinxError
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)


class LessonError(SphinxError):
    """A page (or build) that cannot be built as it is: where, what is wrong, what to do."""

    category = "Lesson error"

    def __init__(self, where: str, problem: str, fix: str):
        super().__init__(f"{where}: {problem}\n    What to do: {fix}")
        self.where, self.problem, self.fix = where, problem, fix


def lesson_error(path: str | Path, line: int, problem: str, fix: str) -> LessonError:
    """A LessonError located at ``path:line`` (1-based line)."""
    return LessonError(f"{path}:{line}", problem, fix)


def stops_build(handler):
    """Wrap a Sphinx event handler so that a LessonError ends the build with one clear message.

    Sphinx reports any other exception as a crash with a long dump; this logs
    ``path:line: ERROR: problem / What to do: fix`` and exits with status 2.
    """

    @functools.wraps(handler)
    def wrapper(*args, **kwargs):
        try:
            return handler(*args, **kwargs)
        except LessonError as error:
            message = f"{error.problem}\n    What to do: {error.fix}"
            if ":" in error.where:  # path:line; Sphinx prints it in front of ERROR
                LOGGER.error(message, location=error.where)
            else:  # not a place in a page (e.g. the kernel); Sphinx would take it for a docname
                LOGGER.error(f"{error.where}: {message}")
            raise SystemExit(2) from None

    return wrapper
