"""Where the site's folders are, from this package's place in ``docs/_ext``."""

from pathlib import Path

DOCS = Path(__file__).resolve().parents[3]  # docs/: conf.py, the lessons, _static
ROOT = DOCS.parent  # the repository
KIT = DOCS / "_kit"  # lesson_kit, which the lessons' hidden cells import
EXAMPLES = ROOT / "examples"  # the programs the lessons show and run
BUILD = DOCS / "_build"  # nox -s docs builds here
KEPT_GPU_OUTPUTS = ROOT / "reports" / "gpu"  # outputs executed on a GPU, kept for docs/
