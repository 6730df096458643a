"""Transcripts of the Python engine chikinn/lost-cities (import only).

The engine's ``wrapper.py`` prints, for each turn, the mover's sorted hand,
``Plays CARD`` or ``Discards CARD``, ``Draws CARD`` when the card comes from
a discard pile, then the table and a line of dashes; at the end of a round
each player's score and the winner.  ``spec/formats.md`` describes the
transcript line by line.

The importer rebuilds the deal from what the transcript shows: both opening
hands are the first hand each player shows, and every card drawn from the
draw pile is the card by which the mover's next hand differs from the last
one less the card placed.  The cards drawn by the last two turns are never
shown: they are the cards of the deck seen nowhere, and when there are two
of them their order is unknown (the record says so in a comment).

A round as the engine prints it is read by a small C extension where it is
built (``lcnotation/formats/_chikinn.c``, loaded by the first transcript
read; ``LCNOTATION_PURE_PYTHON=1`` turns it off): it answers what this
module's reader would make of the round, its moves made, or None, and the
round is then read here as without it.  The cards, their copies and order,
and the parts of a move it is given come from this module (:func:`tables`).
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left
from collections import Counter
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from ..core.compiled import configured
from ..lostcities.game.setup import COPIES, DECK_RANKS as RANKS
from ..lostcities.text.ast import Card, Comment, Draw, Game, Header, Move, Placement, Span
from ..lostcities.text.formatter import format_card
from ..core.numbers import read_decimal, too_long
from .base import Format, TextLines, moves_fit_compiled_readers

__all__ = ["FORMAT", "SUITS", "COLORS", "DIGITS", "read", "detect", "engine_card"]

#: The engine's suit letters and the colour letter each becomes.  The engine's
#: sixth suit, ``p`` (purple), becomes P.
SUITS = {"b": "B", "g": "G", "p": "P", "r": "R", "w": "W", "y": "Y"}
#: The Colors header of an imported game.
COLORS = "RGWBYP"
#: The engine's digits and the rank each stands for: 0 is a wager (handshake),
#: 1 to 9 are the ranks 2 to 10.
DIGITS = {str(digit): rank for digit, rank in enumerate(RANKS)}
_LETTER_OF = {colour: suit for suit, colour in SUITS.items()}
_DIGIT_OF = {rank: digit for digit, rank in DIGITS.items()}
_COLOR_RANK = {c: i for i, c in enumerate(COLORS)}

_ROUND = re.compile(r"ROUND ([0-9]+):\Z")
# Linear on lines of any length (a line may be megabytes): no quantifier meets
# another over the same characters; the spaces that end a name are stripped
# after the match (see _hand and _winner), not matched by a second ``*``.
_HAND = re.compile(r"([^\s:][^:]*): (.*)\Z")
_ACTION = re.compile(r"( +)(Plays|Discards) (\S+)\Z")
_DRAWS = re.compile(r"( +)Draws (\S+)\Z")
_DASHES = re.compile(r"-{3,}\Z")
_SCORE = re.compile(r"Player ([01]) scores (-?[0-9]+)\Z")
_WINNER = re.compile(r"Winner: (.*)\Z")
_STATS = re.compile(r"\S.* wins [0-9.]+ \+/- [0-9.]+\Z")
# A whole turn as the engine prints it, from the start of its hand line:
# what _Reader.turn reads line by line with _HAND, _ACTION and _DRAWS, for a
# turn whose cards are all cards, then its table (the lines that begin with
# white space, and blank ones) and the line of dashes that ends it.  White
# space at the end of a line is [^\S\n]* (what str.rstrip removes).  The
# repetitions are possessive (*+, from Python 3.11): giving back what they
# took never lets the rest match, and keeping no place to go back to saves a
# fifth of the work.
_CARD = "[bgprwy][0-9]"
_KEEP = "+" if sys.version_info >= (3, 11) else ""  # possessive, where Python has it
_TURN = re.compile(
    rf"(?!Winner: )(?P<name>[^\s:][^:\n]*): (?P<hand>{_CARD}(?: {_CARD})*{_KEEP})"
    rf"[^\S\n]*{_KEEP}\n"
    rf"(?P<action> +(?P<verb>Plays|Discards) (?P<card>{_CARD})[^\S\n]*{_KEEP}\n)"
    rf"(?: +Draws (?P<draw>{_CARD})[^\S\n]*{_KEEP}\n|(?! +Draws \S+[^\S\n]*(?:\n|\Z)))"
    rf"(?:[^\S\n][^\n]*{_KEEP}\n|\n)*{_KEEP}-{{3,}}[^\S\n]*(?:\n|\Z)")
# What else a round read at once holds, each at the start of a line: blank
# lines, its first line, its scores (with the blank lines before them) and
# its winner; the numbers are those read_decimal reads whole.
_BLANKS = re.compile(r"(?:[^\S\n]*\n)*")
_ROUND_LINE = re.compile(r"ROUND ([0-9]{1,18}):[^\S\n]*(?:\n|\Z)")
_SCORES = re.compile(r"(?:[^\S\n]*\n)*Player 0 scores (-?[0-9]{1,18})[^\S\n]*\n"
                     r"Player 1 scores (-?[0-9]{1,18})[^\S\n]*(?:\n|\Z)")
_LINE = re.compile(r"[^\n]*")
_SPACE_TO_END = re.compile(r"\s*\Z")
#: The first characters of a line that is no mark (see _Reader.marks): none,
#: or a space.
_NO_MARK = ("", " ")

#: Every card as the engine writes it.
_CARDS = frozenset(s + d for s in SUITS for d in DIGITS)

#: Our card of each card of the engine.
_OUR = {token: Card(SUITS[token[0]], DIGITS[token[1]]) for token in _CARDS}

#: The parts of the moves, shared by the moves that say the same (as the
#: reader's are): the placement of each card of the engine, played or
#: discarded, and each draw.
_PLACED = {(token, discard): Placement(card, discard) for token, card in _OUR.items()
           for discard in (False, True)}
#: Every card of the engine as many times as the deck holds it, how each is
#: written in a header, and the order of our colours and ranks.
_FULL = Counter({token: COPIES[card.rank] for token, card in _OUR.items()})
_SPELLED = {token: format_card(card) for token, card in _OUR.items()}
_ORDER = {token: (_COLOR_RANK[card.color], card.rank) for token, card in _OUR.items()}
_FROM_DECK = Draw(None)
_FROM_PILE = {suit: Draw(color) for suit, color in SUITS.items()}
_new = tuple.__new__

#: The cards in the order the compiled reader numbers them, and each one's
#: spelling in a header by that number.
_TOKENS = tuple(sorted(_CARDS))
_WORDS = tuple(_SPELLED[token] for token in _TOKENS)

_CARD_HELP = ("a card is a suit letter (b g p r w y) and a digit (0 for a wager, 1 to 9 "
              "for the ranks 2 to 10)")


def engine_card(card: Card) -> str:
    """How the engine writes ``card`` (``Card("P", 10)`` is ``p9``)."""
    return _LETTER_OF[card.color] + _DIGIT_OF[card.rank]


class _Turn(NamedTuple):
    name: str
    hand: Sequence[str]            # the engine's cards, as shown
    hand_line: int
    card: str
    discard: bool
    draw: Optional[str]            # the card taken from a discard pile
    span: Span                     # the card placed (to the card drawn, when shown)
    action_line: int
    draw_line: int


class _Reader:
    """One transcript, read line by line (a round as the engine prints it
    at once, by ``compiled`` when given: :func:`compiled_round`)."""

    def __init__(self, text: str, path: Optional[str],
                 compiled: "Optional[_Round]" = None) -> None:
        self.text = text
        self.path = path
        self.compiled = compiled
        self._src: Optional[TextLines] = None
        self._lines: Optional[_Stripped] = None
        self.i = 0  # index of the next line to read
        self.at = 0  # where line ``self.i`` starts, when ``self.at_line == self.i``
        self.at_line = 0
        self._marks: Optional[List[int]] = None

    @property
    def src(self) -> TextLines:
        """The text's lines and where each starts (split the first time the
        line-by-line reader, or a message, needs them)."""
        if self._src is None:
            self._src = TextLines(self.text, self.path)
        return self._src

    @property
    def lines(self) -> "_Stripped":
        if self._lines is None:
            self._lines = _Stripped(self.src.lines)
        return self._lines

    @property
    def marks(self) -> List[int]:
        """The lines that are not a table's (neither blank nor begun with a
        space): a turn's table is skipped to the next of them at once (made
        the first time a turn is not read by :data:`_TURN`)."""
        if self._marks is None:
            self._marks = [i for i, line in enumerate(self.src.lines)
                           if line[:1] not in _NO_MARK and not line.isspace()]
        return self._marks

    # -- helpers ------------------------------------------------------------

    def fail(self, message: str, code: str, index: int, column: int = 1,
             length: Optional[int] = None) -> Exception:
        if length is None:
            length = max(1, len(self.lines[index]) - column + 1) if index < len(self.lines) else 0
        return self.src.error(message, code, index + 1, column, length)

    def found(self, index: int) -> str:
        if index >= len(self.lines):
            return "the end of the transcript"
        line = self.lines[index]
        return _shortened(line) if line else "a blank line"

    def number(self, match: "re.Match[str]", group: int, index: int) -> int:
        """The number of ``match``'s ``group`` on line ``index``; I101, at its
        column, when it is too long to read."""
        digits = match.group(group)
        value = read_decimal(digits)
        if value is None:
            raise self.fail(too_long(digits), "I101", index, match.start(group) + 1,
                            len(digits))
        return value

    def skip_blank(self) -> None:
        while self.i < len(self.lines) and not self.lines[self.i]:
            self.i += 1

    def card(self, token: str, index: int, column: int) -> None:
        """Raise I102 unless ``token`` is a card of the engine."""
        if token not in _CARDS:
            raise self.fail(f"{token!r} is not a card: {_CARD_HELP}", "I102", index, column,
                            len(token))

    # -- the transcript -------------------------------------------------------

    def games(self) -> List[Game]:
        games: List[Game] = []
        while True:
            whole = self.whole_round()
            if whole is None:
                break
            games.append(whole)
        if games and _SPACE_TO_END.match(self.text, self.at):
            return games  # read at once to its end (blank lines at most)
        self.skip_blank()
        while self.i < len(self.lines):
            whole = self.whole_round()
            if whole is not None:
                games.append(whole)
                self.skip_blank()
                continue
            line = self.lines[self.i]
            m = _ROUND.match(line)
            if m is not None:
                start = self.i
                self.i += 1
                games.append(self.round(self.number(m, 1, start), start))
            elif not games and _hand(line) is not None:
                games.append(self.round(None, self.i))
            elif games and _STATS.match(line):
                self.i += 1  # the win ratio printed after several rounds
            else:
                raise self.fail(f"expected 'ROUND N:', the start of a round, found "
                                f"{self.found(self.i)}", "I101", self.i)
            self.skip_blank()
        if not games:
            raise self.fail("expected a transcript of chikinn/lost-cities ('ROUND 0:' and "
                            "its turns), found nothing", "I103", 0)
        return games

    def round(self, number: Optional[int], start: int) -> Game:
        turns: List[_Turn] = []
        while True:
            self.skip_blank()
            if self.i >= len(self.lines):
                raise self.fail(f"the transcript ends before the final scores of the round "
                                f"(after {len(turns)} turns)", "I103", self.i)
            if _SCORE.match(self.lines[self.i]):
                break
            turns.append(self.turn(len(turns)))
        if len(turns) < 2:
            raise self.fail("a round has at least two turns (one per player), found "
                            f"{len(turns)}", "I103", self.i)
        scores = self.scores()
        winner_index, winner = None, ""
        if self.i < len(self.lines):
            found = _winner(self.lines[self.i])
            if found is not None:
                winner_index = self.i
                winner = found
                self.i += 1
        end = self.i  # the line after the round's last line
        span = self.src.span(start + 1, 1, end_line=end, end_column=len(self.lines[end - 1]) + 1)
        game = self.rebuild(number, turns, scores, span)
        if winner_index is not None:
            self.check_winner(turns, scores, winner, winner_index)
        return game

    def check_winner(self, turns: List[_Turn], scores: Tuple[int, int], winner: str,
                     index: int) -> None:
        """Raise I104 unless ``winner`` (of the line ``index``) has the best score."""
        names = (turns[0].name, turns[1].name)
        # The engine names the first of the best scores.
        expected = names[0] if scores[0] >= scores[1] else names[1]
        if winner != expected:
            raise self.fail(f"the winner line names {_shortened(winner)}, but by the scores "
                            f"({scores[0]} to {scores[1]}) the winner is {expected!r}",
                            "I104", index, 9, len(winner))

    def whole_turn(self) -> Optional[_Turn]:
        """The turn at the next line, read at once when it is as the engine
        prints it (else None, and nothing read): :data:`_TURN` reads it, its
        table and its line of dashes.  The same as :meth:`turn` gives."""
        m = _TURN.match(self.text, self.src.starts[self.i])
        if m is None:
            return None
        turn, self.i = _turn_of(m, self.i)
        return turn

    def whole_round(self) -> Optional[Game]:
        """The round at the next line, read at once when it is as the engine
        prints it: blank lines, ``ROUND N:``, whole turns (:data:`_TURN`), the
        scores and perhaps the winner; else None, and nothing read (the
        line-by-line reader then reads it, and says what is wrong).  The
        same game as :meth:`round` makes."""
        text = self.text
        if self.at_line != self.i:  # the line-by-line reader moved on
            if self.i >= len(self.src.starts):
                return None
            self.at, self.at_line = self.src.starts[self.i], self.i
        pos, line = self.at, self.i
        if self.compiled is not None:
            answer = self.compiled(text, pos, line)
            if answer is not None:
                return self.answered(answer)
        blank = _BLANKS.match(text, pos)
        assert blank is not None
        line += text.count("\n", pos, blank.end())
        m = _ROUND_LINE.match(text, blank.end())
        if m is None:
            return None
        number, start = int(m.group(1)), line
        line += 1
        pos = m.end()
        turns: List[_Turn] = []
        match = _TURN.match
        while True:
            t = match(text, pos)
            if t is None:
                break
            turn, line = _turn_of(t, line)
            turns.append(turn)
            pos = t.end()
        scored = _SCORES.match(text, pos)
        if scored is None or len(turns) < 2:
            return None
        scores = int(scored.group(1)), int(scored.group(2))
        line += text.count("\n", pos, scored.start(2))  # the line of Player 1's score
        last, pos = line, scored.end()
        line += 1
        winner = None
        if pos < len(text):
            found = _winner(_LINE.match(text, pos).group().rstrip())  # type: ignore[union-attr]
            if found is not None:
                winner, last = found, line
                pos = text.find("\n", pos) + 1 or len(text)
                line += 1
        # The round's last line, without its white space: where its game ends.
        begin = text.rfind("\n", 0, pos - 1 if text[pos - 1:pos] == "\n" else pos) + 1
        stripped = _LINE.match(text, begin).group().rstrip()  # type: ignore[union-attr]
        end = begin + len(stripped)
        span = _new(Span, (start + 1, 1, last + 1, len(stripped) + 1, m.start(), end))
        self.i = line
        game = self.rebuild(number, turns, scores, span)
        if winner is not None:
            self.check_winner(turns, scores, winner, last)
        self.at, self.at_line = pos, line
        return game

    def answered(self, answer: "_Answer") -> Game:
        """The game of a round the compiled reader read (and the reader moved
        past it)."""
        (number, name1, name2, hand1, hand2, deal, known, unknown, score1, score2, moves,
         span, self.at, self.i) = answer
        self.at_line = self.i
        guessed = deal[known:known + unknown]
        return _game(number, (name1, name2), _spelled(hand1), _spelled(hand2), _spelled(deal),
                     _spelled(guessed), len(guessed), len(deal) - known - len(guessed),
                     (score1, score2), moves, span)

    def turn(self, t: int) -> _Turn:
        whole = self.whole_turn()
        if whole is not None:
            return whole
        hand_index = self.i
        line = self.lines[hand_index]
        m = _hand(line)
        if m is None:
            raise self.fail("expected the mover's hand (such as 'Kenny: b0 b4 p0 ...') or "
                            f"the final scores ('Player 0 scores N'), found "
                            f"{self.found(hand_index)}", "I101", hand_index)
        name = m.group(1).rstrip(" ")
        hand = m.group(2).split(" ")
        if not _CARDS.issuperset(hand):
            column = m.start(2) + 1
            for token in hand:
                self.card(token, hand_index, column)
                column += len(token) + 1
        self.i += 1
        if self.i >= len(self.lines):
            raise self.fail(f"the transcript ends in the middle of turn {t + 1}: expected "
                            "'Plays CARD' or 'Discards CARD' after the hand", "I103", self.i)
        action_index = self.i
        m = _ACTION.match(self.lines[action_index])
        if m is None:
            raise self.fail(f"expected 'Plays CARD' or 'Discards CARD' after {name}'s hand, "
                            f"found {self.found(action_index)}", "I101", action_index)
        card_column = m.start(3) + 1
        token = m.group(3)
        self.card(token, action_index, card_column)
        end_line, end_column = action_index + 1, card_column + len(token)
        self.i += 1
        draw = None
        draw_index = -1
        if self.i < len(self.lines):
            d = _DRAWS.match(self.lines[self.i])
            if d is not None:
                draw_index = self.i
                draw = d.group(2)
                self.card(draw, draw_index, d.start(2) + 1)
                end_line, end_column = draw_index + 1, d.start(2) + 1 + len(draw)
                self.i += 1
        # The table: indented lines up to the line of dashes that ends the
        # turn; the blank ones and those begun with a space are no mark.
        lines, marks = self.lines, self.marks
        at = bisect_left(marks, self.i)
        while True:
            if at == len(marks):
                self.i = len(lines)
                raise self.fail(f"the transcript ends in the middle of turn {t + 1}: "
                                "expected the table and the line of dashes that ends the "
                                "turn", "I103", self.i)
            self.i = marks[at] + 1
            at += 1
            line = lines[self.i - 1]
            if _DASHES.match(line):
                break
            if not line[0].isspace():
                raise self.fail(f"expected the table (indented lines) and the line of dashes "
                                f"that ends turn {t + 1}, found {self.found(self.i - 1)}",
                                "I103", self.i - 1)
        span = self.src.span(action_index + 1, card_column, end_line=end_line,
                             end_column=end_column)
        return _Turn(name, tuple(hand), hand_index, token, m.group(2) == "Discards", draw,
                     span, action_index, draw_index)

    def scores(self) -> Tuple[int, int]:
        found = []
        for player in (0, 1):
            m = _SCORE.match(self.lines[self.i]) if self.i < len(self.lines) else None
            if m is None or int(m.group(1)) != player:
                code = "I103" if self.i >= len(self.lines) else "I101"
                raise self.fail(f"expected 'Player {player} scores N', found "
                                f"{self.found(self.i)}", code, self.i)
            found.append(self.number(m, 2, self.i))
            self.i += 1
        return found[0], found[1]

    # -- the game -------------------------------------------------------------

    def rebuild(self, number: Optional[int], turns: List[_Turn], scores: Tuple[int, int],
                span: Span) -> Game:
        names = (turns[0].name, turns[1].name)
        moves: List[Move] = []
        deck: List[Optional[str]] = []  # the draw pile, top first; None: not shown
        count = len(turns)
        for t, turn in enumerate(turns):
            name, hand, hand_line, card, discard, draw, at, action_line, draw_line = turn
            if name != names[t % 2]:
                raise self.fail(f"turn {t + 1} is {name!r}'s, but it is "
                                f"{names[t % 2]!r}'s turn (the players take turns)",
                                "I104", hand_line, 1, len(name))
            if card not in hand:
                raise self.fail(f"{name} places {card}, which is not in the hand "
                                f"shown on line {hand_line + 1}", "I104",
                                action_line, at.column, len(card))
            drawn = draw
            if t + 2 < count:
                after = turns[t + 2]
                got = _gained(hand, card, after.hand)
                if got is None:
                    raise self.fail(
                        f"{after.name}'s hand does not follow from line {hand_line + 1}: "
                        f"it should be those cards less {card} plus one card drawn",
                        "I104", after.hand_line)
                if drawn is not None and got != drawn:
                    raise self.fail(f"{name} draws {drawn}, but the next hand (line "
                                    f"{after.hand_line + 1}) gained {got}", "I104",
                                    draw_line)
                drawn = got
            if draw is None:
                deck.append(drawn)
                source = _FROM_DECK
            else:
                source = _FROM_PILE[draw[0]]
            moves.append(_new(Move, (_PLACED[card, discard], source, (), None, t, at)))
        # The cards never shown are those the last turns drew from the draw pile.
        seen = Counter(turns[0].hand)
        seen.update(turns[1].hand)
        seen.update(filter(None, deck))
        unseen = sorted((_FULL - seen).elements(), key=_ORDER.__getitem__)
        unknown = [i for i, c in enumerate(deck) if c is None]
        guessed = unseen[:len(unknown)]
        for i, card in zip(unknown, guessed):
            deck[i] = card
        never_drawn = unseen[len(unknown):]  # none, unless the round was cut short
        deal = [c for c in deck if c is not None] + never_drawn
        return _game(number, names, _cards(turns[0].hand), _cards(turns[1].hand),
                     _cards(deal), _cards(guessed), len(guessed), len(never_drawn), scores,
                     tuple(moves), span)


def _cards(tokens: Iterable[str]) -> str:
    """The engine's cards as a header writes them."""
    return " ".join(map(_SPELLED.__getitem__, tokens))


def _spelled(cards: bytes) -> str:
    """Cards by the compiled reader's numbers (:data:`_TOKENS`) as a header
    writes them."""
    return " ".join(map(_WORDS.__getitem__, cards))


def _game(number: Optional[int], names: Tuple[str, str], hand1: str, hand2: str, deal: str,
          guessed: str, count_guessed: int, never_drawn: int, scores: Tuple[int, int],
          moves: Tuple[Move, ...], span: Span) -> Game:
    """The game of a round: its headers (the round's number, the players,
    the deal as header values, the cards whose order is guessed, the
    scores) and its moves."""
    # Notes on what the import decided go with the headers they concern (a
    # comment before the headers would belong to the game before, in a file).
    notes = []
    if count_guessed > 1:
        notes.append(f"the cards drawn by the last turns ({guessed}) are "
                     "never shown in the transcript: their order is a guess")
    if never_drawn:
        notes.append(f"{never_drawn} cards are never drawn: their order is a guess")
    deck_note = tuple(Comment(f" {note} ") for note in notes)
    headers = [] if number is None else [
        Header("Round", str(number + 1), (Comment(f" ROUND {number} of the transcript "),))]
    headers += [
        Header("Player1", names[0]), Header("Player2", names[1]),
        Header("Colors", COLORS, (Comment(" P is the transcript's p (purple) "),)),
        Header("Hand1", hand1),
        Header("Hand2", hand2),
        Header("Deck", deal, deck_note),
        Header("Result", f"{scores[0]}-{scores[1]}"),
    ]
    return Game(tuple(headers), moves, (), (), span)


def _turn_of(m: "re.Match[str]", hand_index: int) -> Tuple[_Turn, int]:
    """The turn :data:`_TURN` matched, its hand on line ``hand_index``; and the
    index of the line after it."""
    text = m.string
    regs = m.regs  # the spans of the match and of each group, at once
    start, after = regs[0]
    name, hand, _, verb, card, draw = m.groups()
    action, action_end = regs[3]
    begin = regs[5][0]
    card_column = begin - action + 1
    action_index = hand_index + 1
    if draw is None:
        draw_index, end_line, end_column, end = -1, action_index + 1, card_column + 2, begin + 2
    else:
        end = regs[6][1]
        draw_index, end_line, end_column = action_index + 1, action_index + 2, end - action_end + 1
    # The span self.src.span gives (the lines start where the match says).
    span = _new(Span, (action_index + 1, card_column, end_line, end_column, begin, end))
    lines = text.count("\n", start, after) + (text[after - 1] != "\n")
    return _new(_Turn, (name.rstrip(" "), hand.split(" "), hand_index, card,
                        verb == "Discards", draw, span, action_index, draw_index)), \
        hand_index + lines


class _Stripped:
    """The lines of a text without the white space at their ends, each
    stripped when it is read (most are a turn's, read by :data:`_TURN`)."""

    __slots__ = ("raw",)

    def __init__(self, raw: List[str]) -> None:
        self.raw = raw

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, index: int) -> str:
        return self.raw[index].rstrip()


def _hand(line: str) -> "Optional[re.Match[str]]":
    """The match of a hand line (``Name: cards``; the name is its group 1 with
    the spaces before the colon), None for any other line, a winner's too."""
    m = _HAND.match(line)
    return None if m is None or line.startswith("Winner: ") else m


def _winner(line: str) -> Optional[str]:
    """The name a ``Winner: NAME`` line gives (without the spaces after it)."""
    m = _WINNER.match(line)
    return None if m is None else m.group(1).rstrip(" ")


def _shortened(text: str, most: int = 40) -> str:
    """``text`` quoted, its first characters only when it is long."""
    return repr(text if len(text) <= most else text[:most - 3] + "...")


def _gained(hand: Sequence[str], placed: str, after: Sequence[str]) -> Optional[str]:
    """The one card by which ``after`` is ``hand`` less ``placed`` plus a card
    (None when it is not)."""
    if len(after) != len(hand):
        return None
    left = list(after)
    rest = list(hand)
    rest.remove(placed)
    for card in rest:
        try:
            left.remove(card)
        except ValueError:
            return None
    return left[0]


def read(text: str, path: Optional[str] = None) -> List[Game]:
    """The rounds of a transcript (LF line ends), one game each; raises
    NotationError for a transcript that cannot be read."""
    return _Reader(text, path, compiled_round()).games()


#: What the compiled reader answers for a round (see _chikinn.c): its number,
#: the players, the opening hands and the deal (bytes of card numbers), how
#: many cards of the deal are shown and how many drawn cards are not, the
#: scores, the moves, the round's span, and the offset and line after it.
_Answer = Tuple[int, str, str, bytes, bytes, bytes, int, int, int, int, Tuple[Move, ...], Span,
                int, int]
#: ``round(text, pos, line)``: the compiled reader of the round at ``pos``.
_Round = Callable[[str, int, int], Optional[_Answer]]
_compiled: "Optional[_Round]" = None
_loaded = False


def tables() -> Optional[Dict[str, object]]:
    """What the compiled reader is configured with: the engine's cards (each
    a card number: its place in :data:`_TOKENS`), the copies of each in the
    deck, the cards in a header's order, the placement of each card played
    and discarded, the draw from each card's pile and from the draw pile, and
    the types of a move and a span; None when they do not have the shape the
    C code reads (a move or a span of other fields)."""
    if not moves_fit_compiled_readers():
        return None
    return dict(
        cards=_TOKENS, copies=[_FULL[token] for token in _TOKENS],
        ordered=sorted(range(len(_TOKENS)), key=lambda i: _ORDER[_TOKENS[i]]),
        placed=tuple(_PLACED[token, discard] for token in _TOKENS for discard in (False, True)),
        drawn=tuple(_FROM_PILE[token[0]] for token in _TOKENS), deck=_FROM_DECK, move=Move,
        span=Span)


def compiled_round() -> "Optional[_Round]":
    """The compiled reader of a round, configured (loaded the first time a
    transcript is read); None where it is not built, is turned off
    (``LCNOTATION_PURE_PYTHON=1``) or cannot hold this module's tables."""
    global _compiled, _loaded
    if not _loaded:
        _loaded = True
        _compiled = configured(__name__.rpartition(".")[0] + "._chikinn", tables, "round")
    return _compiled


def detect(text: str) -> bool:
    """Whether ``text`` looks like a transcript: a hand line followed by a
    ``Plays``/``Discards`` line, near its start."""
    lines = text[:8192].split("\n")
    for a, b in zip(lines, lines[1:]):
        m = _HAND.match(a.rstrip())
        if m is not None and _ACTION.match(b.rstrip()):
            return all(len(t) == 2 and t[0] in SUITS and t[1] in DIGITS
                       for t in m.group(2).split(" "))
    return False


FORMAT = Format("chikinn", "transcript printed by chikinn/lost-cities (wrapper.py)",
                read=read, detect=detect)
