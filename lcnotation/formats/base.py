"""What every format module shares: the :class:`Format` record, the error
codes of importers and exporters, and positions in the source text.

A format module defines ``FORMAT``, a :class:`Format`: its name, a sentence
saying what it is, and the functions that read, write and recognise it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import Callable, Dict, List, Optional

from ..text.ast import Game, Span
from ..text.errors import NotationError

__all__ = ["Format", "FORMAT_CODES", "Reader", "Writer", "Detector", "TextLines",
           "UnknownFormatError"]

#: ``read(text, path)``: the games of ``text`` (line ends already LF); raises
#: NotationError for malformed input.
Reader = Callable[[str, Optional[str]], List[Game]]
#: ``write(game)``: the game in the format; raises NotationError when the game
#: cannot be written in it.
Writer = Callable[[Game], str]
#: ``detect(text)``: True when ``text`` is surely in the format.
Detector = Callable[[str], bool]

#: Every code of an import or export error: what it reports.
FORMAT_CODES: Dict[str, str] = {
    "I100": "the format of the input cannot be told (give it by name)",
    "I101": "a transcript line that is not what the transcript has at that point",
    "I102": "a card that does not exist (a suit or digit the engine does not use)",
    "I103": "a transcript that ends in the middle of a turn or before the final scores",
    "I104": "a transcript that contradicts itself (hands, draws, winner)",
    "I201": "a replay string that is not base64 (a bad character, length or padding)",
    "I202": "a replay string of a version other than 3",
    "I203": "a replay that ends in the middle of a field, or has bytes after its actions",
    "I204": "a replay header or card-list field with a value the format does not allow",
    "I205": "a replay card byte that is no card (colour or value out of range)",
    "I206": "a replay action whose hand index is past the hand, or names a card that "
            "cannot be known",
    "I207": "a replay that starts from a position with cards on the table",
    "I208": "a replay whose winner or scores disagree with its actions",
    "I301": "a record that cannot be written in the format (no deal, colours it cannot "
            "hold, rule errors, syntax errors)",
}


@dataclass(frozen=True)
class Format:
    """A record format of another program, registered by name.

    ``read`` imports, ``write`` exports (either may be None when the format
    is one-way), and ``detect`` recognises the format when none is named.
    """

    name: str
    description: str
    read: Optional[Reader] = None
    write: Optional[Writer] = None
    detect: Optional[Detector] = None

    def __post_init__(self) -> None:
        if not self.name or not all(c.isalnum() or c in "-_" for c in self.name):
            raise ValueError(f"format name {self.name!r}: expected letters, digits, "
                             "'-' or '_'")
        if self.read is None and self.write is None:
            raise ValueError(f"format {self.name!r} can neither read nor write")


class UnknownFormatError(NotationError):
    """The input's format cannot be told for sure (code ``I100``, at its start)."""

    def __init__(self, message: str, path: Optional[str] = None) -> None:
        super().__init__(message, Span(1, 1, 1, 1, 0, 0), code="I100", path=path)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (UnknownFormatError, (self.message, self.path))


class TextLines:
    """The lines of a text (LF line ends) with where each starts, to build
    spans and errors from a line number (from 1) and a column (from 1)."""

    __slots__ = ("lines", "starts", "path")

    def __init__(self, text: str, path: Optional[str] = None) -> None:
        self.lines = text.split("\n")
        self.starts = [0, *accumulate(len(line) + 1 for line in self.lines[:-1])]
        self.path = path

    def span(self, line: int, column: int, length: int = 1,
             end_line: Optional[int] = None, end_column: Optional[int] = None) -> Span:
        """From ``column`` of ``line``, ``length`` characters on (or up to
        ``end_line``/``end_column``, just past the end)."""
        if end_line is None:
            end_line, end_column = line, column + length
        assert end_column is not None
        start = self.starts[line - 1] + column - 1
        end = self.starts[end_line - 1] + end_column - 1
        return Span(line, column, end_line, end_column, start, end)

    def error(self, message: str, code: str, line: int, column: int = 1,
              length: int = 1) -> NotationError:
        """A NotationError at ``column`` of ``line`` (a line past the end is the end)."""
        if line > len(self.lines):
            line = len(self.lines)
            column = len(self.lines[-1]) + 1
            length = 0
        return NotationError(message, self.span(line, column, length), code=code,
                             path=self.path)
