"""Replay strings of the C# engine Metapyziks/lost-cities, version 3 (import
and export).

A replay string is base64 of a little binary record: a header (version,
colour count, winner, disqualified player and, after a disqualification,
both scores), the player to move, six card lists (the deck, the discard
piles, each player's expeditions and hand) and one byte per action (the
index of the card in the mover's hand, a discard flag, the colour of the
discard pile drawn from).  The engine numbers its colours 1 to 6 (red,
green, blue, white, yellow, purple), draws from the *end* of its deck and
keeps each hand in order: a played card leaves its place, a drawn card goes
to the end.  ``spec/formats.md`` gives every byte.

A file holds one replay string per line, or is the engine's JSON output
(its ``--output`` file, or its ``End: {...}`` lines), which holds them in
``"Replay"`` members; each string becomes a game.

>>> from lcnotation.lostcities.game.generator import generate_game
>>> game = generate_game(seed=3, colors="RGWBY", deal=True)
>>> text = write(game)
>>> again = read(text)[0]
>>> again.moves == game.moves, again.header("Deck") == game.header("Deck")
(True, True)
"""

from __future__ import annotations

import base64
import json
import re
import struct
from functools import lru_cache
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..core.compiled import configured
from ..lostcities.game.checker import check, score
from ..lostcities.game.scoring import BONUS, BONUS_LENGTH, score_expedition, score_ranks
from ..lostcities.text.ast import (HANDSHAKE, Card, Comment, Draw, Game, Header, Move,
                                   Placement, Span)
from ..core.diagnostics import NotationError
from ..lostcities.text.formatter import format_card
from ..lostcities.text.headers import DEFAULT_COLORS, game_colors, parse_cards
from ..lostcities.game.setup import COLOR_COUNTS, COPIES, DECK_RANKS as RANKS
from ..core.span import NO_SPAN, first_known
from .base import Format, TextLines, moves_fit_compiled_readers

__all__ = ["FORMAT", "VERSION", "ENGINE_COLORS", "read", "write", "detect", "decode_replay"]

#: The version of the replay string this module reads and writes.
VERSION = 3
#: The engine's colours in the order of its numbers: colour n is
#: ``ENGINE_COLORS[n - 1]`` (1 red, 2 green, 3 blue, 4 white, 5 yellow,
#: 6 purple).  Writing, the sixth colour of a game, whatever its letter, is
#: the engine's purple.
ENGINE_COLORS = ("R", "G", "B", "W", "Y", "P")
#: The engine's card values: 0 is a wager (handshake), 2 to 10 the numbers.
_VALUES = frozenset(RANKS)
_NO_ONE = 0  # the engine's Player.None
_LISTS = ("the deck", "the discard piles", "Player 1's expeditions", "Player 1's hand",
          "Player 2's expeditions", "Player 2's hand")
_BASE64 = re.compile(r"[A-Za-z0-9+/]*")
_LOOKS_LIKE = re.compile(r"[A-Za-z0-9+/]{8,}={0,2}\Z")
# A "Replay" member of the engine's JSON (its --output file, or its "End: {...}"
# lines): the string's text between the quotes, escapes and all.
# Unrolled ("plain run, then (escape, plain run)*"): a repeated alternation
# costs Python's re memory for every character of a long string.
_REPLAY_MEMBER = re.compile(r'"Replay"[ \t]*:[ \t]*"([^"\\\n]*(?:\\.[^"\\\n]*)*)"')


# ---------------------------------------------------------------- the table


def engine_scores(expeditions: Sequence[Mapping[str, Sequence[Union[Card, int]]]]
                  ) -> Tuple[int, int]:
    """Each seat's score as the engine counts it: the rules' score without
    the bonus for an expedition of eight cards or more."""
    totals = []
    for seat in expeditions:
        total = 0
        for cards in seat.values():
            total += _without_bonus(score_expedition(cards), len(cards))
        totals.append(total)
    return totals[0], totals[1]


def _without_bonus(score: int, length: int) -> int:
    """The engine's score of an expedition of ``length`` cards that the rules
    score ``score``: without the bonus for eight cards or more."""
    return score - (BONUS if length >= BONUS_LENGTH else 0)


class _Table:
    """The cards as the engine keeps them: hands in order (None for a card
    that cannot be known), the deck drawn from its end, the discard piles
    and the expeditions.  Seats are 0 and 1 (the engine's Player 1 and 2)."""

    def __init__(self, hands: Tuple[List[Optional[Card]], List[Optional[Card]]],
                 deck: List[Card]) -> None:
        self.hands = hands
        self.deck: List[Optional[Card]] = list(deck)
        self.piles: Dict[str, List[Optional[Card]]] = {}
        self.expeditions: Tuple[Dict[str, List[Card]], Dict[str, List[Card]]] = ({}, {})

    def act(self, seat: int, card: Card, discard: bool, draw: Optional[str]) -> None:
        """Seat ``seat`` places ``card`` (already taken from its hand) and draws."""
        if discard:
            self.piles.setdefault(card.color, []).append(card)
        else:
            self.expeditions[seat].setdefault(card.color, []).append(card)
        source = self.deck if draw is None else self.piles.get(draw, [])
        self.hands[seat].append(source.pop() if source else None)


# ---------------------------------------------------------------- reading


class _Replay:
    """The bytes of one replay string, read in order, with errors placed at
    the base64 characters that hold the byte at fault."""

    def __init__(self, data: bytes, place: "_Place", width: int) -> None:
        self.data, self.place, self.width = data, place, width
        self.pos = 0

    def span(self, offset: int) -> Span:
        """The base64 characters that hold byte ``offset``: characters
        ``4*(k//3) + k%3`` and the one after (the end, past the last byte);
        :func:`decode_replay`'s loop over the actions builds it itself."""
        first = min(4 * (offset // 3) + offset % 3, self.width)
        return self.place.span(first, min(first + 2, self.width))

    def fail(self, message: str, code: str, offset: int) -> NotationError:
        return NotationError(f"byte offset {offset} of the decoded replay: {message}",
                             self.span(offset), code=code, path=self.place.src.path)

    def byte(self, what: str) -> int:
        if self.pos >= len(self.data):
            raise self.fail(f"the replay ends in the middle of {what} (it holds "
                            f"{len(self.data)} bytes)", "I203", self.pos)
        self.pos += 1
        return self.data[self.pos - 1]

    def int32(self, what: str) -> int:
        if self.pos + 4 > len(self.data):
            raise self.fail(f"the replay ends in the middle of {what} (4 bytes)", "I203",
                            self.pos)
        (value,) = struct.unpack_from("<i", self.data, self.pos)
        self.pos += 4
        return int(value)

    def choice(self, what: str, allowed: Sequence[int], why: str) -> int:
        offset = self.pos
        value = self.byte(what)
        if value not in allowed:
            raise self.fail(f"{what} is {value}: {why}", "I204", offset)
        return value

    def cards(self, what: str, colors: int) -> List[Card]:
        count = self.byte(f"the card count of {what}")
        start, data = self.pos, self.data
        if start + count <= len(data):  # every byte there: checked in order, in the loop
            codes = data[start:start + count]
            if all(1 <= code >> 4 <= colors and code & 0xF in _VALUES for code in codes):
                self.pos = start + count
                return [_card(code) for code in codes]
        found = []
        for _ in range(count):
            offset = self.pos
            code = self.byte(f"the cards of {what}")
            color, value = code >> 4, code & 0xF
            if not 1 <= color <= colors or value not in _VALUES:
                raise self.fail(
                    f"0x{code:02x} in {what} is no card: the high four bits are the colour "
                    f"(1 to {colors}), the low four the value (0 for a wager, 2 to 10)",
                    "I205", offset)
            found.append(_card(code))
        return found


@lru_cache(maxsize=None)
def _card(code: int) -> Card:
    """The card of a byte of the replay (its colour and value checked)."""
    return Card(ENGINE_COLORS[(code >> 4) - 1], code & 0xF)


#: The draw of an action, by its colour number (0: the deck).
_DRAWS = (Draw(None), *(Draw(c) for c in ENGINE_COLORS))
#: The placement of each card, by its colour, whether it is discarded and its
#: value (``_PLACED[color][discard][value]``; None for no card): one value
#: shared by every move that places the same, as the reader's are.
_PLACED: Dict[str, Tuple[Tuple[Optional[Placement], ...], ...]] = {
    color: tuple(tuple(Placement(Card(color, value), discard) if value in _VALUES else None
                       for value in range(max(_VALUES) + 1))
                 for discard in (False, True))
    for color in ENGINE_COLORS}
_EMPTY: List[Optional[Card]] = []
_new = tuple.__new__


class _Place:
    """Where the characters of a replay string stand in the text read: on
    line ``line``, character ``i`` at column ``columns[i]`` (one column more
    for each, unless the string was written with escapes, in JSON)."""

    def __init__(self, src: TextLines, line: int, columns: Sequence[int]) -> None:
        self.src, self.line, self.columns = src, line, columns

    def span(self, start: int, end: int) -> Span:
        return self.src.span(self.line, self.columns[start], end_line=self.line,
                             end_column=self.columns[end])

    def error(self, message: str, code: str, start: int, end: int) -> NotationError:
        return NotationError(message, self.span(start, end), code=code, path=self.src.path)


def decode_replay(value: str, place: Optional[_Place] = None) -> Game:
    """The game of one replay string (without surrounding white space);
    ``place`` says where it stands in the text read (by default, it is the
    text), for the positions of errors and moves."""
    if place is None:
        place = _Place(TextLines(value), 1, range(1, len(value) + 2))
    bad = _BASE64.match(value)
    assert bad is not None
    stop = bad.end()
    rest = value[stop:]  # only padding may follow the base64 characters
    other = next((j for j, char in enumerate(rest) if char != "="), None)
    if other is not None:
        at = stop + other
        raise place.error(f"{rest[other]!r} is not a base64 character (A-Z, a-z, 0-9, +, / "
                          "and '=' padding at the end)", "I201", at, at + 1)
    if len(rest) > 2:
        raise place.error("too much '=' padding: base64 ends with at most two", "I201",
                          stop + 2, len(value))
    if len(value) % 4:
        raise place.error(f"the base64 text is cut short: {len(value)} characters, not a "
                          "multiple of 4 (is the replay string complete?)", "I201",
                          len(value), len(value))
    data = base64.b64decode(value)
    compiled = _compiled if _loaded else compiled_replay()
    if compiled is not None:
        answer = compiled(data, *_where(place, len(value)))
        if answer is not None:
            return _answered(answer, place.span(0, len(value)))
    return _decoded(data, place, len(value))


def _where(place: _Place, width: int) -> Tuple[int, int, int, Union[int, Sequence[int]]]:
    """Where the compiled decoder is told the replay string of ``width``
    characters stands: its line, the offset before that line, its width and
    its columns (the first, when each character takes one)."""
    columns = place.columns
    return (place.line, place.src.starts[place.line - 1] - 1, width,
            columns.start if type(columns) is range and columns.step == 1 else columns)


def _answered(answer: "_Answer", span: Span) -> Game:
    """The game of a replay the compiled decoder decoded (``span``: the
    replay string's)."""
    first, colors, winner, disqualified, hand1, hand2, deck, moves, totals = answer
    return _game(first, colors, [_card(c) for c in hand1], [_card(c) for c in hand2],
                 [_card(c) for c in deck], disqualified, winner, moves, totals, span)


def _decoded(data: bytes, place: _Place, width: int) -> Game:
    """The game of a replay's bytes (``data``, of a string of ``width``
    characters at ``place``), decoded in Python; NotationError for bytes that
    cannot be."""
    r = _Replay(data, place, width)
    version = r.byte("the version")
    if version != VERSION:
        raise r.fail(f"replay version {version}: only version {VERSION} is read", "I202", 0)
    colors = r.choice("the colour count", COLOR_COUNTS,
                      f"the engine plays {' or '.join(map(str, COLOR_COUNTS))} colours")
    winner = r.choice("the winner", (0, 1, 2), "expected 0 (a tie), 1 or 2")
    disqualified = r.choice("the disqualified player", (0, 1, 2),
                            "expected 0 (no one), 1 or 2")
    claimed = None
    if disqualified != _NO_ONE:
        claimed = (r.int32("Player 1's score"), r.int32("Player 2's score"))
    first = r.choice("the player to move", (1, 2), "expected 1 or 2")
    starts: List[int] = []
    lists: List[List[Card]] = []
    for what in _LISTS:
        starts.append(r.pos)
        lists.append(r.cards(what, colors))
    deck, discards, exp1, hand1, exp2, hand2 = lists
    for i in (1, 2, 4):  # the discard piles and the expeditions
        if lists[i]:
            raise r.fail(f"the replay starts with cards on {_LISTS[i]}: a record starts "
                         "from the deal", "I207", starts[i])
    count_at = r.pos
    count = r.int32("the action count")
    if not 0 <= count <= len(data) - r.pos:
        raise r.fail(f"the replay says it holds {count} actions, but "
                     f"{len(data) - r.pos} bytes follow", "I203", count_at)

    start1: List[Optional[Card]] = list(hand1)
    start2: List[Optional[Card]] = list(hand2)
    table = _Table((start1, start2), deck)
    moves: List[Move] = []
    seat = first - 1
    # The loop reads the actions straight from the bytes (the count said they
    # are there) and builds each move's span from the columns at hand.
    columns, line = place.columns, place.line
    line_start = place.src.starts[line - 1] - 1
    hands, deck_left, piles, expeditions = table.hands, table.deck, table.piles, table.expeditions
    placed, pos = _PLACED, r.pos
    for turn in range(count):
        offset = pos
        code = data[pos]
        pos += 1
        index, discard, draw = code & 7, code & 8, code >> 4
        if draw > colors:
            raise r.fail(f"action {turn + 1} draws from colour {draw}: this replay has "
                         f"{colors} colours (0 is the deck)", "I204", offset)
        hand = hands[seat]
        if index >= len(hand):
            raise r.fail(f"action {turn + 1}: hand index {index} is past the hand of "
                         f"{len(hand)} cards", "I206", offset)
        card = hand.pop(index)
        if card is None:
            raise r.fail(f"action {turn + 1}: hand index {index} names a card drawn from "
                         "an empty pile, which cannot be known", "I206", offset)
        # _Table.act, inline: the card placed, then the card drawn.
        color = card.color
        if discard:
            if color in piles:
                piles[color].append(card)
            else:
                piles[color] = [card]
        else:
            played = expeditions[seat]
            if color in played:
                played[color].append(card)
            else:
                played[color] = [card]
        source = deck_left if draw == 0 else piles.get(ENGINE_COLORS[draw - 1], _EMPTY)
        hand.append(source.pop() if source else None)
        first_char = 4 * (offset // 3) + offset % 3
        begin = columns[first_char if first_char < width else width]
        end = columns[min(first_char + 2, width)]
        moves.append(_new(Move, (placed[color][discard >> 3][card.rank], _DRAWS[draw], (),
                                 None, turn,
                                 _new(Span, (line, begin, line, end, line_start + begin,
                                             line_start + end)))))
        seat = 1 - seat
    r.pos = pos
    if r.pos != len(data):
        raise r.fail(f"{len(data) - r.pos} bytes follow the last action", "I203", r.pos)

    actual = engine_scores(table.expeditions)
    if disqualified != _NO_ONE:
        expected_winner = 3 - disqualified
        assert claimed is not None
        if claimed != actual:
            raise r.fail(f"the scores {claimed[0]} and {claimed[1]} (after the "
                         f"disqualification) disagree with the actions: {actual[0]} and "
                         f"{actual[1]}", "I208", 4)
    else:
        expected_winner = 0 if actual[0] == actual[1] else (1 if actual[0] > actual[1] else 2)
    if winner != expected_winner:
        raise r.fail(f"the winner is {winner}, but by the actions (scored as the engine "
                     f"does, without the bonus for 8 cards) it is {expected_winner}",
                     "I208", 2)
    totals = None
    if not table.deck and disqualified == _NO_ONE:
        # The rules' score (the replay of the checker's score() gives the same:
        # the table holds the expeditions the moves made, in the same order).
        rules = [sum(score_expedition(cards) for cards in seat.values())
                 for seat in table.expeditions]
        totals = rules[0], rules[1]
    return _game(first, colors, hand1, hand2, deck, disqualified, winner, moves,
                 totals, place.span(0, width))


def _game(first: int, colors: int, hand1: List[Card], hand2: List[Card], deck: List[Card],
          disqualified: int, winner: int, moves: Sequence[Move],
          totals: Optional[Tuple[int, int]], span: Span) -> Game:
    """The game of a replay decoded: ``totals`` are the rules' scores of the
    engine's seats when the round is over (None: its result is ``*``)."""
    other = 3 - first
    hands = {1: hand1, 2: hand2}
    headers = [Header("Player1", f"Player {first}"), Header("Player2", f"Player {other}"),
               Header("FirstSeat", str(first),
                      (Comment(" the engine's seat of the player who moves first "),))]
    if colors == len(ENGINE_COLORS):  # the five and purple
        headers.append(Header("Colors", "".join((*DEFAULT_COLORS, ENGINE_COLORS[-1]))))
    headers += [Header("Hand1", _cards(hands[first])), Header("Hand2", _cards(hands[other])),
                Header("Deck", _cards(deck[::-1]))]
    if disqualified != _NO_ONE:
        headers.append(Header("Disqualified", str(disqualified)))
    said = "a tie" if winner == 0 else f"Player {winner} wins"
    note = Comment(f" by the replay string: {said} (the engine scores without the bonus "
                   "for 8 cards) ")
    game = Game(tuple(headers), tuple(moves), (), (), span)
    result = "*" if totals is None else f"{totals[first - 1]}-{totals[2 - first]}"
    return game._replace(headers=game.headers + (Header("Result", result, (note,)),))


#: ``replay(data, line, line_start, width, columns)``: the compiled decoder
#: of a replay's bytes (see _metapyziks.c): the player to move, the colour
#: count, the winner, the disqualified player, the opening hands and the deck
#: (the replay's bytes), the moves and the rules' totals (None: unfinished);
#: None when the replay is to be decoded in Python.
_Answer = Tuple[int, int, int, int, bytes, bytes, bytes, Tuple[Move, ...],
                Optional[Tuple[int, int]]]
_Decoder = Callable[[bytes, int, int, int, Union[int, Sequence[int]]], Optional[_Answer]]
_compiled: Optional[_Decoder] = None
_loaded = False


def tables() -> Optional[Dict[str, object]]:
    """What the compiled decoder is configured with: the replay version, the
    colour counts, the placement of each byte that is a card (played, then
    discarded; None for no card), the draws by colour number, the value of a
    wager, and each expedition's score, the rules' and the engine's (by its
    wagers, its numbers and their sum, up to what one colour of the deck
    holds; None for a sum its numbers cannot make), computed here by the
    rules' :func:`score_ranks` (the engine's as :func:`engine_scores` does);
    and the types of a move and a span.  None when they do not have the
    shape the C code reads."""
    if not moves_fit_compiled_readers() \
            or len(ENGINE_COLORS) > 15 or max(_VALUES) > 15:
        return None
    placed: List[Optional[Placement]] = []
    for code in range(256):
        color, value = code >> 4, code & 0xF
        for discard in (False, True):
            placed.append(_PLACED[ENGINE_COLORS[color - 1]][discard][value]
                          if 1 <= color <= len(ENGINE_COLORS) and value in _VALUES else None)
    numbers = sorted(value for value in _VALUES if value != HANDSHAKE)
    wagers, most = COPIES[HANDSHAKE], sum(numbers)
    # Ranks of k numbers (repeats allowed) by their sum, for each k.
    sums: List[Dict[int, List[int]]] = [{0: []}]
    for _ in numbers:
        sums.append({})
        for total, ranks in sums[-2].items():
            for n in numbers:
                if total + n <= most:
                    sums[-1].setdefault(total + n, ranks + [n])
    rules: List[Optional[int]] = []
    engine: List[Optional[int]] = []
    for w in range(wagers + 1):
        for of_k in sums:
            for total in range(most + 1):
                numbered = of_k.get(total)
                if numbered is None:
                    rules.append(None)
                    engine.append(None)
                else:
                    ranks = [HANDSHAKE] * w + numbered
                    scored = score_ranks(ranks)
                    rules.append(scored)
                    engine.append(_without_bonus(scored, len(ranks)))
    return dict(version=VERSION, counts=COLOR_COUNTS, placed=tuple(placed), draws=_DRAWS,
                wager=HANDSHAKE, wagers=wagers, numbers=len(numbers), most=most, rules=rules,
                engine=engine, move=Move, span=Span)


def compiled_replay() -> Optional[_Decoder]:
    """The compiled decoder of a replay's bytes, configured (loaded the first
    time a replay is decoded); None where it is not built, is turned off
    (``LCNOTATION_PURE_PYTHON=1``) or cannot hold this module's tables."""
    global _compiled, _loaded
    if not _loaded:
        _loaded = True
        _compiled = configured(__name__.rpartition(".")[0] + "._metapyziks", tables, "replay")
    return _compiled


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(format_card(c) for c in cards)


def read(text: str, path: Optional[str] = None) -> List[Game]:
    """The games of a text of replay strings, one per line (blank lines are
    skipped), or of the engine's JSON output (each ``"Replay"`` member);
    raises NotationError for a string that cannot be read."""
    src = TextLines(text, path)
    games = []
    if _REPLAY_MEMBER.search(text) is not None:
        for number, line in enumerate(src.lines, 1):
            for m in _REPLAY_MEMBER.finditer(line):
                try:
                    value, columns = _unescaped(m.group(1), m.start(1) + 1)
                except ValueError as exc:
                    raise src.error(f"a \"Replay\" string with a bad escape: {exc}", "I201",
                                    number, m.start(1) + 1, len(m.group(1))) from None
                games.append(decode_replay(value, _Place(src, number, columns)))
        return games
    for number, line in enumerate(src.lines, 1):
        value = line.strip()
        if value:
            first = line.index(value[0]) + 1
            place = _Place(src, number, range(first, first + len(value) + 1))
            games.append(decode_replay(value, place))
    if not games:
        raise src.error("expected a replay string (base64), found nothing", "I201", 1)
    return games


def _unescaped(raw: str, column: int) -> Tuple[str, Sequence[int]]:
    """The characters of the JSON string ``raw`` (its text between the quotes,
    at ``column``) and the column of each (and of the end).  The engine's JSON
    writes ``+`` as ``\\u002B``.  Raises ValueError for a bad escape."""
    if "\\" not in raw:  # one column a character: no list of them
        return raw, range(column, column + len(raw) + 1)
    chars: List[str] = []
    columns: List[int] = []
    i = 0
    while i < len(raw):
        columns.append(column + i)
        if raw[i] == "\\":
            width = 6 if raw[i + 1:i + 2] == "u" else 2
            chars.append(json.loads(f'"{raw[i:i + width]}"'))
            i += width
        else:
            chars.append(raw[i])
            i += 1
    columns.append(column + len(raw))
    return "".join(chars), columns


def detect(text: str) -> bool:
    """Whether ``text`` is surely replay strings: base64 lines, the first of
    which decodes to a version from 1 to 3 and a colour count of 5 or 6."""
    found = _REPLAY_MEMBER.search(text[:65536])
    if found is not None:
        try:
            lines = [_unescaped(found.group(1), 1)[0]]
        except ValueError:
            return False
        if not _LOOKS_LIKE.match(lines[0]):
            return False
    else:
        lines = [line.strip() for line in text[:65536].split("\n") if line.strip()]
        if not lines or not all(_LOOKS_LIKE.match(line) for line in lines):
            return False
    first = lines[0]
    if len(first) % 4:
        return False
    head = base64.b64decode(first[:8])
    return 1 <= head[0] <= VERSION and head[1] in COLOR_COUNTS


# ---------------------------------------------------------------- writing


def _refuse(message: str, span: Optional[Span]) -> NotationError:
    return NotationError(f"cannot write a replay string: {message}",
                         first_known(span or NO_SPAN, Span(1, 1, 1, 1, 0, 0)), code="I301")


def _header(game: Game, name: str) -> Optional[Header]:
    return next((h for h in game.headers if h.name == name), None)


def _seat(game: Game, name: str, default: int) -> int:
    header = _header(game, name)
    if header is None:
        return default
    if header.value.strip() not in ("1", "2"):
        raise _refuse(f"the {name} header is {header.value!r}: expected 1 or 2 (an engine "
                      "seat)", first_known(header.value_span, header.span))
    return int(header.value)


def write(game: Game) -> str:
    """``game`` as a replay string.  The game needs its deal (Hand1, Hand2,
    Deck), 5 colours (R G W B Y) or those and a sixth, and no syntax or rule
    errors: the engine replays every action and rejects an illegal one."""
    if game.errors:
        raise _refuse("the record has syntax errors (the first: "
                      f"{game.errors[0].message})", game.errors[0].span)
    colors = game_colors(game)
    numbers = {letter: n for n, letter in enumerate(ENGINE_COLORS[:len(DEFAULT_COLORS)], 1)}
    extra = [c for c in colors if c not in numbers]
    colors_header = _header(game, "Colors")
    where = first_known(colors_header.value_span, colors_header.span) if colors_header else None
    if len(colors) not in COLOR_COUNTS or len(extra) != len(colors) - len(numbers):
        raise _refuse(f"the colours {''.join(colors)} are not the engine's: it plays R G B "
                      "W Y and, as a sixth, purple", where)
    if extra:
        numbers[extra[0]] = len(ENGINE_COLORS)
    deal = []
    for name in ("Hand1", "Hand2", "Deck"):
        header = _header(game, name)
        if header is None:
            raise _refuse(f"the record has no {name} header: a replay starts from the "
                          "deal (Hand1, Hand2 and Deck)", game.span)
        deal.append(list(parse_cards(header)))
    report = check(game)
    if report.errors:
        first_error = report.errors[0]
        raise _refuse(f"the record breaks the rules ({first_error.code} {first_error.message}),"
                      " and the engine rejects an illegal action", first_error.span)
    first = _seat(game, "FirstSeat", 1)
    seat_of = (first - 1, 2 - first)  # the engine seat of Player1 and of Player2
    hands: Tuple[List[Optional[Card]], List[Optional[Card]]] = ([], [])
    hands[seat_of[0]].extend(deal[0])
    hands[seat_of[1]].extend(deal[1])
    start_hands = (list(hands[0]), list(hands[1]))
    deck = deal[2][::-1]
    table = _Table(hands, deck)
    actions = bytearray()
    for turn, move in enumerate(game.moves):
        seat = seat_of[turn % 2]
        card = move.placement.card
        hand = table.hands[seat]
        index = hand.index(card)  # the first copy, as the engine looks it up
        if index > 7:  # pragma: no cover - a legal game holds 8 cards
            raise _refuse("a hand of more than 8 cards", move.span)
        del hand[index]
        draw = move.draw.color
        actions.append(index | (8 if move.placement.discard else 0)
                       | (numbers[draw] << 4 if draw is not None else 0))
        table.act(seat, card, move.placement.discard, draw)
    disqualified = _seat(game, "Disqualified", _NO_ONE)
    scores = engine_scores(table.expeditions)
    if disqualified != _NO_ONE:
        to_move = seat_of[len(game.moves) % 2] + 1
        if not table.deck or to_move != disqualified:
            header = _header(game, "Disqualified")
            assert header is not None
            raise _refuse(f"Player {disqualified} cannot be disqualified: "
                          + ("the round is over" if not table.deck else
                             f"it is Player {to_move}'s turn"),
                          first_known(header.value_span, header.span))
        winner = 3 - disqualified
    else:
        winner = 0 if scores[0] == scores[1] else (1 if scores[0] > scores[1] else 2)
    out = bytearray((VERSION, len(colors), winner, disqualified))
    if disqualified != _NO_ONE:
        out += struct.pack("<ii", *scores)
    out.append(first)
    for cards in (deck, [], [], start_hands[0], [], start_hands[1]):
        out.append(len(cards))
        out += bytes(numbers[c.color] << 4 | c.rank for c in cards if c is not None)
    out += struct.pack("<i", len(game.moves))
    out += actions
    return base64.b64encode(bytes(out)).decode("ascii")


FORMAT = Format("metapyziks", "replay string of Metapyziks/lost-cities (version 3, base64)",
                read=read, write=write, detect=detect)
