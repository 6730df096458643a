"""Positions in source text: the one type every layer uses for them.

A node read from text always has its position.  A node built by hand or
read from the JSON form has none: its ``span`` is :data:`NO_SPAN`, the one
sentinel for "not read from text" (line 0, never a real line), so that a
span is always a :class:`Span` and ``parse_move("R3-D").span.line`` needs
no check; ``span.known`` tells the two apart.

>>> NO_SPAN.known, Span(1, 1, 1, 5, 0, 4).known
(False, True)
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Span", "NO_SPAN", "first_known"]


class Span(NamedTuple):
    """Where a node stands in its source text.

    Lines and columns count from 1; columns count characters, as editors do.
    ``end_line``/``end_column`` point just past the last character, and
    ``start``/``end`` are character offsets into the text that was read
    (the whole file, for a game read from a file).

    >>> Span(1, 1, 1, 5, 0, 4).length
    4
    """

    line: int
    column: int
    end_line: int
    end_column: int
    start: int
    end: int

    @property
    def length(self) -> int:
        """The number of characters the span covers."""
        return self.end - self.start

    @property
    def known(self) -> bool:
        """False for :data:`NO_SPAN` (a node not read from text)."""
        return self.line > 0


#: The span of a node that was not read from text (built by hand, read from
#: JSON), and of a diagnostic about such a node.
NO_SPAN = Span(0, 0, 0, 0, 0, 0)


def first_known(*spans: Span) -> Span:
    """The first of ``spans`` read from text, else :data:`NO_SPAN`.

    >>> first_known(NO_SPAN, Span(2, 1, 2, 3, 9, 11)).line
    2
    """
    for span in spans:
        if span.known:
            return span
    return NO_SPAN
