"""The state of a round, replayed move by move.

:class:`GameState` holds what a record proves about a round: both players'
expeditions, the discard piles, the draw pile (its size, and its cards when
the deal is known), what is known of each hand, and so where every card can
be.  :meth:`GameState.apply` plays one move for the side to move and returns
the rules it breaks as :class:`~lcnotation.text.errors.Diagnostic` objects; it
never raises for a rules problem, and after one it goes on from the most
sensible state, so that later problems are still found and one typo does not
produce a cascade of errors.

>>> from lcnotation.text.reader import parse_move
>>> state = GameState(players=("North", "South"))
>>> state.apply(parse_move("R7-D")), state.apply(parse_move("BHD-D"))
([], [])
>>> [d.message for d in state.apply(parse_move("R4-B"))]
["Red 4 cannot follow Red 7 on North's expedition: number cards must go up"]
>>> state.expedition(0, "R"), state.draw_pile_size, state.to_move
((Card(color='R', rank=7), Card(color='R', rank=4)), 42, 1)

What a record cannot prove is never reported.  Without the deal the hands
are mostly unknown, so a card is only refused when it is known to be
elsewhere; with the deal (``Hand1``, ``Hand2`` and ``Deck``) every card's
place is known.  A turn the parser could not read (``move.turn`` jumps) makes
the mover's hand, the discard piles and the draw pile uncertain: the state
then assumes whatever keeps the record legal.
"""

from __future__ import annotations

from typing import (Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple,
                    Union)

from ..text.ast import HANDSHAKE, Card, Draw, Game, Header, Move, Placement, Span
from ..text.errors import Diagnostic, NotationError, Severity
from ..text.headers import DEFAULT_COLORS, parse_cards, parse_colors
from ..text.span import NO_SPAN, first_known
from ..text.lexical import COLOR_LETTERS, LEXICON, RANK_OF, RANKS
from .scoring import GameScore, score_ranks

__all__ = ["GameState", "Location", "Setup", "read_setup", "HAND_SIZE", "CARDS_PER_COLOR",
           "draw_pile_start", "card_name", "color_name", "NO_SPAN"]

#: Cards dealt to each player.
HAND_SIZE = 8
#: Three handshakes and the numbers 2 to 10.
CARDS_PER_COLOR = 12
#: Copies of each card, indexed by rank: three handshakes, one of each number.
_COPIES = (3, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1)
_RANKS = RANKS
_COLOR_NAMES = {"R": "Red", "G": "Green", "W": "White", "B": "Blue", "Y": "Yellow",
                "K": "Black", "P": "Purple"}

ERROR = Severity.ERROR
Deal = Tuple[Tuple[str, int], ...]


def draw_pile_start(colors: int) -> int:
    """The size of the draw pile after the deal.

    >>> draw_pile_start(5), draw_pile_start(6)
    (44, 56)
    """
    return max(0, CARDS_PER_COLOR * colors - 2 * HAND_SIZE)


def color_name(color: str) -> str:
    """``Red`` for ``R``; a colour without an English name keeps its letter."""
    return _COLOR_NAMES.get(color, color)


def card_name(color: str, rank: int) -> str:
    """A card as a player says it.

    >>> card_name("R", 7), card_name("B", HANDSHAKE), card_name("Q", 4)
    ('Red 7', 'Blue handshake', 'Q4')
    """
    name = _COLOR_NAMES.get(color)
    if name is None:
        return color + ("H" if rank == HANDSHAKE else str(rank))
    return f"{name} {'handshake' if rank == HANDSHAKE else rank}"


class Location(NamedTuple):
    """Where one copy of a card is: ``kind`` is ``"expedition"``, ``"discard"``
    (its colour's discard pile), ``"hand"``, ``"draw pile"`` or ``"unknown"``
    (the draw pile or a hand, the record does not tell); ``player`` is 0 or 1
    for an expedition or a hand."""

    kind: str
    player: Optional[int] = None


class Setup(NamedTuple):
    """What a game's headers say about the round, and what is wrong with them."""

    colors: Tuple[str, ...]
    players: Tuple[str, str]
    hands: Tuple[Optional[Deal], Optional[Deal]]
    deck: Optional[Deal]
    diagnostics: Tuple[Diagnostic, ...]


class GameState:
    """A round of Lost Cities, from the deal to the last move applied.

    ``colors`` is the game's colour set; ``hands`` (a pair, either of them
    None when unknown) and ``deck`` (top card first) give the deal when it is
    known.  Players are numbered 0 (Player1, who moves first) and 1.

    >>> from lcnotation.text.formatter import format_move
    >>> deck = [Card(c, r) for c in "RGWBY" for r in (0, 0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10)]
    >>> state = GameState(hands=(deck[:8], deck[8:16]), deck=deck[16:])
    >>> [format_move(m) for m in state.legal_moves()[:4]]
    ['RH-D', 'RHD-D', 'R2-D', 'R2D-D']
    >>> state.hand(1)[:2], state.draw_pile()[0]
    ((Card(color='R', rank=7), Card(color='R', rank=8)), Card(color='G', rank=3))
    """

    __slots__ = ("colors", "players", "_exp", "_piles", "_doubt", "_held", "_pool",
                 "_unknown", "_deck", "_high", "_low", "_turn", "_end_turn", "_certain")

    def __init__(
        self,
        colors: Iterable[str] = DEFAULT_COLORS,
        hands: Optional[Sequence[Optional[Iterable[Union[Card, Tuple[str, int]]]]]] = None,
        deck: Optional[Iterable[Union[Card, Tuple[str, int]]]] = None,
        players: Sequence[str] = ("Player 1", "Player 2"),
    ) -> None:
        colors = tuple(letter.upper() for letter in colors)
        for letter in colors:
            if letter not in COLOR_LETTERS:
                raise ValueError(f"{letter!r} is not a colour letter: a colour is one "
                                 "upper-case letter other than D, H and X")
        if len(set(colors)) != len(colors) or not colors:
            raise ValueError(f"colours {''.join(colors)!r}: expected distinct letters")
        parts = [None if h is None else _pairs(h) for h in (hands or (None, None))]
        deck_pairs = None if deck is None else _pairs(deck)
        problems = deal_problems(colors, {"Hand1": parts[0], "Hand2": parts[1],
                                          "Deck": deck_pairs})
        if problems:
            raise ValueError(problems[0][1])
        self._setup(colors, (str(players[0]), str(players[1])), parts, deck_pairs)

    def _setup(self, colors: Tuple[str, ...], players: Tuple[str, str],
               hands: Sequence[Optional[Deal]], deck: Optional[Deal]) -> None:
        """Set up the round from a deal that is known to be sound."""
        self.colors = colors
        self.players = players
        self._exp: Tuple[Dict[str, List[int]], Dict[str, List[int]]] = (
            {c: [] for c in colors}, {c: [] for c in colors})
        self._piles: Dict[str, List[int]] = {c: [] for c in colors}
        # Colours whose discard pile may hold cards below those we know of.
        self._doubt: Set[str] = set()
        # Copies of each card known to be in each hand, by colour and rank.
        self._held: Tuple[Dict[str, List[int]], Dict[str, List[int]]] = (
            {c: [0] * 11 for c in colors}, {c: [0] * 11 for c in colors})
        # Copies of each card whose place is unknown: the draw pile (when the
        # deal is not known), the unknown cards of the hands, doubtful piles.
        # With a sound deal of the whole deck, every card's place is known.
        whole = deck is not None and None not in hands
        pool = self._pool = ({c: [0] * 11 for c in colors} if whole
                             else {c: list(_COPIES) for c in colors})
        self._unknown = [HAND_SIZE, HAND_SIZE]
        # The known draw pile, top card last (so drawing is a pop).
        self._deck: Optional[List[Tuple[str, int]]] = None
        # The draw pile holds between _low and _high cards (equal unless a
        # turn could not be read).
        self._high = self._low = draw_pile_start(len(colors))
        self._turn = 0
        self._end_turn: Optional[int] = None
        self._certain = True
        for p, hand in enumerate(hands):
            if hand is not None:
                held = self._held[p]
                for c, r in hand:
                    held[c][r] += 1
                if not whole:
                    for c, r in hand:
                        pool[c][r] -= 1
                self._unknown[p] = 0
        if deck is not None:
            if not whole:
                for c, r in deck:
                    pool[c][r] -= 1
            self._deck = list(reversed(deck))

    @classmethod
    def from_game(cls, game: Game) -> GameState:
        """The state at the start of ``game``, from its headers.

        Header values that cannot be used (see :func:`read_setup`) are left
        out: an unreadable Colors header gives its readable letters, a deal
        with a problem is not used.
        """
        return cls.from_setup(read_setup(game))

    @classmethod
    def from_setup(cls, setup: Setup) -> GameState:
        """The state at the start of the round ``setup`` describes (its deal was
        checked by :func:`read_setup`)."""
        state = cls.__new__(cls)
        state._setup(setup.colors, setup.players, setup.hands, setup.deck)
        return state

    def copy(self) -> GameState:
        """An independent copy, to try moves on.

        >>> from lcnotation.text.reader import parse_move
        >>> state = GameState()
        >>> trial = state.copy()
        >>> trial.apply(parse_move("R5-D")), trial.turn, state.turn
        ([], 1, 0)
        """
        other = GameState.__new__(GameState)
        other.colors = self.colors
        other.players = self.players
        other._exp = tuple({c: list(e) for c, e in side.items()} for side in self._exp)
        other._piles = {c: list(pile) for c, pile in self._piles.items()}
        other._doubt = set(self._doubt)
        other._held = tuple({c: list(row) for c, row in side.items()} for side in self._held)
        other._pool = {c: list(row) for c, row in self._pool.items()}
        other._unknown = list(self._unknown)
        other._deck = None if self._deck is None else list(self._deck)
        other._high, other._low = self._high, self._low
        other._turn, other._end_turn, other._certain = self._turn, self._end_turn, self._certain
        return other

    # ------------------------------------------------------------ reading

    @property
    def turn(self) -> int:
        """The 0-based index of the next turn."""
        return self._turn

    @property
    def to_move(self) -> int:
        """The player to move next: 0 (Player1) or 1."""
        return self._turn & 1

    @property
    def draw_pile_size(self) -> int:
        """Cards left in the draw pile (at most this many, when uncertain)."""
        return self._high

    @property
    def draw_pile_range(self) -> Tuple[int, int]:
        """The fewest and the most cards the draw pile can hold."""
        return self._low, self._high

    @property
    def is_over(self) -> bool:
        """True once the last card of the draw pile has been drawn."""
        return self._high == 0

    @property
    def certain(self) -> bool:
        """False once a turn was skipped or a move had to be guessed at: the
        state then only holds what the record still proves."""
        return self._certain

    def expedition(self, player: int, color: str) -> Tuple[Card, ...]:
        """Player ``player``'s expedition in ``color``, in the order played."""
        return tuple(Card(color, r) for r in self._exp[player][color])

    def discard_pile(self, color: str) -> Tuple[Card, ...]:
        """The known cards of ``color``'s discard pile, bottom first, top last."""
        return tuple(Card(color, r) for r in self._piles[color])

    def draw_pile(self) -> Optional[Tuple[Card, ...]]:
        """The draw pile, top card first, when the deal makes it known."""
        if self._deck is None:
            return None
        return tuple(Card(c, r) for c, r in reversed(self._deck))

    def known_cards(self, player: int) -> Tuple[Card, ...]:
        """The cards known to be in ``player``'s hand (dealt, or drawn from a pile)."""
        return tuple(Card(c, r) for c in self.colors
                     for r in _RANKS for _ in range(self._held[player][c][r]))

    def unknown_count(self, player: int) -> int:
        """How many cards of ``player``'s hand are not known."""
        return self._unknown[player]

    def hand(self, player: int) -> Optional[Tuple[Card, ...]]:
        """``player``'s hand when it is known exactly, else None."""
        return None if self._unknown[player] else self.known_cards(player)

    def locate(self, card: Card) -> Tuple[Location, ...]:
        """Where the copies of ``card`` are (one Location per copy).

        >>> from lcnotation.text.reader import parse_move
        >>> state = GameState()
        >>> _ = state.apply(parse_move("R5D-D"))
        >>> state.locate(Card("R", 5))
        (Location(kind='discard', player=None),)
        >>> state.locate(Card("G", HANDSHAKE))[0]
        Location(kind='unknown', player=None)
        """
        c, r = card.color, card.rank
        if c not in self._pool:
            return ()
        found: List[Location] = []
        for p in (0, 1):
            found += [Location("expedition", p)] * self._exp[p][c].count(r)
        found += [Location("discard")] * self._piles[c].count(r)
        for p in (0, 1):
            found += [Location("hand", p)] * self._held[p][c][r]
        if self._deck is not None:
            found += [Location("draw pile")] * self._deck.count((c, r))
        found += [Location("unknown")] * self._pool[c][r]
        return tuple(found)

    def _repr_svg_(self) -> str:
        """The board, for Jupyter (:func:`lcnotation.svg.board_svg`)."""
        from ..svg import NOTEBOOK_SIZE, board_svg  # only when a notebook asks

        return board_svg(self, size=NOTEBOOK_SIZE)

    def _repr_html_(self) -> str:
        """The board, for Jupyter (:func:`lcnotation.svg.board_html`)."""
        from ..svg import board_html  # only when a notebook asks

        return board_html(self)

    def scores(self) -> GameScore:
        """The score of the round as it stands."""
        colors = self.colors
        first, second = (tuple(score_ranks(side[c]) for c in colors) for side in self._exp)
        return GameScore(self.players, colors, (first, second), self._high == 0)

    def legal_moves(self) -> List[Move]:
        """Every legal move of the side to move (empty once the round is over).

        Needs the mover's hand: raises ValueError when it is not known
        exactly (give the deal headers), or when unreadable turns made the
        discard piles uncertain.

        >>> GameState().legal_moves()
        Traceback (most recent call last):
        ...
        ValueError: the hand of Player 1 is not known (8 of its cards are unknown): legal moves need the deal (Hand1, Hand2 and Deck)
        """
        if self._high == 0:
            return []
        p = self._turn & 1
        if self._unknown[p]:
            raise ValueError(f"the hand of {self.players[p]} is not known ({self._unknown[p]} "
                             "of its cards are unknown): legal moves need the deal (Hand1, "
                             "Hand2 and Deck)")
        if self._doubt:
            raise ValueError("the discard piles are uncertain after an unreadable or broken "
                             "move: legal moves cannot be listed")
        sources = [None] + [c for c in self.colors if self._piles[c]]
        draws = {c: Draw(c) for c in sources}
        moves: List[Move] = []
        turn = self._turn
        for c in self.colors:
            exp = self._exp[p][c]
            last = exp[-1] if exp else -1
            row = self._held[p][c]
            for r in _RANKS:
                if not row[r]:
                    continue
                card = Card(c, r)
                if last < 0 or (r > last if r else last == HANDSHAKE):
                    play = Placement(card)
                    moves += [Move(play, draws[s], turn=turn) for s in sources]
                discard = Placement(card, True)
                moves += [Move(discard, draws[s], turn=turn) for s in sources if s != c]
        return moves

    # ------------------------------------------------------------ playing

    def apply(self, move: Move) -> List[Diagnostic]:
        """Play ``move`` for the side to move; return the rules it breaks.

        ``move.turn``, when set, says which turn the move is (the parser
        counts unreadable moves too): turns skipped before it make the state
        uncertain where the missing moves could have changed it.
        """
        return self.play((move,))

    def play(self, moves: Sequence[Move]) -> List[Diagnostic]:
        """Play ``moves`` in order, as :meth:`apply` plays each; return the rules
        they break.

        A move after the last card of the draw pile was drawn is reported
        once (R109, with how many moves follow it), and it and the moves
        after it are not played.

        >>> from lcnotation.text.reader import parse_game
        >>> state = GameState()
        >>> [d.code for d in state.play(parse_game("R7-D B4-D R4-D").moves)]
        ['R101']
        """
        found: List[Diagnostic] = []
        # The tables below are changed in place, never replaced; the draw
        # pile (_deck) may be forgotten by any move, so it is read each time.
        held_by, exp_by, piles, pool, unknown = (self._held, self._exp, self._piles,
                                                 self._pool, self._unknown)
        for i, move in enumerate(moves):
            turn = move.turn
            now = self._turn
            if turn is None or turn == now:
                turn = now
            elif turn > now:
                self._skip(turn)
            else:
                turn = now
            p = turn & 1
            self._turn = turn + 1
            if not self._high:
                found.append(self._over(move, turn, len(moves) - i - 1))
                break
            placement = move.placement
            card = placement.card
            c = card.color
            r = card.rank
            discard = placement.discard
            held = held_by[p].get(c)
            if held is None:
                found.append(self._outside(move, turn, p, c, discard))
                self._lose_unknown_card(p)
                if discard:
                    self._forget_piles()
            else:
                misplayed = False
                named = True  # the card placed is the one the move names
                if not discard:
                    exp = exp_by[p][c]
                    if exp:
                        last = exp[-1]
                        # A number must beat the last card; a handshake may
                        # only follow handshakes.
                        if (r <= last) if r else (last != HANDSHAKE):
                            found.append(self._out_of_order(move, turn, p, c, r, last))
                            misplayed = True
                if misplayed:
                    # Most likely a typo: the card named stays where it was, so
                    # that its real play later is not refused.
                    self._lose_unknown_card(p)
                elif held[r]:
                    held[r] -= 1
                elif unknown[p] and pool[c][r]:
                    pool[c][r] -= 1
                    unknown[p] -= 1
                else:
                    found.append(self._misplaced(move, turn, p, c, r))
                    self._lose_unknown_card(p)
                    named = False
                if not discard:
                    exp.append(r)
                elif named:
                    piles[c].append(r)
                else:
                    # The card really discarded is unknown, and so is its pile.
                    self._forget_piles()
            source = move.draw.color
            if source is None:
                deck = self._deck
                if deck is not None:
                    dc, dr = deck.pop()
                    held_by[p][dc][dr] += 1
                else:
                    unknown[p] += 1
                self._high -= 1
                if self._low:
                    self._low -= 1
                if not self._high:
                    self._end_turn = turn
            elif source == c and discard:
                found.append(self._diag(
                    "R108", f"{self.players[p]} cannot draw back the {card_name(c, r)}: a "
                    "card discarded this turn stays on its pile until the next turn", move,
                    turn))
                self._unknown_draw(p)
            else:
                pile = piles.get(source)
                if pile:
                    held_by[p][source][pile.pop()] += 1
                elif pile is not None and source in self._doubt:
                    unknown[p] += 1
                else:
                    if pile is None:
                        found.append(self._diag(
                            "R106", f"{self.players[p]} draws from the {source} discard pile, "
                            f"but {source} is not one of this game's colours "
                            f"({''.join(self.colors)})", move, turn))
                    else:
                        found.append(self._diag(
                            "R107", f"{self.players[p]} draws from the {color_name(source)} "
                            "discard pile, but it is empty", move, turn))
                    self._unknown_draw(p)
        return found

    # ------------------------------------------------------------ diagnostics

    @staticmethod
    def _diag(code: str, message: str, move: Move, turn: int,
              severity: Severity = ERROR) -> Diagnostic:
        return Diagnostic(code, message, move.span, severity, None, turn)

    def _over(self, move: Move, turn: int, rest: int) -> Diagnostic:
        when = "" if self._end_turn is None else f" on turn {self._end_turn + 1}"
        more = ("" if not rest else " (1 more move follows)" if rest == 1
                else f" ({rest} more moves follow)")
        return self._diag("R109", f"the round is over: the last card of the draw pile was "
                          f"drawn{when}, and no move may follow it{more}", move, turn)

    def _outside(self, move: Move, turn: int, p: int, c: str, discard: bool) -> Diagnostic:
        verb = "discards" if discard else "plays"
        return self._diag("R106", f"{self.players[p]} {verb} {card_name(c, move.card.rank)}, "
                          f"but {c} is not one of this game's colours ({''.join(self.colors)})",
                          move, turn)

    def _out_of_order(self, move: Move, turn: int, p: int, c: str, r: int,
                      last: int) -> Diagnostic:
        name = self.players[p]
        if r == HANDSHAKE:
            return self._diag("R102", f"{name} cannot add a {color_name(c)} handshake after "
                              f"{card_name(c, last)}: handshakes go before any number card",
                              move, turn)
        return self._diag("R101", f"{card_name(c, r)} cannot follow {card_name(c, last)} on "
                          f"{name}'s expedition: number cards must go up", move, turn)

    def _misplaced(self, move: Move, turn: int, p: int, c: str, r: int) -> Diagnostic:
        """Why the mover cannot hold the card placed (all its copies are elsewhere)."""
        name = self.players[p]
        other = self.players[1 - p]
        card = card_name(c, r)
        places = []
        for q in (0, 1):
            places += [f"on {self.players[q]}'s expedition"] * self._exp[q][c].count(r)
        places += [f"in the {color_name(c)} discard pile"] * self._piles[c].count(r)
        if len(places) >= _COPIES[r]:
            if r == HANDSHAKE:
                return self._diag("R103", f"{name} cannot place a {card}: all three "
                                  f"{color_name(c)} handshakes are already on the table",
                                  move, turn)
            return self._diag("R103", f"{name} cannot place {card}: it is already "
                              f"{places[0]}, and there is only one {card}", move, turn)
        if self._held[1 - p][c][r]:
            return self._diag("R104", f"{name} cannot place {card}: {other} holds it", move, turn)
        if self._deck is not None and (c, r) in self._deck:
            why = "by the deal it is still in the draw pile"
        else:
            hand = ", ".join(card_name(k.color, k.rank) for k in self.known_cards(p))
            why = f"{name}'s hand is {hand}" if hand else f"{name}'s hand is empty"
        return self._diag("R105", f"{name} does not hold {card}: {why}", move, turn)

    # ------------------------------------------------------------ uncertainty

    def _skip(self, turn: int) -> None:
        """Turns up to ``turn`` could not be read: each played an unknown card
        and drew from an unknown source."""
        for missing in range(self._turn, turn):
            self._forget_hand(missing & 1)
            self._unknown_draw_source()
        self._turn = turn

    def _lose_unknown_card(self, p: int) -> None:
        """Player ``p`` placed a card we cannot name (a typo, most likely)."""
        self._forget_hand(p)
        if self._unknown[p]:
            self._unknown[p] -= 1

    def _unknown_draw(self, p: int) -> None:
        """Player ``p`` drew a card from a source we cannot name."""
        self._unknown[p] += 1
        self._unknown_draw_source()

    def _unknown_draw_source(self) -> None:
        # The card may have come from the draw pile or from any discard pile.
        self._certain = False
        self._forget_piles()
        if self._deck is not None:
            pool = self._pool
            for c, r in self._deck:
                pool[c][r] += 1
            self._deck = None
        if self._low:
            self._low -= 1

    def _forget_hand(self, p: int) -> None:
        """Forget which cards ``p`` holds: they are back among the unknown ones."""
        self._certain = False
        held = self._held[p]
        pool = self._pool
        count = self._unknown[p]
        for c, row in held.items():
            if any(row):
                known = pool[c]
                for r, n in enumerate(row):
                    known[r] += n
                    count += n
                held[c] = [0] * 11
        self._unknown[p] = count

    def _forget_piles(self) -> None:
        """Any discard pile may have gained or lost cards we cannot name."""
        self._certain = False
        pool = self._pool
        for c, pile in self._piles.items():
            known = pool[c]
            for r in pile:
                known[r] += 1
            pile.clear()
            self._doubt.add(c)


# ---------------------------------------------------------------- the deal


def _pairs(cards: Iterable[Union[Card, Tuple[str, int]]]) -> Deal:
    """``(colour, rank)`` pairs, from cards or pairs (a Card starts with both)."""
    return tuple((k[0], k[1]) for k in cards)


def deal_problems(colors: Sequence[str], parts: Dict[str, Optional[Deal]]
                  ) -> List[Tuple[str, str, str, int]]:
    """What is wrong with the known parts of a deal.

    ``parts`` maps ``Hand1``, ``Hand2`` and ``Deck`` to their cards (None when
    not given).  Each problem is ``(code, message, part, index)``: the part
    and the index of the card concerned (-1 for the part as a whole).

    >>> deal_problems("RGWBY", {"Hand1": (("R", 3),) * 2, "Hand2": None, "Deck": None})
    [('R201', 'Hand1 holds 2 cards: each player is dealt 8', 'Hand1', -1), ('R202', 'Red 3 is dealt twice (Hand1): there is only one Red 3', 'Hand1', 1)]
    """
    hand1, hand2, deck = parts.get("Hand1"), parts.get("Hand2"), parts.get("Deck")
    if hand1 is not None and hand2 is not None and deck is not None \
            and len(hand1) == len(hand2) == HAND_SIZE \
            and sorted(map(_CARD_CODES.__getitem__, hand1 + hand2 + deck)) == _full_deck(colors):
        return []
    expected = {"Hand1": HAND_SIZE, "Hand2": HAND_SIZE, "Deck": draw_pile_start(len(colors))}
    problems: List[Tuple[str, str, str, int]] = []
    # How many times each card was dealt, and in which parts (in order; a dict
    # of at most three keys, so that a huge header costs linear time).
    seen: Dict[Tuple[str, int], int] = {}
    dealt_in: Dict[Tuple[str, int], Dict[str, None]] = {}
    known = set(colors)
    for part, cards in parts.items():
        if cards is None:
            continue
        if len(cards) != expected[part]:
            whom = "each player is dealt" if part != "Deck" else "after the deal the draw pile holds"
            plural = "" if len(cards) == 1 else "s"
            problems.append(("R201", f"{part} holds {len(cards)} card{plural}: {whom} "
                             f"{expected[part]}", part, -1))
        for i, key in enumerate(cards):
            c, r = key
            if c not in known:
                problems.append(("R202", f"{card_name(c, r)} is not a card of this game: its "
                                 f"colours are {''.join(colors)}", part, i))
                continue
            n = seen[key] = seen.get(key, 0) + 1
            where = dealt_in.setdefault(key, {})
            where[part] = None
            if n > _COPIES[r]:
                times = {2: "twice", 4: "four times"}.get(n, f"{n} times")
                only = f"only one {card_name(c, r)}" if r else \
                    f"three {color_name(c)} handshakes"
                problems.append(("R202", f"{card_name(c, r)} is dealt {times} "
                                 f"({' and '.join(where)}): there is {only}", part, i))
    if all(parts.get(k) is not None for k in expected):
        missing = [card_name(c, r) for c in colors for r in _RANKS
                   for _ in range(_COPIES[r] - seen.get((c, r), 0))]
        if missing:
            problems.append(("R203", f"the deal misses {len(missing)} card"
                             f"{'s' if len(missing) > 1 else ''} of the full deck: "
                             f"{', '.join(missing)}", "Deck", -1))
    return problems


# Every card as written in a deal header, with its (colour, rank) pair.
_CARD_PAIRS = {letter + rank: (color, value) for letter, color in LEXICON.upper.items()
               for rank, value in RANK_OF.items()}
# Every card as a small number (sorting numbers is quicker than sorting pairs).
_CARD_CODES = {pair: ord(pair[0]) * 16 + pair[1] for pair in _CARD_PAIRS.values()}
_full_decks: Dict[Tuple[str, ...], List[int]] = {}
_colors_seen: Dict[str, Tuple[str, ...]] = {}


def _full_deck(colors: Sequence[str]) -> List[int]:
    """Every card of the colours, as the sorted numbers of ``_CARD_CODES``."""
    key = tuple(colors)
    deck = _full_decks.get(key)
    if deck is None:
        deck = sorted(_CARD_CODES[c, r] for c in key for r in _RANKS for _ in range(_COPIES[r]))
        if len(_full_decks) > 64:
            _full_decks.clear()
        _full_decks[key] = deck
    return deck


def _cards_of(header: Header) -> Deal:
    """The cards of a deal header; raises NotationError (with positions)."""
    # Cards separated by single spaces, by far the common case, skip the
    # grammar (which reads them the same); anything else goes through it.
    try:
        return tuple(map(_CARD_PAIRS.__getitem__, header.value.split(" ")))
    except KeyError:
        return _pairs(parse_cards(header))


def _colors_of(header: Header) -> Tuple[str, ...]:
    colors = _colors_seen.get(header.value)
    if colors is None:
        colors = parse_colors(header)
        if len(_colors_seen) > 256:
            _colors_seen.clear()
        _colors_seen[header.value] = colors
    return colors


def _where(header: Optional[Header]) -> Span:
    if header is None:
        return NO_SPAN
    return first_known(header.value_span, header.span)


def read_setup(game: Game, default_colors: Tuple[str, ...] = DEFAULT_COLORS) -> Setup:
    """Read the Colors, Player1/Player2 and deal headers of ``game``.

    ``default_colors`` are the colours of a game without a Colors header.

    Problems become diagnostics: syntax (``N120``, ``N121``) and rules
    (``R201`` to ``R203``, ``R205``).  An unreadable Colors header yields its
    readable colour letters; a deal with any problem is not used.

    >>> from lcnotation.text.reader import parse_game
    >>> setup = read_setup(parse_game('[Colors "RGWBYK"] [Hand1 "R3"]'))
    >>> setup.colors, setup.hands, [d.code for d in setup.diagnostics]
    (('R', 'G', 'W', 'B', 'Y', 'K'), (None, None), ['R201'])
    """
    found: Dict[str, Header] = {}
    for h in game.headers:
        if h.name not in found:
            found[h.name] = h
    diagnostics: List[Diagnostic] = []
    colors = default_colors
    header = found.get("Colors")
    if header is not None:
        try:
            colors = _colors_of(header)
        except NotationError as err:
            diagnostics.append(err.to_diagnostic())
            letters = dict.fromkeys(ch for ch in header.value.upper() if ch in COLOR_LETTERS)
            colors = tuple(letters) or DEFAULT_COLORS
        if len(colors) not in (5, 6):
            diagnostics.append(Diagnostic(
                "R205", f"Colors lists {len(colors)} colour{'s' if len(colors) != 1 else ''}: "
                "Lost Cities is played with 5 or 6", _where(header), Severity.WARNING))
    players = tuple((found[k].value.strip() if k in found else "") or f"Player {i}"
                    for i, k in ((1, "Player1"), (2, "Player2")))
    parts: Dict[str, Optional[Deal]] = {}
    for name in ("Hand1", "Hand2", "Deck"):
        header = found.get(name)
        if header is None:
            parts[name] = None
            continue
        try:
            parts[name] = _cards_of(header)
        except NotationError as err:
            diagnostics.append(err.to_diagnostic())
            parts[name] = None
    hands: Tuple[Optional[Deal], Optional[Deal]] = (parts["Hand1"], parts["Hand2"])
    deck = parts["Deck"]
    if hands != (None, None) or deck is not None:
        problems = deal_problems(colors, parts)
        if problems:
            # Each part is read for positions once, not once per problem.
            read: Dict[str, Tuple[Card, ...]] = {}
            for code, message, part, index in problems:
                diagnostics.append(Diagnostic(code, message,
                                              _card_span(found[part], index, read)))
            hands, deck = (None, None), None
    return Setup(colors, players, hands, deck, tuple(diagnostics))  # type: ignore[arg-type]


def _card_span(header: Header, index: int, read: Dict[str, Tuple[Card, ...]]) -> Span:
    """The position of card ``index`` of a deal header (the header's value for -1);
    ``read`` keeps the cards of the headers already read."""
    if index >= 0:
        cards = read.get(header.name)
        if cards is None:
            try:
                cards = read[header.name] = tuple(parse_cards(header))
            except NotationError:
                cards = read[header.name] = ()
        if index < len(cards) and cards[index].span.known:
            return cards[index].span
    return _where(header)
