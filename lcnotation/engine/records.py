"""The records a match writes, and what a match reads back from them.

Every game of ``lcn match`` becomes a complete record: its deal (``Hand1``,
``Hand2``, ``Deck``), the players as the engines name themselves, ``Event``,
``Date``, ``Round`` (the game's number in the match), ``Result`` and a
``Termination`` header that says how it ended, as PGN's does:

====================  ==========================================================
``normal``            the draw pile is spent; Result is the score
``adjudication``      the game reached the match's limit of moves; Result is the
                      score as it stands
``CAUSE by PlayerN``  PlayerN forfeits (CAUSE: ``time forfeit``, ``illegal
                      move``, ``crash``, ``protocol error``); Result is ``*``,
                      a comment on the header says what happened and at which move
====================  ==========================================================

A forfeited record ends with the last legal move (an illegal move is named in
the comment, never recorded), so it lints clean and scores as it stands.  The
statistics of a match are computed from these records (:func:`outcome`),
whether the games were just played or read back by ``--resume``, so that what
``lcn score`` says of the file and what the summary says agree.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Optional, Sequence, Tuple

from ..lostcities.game.checker import check
from ..lostcities.game.matches import is_result
from ..lostcities.game.generator import generate_game
from ..lostcities.text.ast import Comment, Game, Header, Move

__all__ = ["Termination", "FORFEITS", "NORMAL", "ADJUDICATION", "Outcome", "deal_for",
           "make_record", "outcome", "engine1_seat"]

NORMAL = "normal"
ADJUDICATION = "adjudication"
#: The causes of a forfeit, in the words of the Termination header.
FORFEITS = ("time forfeit", "illegal move", "crash", "protocol error")

_BY = re.compile(r"(?P<cause>.+) by Player(?P<seat>[12])\Z")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
_BRACES = str.maketrans("{}", "()")


class Termination(NamedTuple):
    """How a game ended: ``cause`` (:data:`NORMAL`, :data:`ADJUDICATION` or one of
    :data:`FORFEITS`), the ``seat`` (0 or 1) that forfeits, and what happened.

    >>> Termination("crash", 1, "Bot exited with status 1").value
    'crash by Player2'
    >>> Termination.read("time forfeit by Player1")
    Termination(cause='time forfeit', seat=0, detail='')
    """

    cause: str
    seat: Optional[int] = None
    detail: str = ""

    @property
    def value(self) -> str:
        """The Termination header's value."""
        return self.cause if self.seat is None else f"{self.cause} by Player{self.seat + 1}"

    @property
    def forfeit(self) -> bool:
        return self.seat is not None

    @classmethod
    def read(cls, value: str) -> Optional[Termination]:
        """The Termination a header's value names; None when it is not one."""
        if value in (NORMAL, ADJUDICATION):
            return cls(value)
        found = _BY.match(value)
        if found and found["cause"] in FORFEITS:
            return cls(found["cause"], int(found["seat"]) - 1)
        return None


def safe_comment(text: str, limit: int = 400) -> str:
    """``text`` as it may stand in a ``{`` comment: no braces, no control characters
    or line breaks, at most ``limit`` characters.

    >>> safe_comment("said {hi}\\n[Event x]")
    'said (hi) [Event x]'
    """
    text = _CONTROLS.sub(" ", text.translate(_BRACES))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def deal_for(seed: object, pair: int, colors: Sequence[str]) -> Game:
    """The deal of pair ``pair`` (from 1) of a match with ``seed``: a game with its
    ``Colors`` (when not the default), ``Hand1``, ``Hand2`` and ``Deck`` headers only.
    Each pair's deal depends on the seed and its number alone.

    >>> deal = deal_for(1, 3, "RGWBY")
    >>> [h.name for h in deal.headers], deal == deal_for(1, 3, "RGWBY")
    (['Hand1', 'Hand2', 'Deck'], True)
    """
    return generate_game(f"lcn match {seed} deal {pair}", colors=colors, deal=True,
                         headers=False, turns=0)


def engine1_seat(round_number: int) -> int:
    """The seat (0: Player1) of the match's first engine in game ``round_number``:
    the games of a pair swap the seats."""
    return 0 if round_number % 2 else 1


def make_record(deal: Game, *, event: str, date: str, round_number: int,
                players: Tuple[str, str], moves: Sequence[Move], result: str,
                termination: Termination) -> Game:
    """A game of the match as a record (see the module)."""
    headers = [Header("Event", event), Header("Date", date),
               Header("Round", str(round_number)),
               Header("Player1", players[0]), Header("Player2", players[1])]
    headers += deal.headers
    headers.append(Header("Result", result))
    comments = (Comment(" " + safe_comment(termination.detail) + " "),) \
        if termination.detail else ()
    headers.append(Header("Termination", termination.value, comments))
    numbered = tuple(m._replace(number=i + 1, turn=i) for i, m in enumerate(moves))
    return Game(tuple(headers), numbered)


class Outcome(NamedTuple):
    """One game from the first engine's side: ``result`` (1 a win, 0.5 a draw, 0 a
    loss; a forfeit loses), the ``points`` of both engines as the record scores
    (the first engine's first), and the ``termination``; ``forfeiter`` is 0 (the
    first engine) or 1 when one forfeited.  ``counted`` says whether the record
    is a result that ``lcn score`` adds to the match totals
    (:func:`~lcnotation.lostcities.game.matches.is_result`: a forfeit or an
    adjudicated game stops before the draw pile is spent, and is not)."""

    round_number: int
    result: float
    points: Tuple[int, int]
    termination: Termination
    forfeiter: Optional[int]
    counted: bool = True


def outcome(record: Game, round_number: int) -> Outcome:
    """What game ``round_number`` of a match, ``record``, counts for.

    Raises ValueError when the record has no Termination header that
    :meth:`Termination.read` reads.
    """
    value = record.header("Termination")
    termination = None if value is None else Termination.read(value)
    if termination is None:
        raise ValueError(f"no Termination header of lcn match (found {value!r})")
    first = engine1_seat(round_number)
    report = check(record)
    totals = report.score.totals
    points = (totals[first], totals[1 - first])
    forfeiter = None
    if termination.seat is not None:
        forfeiter = 0 if termination.seat == first else 1
        result = 0.0 if forfeiter == 0 else 1.0
    else:
        result = 1.0 if points[0] > points[1] else 0.0 if points[0] < points[1] else 0.5
    return Outcome(round_number, result, points, termination, forfeiter,
                   is_result(report.score, len(report.errors)))
