"""The state of a round, replayed move by move.

:class:`GameState` holds what a record proves about a round: both players'
expeditions, the discard piles, the draw pile (its size, and its cards when
the deal is known), what is known of each hand, and so where every card can
be.  :meth:`GameState.apply` plays one move for the side to move and returns
the rules it breaks as :class:`~lcnotation.lostcities.game.violations.Violation` objects
(the facts of each case; the checker turns them into diagnostics); it never raises for a rules problem, and after one it goes on from the most
sensible state, so that later problems are still found and one typo does not
produce a cascade of errors.

>>> from lcnotation.lostcities.text.reader import parse_move
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

from typing import (TYPE_CHECKING, Dict, Iterable, List, NamedTuple, Optional, Sequence,
                    Set, Tuple, Union)

from ..text.ast import HANDSHAKE, Card, Draw, Game, Move, Placement
from ..text.headers import DEFAULT_COLORS
from ..text.lexical import COLOR_LETTERS, RANK_TEXT
from .scoring import GameScore, score_ranks
from ...core.display import draw
from .setup import (COPIES, DECK_RANKS, HAND_SIZE, Deal, Setup, as_pairs, deal_problems,
                    draw_pile_start, read_setup)

if TYPE_CHECKING:
    from .violations import Violation

__all__ = ["GameState", "Location", "Step"]

#: One move as the fused path plays it: colour, rank, discard, and the draw's
#: source (a colour, or None for the draw pile).
Step = Tuple[str, int, bool, Optional[str]]


class Location(NamedTuple):
    """Where one copy of a card is: ``kind`` is ``"expedition"``, ``"discard"``
    (its colour's discard pile), ``"hand"``, ``"draw pile"`` or ``"unknown"``
    (the draw pile or a hand, the record does not tell); ``player`` is 0 or 1
    for an expedition or a hand."""

    kind: str
    player: Optional[int] = None


class GameState:
    """A round of Lost Cities, from the deal to the last move applied.

    ``colors`` is the game's colour set; ``hands`` (a pair, either of them
    None when unknown) and ``deck`` (top card first) give the deal when it is
    known.  Players are numbered 0 (Player1, who moves first) and 1.

    >>> from lcnotation.lostcities.text.formatter import format_move
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
        parts = [None if h is None else as_pairs(h) for h in (hands or (None, None))]
        deck_pairs = None if deck is None else as_pairs(deck)
        problems = deal_problems(colors, {"Hand1": parts[0], "Hand2": parts[1],
                                          "Deck": deck_pairs})
        if problems:
            raise ValueError(problems[0].message)
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
                             else {c: list(COPIES) for c in colors})
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

        >>> from lcnotation.lostcities.text.reader import parse_move
        >>> state = GameState()
        >>> trial = state.copy()
        >>> trial.apply(parse_move("R5-D")), trial.turn, state.turn
        ([], 1, 0)
        """
        other = GameState.__new__(GameState)
        other.colors = self.colors
        other.players = self.players
        first, second = self._exp
        other._exp = ({c: list(e) for c, e in first.items()},
                      {c: list(e) for c, e in second.items()})
        other._piles = {c: list(pile) for c, pile in self._piles.items()}
        other._doubt = set(self._doubt)
        first, second = self._held
        other._held = ({c: list(row) for c, row in first.items()},
                       {c: list(row) for c, row in second.items()})
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
    def end_turn(self) -> Optional[int]:
        """The turn whose draw took the last card of the draw pile (None while
        the round goes on): the moves of later turns are not played.

        >>> from lcnotation.lostcities.game.generator import generate_game
        >>> game = generate_game(seed=3)
        >>> state = GameState.from_game(game)
        >>> _ = state.play(game.moves)
        >>> state.end_turn == len(game.moves) - 1
        True
        """
        return self._end_turn

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

    def top_of_draw_pile(self) -> Optional[Card]:
        """The card the next draw from the draw pile gives, when the deal makes it
        known (None otherwise, and once the pile is spent).

        >>> deck = [Card(c, r) for c in "RGWBY" for r in (0, 0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10)]
        >>> GameState(hands=(deck[:8], deck[8:16]), deck=deck[16:]).top_of_draw_pile()
        Card(color='G', rank=3)
        """
        deck = self._deck
        if not deck:
            return None
        c, r = deck[-1]
        return Card(c, r)

    def reveal(self, player: int, card: Union[Card, Tuple[str, int]]) -> None:
        """Learn that one of the unknown cards of ``player``'s hand is ``card``:
        what a player learns of the card it drew from the draw pile, when the
        state is its own view of the round (the deal of its own hand only).

        Raises ValueError when ``player`` holds no unknown card, or when every
        copy of ``card`` is known to be elsewhere.

        >>> mine = [Card("R", r) for r in (2, 3, 4, 5, 6, 7, 8, 9)]
        >>> view = GameState(hands=(mine, None))
        >>> from lcnotation.lostcities.text.reader import parse_move
        >>> view.apply(parse_move("R9-D")), view.unknown_count(0)
        ([], 1)
        >>> view.reveal(0, Card("B", 4))
        >>> view.hand(0)[-1], view.unknown_count(0)
        (Card(color='B', rank=4), 0)
        >>> view.reveal(0, Card("B", 4))
        Traceback (most recent call last):
        ...
        ValueError: Player 1 holds no unknown card
        """
        c, r = card[0], card[1]
        if not self._unknown[player]:
            raise ValueError(f"{self.players[player]} holds no unknown card")
        row = self._pool.get(c)
        if row is None or r not in DECK_RANKS or not row[r]:
            raise ValueError(f"{c}{RANK_TEXT.get(r, r)} cannot be an unknown card of "
                             f"{self.players[player]}: the game has no such card, or every "
                             "copy of it is known to be elsewhere")
        row[r] -= 1
        self._unknown[player] -= 1
        self._held[player][c][r] += 1

    def known_cards(self, player: int) -> Tuple[Card, ...]:
        """The cards known to be in ``player``'s hand (dealt, or drawn from a pile),
        by colour (in the game's order) and rank."""
        held = self._held[player]
        cards: List[Card] = []
        for c in self.colors:
            row = held[c]
            if any(row):  # most colours of a hand hold nothing: skip their ranks
                for r in DECK_RANKS:
                    if row[r]:
                        cards += [Card(c, r)] * row[r]
        return tuple(cards)

    def unknown_cards(self) -> Tuple[Card, ...]:
        """The cards whose place is not known: in the draw pile or among the unknown
        cards of a hand (with the whole deal known, none).

        >>> mine = [Card("R", r) for r in (2, 3, 4, 5, 6, 7, 8, 9)]
        >>> view = GameState(hands=(mine, None))
        >>> len(view.unknown_cards()), Card("R", 10) in view.unknown_cards()
        (52, True)
        """
        pool = self._pool
        return tuple(Card(c, r) for c in self.colors for r in DECK_RANKS
                     for _ in range(pool[c][r]))

    def unknown_count(self, player: int) -> int:
        """How many cards of ``player``'s hand are not known."""
        return self._unknown[player]

    def hand(self, player: int) -> Optional[Tuple[Card, ...]]:
        """``player``'s hand when it is known exactly, else None."""
        return None if self._unknown[player] else self.known_cards(player)

    def locate(self, card: Card) -> Tuple[Location, ...]:
        """Where the copies of ``card`` are (one Location per copy).

        >>> from lcnotation.lostcities.text.reader import parse_move
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
        return draw(self, "svg")

    def _repr_html_(self) -> str:
        """The board, for Jupyter (:func:`lcnotation.svg.board_html`)."""
        return draw(self, "html")

    def scores(self) -> GameScore:
        """The score of the round as it stands."""
        colors = self.colors
        first, second = (tuple(score_ranks(side[c]) for c in colors) for side in self._exp)
        return GameScore(self.players, colors, (first, second), self._high == 0)

    def totals(self) -> Tuple[int, int]:
        """Each player's score of the round as it stands: :meth:`scores`'
        totals, without the table.

        >>> from lcnotation.lostcities.text.reader import parse_move
        >>> state = GameState()
        >>> _ = state.apply(parse_move("R7-D"))
        >>> state.totals() == state.scores().totals == (-13, 0)
        True
        """
        first, second = self._exp
        return (sum(map(score_ranks, first.values())), sum(map(score_ranks, second.values())))

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
            for r in DECK_RANKS:
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

    def apply(self, move: Move) -> List[Violation]:
        """Play ``move`` for the side to move; return the rules it breaks.

        ``move.turn``, when set, says which turn the move is (the parser
        counts unreadable moves too): turns skipped before it make the state
        uncertain where the missing moves could have changed it.
        """
        return self.play((move,))

    def play(self, moves: Sequence[Move]) -> List[Violation]:
        """Play ``moves`` in order, as :meth:`apply` plays each; return the rules
        they break.

        A move after the last card of the draw pile was drawn is reported
        once (R109, with how many moves follow it), and it and the moves
        after it are not played.

        >>> from lcnotation.lostcities.text.reader import parse_game
        >>> state = GameState()
        >>> [d.code for d in state.play(parse_game("R7-D B4-D R4-D").moves)]
        ['R101']
        """
        found: List[Violation] = []
        exp: List[int] = []  # the expedition played on (set for each play)
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
                found.append(self._draw_back(move, turn, p))
                self._unknown_draw(p)
            else:
                pile = piles.get(source)
                if pile:
                    held_by[p][source][pile.pop()] += 1
                elif pile is not None and source in self._doubt:
                    unknown[p] += 1
                else:
                    found.append(self._bad_pile(move, turn, p, source, pile is None))
                    self._unknown_draw(p)
        return found

    def play_quietly(self, steps: Iterable[Step]) -> bool:
        """Play ``steps``, each ``(colour, rank, discard, source)`` of one move
        (``source`` None: the draw pile), for consecutive turns; True when
        :meth:`play` would report nothing for the same moves.

        Lint's fused path (:mod:`lcnotation.lostcities.fused`) replays clean
        games so, without building their moves.  At the first move
        :meth:`play` would report this stops and returns False, and the state
        is then undefined (the caller replays the game again with
        :meth:`play`).  Played without a problem, the state is the one
        :meth:`play` leaves (tests/test_fused.py holds the two equal).

        >>> state = GameState()
        >>> state.play_quietly([("R", 7, False, None), ("B", 0, True, None)])
        True
        >>> state.expedition(0, "R"), state.turn
        ((Card(color='R', rank=7),), 2)
        >>> GameState().play_quietly([("R", 7, False, None), ("B", 4, True, None),
        ...                           ("R", 4, False, None)])
        False
        """
        piles, pool, unknown = self._piles, self._pool, self._unknown
        # Nothing is forgotten on this path: the deal stays known (or not) and
        # no pile falls in doubt, so a draw from an empty pile is a problem.
        deck = self._deck
        turn = self._turn
        high, low = self._high, self._low
        end_turn = self._end_turn
        ok = True
        exp: List[int] = []  # the expedition played on (set for each play)
        # The mover's hand and expeditions, and the other player's: swapped
        # after each move.
        p = turn & 1
        held_me, held_you = self._held[p], self._held[1 - p]
        exp_me, exp_you = self._exp[p], self._exp[1 - p]
        try:
            for c, r, discard, source in steps:
                if not high:  # a move after the end (R109)
                    ok = False
                    break
                held = held_me[c]  # KeyError: a colour outside the game (R106)
                if not discard:
                    exp = exp_me[c]
                    if exp:
                        last = exp[-1]
                        if (r <= last) if r else (last != HANDSHAKE):  # R101, R102
                            ok = False
                            break
                if held[r]:
                    held[r] -= 1
                elif unknown[turn & 1] and pool[c][r]:
                    pool[c][r] -= 1
                    unknown[turn & 1] -= 1
                else:  # R103 to R105
                    ok = False
                    break
                if discard:
                    piles[c].append(r)
                else:
                    exp.append(r)
                if source is None:
                    if deck is not None:
                        dc, dr = deck.pop()
                        held_me[dc][dr] += 1
                    else:
                        unknown[turn & 1] += 1
                    high -= 1
                    if low:
                        low -= 1
                    if not high:
                        end_turn = turn
                elif source == c and discard:  # R108
                    ok = False
                    break
                else:
                    pile = piles[source]  # KeyError: a colour outside the game (R106)
                    if not pile:  # R107
                        ok = False
                        break
                    held_me[source][pile.pop()] += 1
                turn += 1
                held_me, held_you = held_you, held_me
                exp_me, exp_you = exp_you, exp_me
        except KeyError:
            ok = False
        self._turn, self._high, self._low, self._end_turn = turn, high, low, end_turn
        return ok

    # ------------------------------------------------------------ violations
    # The violations module is imported by the first violation: a clean
    # record never loads it.

    def _over(self, move: Move, turn: int, rest: int) -> Violation:
        from .violations import AfterEnd

        return AfterEnd(move.span, turn, self._end_turn, rest)

    def _draw_back(self, move: Move, turn: int, p: int) -> Violation:
        from .violations import DrawBack

        return DrawBack(move.span, turn, self.players[p], move.card)

    def _bad_pile(self, move: Move, turn: int, p: int, source: str, outside: bool
                  ) -> Violation:
        """A draw from ``source``'s discard pile, which is empty or not in the game."""
        from .violations import EmptyPile, OutsideColors

        if outside:
            return OutsideColors(move.span, turn, self.players[p], "draws", source, None,
                                 self.colors)
        return EmptyPile(move.span, turn, self.players[p], source)

    def _outside(self, move: Move, turn: int, p: int, c: str, discard: bool) -> Violation:
        from .violations import OutsideColors

        return OutsideColors(move.span, turn, self.players[p],
                             "discards" if discard else "plays", c, move.card, self.colors)

    def _out_of_order(self, move: Move, turn: int, p: int, c: str, r: int,
                      last: int) -> Violation:
        from .violations import HandshakeTooLate, NotHigher

        if r == HANDSHAKE:
            return HandshakeTooLate(move.span, turn, self.players[p], c, last)
        return NotHigher(move.span, turn, self.players[p], move.card, last)

    def _misplaced(self, move: Move, turn: int, p: int, c: str, r: int) -> Violation:
        """Why the mover cannot hold the card placed (all its copies are elsewhere)."""
        from .violations import HeldByOther, NotHeld, OnTable

        name = self.players[p]
        card = move.card
        places = []
        for q in (0, 1):
            places += [OnTable.expedition(self.players[q])] * self._exp[q][c].count(r)
        places += [OnTable.discard_pile(c)] * self._piles[c].count(r)
        if len(places) >= COPIES[r]:
            return OnTable(move.span, turn, name, card, places[0])
        if self._held[1 - p][c][r]:
            return HeldByOther(move.span, turn, name, card, self.players[1 - p])
        if self._deck is not None and (c, r) in self._deck:
            return NotHeld(move.span, turn, name, card, None)
        return NotHeld(move.span, turn, name, card, self.known_cards(p))

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
