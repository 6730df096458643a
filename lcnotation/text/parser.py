"""From text to syntax tree: Lark drives, this module builds and recovers.

The LALR parser calls :class:`_Builder` as it reduces, so no parse tree is
ever built.  The builder records moves, headers and comments in source order
as they complete; :meth:`_Builder.assemble` then attaches each comment to the
header or move it follows.

In lax mode a syntax error does not stop the game: the error is recorded,
the unfinished move is dropped from the parser's stack, the input is skipped
to the end of the bad word, and parsing resumes.  A bad word that contains a
letter is counted as an (unreadable) turn, so the players' alternation after
it stays as the author meant.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken

from .ast import HANDSHAKE, Card, Comment, Game, Header, Move, Span
from .errors import NotationError
from .fastpath import fast_parse, fast_pattern, move_parts, terminal_patterns
from .messages import PUNCTUATION, explain, word_end
from .numbers import read_decimal, too_long

__all__ = ["grammar_text", "GameParser"]

GRAMMAR_FILE = "lcnotation.lark"
START_SYMBOLS = ["file", "game", "move", "cards", "colors"]

_new = tuple.__new__
_RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
          "H": HANDSHAKE, "h": HANDSHAKE}
_UPPER = {c: c.upper() for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"}
_DRAWS = ("DRAW_COLOR", "DRAW_PILE")
# Tokens that can stand on the parser's stack inside an unfinished move.
_MOVE_PARTS = frozenset({"MOVE_NUMBER", "COLOR", "RANK", "DISCARD", "MINUS", *_DRAWS})
_COMMENTS = frozenset({"BRACE_COMMENT", "LINE_COMMENT"})
_POPPABLE = _MOVE_PARTS | _COMMENTS
# Tokens that may directly follow an unfinished move without being part of it.
_BREAKS = frozenset({"BRACE_COMMENT", "LINE_COMMENT", "HEADER", "$END"})
_UNESCAPE = re.compile(r'\\(["\\])')
_LETTER = re.compile(r"[^\W\d_]")
_NUMBER = re.compile(r"[0-9]+\.")
_SPACE = re.compile(r"[ \t]+")


def _spaced_move_pattern(lark: Lark) -> "re.Pattern[str]":
    """A move whose parts may be separated by spaces or tabs, for error messages.

    Built from the grammar's terminals without their look-behinds (which are
    what forbid the spaces).
    """
    t = terminal_patterns(lark, lookbehind=False)
    gap = "[ \t]*"
    return re.compile(gap.join([t["COLOR"], t["RANK"], t["DISCARD"] + "?", t["MINUS"],
                                f"(?:{t['DRAW_COLOR']}|{t['DRAW_PILE']})"]))


def grammar_text() -> str:
    """The text of the Lark grammar, from the installed package.

    >>> "move:" in grammar_text()
    True
    """
    try:
        from .. import grammar
    except ImportError:  # a source checkout that was not installed
        folder = Path(__file__).resolve().parents[2] / "grammar"
    else:
        folder = Path(grammar.__file__).parent
    return (folder / GRAMMAR_FILE).read_text("utf-8")


class _Builder:
    """Parser callbacks: build nodes as the LALR parser completes them."""

    def __init__(self) -> None:
        self.reset("", 1, 0)

    def reset(self, text: str, first_line: int, first_offset: int) -> None:
        self.text = text
        self.line_delta = first_line - 1
        self.offset = first_offset
        self.headers: List[Header] = []
        self.moves: List[Move] = []
        self.comments: List[Comment] = []
        self.found_cards: List[Card] = []
        self.found_colors: List[str] = []
        self.colors_tokens: Sequence[Token] = ()
        self.errors: List[Tuple[str, str, Span]] = []
        self.turn = 0
        self._cursor = (0, 1, 0)  # offset, line, offset of the line's start: see span_at

    # -- positions --------------------------------------------------------

    def span(self, first: Token, last: Token) -> Span:
        d = self.line_delta
        o = self.offset
        return Span(first.line + d, first.column, last.end_line + d, last.end_column,
                    first.start_pos + o, last.end_pos + o)

    def span_at(self, start: int, end: int) -> Span:
        """A span from offsets into the text being parsed.

        Errors come in the order of the text, so lines are counted on from
        the previous error, not from the start: a game of many errors costs
        time linear in its length.
        """
        text = self.text
        at, line, line_start = self._cursor
        if start < at:
            at, line, line_start = 0, 1, 0
        newlines = text.count("\n", at, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", at, start) + 1
        self._cursor = (start, line, line_start)
        newlines = text.count("\n", start, end)
        end_line = line + newlines
        end_col = end - (text.rfind("\n", start, end) + 1 if newlines else line_start) + 1
        d = self.line_delta
        return Span(line + d, start - line_start + 1, end_line + d, end_col,
                    start + self.offset, end + self.offset)

    def error(self, code: str, message: str, start: int, end: int) -> None:
        self.errors.append((code, message, self.span_at(start, end)))

    # -- terminals (called when the parser shifts them) ---------------------

    def HEADER(self, tok: Token) -> Token:
        # The text as written, not the token: Lark reads a masked copy (see
        # _mask_unclosable_braces).
        self.add_header(self.text[tok.start_pos:tok.end_pos], tok.start_pos, tok.line,
                        tok.column)
        return tok

    def add_header(self, raw: str, start: int, line: int, column: int) -> None:
        """Record the header written ``raw`` at offset ``start`` of the text
        (``line`` and ``column`` as Lark counts them in the text)."""
        # The HEADER terminal has checked the syntax: the name is what stands
        # between "[" and the first quote, the value what the quotes enclose.
        v0 = raw.index('"') + 1
        v1 = raw.rindex('"')
        name = raw[1:v0 - 1].strip(" \t")
        value = raw[v0:v1]
        if "\\" in value:
            value = _UNESCAPE.sub(r"\1", value)
        ln = line + self.line_delta
        at = start + self.offset
        size = len(raw)
        self.headers.append(_new(Header, (
            name, value, (), _new(Span, (ln, column, ln, column + size, at, at + size)),
            _new(Span, (ln, column + v0, ln, column + v1, at + v0, at + v1)))))
        if column > 1:
            text = self.text
            if text[start - column + 1:start].strip(" \t\ufeff\r\f\v"):
                self.error("N109", f"header '{name}' must begin its own line",
                           start, start + size)

    def BRACE_COMMENT(self, tok: Token) -> Token:
        self.comments.append(Comment(tok[1:-1], "brace", self.span(tok, tok)))
        return tok

    def LINE_COMMENT(self, tok: Token) -> Token:
        self.comments.append(Comment(self.text[tok.start_pos + 1:tok.end_pos], "line",
                                     self.span(tok, tok)))
        return tok

    # -- rules ------------------------------------------------------------

    def move(self, children: Sequence[Token]) -> None:
        self.emit_move([t for t in children if t.type in _MOVE_PARTS])

    def emit_move(self, parts: Sequence[Token]) -> None:
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
                self.error("N101", f"move number: {too_long(parts[0][:-1])}",
                           parts[0].start_pos, parts[0].end_pos)
        placement, draw = move_parts(_UPPER[color_tok], _RANKS[rank_tok], discard_tok is not None,
                                     None if draw_tok.type == "DRAW_PILE" else _UPPER[draw_tok])
        self.moves.append(Move(placement, draw, (), number, self.turn,
                               self.span(color_tok, draw_tok)))
        self.turn += 1

    def card(self, children: Sequence[Token]) -> None:
        color_tok, rank_tok = children
        self.found_cards.append(Card(_UPPER[color_tok], _RANKS[rank_tok],
                               self.span(color_tok, rank_tok)))

    def colors(self, children: Sequence[Token]) -> None:
        self.colors_tokens = children
        self.found_colors = [_UPPER[t] for t in children]

    def _ignore(self, children: Sequence[object]) -> None:
        return None

    file = game = header_block = movetext = cards = _ignore

    # -- the result -------------------------------------------------------

    def assemble(self, path: Optional[str]) -> Game:
        """The game read, with every comment attached to what it follows."""
        headers: list = self.headers
        moves: list = self.moves
        comments = self.comments
        leading: Tuple[Comment, ...] = ()
        if comments:
            anchors = headers + moves
            ci = 0
            first = anchors[0].span.start if anchors else None
            while ci < len(comments) and (first is None or comments[ci].span.start < first):
                ci += 1
            leading = tuple(comments[:ci])
            for k, anchor in enumerate(anchors):
                nxt = anchors[k + 1].span.start if k + 1 < len(anchors) else None
                cj = ci
                while cj < len(comments) and (nxt is None or comments[cj].span.start < nxt):
                    cj += 1
                if cj > ci:
                    anchors[k] = anchor._replace(comments=tuple(comments[ci:cj]))
                    ci = cj
            headers = anchors[: len(headers)]
            moves = anchors[len(headers):]
        errors = tuple(NotationError(message, span, code=code, path=path)
                       for code, message, span in sorted(self.errors, key=lambda e: e[2].start))
        return Game(tuple(headers), tuple(moves), leading, errors, self.span_at(0, len(self.text)))


class GameParser:
    """A Lark LALR parser wired to a builder.  Not thread-safe: see :func:`parser`."""

    def __init__(self) -> None:
        self.builder = _Builder()
        self.lark = Lark(
            grammar_text(),
            parser="lalr",
            lexer="contextual",
            start=START_SYMBOLS,
            transformer=self.builder,
            maybe_placeholders=False,
            cache=True,
        )
        self._spaced_move: Optional["re.Pattern[str]"] = None
        self._lark_text = ""  # the text as Lark reads it, braces masked
        self.fast = fast_pattern(self.lark)
        #: Off only to compare the two paths (tests/test_fastpath.py).
        self.use_fast_path = True

    def run(self, start: str, text: str, *, strict: bool, first_line: int = 1,
            first_offset: int = 0) -> _Builder:
        """Parse ``text`` from rule ``start`` and return the builder's records.

        With ``strict`` the first syntax error is raised as NotationError;
        otherwise errors are recorded and parsing resumes after them.
        """
        b = self.builder
        b.reset(text, first_line, first_offset)
        if start == "game" and self.use_fast_path:
            if fast_parse(b, self.fast):
                return b
            b.reset(text, first_line, first_offset)
        self._lark_text = _mask_unclosable_braces(text)
        ip = self.lark.parse_interactive(self._lark_text, start)
        while True:
            try:
                ip.resume_parse()
                break
            except UnexpectedInput as e:
                if not self._recover(ip, e, text):
                    break
                if strict and b.errors:
                    break
        if strict and b.errors:
            code, message, span = b.errors[0]
            raise NotationError(message, span, code=code)
        return b

    def _recover(self, ip, e: UnexpectedInput, text: str) -> bool:
        """Record the error, drop the unfinished move, and reposition the lexer.

        Returns False when the parse cannot go on (the end of the text).
        """
        b = self.builder
        state = ip.parser_state
        values, states = state.value_stack, state.state_stack
        popped: List[object] = []
        while values and _poppable(values[-1]):
            popped.append(values.pop())
            states.pop()
        parts = [t for t in reversed(popped) if isinstance(t, Token) and t.type in _MOVE_PARTS]

        bad_token: Optional[Token] = None
        if isinstance(e, UnexpectedToken):
            bad_token = e.token
            bad = len(text) if bad_token.type == "$END" else bad_token.start_pos
        else:
            bad = e.pos_in_stream

        after_move = None
        if parts and parts[-1].type in _DRAWS:
            b.emit_move(parts)
            if parts[-1].end_pos == bad:
                after_move = "".join(str(t) for t in parts if t.type != "MOVE_NUMBER")
            parts = []

        if bad_token is not None and bad_token.type == "HEADER":
            # A well-formed header in the wrong place: report it, then go on after it.
            line_start = text.rfind("\n", 0, bad) + 1
            if text[line_start:bad].strip(" \t\ufeff\r\f\v"):
                message = "a header must begin its own line"
            else:
                message = ("a header after the moves starts a new game: read records "
                           "of several games with read_games()")
            if parts:
                b.error(*explain(text, bad, parts, True))
                if parts[-1].type != "MOVE_NUMBER":
                    b.turn += 1
            b.error("N109", message, bad, bad_token.end_pos)
            return self._seek(ip, bad_token.end_pos, text)

        broken = bool(parts) and (
            bad > parts[-1].end_pos or (bad_token is not None and bad_token.type in _BREAKS))
        if broken and parts[-1].type != "MOVE_NUMBER" and bad < len(text):
            first = parts[1] if parts[0].type == "MOVE_NUMBER" else parts[0]
            if self._spaced_move is None:  # compiled when first needed: errors are rare
                self._spaced_move = _spaced_move_pattern(self.lark)
            spaced = self._spaced_move.match(text, first.start_pos)
            if spaced is not None and spaced.end() > bad:
                # "R3 -D": a whole move, but with white space inside.
                written = spaced.group()
                b.error("N112", f"white space inside the move '{written}': a move is "
                        f"written without spaces, as '{_SPACE.sub('', written)}'",
                        spaced.start(), spaced.end())
                b.turn += 1
                return self._seek(ip, spaced.end(), text, bad_token)
        if (broken and len(parts) == 1 and parts[0].type == "MOVE_NUMBER"
                and (bad_token is None or bad_token.type not in _BREAKS)
                and not _NUMBER.match(text, bad)):
            # "2. D3-D": the number did get a move, a bad one.  Drop the number
            # and read the word afresh, so that the word's own error is reported.
            return self._seek(ip, bad, text, bad_token)
        # A "{" the mask left alone opens a comment (see _mask_unclosable_braces).
        closable = self._lark_text[bad:bad + 1] != "\x00"
        code, message, start, end = explain(text, bad, parts, broken, after_move, closable)
        b.error(code, message, start, end)
        if broken:
            # A move cut short: it was a turn; what follows is read afresh.
            if parts[-1].type != "MOVE_NUMBER":
                b.turn += 1
            if bad >= len(text):
                return False
            return self._seek(ip, bad, text, bad_token)
        word_start = parts[0].start_pos if parts else bad
        if bad >= len(text):
            if parts and _LETTER.search(text, word_start, bad):
                b.turn += 1
            return False
        between_moves = not parts or parts[-1].type == "MOVE_NUMBER"
        if text[bad] in "[{" and between_moves:
            # A malformed header or an unclosed comment (perhaps right after a
            # move number, as in "1.{..."): its line is not movetext.
            resume = text.find("\n", bad)
            resume = len(text) if resume < 0 else resume
            return self._seek(ip, resume, text, bad_token)
        if text[bad] == "}" and between_moves:
            # The error names only the stray '}': what follows it is read.
            resume = bad + 1
        elif after_move is not None:
            # Punctuation glued to a complete move ("R3-D!!", "R3-D,G4-D"):
            # only the punctuation is wrong; what follows it is read.
            resume = max(PUNCTUATION.match(text, bad).end(), bad + 1)
        else:
            resume = max(word_end(text, bad), bad + 1)
        if _LETTER.search(text, word_start, resume):
            b.turn += 1
        return self._seek(ip, resume, text, bad_token)

    @staticmethod
    def _seek(ip, pos: int, text: str, rewind_to: Optional[Token] = None) -> bool:
        """Move the lexer to offset ``pos``, keeping its line and column right."""
        counter = ip.lexer_thread.state.line_ctr
        if counter.char_pos > pos:
            # Only ever back to the start of a token the lexer has just read.
            assert rewind_to is not None and rewind_to.start_pos <= pos
            counter.char_pos = rewind_to.start_pos
            counter.line = rewind_to.line
            counter.column = rewind_to.column
            counter.line_start_pos = rewind_to.start_pos - rewind_to.column + 1
        if counter.char_pos < pos:
            counter.feed(text[counter.char_pos:pos])
        return True


# What decides whether a "{" can be closed: braces, and the lines that begin
# with "[" (a comment never runs across one; see BRACE_COMMENT).
_BRACE_STOPS = re.compile(r"[{}]|^[ \t\f\v\ufeff]*\[", re.M)


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


def _poppable(value: object) -> bool:
    """Whether recovery may drop ``value`` from the parser's stack: a token of
    an unfinished move, or comments (already recorded by the builder), either
    as tokens or as the tree of a ``_comment*`` that Lark has reduced."""
    if isinstance(value, Token):
        return value.type in _POPPABLE
    return isinstance(value, Tree) and all(
        isinstance(c, Token) and c.type in _COMMENTS for c in value.children)


_local = threading.local()


def parser() -> GameParser:
    """This thread's parser (Lark parsers with callbacks keep per-parse state)."""
    p = getattr(_local, "parser", None)
    if p is None:
        p = _local.parser = GameParser()
    return p
