"""Scoring: the rule that scores an expedition, and the score of a round.

An expedition with cards scores ``(sum of its numbers - 20) * (1 + handshakes)``,
plus 20 when it holds 8 cards or more (handshakes count toward the 8, and
the bonus is not multiplied); an expedition without cards scores 0.
A round is scored from its state (:meth:`~lcnotation.lostcities.game.state.GameState.scores`);
to replay and score a record, or total a match, see :func:`lcnotation.lostcities.game.checker.score`
and :func:`~lcnotation.lostcities.game.checker.match_totals`.

>>> score_expedition([2, 3, 7, 8, 10])
10
>>> from lcnotation.lostcities.text.ast import Card
>>> score_expedition([Card("R", HANDSHAKE), Card("R", 4), Card("R", 6), Card("R", 7)])
-6
>>> score_expedition([])
0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, Optional, Sequence, Tuple, Union

from ..text.ast import HANDSHAKE, Card

__all__ = ["score_expedition", "score_ranks", "GameScore", "EXPEDITION_COST", "BONUS",
           "BONUS_LENGTH"]

#: The cost of starting an expedition.
EXPEDITION_COST = 20
#: The bonus of an expedition of at least ``BONUS_LENGTH`` cards.
BONUS = 20
BONUS_LENGTH = 8


def score_expedition(cards: Iterable[Union[Card, int]]) -> int:
    """The score of one expedition, from its cards or their ranks (0 = handshake).

    >>> score_expedition([HANDSHAKE, HANDSHAKE, 4, 5, 6, 7, 8, 10])
    80
    >>> score_expedition([HANDSHAKE] * 3)
    -80
    """
    return score_ranks([card if isinstance(card, int) else card.rank for card in cards])


def score_ranks(ranks: Sequence[int]) -> int:
    """:func:`score_expedition` for a list of ranks (the fast path of the checker).

    >>> score_ranks([HANDSHAKE, 3, 5, 7])
    -10
    """
    if not ranks:
        return 0
    bonus = BONUS if len(ranks) >= BONUS_LENGTH else 0
    # A handshake's rank is 0, so the sum of all ranks is the sum of the numbers.
    return (sum(ranks) - EXPEDITION_COST) * (1 + ranks.count(HANDSHAKE)) + bonus


@dataclass(frozen=True)
class GameScore:
    """The score of one round: per player and colour, and the totals.

    ``expeditions[i][k]`` is player ``i``'s score in ``colors[k]`` (player 0
    is Player1, who moves first).  ``complete`` is False when the record ends
    before the draw pile is spent: the score is then that of the round as it
    stands.

    >>> s = GameScore(("Ann", "Bob"), ("R", "G"), ((10, -6), (0, 3)), True)
    >>> s.totals, s.by_color(0), s.winner
    ((4, 3), {'R': 10, 'G': -6}, 'Ann')
    """

    players: Tuple[str, str]
    colors: Tuple[str, ...]
    expeditions: Tuple[Tuple[int, ...], Tuple[int, ...]]
    complete: bool = True

    @property
    def totals(self) -> Tuple[int, int]:
        """Each player's round score."""
        return sum(self.expeditions[0]), sum(self.expeditions[1])

    def by_color(self, player: int) -> Dict[str, int]:
        """Player ``player``'s (0 or 1) score per colour."""
        return dict(zip(self.colors, self.expeditions[player]))

    @property
    def winner(self) -> Optional[str]:
        """The name of the player with the higher total; None for a tie."""
        a, b = self.totals
        if a == b:
            return None
        return self.players[0] if a > b else self.players[1]
