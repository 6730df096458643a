"""The two engines that ship: ``lcn bot random`` and ``lcn bot greedy``.

:class:`RandomBot` makes a uniformly random legal move (option ``seed``: 0
draws a seed from the system, any other value repeats its games).
:class:`GreedyBot` weighs each legal move with a few rules of thumb (play the
lowest card that fits an expedition, start an expedition only with enough in
hand to pay for it, discard what it cannot use and the opponent cannot either,
take a discard it can play next) and makes the best; it beats RandomBot by
far, and is deterministic.

>>> from lcnotation import Card
>>> from lcnotation.engine.view import View
>>> hand = [Card("R", r) for r in (2, 3, 4, 5, 6, 7, 8, 9)]
>>> from lcnotation import format_move
>>> format_move(GreedyBot().choose(View("RGWBY", 0, hand)))
'R2-D'
"""

from __future__ import annotations

import random
from typing import Dict, List, Optional, Tuple

from ..lostcities.text.ast import HANDSHAKE, Card, Move
from .bot import Engine
from .protocol import Option, OptionValue
from .view import View

__all__ = ["RandomBot", "GreedyBot", "BOTS"]


class RandomBot(Engine):
    """A uniformly random legal move."""

    name = "Random"
    author = "lcnotation"
    options = (Option("seed", "int", 0),)

    def __init__(self) -> None:
        super().__init__()
        self._rng = random.Random()

    def set_option(self, name: str, value: OptionValue) -> None:
        super().set_option(name, value)
        if name == "seed" and isinstance(value, int) and value:
            self._rng.seed(value)

    def choose(self, view: View) -> Move:
        return self._rng.choice(view.legal_moves)


#: What an expedition must be worth, from the cards in hand, to be started.
_START_AT = 22


class GreedyBot(Engine):
    """The best legal move by a few rules of thumb; see the module."""

    name = "Greedy"
    author = "lcnotation"

    def choose(self, view: View) -> Move:
        me, other = view.seat, view.opponent
        tops = {c: _last(view.expedition(me, c)) for c in view.colors}
        theirs = {c: _last(view.expedition(other, c)) for c in view.colors}
        ranks = {c: [k.rank for k in cards] for c, cards in view.by_color(view.hand).items()}
        piles = {c: top.rank for c in view.colors
                 if (top := view.discard_top(c)) is not None}
        left = view.draw_pile_size
        late = left < 8
        placed: Dict[Tuple[str, int, bool], float] = {}  # a placement comes with each draw
        best: Optional[Tuple[float, int]] = None
        moves = view.legal_moves
        for i, move in enumerate(moves):
            placement = move.placement
            c, r = placement.card.color, placement.card.rank
            key = (c, r, placement.discard)
            value = placed.get(key)
            if value is None:
                value = placed[key] = (
                    self._discard(r, tops[c], theirs[c], ranks[c]) if placement.discard
                    else self._play(r, tops[c], ranks[c], late, left))
            source = move.draw.color
            if source is not None:
                after = r if (not placement.discard and source == c) else tops[source]
                value += self._take(piles[source], after, ranks[source])
            if best is None or (value, -i) > best:
                best = (value, -i)
        assert best is not None, "no legal move"
        return moves[-best[1]]

    @staticmethod
    def _play(rank: int, last: Optional[int], ranks: List[int], late: bool,
              left: int) -> float:
        if last is not None:
            floor = max(last, 1)
            # Cards of the hand this play leaves behind for good, and ranks skipped.
            dead = sum(1 for k in ranks if floor < k < rank or (k == HANDSHAKE and rank))
            skipped = rank - floor - 1 if rank else 0
            return 30 - 12 * dead - 1.5 * skipped
        numbers = [k for k in ranks if k >= max(rank, 2)]
        handshakes = ranks.count(HANDSHAKE)
        worth = sum(numbers) * (1 + handshakes if rank == HANDSHAKE else 1)
        if late and len(numbers) * 2 > left:
            return -40
        if rank == HANDSHAKE:
            return (sum(numbers) - _START_AT - 6) * 2
        dead = handshakes
        return (worth - _START_AT) * 1.5 - 10 * dead - rank

    @staticmethod
    def _discard(rank: int, last: Optional[int], theirs: Optional[int],
                 ranks: List[int]) -> float:
        mine_dead = last is not None and ((rank <= last) if rank else (last != HANDSHAKE))
        value = 6.0 if mine_dead else -3.0 - (rank or 4) / 2
        if theirs is not None and (rank > theirs if rank else theirs == HANDSHAKE):
            value -= 4 + (rank or 6)  # a gift to the opponent
        if last is None and len(ranks) <= 1:
            value += 2  # a colour it holds nothing else of
        return value

    @staticmethod
    def _take(rank: int, last: Optional[int], ranks: List[int]) -> float:
        if last is None:
            return -6.0
        floor = max(last, 1)
        if rank > floor and not any(floor < k < rank for k in ranks):
            return 10.0 - (rank - floor)
        return -6.0


def _last(expedition: Tuple[Card, ...]) -> Optional[int]:
    """The rank of an expedition's last card, None when it has none."""
    return expedition[-1].rank if expedition else None


#: The engines ``lcn bot`` runs, by name.
BOTS = {"random": RandomBot, "greedy": GreedyBot}
