"""The fast path: well-formed games read without the LALR machinery.

Most records in an archive are clean.  For them, one regular expression
scans the game and moves are built straight from the matched text.  The
expression is composed from the grammar's own terminals (as
:mod:`~lcnotation.lostcities.text.lexical` reads them from the grammar, not
written out again; Lark is not loaded for it), and accepts a subset of what
the grammar accepts: whitespace, moves (with an optional move number right
before them on the same line), headers at the start of a line before the
first move, and comments.  At the first thing it does not accept it gives
up, and the game is parsed again by Lark, which produces the diagnostics.
Both paths fill the same builder, so they build the same tree; a property
test (tests/test_fastpath.py) holds them to that.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, Iterable, Optional, Pattern, Tuple

from .ast import Card, Comment, Draw, Move, Placement, Span
from .lexical import LEXICON, without_lookbehind
from ...core.numbers import read_decimal

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

    from .builder import Builder

__all__ = ["fast_pattern", "fast_parse", "move_parts", "move_pattern", "terminal_patterns",
           "MOVE_INFO", "MOVE_NUMBERS", "NumberTooLong"]

_RANKS = LEXICON.rank_of
_UPPER = LEXICON.upper
_MINUS = without_lookbehind(LEXICON.terminals["MINUS"])  # the hyphen
_new = tuple.__new__


def terminal_patterns(lark: "Optional[Lark]" = None,
                      lookbehind: bool = True) -> Dict[str, str]:
    """Each terminal of the grammar as a regular expression (a group): as
    :mod:`~lcnotation.lostcities.text.lexical` reads the grammar's text (no
    Lark is loaded), or as the Lark parser ``lark`` reads it (the same
    expressions: tests/test_lexical.py holds them to that).

    With ``lookbehind=False``, without the look-behind it begins with, if
    any: the grammar's RANK, DISCARD, MINUS and DRAW terminals look behind
    them so that no white space can stand inside a move; where they are
    matched one after the other, as parts of one move, the part before is
    already what they look for.

    >>> terminal_patterns()["DISCARD"], terminal_patterns(lookbehind=False)["DISCARD"]
    ('(?:(?<=[0-9Hh])[DdXx])', '(?:[DdXx])')
    """
    read: Iterable[Tuple[str, str]]
    if lark is None:
        read = LEXICON.terminals.items()
    else:
        read = ((term.name, term.pattern.to_regexp()) for term in lark.terminals)
    return {name: f"(?:{regexp if lookbehind else without_lookbehind(regexp)})"
            for name, regexp in read}


def fast_pattern(lark: "Optional[Lark]" = None) -> Pattern[str]:
    """The fast path's expression, built from the grammar's terminals (see
    :func:`terminal_patterns`).

    One match reads the white space before a token and the token: a move
    (with an optional move number before it on the same line), a header, a
    comment, or the end of the text; where none of them matches, an empty
    match (group ``bad``), so that a search never goes on past a place the
    fast path cannot read (an unclosed ``{`` on every line would otherwise
    make it quadratic).
    """
    t = terminal_patterns(lark)
    move = (f"(?:(?P<num>{t['MOVE_NUMBER']})[ \\t]*)?"
            f"(?P<move>{move_pattern(lark)})")
    return re.compile(f"(?P<ws>{t['WS']}?)(?:{move}|(?P<header>{t['HEADER']})"
                      f"|(?P<brace>{t['BRACE_COMMENT']})|(?P<line>{t['LINE_COMMENT']})"
                      f"|(?P<end>\\Z)|(?P<bad>))")


def move_pattern(lark: "Optional[Lark]" = None) -> str:
    """The expression of one move as the fast path reads it (colour, rank,
    discard marker, hyphen, draw), built from the grammar's terminals (see
    :func:`terminal_patterns`)."""
    t = terminal_patterns(lark)
    part = terminal_patterns(lark, lookbehind=False)  # redundant inside a move, and slow
    return (f"{t['COLOR']}{part['RANK']}{part['DISCARD']}?{part['MINUS']}"
            f"(?:{part['DRAW_COLOR']}|{part['DRAW_PILE']})")


_PartsKey = Tuple[str, int, bool, Optional[str]]
_Info = Tuple[Placement, Draw, int]


class _Parts(Dict[_PartsKey, Tuple[Placement, Draw]]):
    """The placement and draw of every move meaning, made once: the parts of
    a move are values, shared by every move that says the same (the move
    itself holds the position)."""

    def __missing__(self, key: _PartsKey) -> Tuple[Placement, Draw]:
        color, rank, discard, drawn = key
        draw = _DRAWS.get(drawn)
        if draw is None:
            draw = _DRAWS[drawn] = Draw(drawn)
        played = (color, rank, discard)
        placement = _PLACEMENTS.get(played)
        if placement is None:
            placement = _PLACEMENTS[played] = Placement(Card(color, rank), discard)
        parts = self[key] = (placement, draw)
        return parts


_DRAWS: Dict[Optional[str], Draw] = {}
_PLACEMENTS: Dict[Tuple[str, int, bool], Placement] = {}
_PARTS = _Parts()


def move_parts(color: str, rank: int, discard: bool,
               drawn: Optional[str]) -> Tuple[Placement, Draw]:
    """The shared ``(Placement, Draw)`` of a move (``drawn`` None: the draw pile).

    >>> move_parts("R", 3, False, None)
    (Placement(card=Card(color='R', rank=3), discard=False), Draw(color=None))
    >>> move_parts("R", 3, False, None)[0] is move_parts("R", 3, False, None)[0]
    True
    """
    return _PARTS[color, rank, discard, drawn]


def _move_info(t: str) -> _Info:
    """What a move's text says: its placement, its draw and its length."""
    # The fast path matched it: a colour letter, a rank, perhaps a discard
    # marker, the hyphen and the draw (a colour letter or the draw pile).
    hyphen = t.index(_MINUS, 2)
    rank = t[1:hyphen]
    discard = rank not in _RANKS
    placement, draw = _PARTS[_UPPER[t[0]], _RANKS[rank[:-1] if discard else rank], discard,
                             _UPPER.get(t[hyphen + 1:])]
    return placement, draw, len(t)


class _MoveInfo(Dict[str, _Info]):
    """A cache of :func:`_move_info` (there are only a few thousand spellings)."""

    def __missing__(self, t: str) -> _Info:
        info = self[t] = _move_info(t)
        return info


class _Numbers(Dict[str, int]):
    """Move numbers as written (``"12."``) and their values."""

    def __missing__(self, written: str) -> int:
        value = read_decimal(written[:-1])
        if value is None:
            raise NumberTooLong  # the full parser reports it
        return value


class NumberTooLong(Exception):
    """A move number too long to read: the fast path gives way."""


MOVE_INFO = _MoveInfo()
MOVE_NUMBERS = _Numbers({f"{n}.": n for n in range(1, 1000)})


def fast_parse(b: "Builder", pattern: Pattern[str]) -> bool:
    """Fill builder ``b`` (new, for its text) from the fast path.

    Returns False, with ``b`` in an undefined state, when the text needs the
    full parser.
    """
    try:
        return _fill(b, pattern, b.text)
    except NumberTooLong:
        return False


def _fill(b: "Builder", pattern: Pattern[str], text: str) -> bool:
    count = text.count
    rindex = text.rindex
    new = _new
    infos = MOVE_INFO
    numbers = MOVE_NUMBERS
    pos = 0
    delta = b.line_delta
    line = 1 + delta    # the line in the file (Lark counts from 1 in the text)
    line_start = 0      # offset of the line's first character in the text
    off = b.offset
    moves = b.moves
    append = moves.append
    turn = 0
    # Every match starts where the one before ended: where nothing else
    # matches, the empty group ``bad`` does, and the loop stops there.
    for m in pattern.finditer(text):
        # One call for every group: white space, number, move, header, brace
        # comment, line comment, end, nothing readable.
        ws, num, t, header, brace, comment, end, bad = m.groups()
        if ws:
            if ws == "\n":  # the usual case: a new line
                line += 1
                line_start = pos + 1
            else:
                newlines = ws.count("\n")
                if newlines:
                    line += newlines
                    line_start = rindex("\n", pos, pos + len(ws)) + 1
        pos = m.end()
        if t is not None:
            placement, draw, size = infos[t]
            s = pos - size
            col = s - line_start + 1
            a = s + off
            append(new(Move, (placement, draw, (), None if num is None else numbers[num], turn,
                              new(Span, (line, col, line, col + size, a, a + size)))))
            turn += 1
        elif end is not None:
            break
        elif header is not None:
            if moves:
                return False  # a header after the moves: the full parser reports it
            at = pos - len(header)
            b.add_header(header, at, line - delta, at - line_start + 1)
            if b.errors:
                return False
        elif bad is not None:
            return False  # something the fast path does not read
        else:
            value = comment if brace is None else brace
            at = pos - len(value)
            col = at - line_start + 1
            newlines = count("\n", at, pos)
            if newlines:
                end_line = line + newlines
                line_start = rindex("\n", at, pos) + 1
                end_col = pos - line_start + 1
            else:
                end_line = line
                end_col = col + len(value)
            span = new(Span, (line, col, end_line, end_col, at + off, pos + off))
            if brace is not None:
                b.comments.append(new(Comment, (value[1:-1], "brace", span)))
            else:
                b.comments.append(new(Comment, (value[1:], "line", span)))
            line = end_line
    else:
        return False  # no match at all: the end of the text was not reached
    b.turn = turn
    return True
