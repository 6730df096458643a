"""What one player sees of a round: the view an engine chooses its move from.

A :class:`View` knows what the protocol tells its player and nothing else:
its own hand (dealt, then each card it drew), both players' expeditions, the
discard piles, the size of the draw pile and the moves made.  The opponent's
hand is known only where the table tells it (a card taken from a discard
pile); the order of the draw pile never.  It is a
:class:`~lcnotation.lostcities.game.state.GameState` set up with the player's own hand
alone, so every rule (the legal moves, the scores) is the game layer's.

>>> from lcnotation import Card, parse_move
>>> view = View("RGWBY", 0, [Card("R", r) for r in (2, 3, 4, 5, 6, 7, 8, 9)])
>>> len(view.legal_moves), view.draw_pile_size
(16, 44)
>>> view.played(parse_move("R2-D")); view.drew(Card("B", 7))
>>> view.opponent_moved(parse_move("G5D-D"))
>>> view.hand[-1], view.discard_top("G"), view.my_turn
(Card(color='B', rank=7), Card(color='G', rank=5), True)
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..lostcities.game.scoring import GameScore
from ..lostcities.game.state import GameState
from ..lostcities.text.ast import Card, Move
from ..lostcities.text.formatter import format_move

__all__ = ["View"]


class View:
    """One player's view of a round; see the module.

    ``seat`` is 0 for Player1 (who moves first) or 1.  The engine library keeps
    it up to date (:meth:`played`, :meth:`drew`, :meth:`opponent_moved`);
    ``time_for_move`` and ``game_time_left`` (seconds, None without a limit for
    the game) are those of the last request to move.
    """

    def __init__(self, colors: Iterable[str], seat: int, hand: Sequence[Card]) -> None:
        if seat not in (0, 1):
            raise ValueError(f"seat {seat!r}: 0 (Player1) or 1")
        hands: List[Optional[Sequence[Card]]] = [None, None]
        hands[seat] = hand
        self._state = GameState(colors, hands=hands)
        self.seat = seat
        self.colors: Tuple[str, ...] = self._state.colors
        self.moves: List[Move] = []
        self.time_for_move = 0.0
        self.game_time_left: Optional[float] = None
        self._legal: Optional[List[Move]] = None
        self._waiting_for_draw = False

    # ------------------------------------------------------------ what it sees

    @property
    def opponent(self) -> int:
        """The opponent's seat."""
        return 1 - self.seat

    @property
    def turn(self) -> int:
        """The 0-based index of the next move."""
        return self._state.turn

    @property
    def my_turn(self) -> bool:
        return self._state.to_move == self.seat and not self._state.is_over

    @property
    def hand(self) -> Tuple[Card, ...]:
        """The player's cards, by colour (in the game's order) then rank."""
        return self._state.known_cards(self.seat)

    @property
    def legal_moves(self) -> List[Move]:
        """Every legal move of the player (when it is to move)."""
        if self._legal is None:
            self._legal = self._state.legal_moves() if self.my_turn else []
        return self._legal

    def expedition(self, player: int, color: str) -> Tuple[Card, ...]:
        """Player ``player``'s expedition in ``color``, in the order played."""
        return self._state.expedition(player, color)

    def discard_pile(self, color: str) -> Tuple[Card, ...]:
        """``color``'s discard pile, bottom first (all of it is face up)."""
        return self._state.discard_pile(color)

    def discard_top(self, color: str) -> Optional[Card]:
        """The card a draw from ``color``'s discard pile would take."""
        pile = self._state.discard_pile(color)
        return pile[-1] if pile else None

    @property
    def draw_pile_size(self) -> int:
        return self._state.draw_pile_size

    @property
    def opponent_known_cards(self) -> Tuple[Card, ...]:
        """The cards the opponent is known to hold (taken from discard piles)."""
        return self._state.known_cards(self.opponent)

    def unseen_cards(self) -> Tuple[Card, ...]:
        """The cards the player has not seen: in the draw pile or the opponent's hand."""
        return self._state.unknown_cards()

    def scores(self) -> GameScore:
        """The score of the round as it stands (Player1's first)."""
        return self._state.scores()

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    def state(self) -> GameState:
        """A copy of the view as a game state, to try moves on (the opponent's
        unknown cards and the draw pile stay unknown in it)."""
        return self._state.copy()

    def by_color(self, cards: Iterable[Card]) -> Dict[str, List[Card]]:
        """``cards`` grouped by colour, each colour of the game present."""
        groups: Dict[str, List[Card]] = {c: [] for c in self.colors}
        for card in cards:
            groups[card.color].append(card)
        return groups

    # ------------------------------------------------------------ what it learns

    def played(self, move: Move) -> None:
        """The player made ``move`` (its drawn card comes with :meth:`drew`)."""
        self._legal = None
        self._state.apply(move)
        self.moves.append(move)
        self._waiting_for_draw = move.draw.from_draw_pile

    def drew(self, card: Card) -> None:
        """The card the player's last move drew (from the draw pile: now known)."""
        if self._waiting_for_draw:
            self._waiting_for_draw = False
            self._state.reveal(self.seat, card)

    def opponent_moved(self, move: Move) -> None:
        """The opponent made ``move``; ValueError when it breaks the rules as far as
        this player can tell (the runner would have refused it)."""
        if self._state.to_move != self.opponent or self._state.is_over:
            raise ValueError(f"the opponent's move {format_move(move)} came when it is not "
                             "the opponent's turn")
        self._legal = None
        broken = self._state.apply(move)
        self.moves.append(move)
        if broken:
            raise ValueError(f"the opponent's move {format_move(move)} is illegal: "
                             f"{broken[0].message}")
