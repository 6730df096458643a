"""The rows of a Parquet export: what each column holds for one game and for
each of its moves, in the column order of :mod:`lcnotation.arrow.schema`.

Pure Python: the writer turns the rows into Arrow batches.  A game that could
not be read (a syntax error) keeps its text, headers and diagnostics, and
leaves every figure that would come from a half-read game empty (None); it
has no plies.
"""

from __future__ import annotations

import datetime
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..archive.reader import GameEntry
from ..lostcities.game.checker import CheckReport, check
from ..lostcities.game.digest import move_text
from ..lostcities.game.scoring import score_ranks
from ..lostcities.game.setup import read_setup
from ..lostcities.game.state import GameState
from ..lostcities.text.ast import HANDSHAKE, Card, Game
from ..core.diagnostics import NotationError, Severity
from ..lostcities.text.formatter import format_card
from ..lostcities.text.headers import DEFAULT_COLORS, parse_result

__all__ = ["GameRows", "Digest", "game_rows", "parse_date", "parse_round"]

#: The digest of a game's meaning (``lcnotation.archive.game_digest``).
Digest = Callable[[Game], str]

_DATE = re.compile(r"\s*([0-9?]{4})\.([0-9?]{2})\.([0-9?]{2})\s*\Z")
_ROUND = re.compile(r"\s*([0-9]{1,9})\s*\Z")
_ERROR = Severity.ERROR


class GameRows:
    """One game's row of the games table and its rows of the plies table,
    each a tuple in its table's column order."""

    __slots__ = ("game", "plies", "readable", "parsed")

    def __init__(self, game: Tuple[Any, ...], plies: List[Tuple[Any, ...]],
                 readable: bool, parsed: Game) -> None:
        self.game = game
        self.plies = plies
        self.readable = readable
        self.parsed = parsed


def parse_date(value: Optional[str]) -> Tuple[Optional[datetime.date], Optional[int]]:
    """A ``Date`` header (``YYYY.MM.DD``, ``??`` for what is unknown): the date
    when it is whole and real, and the year when it is known.

    >>> parse_date("2026.11.29"), parse_date("2026.??.??"), parse_date("2026.02.30")
    ((datetime.date(2026, 11, 29), 2026), (None, 2026), (None, 2026))
    >>> parse_date("last Tuesday"), parse_date(None)
    ((None, None), (None, None))
    """
    m = _DATE.match(value) if value is not None else None
    if m is None:
        return None, None
    year, month, day = m.groups()
    known_year = int(year) if year.isdigit() else None
    if known_year is None or not (month.isdigit() and day.isdigit()):
        return None, known_year
    try:
        return datetime.date(known_year, int(month), int(day)), known_year
    except ValueError:
        return None, known_year


def parse_round(value: Optional[str]) -> Optional[int]:
    """A ``Round`` header as a number, when it is one (``"2"``, not ``"2a"``).

    >>> parse_round(" 2 "), parse_round("final"), parse_round(None)
    (2, None, None)
    """
    m = _ROUND.match(value) if value is not None else None
    return int(m.group(1)) if m is not None else None


_CARD_TEXT: Dict[Tuple[str, int], str] = {}


def _card_text(color: str, rank: int) -> str:
    text = _CARD_TEXT.get((color, rank))
    if text is None:
        text = _CARD_TEXT[(color, rank)] = format_card(Card(color, rank))
    return text


def _cards(deal: Optional[Sequence[Tuple[str, int]]]) -> Optional[List[str]]:
    return None if deal is None else [_card_text(c, r) for c, r in deal]


def _result(value: Optional[str]) -> Tuple[Optional[int], Optional[int]]:
    if value is None:
        return None, None
    try:
        claimed = parse_result(value)
    except NotationError:
        return None, None
    if claimed is None or not all(-2**31 <= v < 2**31 for v in claimed):
        return None, None
    return claimed


def game_rows(entry: GameEntry, number: int, *, colors: Tuple[str, ...] = DEFAULT_COLORS,
              digest: Optional[Digest] = None, header_columns: Sequence[str] = ()) -> GameRows:
    """The rows of the game ``entry`` (found by :func:`lcnotation.archive.scan`;
    the ``number``-th of its file, from 1, and ``entry.path`` is the file's
    name, the ``source`` column).

    ``colors`` are the colours of a game without a Colors header (the
    configuration's), ``digest`` computes the ``digest`` column (of every
    game: one read with errors has the digest of what could be read), and
    ``header_columns`` are the headers that get a column of their own.
    """
    source = entry.path or ""
    game = entry.game()
    report = check(game, default_colors=colors)
    readable = not game.errors
    tags = game.tags
    date, year = parse_date(tags.get("Date"))
    # The deal as the checker took it (none when it has a problem); the
    # players and colours are the checker's too (report.score).
    hands: Tuple[Optional[List[str]], ...] = (None, None, None)
    if "Hand1" in tags or "Hand2" in tags or "Deck" in tags:
        setup = read_setup(game, colors)
        hands = (_cards(setup.hands[0]), _cards(setup.hands[1]), _cards(setup.deck))
    result1, result2 = _result(tags.get("Result"))
    key = digest(game) if digest is not None else None
    diagnostics = [(d.code, d.severity.value, d.line, d.column, d.message)
                   for d in report.diagnostics]
    errors = sum(1 for d in report.diagnostics if d.severity is _ERROR)
    plies: List[Tuple[Any, ...]] = []
    score1: Optional[int] = None
    score2: Optional[int] = None
    winner: Optional[int] = None
    complete: Optional[bool] = None
    moves: Optional[List[str]] = None
    expeditions: Optional[List[Tuple[int, str, int, int, int]]] = None
    if readable:
        score1, score2 = report.score.totals
        complete = report.complete
        winner = (None if not complete else 1 if score1 > score2 else 2 if score2 > score1
                  else 0)
        plies, ranks = _plies(game, report.state, source, entry.offset, number, key)
        expeditions = _expeditions(report, ranks)
        moves = [move_text(m) for m in game.moves]
    row = (source, entry.offset, len(entry.raw), entry.line, number, key,
           readable, tags.get("Event"), tags.get("Site"), date, year,
           parse_round(tags.get("Round")), report.score.players[0], report.score.players[1],
           "".join(report.score.colors), *hands, tags.get("Result"), result1, result2,
           [(h.name, h.value) for h in game.headers], score1, score2, winner, complete,
           len(game.moves), moves, expeditions, errors, diagnostics, entry.raw,
           *(tags.get(h) for h in header_columns))
    return GameRows(row, plies, readable, game)


def _expeditions(report: CheckReport, ranks: Tuple[Dict[str, List[int]], Dict[str, List[int]]]
                 ) -> List[Tuple[int, str, int, int, int]]:
    """Each player's expedition of each colour: cards, wagers and score."""
    score = report.score
    rows = []
    for p in (0, 1):
        placed = ranks[p]
        for c, points in zip(score.colors, score.expeditions[p]):
            cards = placed[c]
            rows.append((p + 1, c, len(cards), cards.count(HANDSHAKE), points))
    return rows


def _plies(game: Game, state: GameState, source: str, offset: int, number: int,
           key: Optional[str]
           ) -> Tuple[List[Tuple[Any, ...]], Tuple[Dict[str, List[int]], Dict[str, List[int]]]]:
    """The plies of a game read without error, from the checker's replay
    (``state``, after the last move): turn ``i`` is move ``i``, Player 1 moves
    on even turns, and an expedition holds the ranks placed on it, in order,
    by the moves up to the one that drew the last card (``state.expedition``
    holds the same; the ranks are given back for the expeditions' rows)."""
    colors = state.colors
    last = state.end_turn
    ranks: Tuple[Dict[str, List[int]], Dict[str, List[int]]] = (
        {c: [] for c in colors}, {c: [] for c in colors})
    scores: Tuple[Dict[str, int], Dict[str, int]] = ({}, {})
    totals = [0, 0]
    rows = []
    texts = _CARD_TEXT
    for turn, move in enumerate(game.moves):
        p = turn & 1
        placement = move.placement
        card = placement.card
        c = card.color
        r = card.rank
        discard = placement.discard
        if not discard and (last is None or turn <= last):
            placed = ranks[p].get(c)
            if placed is not None:
                placed.append(r)
                now = score_ranks(placed)
                totals[p] += now - scores[p].get(c, 0)
                scores[p][c] = now
        draw = move.draw.color
        span = move.span
        rows.append((source, offset, number, key, turn + 1, p + 1,
                     texts.get((c, r)) or _card_text(c, r), c, r, discard,
                     "D" if draw is None else draw, totals[p], totals[1 - p],
                     span.line, span.column))
    return rows, ranks
