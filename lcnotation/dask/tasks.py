"""What a worker does with one byte range of a file (see :mod:`lcnotation.dask.ranges`).

Each function takes plain values (a path, byte offsets, settings) and returns
plain values, so that it can run in another process or on another machine
that sees the same files.  Together with what the ranges before it hold
(counted first, by :func:`measure`), each gives exactly the part of the
whole file's result that belongs to its range.
"""

from __future__ import annotations

import io
from typing import List, NamedTuple, Optional, Sequence, Tuple

from ..archive.reader import GameEntry, scan
from ..archive.stats import GameStats, StatsAccumulator, game_stats
from ..core.diagnostics import NotationError
from ..lostcities.text.reader import GameText, decoded_lines
from ..core.lint import LintConfig
from ..lostcities.lint import lint_game, style_state
from ..core.findings import Finding
from .ranges import RangeCounts, measure_range

__all__ = ["Measured", "LintPart", "StatsPart", "measure", "lint_range", "stats_range",
           "export_range", "entries", "games_of"]


class Measured(NamedTuple):
    """What :func:`measure` counts of a range, and the discard marker its
    first discard uses (for S101, when ``lint`` asks; None when it has none)."""

    counts: RangeCounts
    marker: Optional[str] = None


class LintPart(NamedTuple):
    """The findings of a range's games, in order, and how many games and moves."""

    findings: List[Finding]
    games: int
    moves: int


class StatsPart(NamedTuple):
    """The figures of a range's games, and the record of each game that is not
    a result (its ``error`` says why, with its file, line and column)."""

    total: StatsAccumulator
    unusable: List[GameStats]


def entries(path: str, start: int, end: int) -> List[GameEntry]:
    """The games that begin in bytes ``start`` to ``end`` of ``path``."""
    with open(path, "rb") as handle:
        return list(scan(handle, path=path, start=start, end=end))


def games_of(path: str, start: int, end: int) -> list:  # type: ignore[type-arg]
    """The games (syntax trees, positions those of the file) of a range."""
    return [entry.game() for entry in entries(path, start, end)]


def measure(path: str, start: int, end: int, lint: Optional[LintConfig] = None) -> Measured:
    """Count the range's games and line ends; with ``lint`` (and no dialect
    configured), also find its first discard marker, as the style checks
    take it from the file's first discard."""
    with open(path, "rb") as handle:
        counts = measure_range(handle, start, end)
        marker = None
        if lint is not None and lint.dialect is None:
            style = style_state(lint)
            for entry in scan(handle, path=path, start=start, end=end):
                lint_game(entry.text(), style, lint, path)
                if style.marker is not None:
                    marker = style.marker
                    break
    return Measured(counts, marker)


def lint_range(path: str, start: int, end: int, config: LintConfig,
               marker: Optional[str]) -> LintPart:
    """The findings of the range's games, as ``lcn lint`` finds them, with
    ``marker`` the discard marker of the file's first discard before the
    range.  (A file of white space alone, which holds no game, is linted as
    ``lcn lint`` lints it: as one empty game.)"""
    style = style_state(config)
    style.marker = marker
    findings: List[Finding] = []
    games = moves = 0
    with open(path, "rb") as handle:
        for entry in scan(handle, path=path, start=start, end=end):
            game, found = lint_game(entry.text(), style, config, path)
            findings.extend(found)
            games += 1
            moves += len(game.moves)
        if games == 0 and start == 0:
            blank = _whole_text(handle, end)
            if blank is not None:
                game, found = lint_game(blank, style, config, path)
                findings.extend(found)
                games = 1
    return LintPart(findings, games, moves)


def _whole_text(handle: io.BufferedReader, end: int) -> Optional[GameText]:
    """The text of a file that holds no game, as the reader splits it (one
    piece of white space), or None for one that reads as no text at all."""
    handle.seek(0)
    pieces = list(decoded_lines(io.BytesIO(handle.read(end))))
    text = "".join(p for p in pieces if isinstance(p, str))
    problems = tuple(p for p in pieces if isinstance(p, NotationError))
    return GameText(text, 1, 0, problems) if text or problems else None


def stats_range(path: str, start: int, end: int, colors: Tuple[str, ...],
                first_game: int) -> StatsPart:
    """The figures of the range's games (the first is the ``first_game``-th
    of its file), as ``lcn stats`` counts them."""
    total = StatsAccumulator()
    unusable: List[GameStats] = []
    number = first_game
    with open(path, "rb") as handle:
        for entry in scan(handle, path=path, start=start, end=end):
            record = game_stats(entry.game(), path=path, number=number, offset=entry.offset,
                                default_colors=colors)
            total.add(record)
            if record.error is not None:
                unusable.append(record)
            number += 1
    return StatsPart(total, unusable)


def export_range(path: str, start: int, end: int, staging: str, prefix: str, first_game: int,
                 colors: Tuple[str, ...], partition_by: Sequence[str],
                 header_columns: Sequence[str]) -> Tuple[object, List[NotationError]]:
    """Write the range's games into the export being made in ``staging``, as
    files ``PREFIX-NNNN.parquet``; what the range gave, and the first syntax
    error of each game that could not be read."""
    from ..arrow.writer import TableWriters, write_range

    refused: List[NotationError] = []
    writers = TableWriters(staging, prefix, partition_by, header_columns)
    try:
        with open(path, "rb") as handle:
            report = write_range(handle, path, start, end, writers, first_game=first_game,
                                 colors=colors, refused=refused.append)
    finally:
        writers.close()
    return report, refused
