"""Error recovery: what the Lark path does at each syntax error.

At an error the unfinished move is dropped from the parser's stack, the
error is recorded, and the lexer is moved past the bad text; reading then
resumes.  A bad word that contains a letter is counted as an (unreadable)
turn, so the players' alternation after it stays as the author meant.

Each kind of error is one function below, tried in order: the first that
applies says where reading resumes (an offset), or :data:`STOP`.  All access
to Lark's parser state goes through :mod:`lcnotation.lostcities.text.larkstate`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional, Pattern, Sequence

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from .builder import GameBuilder
from .fastpath import terminal_patterns
from .larkstate import Interactive, Tok, tokens, where_it_failed
from .lexical import LEXICON
from .messages import PUNCTUATION, explain, word_end

__all__ = ["recover", "spaced_move_pattern", "MOVE_PARTS", "STOP"]

#: Where a case says reading cannot go on (the end of the text).
STOP = -1

_DRAWS = ("DRAW_COLOR", "DRAW_PILE")
#: Tokens that can stand on the parser's stack inside an unfinished move.
MOVE_PARTS = frozenset({"MOVE_NUMBER", "COLOR", "RANK", "DISCARD", "MINUS", *_DRAWS})
_COMMENTS = frozenset({"BRACE_COMMENT", "LINE_COMMENT"})
_POPPABLE = MOVE_PARTS | _COMMENTS
# Tokens that may directly follow an unfinished move without being part of it.
_BREAKS = frozenset({"BRACE_COMMENT", "LINE_COMMENT", "HEADER", "$END"})
_LETTER = re.compile(r"[^\W\d_]")
_NUMBER = re.compile(LEXICON.terminals["MOVE_NUMBER"])
# The blanks that "R3 -D" has inside the move (white space within a line).
_GAP = "[ \t]"
_GAP_RUN = re.compile(_GAP + "+")


def spaced_move_pattern() -> Pattern[str]:
    """A move whose parts may be separated by spaces or tabs, for error messages.

    Built from the grammar's terminals without their look-behinds (which are
    what forbid the spaces).
    """
    t = terminal_patterns(lookbehind=False)
    gap = _GAP + "*"
    return re.compile(gap.join([t["COLOR"], t["RANK"], t["DISCARD"] + "?", t["MINUS"],
                                f"(?:{t['DRAW_COLOR']}|{t['DRAW_PILE']})"]))


@dataclass
class _Error:
    """One syntax error, as recovery sees it."""

    b: GameBuilder
    text: str
    lark_text: str            # the text as Lark read it (see _mask_unclosable_braces)
    bad: int                  # where the parser stopped
    token: Optional[Tok]      # the unexpected token (None: an unexpected character)
    parts: Sequence[Tok]      # the unfinished move's tokens (perhaps just a number)
    after_move: Optional[str]  # the move that ends right at ``bad``, if any
    broken: bool              # the unfinished move is cut short, not misspelt
    spaced_move: Callable[[], Pattern[str]]

    @property
    def at_end(self) -> bool:
        return self.bad >= len(self.text)

    @property
    def numbered_only(self) -> bool:
        """Only a move number stands before the error (or nothing)."""
        return not self.parts or self.parts[-1].type == "MOVE_NUMBER"


def recover(ip: Interactive, e: UnexpectedInput, b: GameBuilder, text: str, lark_text: str,
            emit_move: Callable[[Sequence[Tok]], None],
            spaced_move: Callable[[], Pattern[str]],
            emit_comment: Callable[[Tok], None]) -> bool:
    """Record the error ``e``, drop the unfinished move, and move the lexer
    on.  Returns False when the parse cannot go on (the end of the text)."""
    popped = ip.pop_while(_poppable)
    parts = tokens(popped, MOVE_PARTS)
    token, bad = where_it_failed(e, text)
    if (token is not None and token.type in _COMMENTS and not parts
            and not ip.accepts(token.type) and ip.accepts("movetext")):
        # Between the header block and the movetext, which a move cut short
        # has made the parser close ("[E "x"] R3 {c} G4-D"): the comment
        # follows the headers, as it would without the fragment (8.1, 8.3).
        emit_comment(token)
        ip.seek(token.end_pos, text, token)
        return True
    after_move = None
    if parts and parts[-1].type in _DRAWS:
        # A whole move, then something that cannot follow it: keep the move.
        emit_move(parts)
        if parts[-1].end_pos == bad:
            after_move = "".join(str(t) for t in parts if t.type != "MOVE_NUMBER")
        parts = []
    broken = bool(parts) and (bad > parts[-1].end_pos
                              or (token is not None and token.type in _BREAKS))
    err = _Error(b, text, lark_text, bad, token, parts, after_move, broken, spaced_move)
    for case in _CASES:
        resume = case(err)
        if resume is not None:
            break
    else:  # pragma: no cover - _explained always applies
        raise AssertionError("no recovery case applied")
    if resume == STOP:
        return False
    ip.seek(resume, text, token)
    return True


def _misplaced_header(err: _Error) -> Optional[int]:
    """A well-formed header in the wrong place: report it, go on after it."""
    token = err.token
    if token is None or token.type != "HEADER":
        return None
    text, bad, b = err.text, err.bad, err.b
    line_start = text.rfind("\n", 0, bad) + 1
    if not LEXICON.is_line_blank(text[line_start:bad]):
        message = "a header must begin its own line"
    else:
        message = ("a header after the moves starts a new game: read records "
                   "of several games with read_games()")
    if err.parts:
        b.error(*explain(text, bad, err.parts, True))
        if err.parts[-1].type != "MOVE_NUMBER":
            b.turn += 1
    b.error("N109", message, bad, token.end_pos)
    return token.end_pos


def _spaced_move(err: _Error) -> Optional[int]:
    """"R3 -D": a whole move, but with white space inside."""
    parts = err.parts
    if not err.broken or parts[-1].type == "MOVE_NUMBER" or err.at_end:
        return None
    first = parts[1] if parts[0].type == "MOVE_NUMBER" else parts[0]
    spaced = err.spaced_move().match(err.text, first.start_pos)
    if spaced is None or spaced.end() <= err.bad:
        return None
    written = spaced.group()
    err.b.error("N112", f"white space inside the move '{written}': a move is "
                f"written without spaces, as '{_GAP_RUN.sub('', written)}'",
                spaced.start(), spaced.end())
    err.b.turn += 1
    return spaced.end()


def _number_before_bad_word(err: _Error) -> Optional[int]:
    """"2. D3-D": the number did get a move, a bad one.  Drop the number and
    read the word afresh, so that the word's own error is reported."""
    token = err.token
    if (err.broken and len(err.parts) == 1 and err.parts[0].type == "MOVE_NUMBER"
            and (token is None or token.type not in _BREAKS)
            and not _NUMBER.match(err.text, err.bad)):
        return err.bad
    return None


def _explained(err: _Error) -> int:
    """Every other error: explain it, then skip what cannot be read."""
    # A "{" the mask left alone opens a comment (see _mask_unclosable_braces).
    closable = err.lark_text[err.bad:err.bad + 1] != "\x00"
    err.b.error(*explain(err.text, err.bad, err.parts, err.broken, err.after_move, closable))
    if err.broken:
        return _cut_short(err)
    if err.at_end:
        return _unreadable_end(err)
    if err.numbered_only and err.text[err.bad] in "[{":
        return _unreadable_line(err)
    return _unreadable_word(err)


def _cut_short(err: _Error) -> int:
    """A move cut short: it was a turn; what follows is read afresh."""
    if err.parts[-1].type != "MOVE_NUMBER":
        err.b.turn += 1
    return STOP if err.at_end else err.bad


def _unreadable_end(err: _Error) -> int:
    """A misspelt word at the end of the text: a turn if it has a letter."""
    if err.parts and _LETTER.search(err.text, err.parts[0].start_pos, err.bad):
        err.b.turn += 1
    return STOP


def _unreadable_line(err: _Error) -> int:
    """A malformed header or an unclosed comment (perhaps right after a move
    number, as in "1.{..."): its line is not movetext."""
    resume = err.text.find("\n", err.bad)
    return len(err.text) if resume < 0 else resume


def _unreadable_word(err: _Error) -> int:
    """A misspelt word: skip it (a turn if it has a letter)."""
    text, bad = err.text, err.bad
    if text[bad] == "}" and err.numbered_only:
        # The error names only the stray '}': what follows it is read.
        resume = bad + 1
    elif err.after_move is not None:
        # Punctuation glued to a complete move ("R3-D!!", "R3-D,G4-D"):
        # only the punctuation is wrong; what follows it is read.
        punctuation = PUNCTUATION.match(text, bad)
        resume = max(punctuation.end() if punctuation else bad, bad + 1)
    else:
        resume = max(word_end(text, bad), bad + 1)
    word_start = err.parts[0].start_pos if err.parts else bad
    if _LETTER.search(text, word_start, resume):
        err.b.turn += 1
    return resume


_CASES: Sequence[Callable[[_Error], Optional[int]]] = (
    _misplaced_header, _spaced_move, _number_before_bad_word, _explained)


def _poppable(value: object) -> bool:
    """Whether recovery may drop ``value`` from the parser's stack: a token of
    an unfinished move, or comments (already recorded by the builder), either
    as tokens or as the tree of a ``_comment*`` that Lark has reduced."""
    if isinstance(value, Token):
        return value.type in _POPPABLE
    return isinstance(value, Tree) and all(
        isinstance(c, Token) and c.type in _COMMENTS for c in value.children)
