"""From text to syntax tree: Lark drives, this module builds and recovers.

The LALR parser calls :class:`_LarkCallbacks` as it shifts and reduces, so
no parse tree is ever built: they fill a :class:`~lcnotation.lostcities.text.builder.
GameBuilder` with moves, headers and comments in source order as they
complete, as the fast path does for clean games.

In lax mode a syntax error does not stop the game: the error is recorded
and parsing resumes after the bad text (see :mod:`lcnotation.lostcities.text.recovery`).

Lark, and the modules that work with its state (``larkstate``,
``recovery``), are imported the first time a text needs them: a clean game
is read by the fast path, whose expression comes from the grammar's text
without Lark, so a command that reads only clean games never loads it.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING, FrozenSet, Optional, Sequence, Tuple

from .ast import Card, Comment, Move, Span
from .builder import GameBuilder, ParseResult
from ...core.diagnostics import NotationError
from .fastpath import fast_parse, fast_pattern, move_parts
from ...core.grammar import grammar_text
from .lexical import GRAMMAR_FILE, LEXICON
from ...core.numbers import read_decimal, too_long

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

    from .larkstate import Tok

__all__ = ["GameParser"]

START_SYMBOLS = ["file", "game", "move", "cards", "colors"]

_RANKS = LEXICON.rank_of
_UPPER = LEXICON.upper


class _LarkCallbacks:
    """Called by the LALR parser as it shifts terminals and reduces rules:
    they fill the builder of the parse under way (``self.b``)."""

    def __init__(self, move_parts: FrozenSet[str]) -> None:
        self.b = GameBuilder("")
        self.move_parts = move_parts  # the tokens that make a move (recovery's)

    def span(self, first: Tok, last: Tok) -> Span:
        b = self.b
        d = b.line_delta
        o = b.offset
        return Span(first.line + d, first.column, last.end_line + d, last.end_column,
                    first.start_pos + o, last.end_pos + o)

    # -- terminals (called when the parser shifts them) ---------------------

    def HEADER(self, tok: Tok) -> Tok:
        # The text as written, not the token: Lark reads a masked copy (see
        # _mask_unclosable_braces).
        self.b.add_header(self.b.text[tok.start_pos:tok.end_pos], tok.start_pos, tok.line,
                          tok.column)
        return tok

    def BRACE_COMMENT(self, tok: Tok) -> Tok:
        self.b.comments.append(Comment(tok[1:-1], "brace", self.span(tok, tok)))
        return tok

    def LINE_COMMENT(self, tok: Tok) -> Tok:
        self.b.comments.append(Comment(self.b.text[tok.start_pos + 1:tok.end_pos], "line",
                                       self.span(tok, tok)))
        return tok

    def record_comment(self, tok: Tok) -> None:
        """Record a comment that the parser could not take (see recovery)."""
        (self.BRACE_COMMENT if tok.type == "BRACE_COMMENT" else self.LINE_COMMENT)(tok)

    # -- rules ------------------------------------------------------------

    def move(self, children: Sequence[Tok]) -> None:
        parts = self.move_parts
        self.emit_move([t for t in children if t.type in parts])

    def emit_move(self, parts: Sequence[Tok]) -> None:
        """Build a move from its tokens: [MOVE_NUMBER] COLOR RANK [DISCARD] [MINUS] DRAW."""
        draw_tok = parts[-1]
        i = len(parts) - 2
        if parts[i].type == "MINUS":
            i -= 1
        discard_tok = parts[i] if parts[i].type == "DISCARD" else None
        if discard_tok is not None:
            i -= 1
        rank_tok = parts[i]
        color_tok = parts[i - 1]
        number = None
        if parts[0].type == "MOVE_NUMBER":
            number = read_decimal(parts[0][:-1])
            if number is None:
                self.b.error("N101", f"move number: {too_long(parts[0][:-1])}",
                             parts[0].start_pos, parts[0].end_pos)
        placement, draw = move_parts(_UPPER[color_tok], _RANKS[rank_tok], discard_tok is not None,
                                     None if draw_tok.type == "DRAW_PILE" else _UPPER[draw_tok])
        b = self.b
        b.moves.append(Move(placement, draw, (), number, b.turn,
                            self.span(color_tok, draw_tok)))
        b.turn += 1

    def card(self, children: Sequence[Tok]) -> None:
        color_tok, rank_tok = children
        self.b.cards.append(Card(_UPPER[color_tok], _RANKS[rank_tok],
                                 self.span(color_tok, rank_tok)))

    def colors(self, children: Sequence[Tok]) -> None:
        self.b.colors.extend(_UPPER[t] for t in children)
        self.b.color_spans.extend((t.start_pos, t.end_pos) for t in children)

    def _ignore(self, children: Sequence[object]) -> None:
        return None

    file = game = header_block = movetext = cards = _ignore


# The builder of the callbacks between parses: a parse never fills it.
_IDLE = GameBuilder("")


class GameParser:
    """The fast path and a Lark LALR parser, filling a builder.  Not
    thread-safe (Lark's callbacks are bound to one parser): see :func:`parser`.

    The fast path's expression is made at once; Lark's parser (:attr:`lark`)
    when a text first needs it (Lark keeps its tables on disk, ``cache=True``).
    """

    def __init__(self) -> None:
        self._lark: "Optional[Lark]" = None
        self._callbacks: Optional[_LarkCallbacks] = None
        self._spaced_move: Optional["re.Pattern[str]"] = None
        self.fast = fast_pattern()

    @property
    def lark(self) -> "Lark":
        """The Lark parser of the grammar, made (and Lark imported) when first used."""
        return self._lark if self._lark is not None else self._make()[0]

    @property
    def callbacks(self) -> _LarkCallbacks:
        """What Lark calls as it reads (made with :attr:`lark`)."""
        return self._callbacks if self._callbacks is not None else self._make()[1]

    def _make(self) -> "Tuple[Lark, _LarkCallbacks]":
        from lark import Lark

        from .recovery import MOVE_PARTS

        callbacks = self._callbacks = _LarkCallbacks(MOVE_PARTS)
        lark = self._lark = Lark(
            grammar_text(GRAMMAR_FILE),
            parser="lalr",
            lexer="contextual",
            start=START_SYMBOLS,
            transformer=callbacks,
            maybe_placeholders=False,
            cache=True,
        )
        return lark, callbacks

    def run(self, start: str, text: str, *, strict: bool, first_line: int = 1,
            first_offset: int = 0, fast: bool = True) -> ParseResult:
        """Parse ``text`` from rule ``start`` and return what was read.

        With ``strict`` the first syntax error is raised as NotationError;
        otherwise errors are recorded and parsing resumes after them.  A
        game is first tried on the fast path unless ``fast`` is False (the
        result is the same: tests compare the two).
        """
        if start == "game" and fast:
            quick = GameBuilder(text, first_line, first_offset)
            if fast_parse(quick, self.fast):
                return quick.result()
        callbacks = self.callbacks
        b = callbacks.b = GameBuilder(text, first_line, first_offset)
        try:
            self._parse(start, text, strict)
        finally:
            callbacks.b = _IDLE
        if strict and b.errors:
            code, message, span = b.errors[0]
            raise NotationError(message, span, code=code)
        return b.result()

    def _parse(self, start: str, text: str, strict: bool) -> None:
        from lark.exceptions import UnexpectedInput

        from .larkstate import Interactive
        from .recovery import recover

        callbacks = self.callbacks
        b = callbacks.b
        lark_text = _mask_unclosable_braces(text)
        ip = Interactive(self.lark, lark_text, start)
        while True:
            try:
                ip.resume()
                break
            except UnexpectedInput as e:
                if not recover(ip, e, b, text, lark_text, callbacks.emit_move,
                               self._spaced, callbacks.record_comment):
                    break
                if strict and b.errors:
                    break

    def _spaced(self) -> "re.Pattern[str]":
        """The pattern of a move with blanks inside (compiled when first
        needed: errors are rare)."""
        if self._spaced_move is None:
            from .recovery import spaced_move_pattern

            self._spaced_move = spaced_move_pattern()
        return self._spaced_move

# What decides whether a "{" can be closed: braces, and the lines that begin
# with "[" (a comment never runs across one; see BRACE_COMMENT).
_BRACE_STOPS = LEXICON.brace_stops


def _mask_unclosable_braces(text: str) -> str:
    """``text`` with every ``{`` that no comment can begin at replaced by a NUL.

    A ``{`` opens a comment only if a ``}`` follows it before the next line
    that begins with ``[``.  The lexer learns that only by reading on to that
    ``}`` or line: a game of many lines that each open a comment never closed
    would take time quadratic in its length.  A NUL is, like that ``{``, an
    unexpected character outside header values and comments, and is read like
    it inside them; the builder takes every value and every message from the
    text as written, so nothing shows the mask.

    >>> _mask_unclosable_braces("{a} {b ; {c")
    '{a} \\x00b ; \\x00c'
    >>> _mask_unclosable_braces('{a\\n[Event "}"] {b}')
    '\\x00a\\n[Event "}"] {b}'
    """
    if "{" not in text:
        return text
    unclosable = []
    closable = False
    for m in reversed(list(_BRACE_STOPS.finditer(text))):
        stop = text[m.end() - 1]
        if stop == "}":
            closable = True
        elif stop == "[":
            closable = False
        elif not closable:
            unclosable.append(m.start())
    if not unclosable:
        return text
    pieces = []
    at = 0
    for pos in reversed(unclosable):
        pieces.append(text[at:pos])
        at = pos + 1
    pieces.append(text[at:])
    return "\x00".join(pieces)


_local = threading.local()


def parser() -> GameParser:
    """This thread's parser (Lark parsers with callbacks keep per-parse state)."""
    p = getattr(_local, "parser", None)
    if p is None:
        p = _local.parser = GameParser()
    return p
