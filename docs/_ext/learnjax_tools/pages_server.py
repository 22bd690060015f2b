"""The built site served on 127.0.0.1 the way GitHub Pages serves it: compressed, typed, with its 404 page.

    python -m learnjax_tools.pages_server [--site docs/_build/html] [--prefix /learning-jax] [--port 8000]

What a reader's browser gets from GitHub Pages, and so what Lighthouse must measure (``nox -s
lighthouse``, ``learnjax_tools.lighthouse``): text types (HTML, CSS, JavaScript, JSON, SVG, XML,
plain text, notebooks) gzip-compressed when the request accepts gzip, each file with its content
type (``charset=utf-8`` for text), ``Cache-Control: max-age=600``, and for a missing address the
site's root ``404.html`` with status 404. The site lives under ``prefix`` (the published path);
anything outside it is a 404 too. Not a production server: one process, files read per request.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import sys
import threading
from pathlib import Path

COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "application/xml",
                    "image/svg+xml", "application/x-ipynb+json")
"""Content types GitHub Pages sends gzip-compressed (fonts, images and archives are sent as they are)."""

TYPES = {".js": "application/javascript", ".mjs": "application/javascript", ".json": "application/json",
         ".ipynb": "application/x-ipynb+json", ".svg": "image/svg+xml", ".woff2": "font/woff2",
         ".woff": "font/woff", ".ttf": "font/ttf", ".xml": "application/xml", ".txt": "text/plain",
         ".webmanifest": "application/manifest+json", ".ico": "image/x-icon"}


def content_type(name: str, base_type: str) -> str:
    """The Content-Type header for a file: ``base_type`` with ``charset=utf-8`` for text types.

    >>> content_type("a.html", "text/html"), content_type("a.png", "image/png")
    ('text/html; charset=utf-8', 'image/png')
    >>> content_type("searchindex.js", "application/javascript")
    'application/javascript; charset=utf-8'
    """
    return f"{base_type}; charset=utf-8" if is_compressed(base_type) and base_type != "image/svg+xml" else base_type


def is_compressed(base_type: str) -> bool:
    """Whether GitHub Pages sends a file of this type gzip-compressed.

    >>> is_compressed("text/css"), is_compressed("image/svg+xml"), is_compressed("font/woff2")
    (True, True, False)
    """
    return base_type.startswith(COMPRESSED_TYPES)


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip (``q=0`` refuses it).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br;q=1, gzip;q=0"), accepts_gzip(None)
    (True, False, False)
    """
    for coding in (header or "").split(","):
        name, _, params = coding.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


class PagesHandler(http.server.SimpleHTTPRequestHandler):
    """GET and HEAD for the site under ``prefix``, as GitHub Pages answers them."""

    prefix = ""
    not_found = "404.html"
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0].split("#", 1)[0]
        if not (path + "/").startswith(self.prefix + "/"):
            return str(Path(self.directory) / "_outside_the_site_")  # no such file: a 404
        return super().translate_path(path[len(self.prefix):] or "/")

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?", 1)[0].endswith("/"):
                self.send_response(301)
                self.send_header("Location", self.path.split("?", 1)[0] + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            path = path / "index.html"
        status = 200
        if not path.is_file():
            status, path = 404, Path(self.directory) / self.not_found
            if not path.is_file():
                self.send_error(404)
                return None
        base_type = self.guess_type(str(path))
        body = path.read_bytes()
        compressed = is_compressed(base_type) and accepts_gzip(self.headers.get("Accept-Encoding"))
        if compressed:
            body = gzip.compress(body, compresslevel=6, mtime=0)
        self.send_response(status)
        self.send_header("Content-Type", content_type(path.name, base_type))
        if compressed:
            self.send_header("Content-Encoding", "gzip")
        if is_compressed(base_type):
            self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        return _Body(body)

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


class _Body:
    """What ``send_head`` returns for ``copyfile``: the (compressed) bytes, readable once."""

    def __init__(self, data: bytes):
        self.data = data

    def read(self, size: int = -1) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a browser hangs up on navigating away
            super().handle_error(request, client_address)


class PagesServer:
    """``with PagesServer(site, prefix) as server:`` the site at ``server.url`` (``http://127.0.0.1:PORT/prefix``)."""

    def __init__(self, site: Path, prefix: str = "", port: int = 0, not_found: str = "404.html"):
        """``not_found``: the page answered for a miss, relative to ``site`` (GitHub Pages: the root's)."""
        prefix = "/" + prefix.strip("/") if prefix.strip("/") else ""
        attributes = {"prefix": prefix, "not_found": not_found}
        handler = functools.partial(type("Handler", (PagesHandler,), attributes), directory=str(site))
        self.httpd = _Server(("127.0.0.1", port), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.url = self.origin + prefix
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="pages-server", daemon=True)

    def __enter__(self) -> PagesServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m learnjax_tools.pages_server", description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=Path(__file__).resolve().parents[2] / "_build" / "html")
    parser.add_argument("--prefix", default="", help="the path the site is published under, e.g. /learning-jax")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    with PagesServer(args.site, args.prefix, args.port) as server:
        print(f"Serving {args.site} at {server.url}/ (Ctrl+C stops)", flush=True)
        try:
            server.thread.join()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
