"""Lint's fused path: a clean game checked straight from the scan, without a tree.

Most games of an archive have no finding at all.  For them the lint engine
need not build a tree: :func:`clean_moves` reads the game's header lines
(those written as the formatter writes them by one expression, any other
with the fast path's own,
:func:`~lcnotation.lostcities.text.fastpath.fast_pattern`), its setup from
their values (:func:`~lcnotation.lostcities.game.setup.clean_setup`) and its moves as
white-space separated tokens, each a move spelling or a move number that the
fast path's expressions accept whole; it replays the moves as they are read
(:meth:`~lcnotation.lostcities.game.state.GameState.play_quietly`), looks at
what the style checks would look at, and answers with the number of moves
when it is certain that the tree path (parse, rules check, style checks,
suppressions) would report nothing.  At the first doubt it answers None and
the game goes the tree path, which says what is wrong: "clean" is the only
answer it gives, so it can never change a report.  tests/test_fused.py holds
it to the tree path over generated, mutated and hostile games.  Where the C
accelerator is built (:mod:`lcnotation.lostcities.accel`), it is asked
first, and looks closer in the same way: a game it does not call clean is
read here.

>>> from lcnotation.lostcities.game.generator import generate_game
>>> from lcnotation.lostcities.text.formatter import format_game
>>> from lcnotation.lostcities.text.reader import GameText
>>> from lcnotation.lostcities.style import StyleState
>>> text = format_game(generate_game(1))
>>> clean_moves(GameText(text, 1, 0), StyleState()) == len(generate_game(1).moves)
True
>>> clean_moves(GameText(text.replace("-D", "-d", 1), 1, 0), StyleState()) is None
True
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from . import accel
from .game.checker import result_holds
from .game.setup import clean_setup, read_setup
from .game.state import GameState, Step
from .style import NOT_PLAIN, StyleState, tags_clean
from .text.ast import Game, Header
from .text.builder import GameBuilder
from .text.fastpath import MOVE_INFO, MOVE_NUMBERS, NumberTooLong, move_pattern, terminal_patterns
from .text.lexical import LEXICON
from .text.parser import parser
from .text.reader import GameText

__all__ = ["clean_moves", "may_be_clean", "moved_on"]


class _Steps(Dict[str, Step]):
    """The step of each move spelling (one the fast path reads whole), made
    once from the fast path's own reading of it."""

    def __missing__(self, t: str) -> Step:
        placement, draw, _ = MOVE_INFO[t]
        card = placement.card
        step = self[t] = (card.color, card.rank, placement.discard, draw.color)
        return step


_STEPS = _Steps()


class _Unreadable(Exception):
    """A token that is neither a move nor a move number the fast path reads."""


class _Tokens(Dict[str, object]):
    """Each token of a movetext, read once: a move's :data:`Step`, or the value
    of a move number.  A move that the style checks would look closer at (in
    lower case, or with the discard marker X: see style._plainly_clean) is
    unreadable here, as is anything else: a comment, a header, a byte-order
    mark (white space to the grammar, not to str.split)."""

    def __missing__(self, token: str) -> object:
        reading = _reading[0]
        if reading.move.fullmatch(token) is not None:
            if NOT_PLAIN.search(token) is not None:
                raise _Unreadable(token)
            step = self[token] = _STEPS[token]
            return step
        if reading.number.fullmatch(token) is not None:
            number = MOVE_NUMBERS[token]  # NumberTooLong past the reader's digits
            if number < 1000:
                self[token] = number
            return number
        raise _Unreadable(token)


_TOKENS = _Tokens()
#: The move numbers "1.", "2.", ... of a game numbered turn by turn, as
#: written (a game is far shorter: a round has at most 2 * 60 - 16 turns, and
#: a longer record goes the general way).
_NUMBERED = [f"{n}." for n in range(1, 200)]
_is_line_blank = LEXICON.is_line_blank


def clean_moves(part: GameText, style: StyleState,
                default_colors: Optional[Tuple[str, ...]] = None) -> Optional[int]:
    """The number of moves of the game ``part`` when linting it finds nothing
    (under any selection of codes); None when it may find something.

    ``style`` is the file's style state, as the tree path gets it: on a
    clean answer it is moved on as the tree path would (the file's first
    discard marker); on None it is left as it was.  ``default_colors`` (the
    colours of a game without a Colors header) defaults to the style state's.
    """
    text = part.text
    if part.problems or "lcn:" in text:
        return None  # decoding problems; a suppression comment (S100)
    if not may_be_clean(style):
        return None
    colors = style.default_colors if default_colors is None else default_colors
    fast = accel.check
    if fast is not None:
        # The compiled check (lostcities/accel.py): "clean" or "look closer",
        # and looking closer is what the rest of this function does.
        verdict = fast(text, colors)
        if verdict is not None:
            moved_on(style, verdict[1])
            return verdict[0]
    try:
        headers, steps = _scan(text)
    except NumberTooLong:
        return None
    if steps is None or not tags_clean(name for name, _ in headers):
        return None
    values = dict(headers)  # each tag once (tags_clean)
    setup = clean_setup(values, colors)
    if setup is None:  # not the common way: read_setup says whether it is clean
        setup = read_setup(Game(headers=tuple(Header(n, v) for n, v in headers)), colors)
        if setup.diagnostics:
            return None
    state = GameState.from_setup(setup)
    if not state.play_quietly(steps):
        return None
    if state.draw_pile_range[0]:
        return None  # the round is incomplete (R110)
    result = values.get("Result")
    if result is not None and not result_holds(result, state):
        return None
    moved_on(style, any(step[2] for step in steps))
    return len(steps)


def may_be_clean(style: StyleState) -> bool:
    """Whether a game may be called clean here under ``style`` at all: not
    in a dialect of lower case or of another discard marker, nor in a file
    whose discards are marked X (a D would be S101)."""
    dialect = style.dialect
    if dialect is not None and (dialect.lowercase or dialect.discard != "D"):
        return False
    return style.marker in (None, "D")


def moved_on(style: StyleState, discarded: bool) -> None:
    """Move ``style`` on past clean games (one of which discards, if
    ``discarded``), as the tree path would: the file's first discard marker."""
    if style.dialect is not None:
        style.marker = style.dialect.discard
    elif style.marker is None and discarded:
        style.marker = "D"


class _Reading:
    """The expressions of the fused scan, made from the fast path's once."""

    def __init__(self) -> None:
        p = parser()
        self.fast = p.fast
        self.move = re.compile(move_pattern(p.lark))
        self.number = re.compile(terminal_patterns(p.lark)["MOVE_NUMBER"])
        # A move number followed by white space other than blanks: its move
        # is not on its line.
        self.number_alone = re.compile(r"\.[ \t]*[^\S \t]")
        # Header lines as the formatter writes them, one after another from
        # the start of the text: "[Name "value"]" alone on its line, the
        # value printable ASCII without quotes or backslashes (which the
        # grammar reads as written); one match for them all, then each read.
        name = LEXICON.header_name.pattern
        self.plain_headers = re.compile(f'(?:\\[{name} "[ !#-\\[\\]-~]*"\\]\n)*')
        self.plain_header = re.compile(f'\\[({name}) "([^"]*)"\\]')


_reading: List[_Reading] = []


#: A game's header lines as (tag, value) pairs, in their order.
Headers = List[Tuple[str, str]]


def _scan(text: str) -> Tuple[Headers, Optional[List[Step]]]:
    """The headers and the steps of ``text`` as the fast path reads it; steps
    None where the fast path gives up or a style check would look closer."""
    if not _reading:
        _reading.append(_Reading())
    reading = _reading[0]
    pos = reading.plain_headers.match(text).end()  # type: ignore[union-attr]
    if text.find("[", pos) < 0:  # no header line is left among the moves
        steps = _steps(text[pos:])
        if steps is not None:
            return reading.plain_header.findall(text, 0, pos), steps
    # Header lines written otherwise, a comment among them, a game that may
    # not be clean: token by token (the same answer where both answer).
    return _read_headers(text, reading)


def _read_headers(text: str, reading: _Reading) -> Tuple[Headers, Optional[List[Step]]]:
    """:func:`_scan` of any text: its header lines (and comments among them)
    read token by token."""
    headers: Headers = []
    match = reading.fast.match
    pos = 0
    builder: Optional[GameBuilder] = None
    while True:
        m = match(text, pos)
        assert m is not None  # the expression always matches (its "bad" group)
        ws, _num, t, header, _brace, _line, end, bad = m.groups()
        if t is not None or end is not None:
            break
        if bad is not None:
            return headers, None
        if header is not None:
            newline = ws.rfind("\n")
            if newline < 0 and pos:
                return headers, None  # not at the start of its line (N109)
            if newline + 1 < len(ws) and not _is_line_blank(ws[newline + 1:]):
                return headers, None
            if builder is None:
                builder = GameBuilder(text)
            # Positions are not needed: a header with a problem sends the
            # game to the tree path, which places it.
            builder.add_header(header, 0, 1, 1)
            read = builder.headers[-1]
            headers.append((read.name, read.value))
        pos = m.end()
    return headers, _steps(text[pos:])


def _steps(moves: str) -> Optional[List[Step]]:
    """The steps of the movetext ``moves`` (white space and tokens, each a
    move or a move number); None where one is unreadable here (one that the
    style checks would look closer at, or anything else).  The fast path
    reads a number only when its move follows on the same line."""
    if _reading[0].number_alone.search(moves) is not None:
        return None
    tokens = moves.split()
    half = len(tokens) >> 1
    if not len(tokens) & 1 and tokens[0::2] == _NUMBERED[:half] and moves.count(".") == half:
        # The usual layout, "1. R3-D 2. B4-D ...": the numbers (each token
        # with a dot) are the even tokens, and the turns' own as written; the
        # moves are the odd tokens.
        try:
            return list(map(_TOKENS.__getitem__, tokens[1::2]))  # type: ignore[arg-type]
        except _Unreadable:
            return None
    return _token_steps(tokens)


def _any_steps(moves: str) -> Optional[List[Step]]:
    """:func:`_steps` of any movetext, token by token."""
    if _reading[0].number_alone.search(moves) is not None:
        return None
    return _token_steps(moves.split())


def _token_steps(tokens: List[str]) -> Optional[List[Step]]:
    """The steps of the movetext's ``tokens``, read one by one (the movetext
    has no number alone on its line)."""
    try:
        read = list(map(_TOKENS.__getitem__, tokens))
    except _Unreadable:
        return None
    steps: List[Step] = []
    number = False  # the token before was a number
    for value in read:
        if value.__class__ is int:
            if number or value != len(steps) + 1:
                return None
            number = True
        else:
            steps.append(value)  # type: ignore[arg-type]
            number = False
    if number:
        return None  # a number without its move
    return steps
