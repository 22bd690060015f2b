"""Tests of the built site in headless Chromium (``nox -s browser``); not part of ``nox -s tests``."""
