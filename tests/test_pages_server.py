"""The local server that stands in for GitHub Pages (learnjax_tools.pages_server): compressed text,
content types, the site under its path, the root 404 page for a miss."""

from __future__ import annotations

import gzip
import http.client

import pytest
from learnjax_tools.pages_server import PagesServer


@pytest.fixture
def served(tmp_path):
    (tmp_path / "ko" / "_static").mkdir(parents=True)
    (tmp_path / "ko" / "index.html").write_text("<!DOCTYPE html><title>홈</title>" + "x" * 2000, encoding="utf8")
    (tmp_path / "ko" / "_static" / "site.css").write_text("body { color: red; }\n" * 100, encoding="utf8")
    (tmp_path / "ko" / "_static" / "icon.png").write_bytes(b"\x89PNG\r\n" + bytes(300))
    (tmp_path / "404.html").write_text("<p>없음</p>", encoding="utf8")
    with PagesServer(tmp_path, "/learning-jax") as server:
        yield server, tmp_path


def get(server, path: str, gzip_ok: bool = True) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection(server.origin.removeprefix("http://"))
    connection.request("GET", path, headers={"Accept-Encoding": "gzip, deflate, br"} if gzip_ok else {})
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    return response


def test_text_is_gzip_compressed_with_its_type(served):
    server, site = served
    for path, kind, file in [("/learning-jax/ko/index.html", "text/html; charset=utf-8", "ko/index.html"),
                             ("/learning-jax/ko/_static/site.css", "text/css; charset=utf-8", "ko/_static/site.css")]:
        response = get(server, path)
        assert response.status == 200 and response.getheader("Content-Type") == kind
        assert response.getheader("Content-Encoding") == "gzip" and response.getheader("Vary") == "Accept-Encoding"
        assert int(response.getheader("Content-Length")) == len(response.body) < (site / file).stat().st_size
        assert gzip.decompress(response.body) == (site / file).read_bytes()


def test_without_accept_encoding_text_comes_plain(served):
    server, site = served
    response = get(server, "/learning-jax/ko/index.html", gzip_ok=False)
    assert response.getheader("Content-Encoding") is None and response.body == (site / "ko/index.html").read_bytes()


def test_images_are_sent_as_they_are(served):
    server, site = served
    response = get(server, "/learning-jax/ko/_static/icon.png")
    assert response.getheader("Content-Type") == "image/png" and response.getheader("Content-Encoding") is None
    assert response.body == (site / "ko/_static/icon.png").read_bytes()


def test_a_folder_serves_its_index_and_a_miss_the_root_404_page(served):
    server, site = served
    assert get(server, "/learning-jax/ko").status == 301
    assert get(server, "/learning-jax/ko/").status == 200
    for missing in ("/learning-jax/ko/nothing.html", "/elsewhere/ko/index.html", "/learning-jaxx/ko/index.html"):
        response = get(server, missing)
        assert response.status == 404 and gzip.decompress(response.body) == (site / "404.html").read_bytes()
