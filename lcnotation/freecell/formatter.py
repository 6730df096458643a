"""Writing records and positions in the canonical layout.

The canonical layout: the Game# line as written, the freecell+home line in
full (``"  -  -  -  +"`` when everything is empty), one line per row of the
columns, then the comment and solution lines in their order, the moves of
each run of solution lines ten to a line; no trailing spaces, ``\\n`` line
ends, one at the end of the file.

>>> from .deals import deal
>>> from .state import Position
>>> for line in layout_text(Position.fresh(deal(1))).splitlines()[:3]:
...     print(line)
  -  -  -  +
JD 2D 9H JC 5D 7H 7C 5H
KD KC 9S 5S AD QC KH 3H
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Union

from ..core.diagnostics import NotationError, Severity
from .ast import WKR, EndMarker, HomeLine, Move, Record, SolutionLine
from .cards import SUITS, Card
from .state import Position

__all__ = ["MOVES_PER_LINE", "format", "format_step", "home_line_text", "layout_text",
           "column_rows"]

MOVES_PER_LINE = 10
_BLANK = "  "


def column_rows(columns: Sequence[Sequence[Card]]) -> List[str]:
    """The lines of the column section: row by row, three characters a column."""
    depth = max((len(c) for c in columns), default=0)
    return [" ".join(str(c[row]) if row < len(c) else _BLANK for c in columns).rstrip()
            for row in range(depth)]


def _home_text(cells: Iterable[str], homes: Iterable[Optional[Card]], separator: str) -> str:
    return (separator.join(cells) + "+"
            + " ".join(str(c) if c else _BLANK for c in homes)).rstrip()


def home_line_text(home: HomeLine) -> str:
    """The freecell+home line of a record."""
    cells = [str(f.card) if f.card else f.blocked or _BLANK for f in home.freecells]
    return _home_text(cells, home.homes, "=" if home.automove == WKR else "-")


def layout_text(position: Position) -> str:
    """A position as the freecell+home line and the column section (home piles
    in the order clubs, diamonds, hearts, spades)."""
    cells = [str(c) if c else "BB" if b else _BLANK
             for c, b in zip(position.freecells, position.blocked)]
    homes = [Card(position.homes[s], s) if position.homes[s] else None for s in SUITS]
    lines = [_home_text(cells, homes, "-")] + column_rows(position.columns)
    return "\n".join(lines) + "\n"


def format_step(step: Union[Move, EndMarker]) -> str:
    """A move as written in a solution line: prefix and two characters, or a marker."""
    if isinstance(step, EndMarker):
        return "[??]"
    if step.marked:
        return f"[{'.' if step.single else ''}{step}]"
    return f"{step.prefix}{step}"


def _solution_lines(steps: List[Union[Move, EndMarker]], comment: str) -> List[str]:
    lines = ["".join(format_step(s) for s in steps[i:i + MOVES_PER_LINE])
             for i in range(0, len(steps), MOVES_PER_LINE)] or [""]
    lines[-1] += comment
    return lines


def format(record: Record) -> str:  # noqa: A001  (the API's name)
    """The record in the canonical layout.

    Raises NotationError (a ValueError) with the first reading error when the
    record has any: what could not be read (a card below a gap, a cell that is
    not a card) would be moved or lost by writing the record again.
    """
    for found in record.errors:
        if found.severity is Severity.ERROR:
            raise NotationError(f"not formatted: {found.message}", found.span,
                                code=found.code, path=found.path)
    lines: List[str] = []
    if record.game is not None:
        lines.append(record.game.text)
    lines.append(home_line_text(record.home))
    lines.extend(column_rows([[p.card for p in c] for c in record.columns]))
    steps: List[Union[Move, EndMarker]] = []
    for line in record.body:
        if isinstance(line, SolutionLine):
            steps.extend(line.steps)
            if line.comment:
                lines.extend(_solution_lines(steps, line.comment))
                steps = []
            continue
        if steps:
            lines.extend(_solution_lines(steps, ""))
            steps = []
        lines.append(line.text)
    if steps:
        lines.extend(_solution_lines(steps, ""))
    return "\n".join(lines) + "\n"
