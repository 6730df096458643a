"""The deck, the deal, and the round a game's headers set up.

:func:`read_setup` reads the ``Colors``, ``Player1``/``Player2`` and deal
headers (``Hand1``, ``Hand2``, ``Deck``) of a game into a :class:`Setup`,
with what is wrong with them; :func:`deal_problems` checks a deal against
the deck.  Problems are reported as data
(:class:`~lcnotation.lostcities.game.violations.Violation`), worded in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..text.ast import HANDSHAKE, Card, Game, Header, Span
from ...core.diagnostics import Diagnostic, NotationError
from ..text.formatter import format_card
from ..text.headers import CARD_WORDS, DEFAULT_COLORS, parse_cards, parse_colors
from ...core.span import NO_SPAN, first_known
from ..text.lexical import COLOR_LETTERS

if TYPE_CHECKING:
    from .violations import DealMisses, DealSize, DealtTooOften, NotInDeck

__all__ = ["HAND_SIZE", "COLOR_COUNTS", "COLOR_DECK", "DECK_RANKS", "CARDS_PER_COLOR", "COPIES", "Deal", "DealProblem", "Setup", "draw_pile_start", "deal_problems", "read_setup",
           "clean_setup", "as_pairs"]

#: Cards dealt to each player.
HAND_SIZE = 8
#: How many colours a Colors header may name (five, or six with an expansion).
COLOR_COUNTS: Tuple[int, ...] = (5, 6)
#: The ranks of the cards of one colour, as the rules deal them: three
#: handshakes (wagers) and one card of each number from 2 to 10.  This is the
#: game's, not the notation's: the grammar says how a rank is written, the rules
#: how many of each there are (tests/test_state.py holds the two to agreement).
COLOR_DECK: Tuple[int, ...] = (HANDSHAKE,) * 3 + tuple(range(2, 11))
#: The ranks of one colour, each once, handshake first.
DECK_RANKS: Tuple[int, ...] = tuple(sorted(set(COLOR_DECK)))
CARDS_PER_COLOR = len(COLOR_DECK)
#: Copies of each card, indexed by rank (0 to 10).
COPIES: Tuple[int, ...] = tuple(COLOR_DECK.count(r) for r in range(11))

#: A deal header's cards as ``(colour, rank)`` pairs.
Deal = Tuple[Tuple[str, int], ...]
#: The headers of a deal.
_DEAL_PARTS = ("Hand1", "Hand2", "Deck")
#: What :func:`deal_problems` reports.
DealProblem = Union["DealSize", "NotInDeck", "DealtTooOften", "DealMisses"]


def draw_pile_start(colors: int) -> int:
    """The size of the draw pile after the deal.

    >>> draw_pile_start(5), draw_pile_start(6)
    (44, 56)
    """
    return max(0, CARDS_PER_COLOR * colors - 2 * HAND_SIZE)


class Setup(NamedTuple):
    """What a game's headers say about the round, and what is wrong with them."""

    colors: Tuple[str, ...]
    players: Tuple[str, str]
    hands: Tuple[Optional[Deal], Optional[Deal]]
    deck: Optional[Deal]
    diagnostics: Tuple[Diagnostic, ...]


def as_pairs(cards: Iterable[Union[Card, Tuple[str, int]]]) -> Deal:
    """``(colour, rank)`` pairs, from cards or pairs (a Card starts with both)."""
    return tuple((k[0], k[1]) for k in cards)


def deal_problems(colors: Sequence[str], parts: Dict[str, Optional[Deal]]
                  ) -> List[DealProblem]:
    """What is wrong with the known parts of a deal.

    ``parts`` maps ``Hand1``, ``Hand2`` and ``Deck`` to their cards (None when
    not given).  Each problem names the ``part`` and the ``index`` of the card
    concerned (-1 for the part as a whole); its ``span`` is None.

    >>> for p in deal_problems("RGWBY", {"Hand1": (("R", 3),) * 2, "Hand2": None,
    ...                                  "Deck": None}):
    ...     print(p.code, p.message, p.part, p.index)
    R201 Hand1 holds 2 cards: each player is dealt 8 Hand1 -1
    R202 Red 3 is dealt twice (Hand1): there is only one Red 3 Hand1 1
    """
    hand1, hand2, deck = parts.get("Hand1"), parts.get("Hand2"), parts.get("Deck")
    if hand1 is not None and hand2 is not None and deck is not None \
            and len(hand1) == len(hand2) == HAND_SIZE \
            and sorted(map(_CARD_CODES.__getitem__, hand1 + hand2 + deck)) == _full_deck(colors):
        return []
    from .violations import DealMisses, DealSize, DealtTooOften, NotInDeck

    colors = tuple(colors)
    expected = {"Hand1": HAND_SIZE, "Hand2": HAND_SIZE, "Deck": draw_pile_start(len(colors))}
    problems: List[DealProblem] = []
    # How many times each card was dealt, and in which parts (in order; a dict
    # of at most three keys, so that a huge header costs linear time).
    seen: Dict[Tuple[str, int], int] = {}
    dealt_in: Dict[Tuple[str, int], Dict[str, None]] = {}
    known = set(colors)
    for part, cards in parts.items():
        if cards is None:
            continue
        if len(cards) != expected[part]:
            problems.append(DealSize(NO_SPAN, None, part, len(cards), expected[part]))
        for i, key in enumerate(cards):
            c, r = key
            if c not in known:
                problems.append(NotInDeck(NO_SPAN, None, part, i, Card(c, r), colors))
                continue
            n = seen[key] = seen.get(key, 0) + 1
            where = dealt_in.setdefault(key, {})
            where[part] = None
            if n > COPIES[r]:
                problems.append(DealtTooOften(NO_SPAN, None, part, i, Card(c, r), n,
                                              tuple(where)))
    if all(parts.get(k) is not None for k in expected):
        missing = tuple(Card(c, r) for c in colors for r in DECK_RANKS
                        for _ in range(COPIES[r] - seen.get((c, r), 0)))
        if missing:
            problems.append(DealMisses(NO_SPAN, None, missing))
    return problems


# Every card as written in a deal header, with its (colour, rank) pair.
_CARD_PAIRS = {word: (card.color, card.rank) for word, card in CARD_WORDS.items()}
# Every card as a small number (sorting numbers is quicker than sorting pairs).
_CARD_CODES = {pair: ord(pair[0]) * 16 + pair[1] for pair in _CARD_PAIRS.values()}
_full_decks: Dict[Tuple[str, ...], List[int]] = {}
_full_deck_words: Dict[Tuple[str, ...], List[str]] = {}
_colors_seen: Dict[str, Tuple[str, ...]] = {}


def _full_deck(colors: Sequence[str]) -> List[int]:
    """Every card of the colours, as the sorted numbers of ``_CARD_CODES``."""
    key = tuple(colors)
    deck = _full_decks.get(key)
    if deck is None:
        deck = sorted(_CARD_CODES[c, r] for c in key for r in COLOR_DECK)
        if len(_full_decks) > 64:
            _full_decks.clear()
        _full_decks[key] = deck
    return deck


def _written_deck(colors: Tuple[str, ...]) -> List[str]:
    """Every card of the colours as the formatter writes it, sorted."""
    words = _full_deck_words.get(colors)
    if words is None:
        words = sorted(format_card(Card(c, r)) for c in colors for r in COLOR_DECK)
        if len(_full_deck_words) > 64:
            _full_deck_words.clear()
        _full_deck_words[colors] = words
    return words


def _plain_cards(value: str) -> Deal:
    """The cards of a deal header's value written as cards separated by single
    spaces, by far the common case (the grammar reads them the same); raises
    KeyError for anything else."""
    return tuple(map(_CARD_PAIRS.__getitem__, value.split(" ")))


def _cards_of(header: Header) -> Deal:
    """The cards of a deal header; raises NotationError (with positions)."""
    try:
        return _plain_cards(header.value)
    except KeyError:  # not the common case: through the grammar
        return as_pairs(parse_cards(header))


def _colors_of(header: Header) -> Tuple[str, ...]:
    colors = _colors_seen.get(header.value)
    if colors is None:
        colors = parse_colors(header)
        if len(_colors_seen) > 256:
            _colors_seen.clear()
        _colors_seen[header.value] = colors
    return colors


def _where(header: Header) -> Span:
    return first_known(header.value_span, header.span)


def read_setup(game: Game, default_colors: Tuple[str, ...] = DEFAULT_COLORS) -> Setup:
    """Read the Colors, Player1/Player2 and deal headers of ``game``.

    ``default_colors`` are the colours of a game without a Colors header.

    Problems become diagnostics: syntax (``N120``, ``N121``) and rules
    (``R201`` to ``R203``, ``R205``).  An unreadable Colors header yields its
    readable colour letters; a deal with any problem is not used.

    >>> from lcnotation.lostcities.text.reader import parse_game
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
        if len(colors) not in COLOR_COUNTS:
            from .violations import ColorCount

            diagnostics.append(ColorCount(_where(header), None, len(colors)).to_diagnostic())
    first, second = (_player(found[k].value if k in found else "", i)
                     for i, k in ((1, "Player1"), (2, "Player2")))
    parts: Dict[str, Optional[Deal]] = {}
    for name in _DEAL_PARTS:
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
            for problem in problems:
                span = _card_span(found[problem.part], problem.index, read)
                diagnostics.append(problem.at(span).to_diagnostic())
            hands, deck = (None, None), None
    return Setup(colors, (first, second), hands, deck, tuple(diagnostics))


def _player(value: str, number: int) -> str:
    """The name of player ``number`` (1 or 2), from its header's value ("" when
    there is none)."""
    return value.strip() or f"Player {number}"


def clean_setup(values: Dict[str, str], default_colors: Tuple[str, ...] = DEFAULT_COLORS
                ) -> Optional[Setup]:
    """:func:`read_setup` of a game whose headers' values are ``values`` (by
    tag, each tag once), when it finds nothing wrong with them and they are
    written the common way; None when it may find something (the caller then
    asks :func:`read_setup`, which says what).  Lint's fused path reads a
    clean game's setup so, without a :class:`Header` for each value.

    >>> clean_setup({"Player1": "Ann"}).players
    ('Ann', 'Player 2')
    >>> clean_setup({"Hand1": "R3"}) is None
    True
    """
    colors = default_colors
    written = values.get("Colors")
    if written is not None:
        seen = _colors_seen.get(written)  # read by read_setup before, without a problem
        if seen is None or len(seen) not in COLOR_COUNTS:
            return None
        colors = seen
    get = values.get
    players = (_player(get("Player1", ""), 1), _player(get("Player2", ""), 2))
    first, second, rest = get("Hand1"), get("Hand2"), get("Deck")
    if (first is not None and second is not None and rest is not None
            and first.count(" ") == second.count(" ") == HAND_SIZE - 1):
        # The whole deal, as the formatter writes it: sound when its cards,
        # sorted, are those of the deck (so no card is read twice to say so).
        words = f"{first} {second} {rest}".split(" ")
        if sorted(words) == _written_deck(colors):
            cards = list(map(_CARD_PAIRS.__getitem__, words))
            return Setup(colors, players, (tuple(cards[:HAND_SIZE]),
                                           tuple(cards[HAND_SIZE:2 * HAND_SIZE])),
                         tuple(cards[2 * HAND_SIZE:]), ())
    parts: Dict[str, Optional[Deal]] = {}
    try:
        for name in _DEAL_PARTS:
            value = get(name)
            parts[name] = None if value is None else _plain_cards(value)
    except KeyError:
        return None
    hands = (parts["Hand1"], parts["Hand2"])
    deck = parts["Deck"]
    if (hands != (None, None) or deck is not None) and deal_problems(colors, parts):
        return None
    return Setup(colors, players, hands, deck, ())


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
