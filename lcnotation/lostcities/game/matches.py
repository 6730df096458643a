"""Matches and their totals: which games of a file add up, and to what.

A match is the games of one file that share an ``Event`` header (the games
of a file without one are that file's match): two files are never one
match, whatever their players are called, so the default names of two
files ("Player 1") stay two players.  Only a result counts in a match's
totals (:func:`is_result`): a complete round (the draw pile spent) without
errors.  ``lcn score`` and the language server's inlay hints both add up
with :class:`Matches`, so they agree on the same files.

>>> from lcnotation.lostcities.text.reader import parse_game
>>> cup, club = parse_game('[Event "Cup"]'), parse_game('[Event "Club"]')
>>> matches = Matches()
>>> matches.add(cup, GameScore(("Ann", "Bob"), ("R",), ((10,), (-6,))), 0)
Match(event='Cup', games=1, totals={'Ann': 10, 'Bob': -6})
>>> matches.add(club, GameScore(("Ann", "Cy"), ("R",), ((5,), (0,))), 0).totals
{'Ann': 5, 'Cy': 0}
>>> matches.add(cup, GameScore(("Bob", "Ann"), ("R",), ((30,), (0,))), 0).totals
{'Ann': 10, 'Bob': 24}
>>> print(matches.add(cup, GameScore(("Ann", "Bob"), ("R",), ((9,), (0,)), False), 0))
None
>>> print(matches.add(cup, GameScore(("Ann", "Bob"), ("R",), ((9,), (0,))), 1))
None
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterator, Optional, Sequence

from ..text.ast import Game
from .scoring import GameScore

__all__ = ["Match", "Matches", "is_result"]


def is_result(score: GameScore, errors: int) -> bool:
    """Whether a game counts in its match's totals: a complete round (its
    draw pile spent) with no ``errors`` (syntax or rules)."""
    return score.complete and not errors


@dataclass
class Match:
    """A match of one file: its ``Event`` (None for the file's games without
    one), how many results it holds and each player's total over them."""

    event: Optional[str]
    games: int = 0
    totals: Dict[str, int] = field(default_factory=dict)


class Matches:
    """The matches of one file, added up as its games come (in the order of
    the file); iterating gives those that hold a result, in the order of
    their first one."""

    def __init__(self) -> None:
        self._matches: Dict[Optional[str], Match] = {}

    def add(self, game: Game, score: GameScore, errors: int) -> Optional[Match]:
        """Count ``game`` (scored ``score``, with ``errors`` errors) in its
        match: the match with its totals so far, or None when the game is not
        a result (then no match counts it)."""
        if not is_result(score, errors):
            return None
        return self.add_result(game.header("Event"), score.players, score.totals)

    def add_result(self, event: Optional[str], players: Sequence[str],
                   totals: Sequence[int]) -> Match:
        """Count a result of the match ``event`` (None: the file's games
        without an Event): its ``players`` and their ``totals``."""
        match = self._matches.get(event)
        if match is None:
            match = self._matches[event] = Match(event)
        match.games += 1
        for name, points in zip(players, totals):
            match.totals[name] = match.totals.get(name, 0) + points
        return match

    def __iter__(self) -> Iterator[Match]:
        return iter(self._matches.values())

    def __len__(self) -> int:
        return len(self._matches)
