"""Walking a page's document tree."""


def ancestors(node, include_self: bool = False):
    """``node``'s parent, its parent's parent, ..., up to the document (``node`` first if ``include_self``)."""
    if not include_self:
        node = node.parent
    while node is not None:
        yield node
        node = node.parent
