"""Where the site's folders are, from this package's place in ``docs/_ext``."""

from pathlib import Path

DOCS = Path(__file__).resolve().parents[3]  # docs/: conf.py, the lessons, _static
ROOT = DOCS.parent  # the repository
KIT = DOCS / "_kit"  # lesson_kit, which the lessons' hidden cells import
EXAMPLES = ROOT / "examples"  # the programs the lessons show and run
BUILD = DOCS / "_build"  # nox -s docs builds here
KEPT_GPU_OUTPUTS = ROOT / "reports" / "gpu"  # outputs executed on a GPU, kept for docs/


def site_code_fingerprint() -> str:
    """A digest of the site's own code and of the files it reads besides the pages: conf.py gives it to
    Sphinx as ``learnjax_site_code``, so that editing the extension re-reads every page (Sphinx keeps
    its environment between builds and otherwise re-reads only the pages that changed)."""
    import hashlib

    digest = hashlib.sha256()
    package = DOCS / "_ext" / "learnjax_site"
    for path in sorted([*package.rglob("*.py"), *package.rglob("*.js"), DOCS / "conf.py", DOCS / "tags.toml"]):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(DOCS).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
