"""The site on the web: every page's public address, sitemaps with hreflang, the 404 pages and
Open Graph cards (wrapping sphinx-sitemap, sphinx-notfound-page and sphinxext-opengraph)."""
