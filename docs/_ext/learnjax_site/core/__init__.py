"""Shared by every stage, importing nothing else of the site's: the two languages, the error that
stops a build at ``file:line``, per-page data kept in Sphinx's environment, interface strings,
collation, Hangul and ids, the site's folders, the environment's flags."""
