"""Positions in source text: the one type every layer uses for them."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Span"]


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
