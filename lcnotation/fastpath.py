"""The fast path: well-formed games read without the LALR machinery.

Most records in an archive are clean.  For them, one regular expression
scans the game and moves are built straight from the matched text.  The
expression is composed from the grammar's own terminals (taken from the
loaded Lark grammar, not written out again), and accepts a subset of what
the grammar accepts: whitespace, moves (with an optional move number right
before them on the same line), headers at the start of a line before the
first move, and comments.  At the first thing it does not accept it gives
up, and the game is parsed again by Lark, which produces the diagnostics.
Both paths fill the same builder, so they build the same tree; a property
test (tests/test_fastpath.py) holds them to that.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Pattern

from lark import Token

from .ast import HANDSHAKE, Card, Draw, Move, Placement, Span

if TYPE_CHECKING:  # pragma: no cover
    from .parser import _Builder

__all__ = ["fast_pattern", "fast_parse"]

_RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
          "H": HANDSHAKE, "h": HANDSHAKE}
_UPPER = {c: c.upper() for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"}
_new = tuple.__new__
_BLANK = " \t\ufeff\r\f\v"


def fast_pattern(lark) -> Pattern[str]:
    """The fast path's expression, built from the terminals of ``lark``."""
    t = {term.name: f"(?:{term.pattern.to_regexp()})" for term in lark.terminals}
    move = (f"(?:(?P<num>{t['MOVE_NUMBER']})[ \\t]*)?"
            f"(?P<move>{t['COLOR']}{t['RANK']}{t['DISCARD']}?{t['MINUS']}"
            f"(?:{t['DRAW_COLOR']}|{t['DRAW_PILE']}))")
    return re.compile(f"(?P<ws>{t['WS']})|{move}|(?P<header>{t['HEADER']})"
                      f"|(?P<brace>{t['BRACE_COMMENT']})|(?P<line>{t['LINE_COMMENT']})")


def fast_parse(b: "_Builder", pattern: Pattern[str]) -> bool:
    """Fill builder ``b`` (already reset for its text) from the fast path.

    Returns False, with ``b`` in an undefined state, when the text needs the
    full parser.
    """
    text = b.text
    match = pattern.match
    n = len(text)
    pos = 0
    line = 1            # the line within this text, as Lark counts it
    line_start = 0
    delta = b.line_delta
    off = b.offset
    append = b.moves.append
    turn = 0
    while pos < n:
        m = match(text, pos)
        if m is None:
            return False
        kind = m.lastgroup
        end = m.end()
        if kind == "ws":
            newlines = text.count("\n", pos, end)
            if newlines:
                line += newlines
                line_start = text.rindex("\n", pos, end) + 1
        elif kind == "move":
            s = m.start("move")
            t = m.group("move")
            size = end - s
            col = s - line_start + 1
            at = s + off
            ln = line + delta
            if t[1] == "1":
                rank = 10
                k = 3
            else:
                rank = _RANKS[t[1]]
                k = 2
            card_span = _new(Span, (ln, col, ln, col + k, at, at + k))
            card = _new(Card, (_UPPER[t[0]], rank, card_span))
            if t[k] == "-":
                placement = _new(Placement, (card, False, card_span))
            else:
                placement = _new(Placement, (card, True, _new(Span, (
                    ln, col, ln, col + k + 1, at, at + k + 1))))
            last = t[-1]
            draw = _new(Draw, (None if last == "D" or last == "d" else _UPPER[last],
                               _new(Span, (ln, col + size - 1, ln, col + size,
                                           at + size - 1, at + size))))
            num = m.group("num")
            append(_new(Move, (placement, draw, (), None if num is None else int(num[:-1]),
                               turn, _new(Span, (ln, col, ln, col + size, at, at + size)))))
            turn += 1
        else:
            if kind == "header" and (b.moves or text[line_start:pos].strip(_BLANK)):
                return False  # misplaced: the full parser reports it
            value = m.group()
            newlines = value.count("\n")
            end_line = line + newlines
            end_col = (end - (text.rindex("\n", pos, end) + 1) + 1) if newlines \
                else pos - line_start + 1 + len(value)
            tok = Token(kind.upper() if kind == "header" else
                        ("BRACE_COMMENT" if kind == "brace" else "LINE_COMMENT"),
                        value, pos, line, pos - line_start + 1, end_line, end_col, end)
            if kind == "header":
                b.HEADER(tok)
            elif kind == "brace":
                b.BRACE_COMMENT(tok)
            else:
                b.LINE_COMMENT(tok)
            if newlines:
                line = end_line
                line_start = text.rindex("\n", pos, end) + 1
        pos = end
    b.turn = turn
    return True
