"""Tools around the built site that need no Sphinx (the standard library only), so a session that
installs nothing else can run them:

* ``pages_server``: the built site on 127.0.0.1, compressed and typed as GitHub Pages serves it;
* ``lighthouse``: Lighthouse over the served site (``nox -s lighthouse``), scores asserted and reported;
* ``compare_text``: the article text of two built sites, page by page, numbers masked (what a reader
  reads before and after a change).
"""
