"""Friendly messages for syntax errors.

The grammar decides *whether* text is valid; this module only explains *why
not*, from what the parser had read of the current move (its ``parts``) and
the text at the point where it stopped.  Every function returns
``(code, message, start, end)``: a diagnostic code, a message that names
what was expected, and the character range to report.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, List, Optional, Sequence, Tuple

from ...core.codes import Family
from ...core.diagnostics import Severity
from .lexical import LEXICON, RESERVED_WHY
from ...core.lineends import line_end

if TYPE_CHECKING:  # pragma: no cover
    from .larkstate import Tok

__all__ = ["explain", "explain_header", "word_end", "shortened", "SYNTAX_CODES", "SYNTAX"]

#: Every syntax code, with a one-line summary (the spec has the full list).
SYNTAX_CODES = {
    "N101": "text that is not a move, a move number, a comment or a header",
    "N102": "a reserved letter (D, H or X) used as a colour",
    "N103": "a rank that is not 2 to 10 or H",
    "N104": "a placement without its '-' and draw",
    "N105": "a missing or invalid draw after '-'",
    "N106": "a discard marker written after the hyphen",
    "N107": "characters run on after a complete move",
    "N108": "a malformed [Name \"value\"] header",
    "N109": "a header that does not begin its own line, or follows the moves",
    "N110": "a '{' comment that is never closed",
    "N111": "a move number that is not followed by a move",
    "N112": "white space inside a move",
    "N120": "a Colors header that is not a list of distinct colour letters",
    "N121": "a Hand1, Hand2 or Deck header that is not a list of cards",
    "N122": "a Result header that is not two scores (or *)",
    "N001": "bytes that are not UTF-8 text",
}

#: The family N: notation (syntax), documented in ``spec/diagnostics.md``.
SYNTAX = Family("N", "notation (syntax)", "diagnostics.md",
                {code: (Severity.ERROR, summary) for code, summary in SYNTAX_CODES.items()})


Explanation = Tuple[str, str, int, int]

_STOP = re.compile(f"[{LEXICON.blank_chars}{{;]")
_RUN = re.compile(f"[^{LEXICON.blank_chars}{{;]*")
_ALNUM = re.compile(r"[0-9A-Za-z]*")
# What may not follow a move but does not belong to it: punctuation.
PUNCTUATION = re.compile(f"[^\\w{LEXICON.blank_chars}{{;]*")
# What was meant as a rank: digits, after an H when one was written ("RH3").
_RANK_RUN = re.compile(r"[Hh]?[0-9]*")
_DIGITS = re.compile(r"[0-9]*")
# The grammar's BRACE_COMMENT: a '{' it does not match is a comment never closed.
_BRACE_COMMENT = LEXICON.brace_comment
_DRAW_LETTERS = LEXICON.draw_letters
_DISCARDS = tuple(sorted(LEXICON.discard_letters))
_RESERVED = RESERVED_WHY


def _matched(pattern: "re.Pattern[str]", text: str, pos: int, endpos: int = -1) -> str:
    """What ``pattern`` matches at ``pos`` ("" where it does not)."""
    found = pattern.match(text, pos, len(text) if endpos < 0 else endpos)
    return "" if found is None else found.group()


def word_end(text: str, pos: int) -> int:
    """The end of the whitespace-delimited word that contains ``pos``.

    A word also stops before ``{`` and ``;``, which always start a comment.
    """
    m = _STOP.search(text, pos)
    return m.start() if m else len(text)


#: The most characters a message quotes of what it found.
_QUOTED = 24


def shortened(word: str) -> str:
    """``word`` as a message quotes it: cut short after a few characters.

    >>> shortened("R3-D"), shortened("wUCAAIsRihQEyZEUxZUWSAwR0lSJCBAWEo6NDAX")
    ('R3-D', 'wUCAAIsRihQEyZEUxZUWSAw\u2026')
    """
    return word if len(word) <= _QUOTED else word[: _QUOTED - 1] + "\u2026"


def _run(text: str, pos: int) -> str:
    # Read at most one character past the limit: the run may be megabytes long,
    # and a line of errors must not cost the square of its length.
    return shortened(_matched(_RUN, text, pos, pos + _QUOTED + 1))


def _joined(parts: Sequence[Tok]) -> str:
    return "".join(str(t) for t in parts if t.type != "MOVE_NUMBER")


def explain(
    text: str,
    bad: int,
    parts: Sequence[Tok],
    broken: bool,
    after_move: Optional[str] = None,
    closable: Optional[bool] = None,
) -> Explanation:
    """Explain why parsing stopped at offset ``bad``.

    ``parts`` are the tokens of the unfinished move (possibly just a move
    number); ``broken`` says that white space, a comment or the end of the
    text separates them from ``bad`` (the move was cut short rather than
    misspelt); ``after_move`` is the move that ends right at ``bad``, if any;
    ``closable``, when known, says whether a ``{`` at ``bad`` can open a
    comment (the parser knows it for every ``{``; finding out reads on to
    the next ``}``).
    """
    at_end = bad >= len(text)
    char = "" if at_end else text[bad]
    found = "the end of the text" if at_end else f"'{_run(text, bad) or char}'"
    last = parts[-1].type if parts else None
    so_far = _joined(parts)

    def end() -> int:
        # Where the bad word ends; only some messages need it, and finding
        # it reads the whole word.
        return bad if at_end else max(word_end(text, bad), bad + 1)

    if last == "MOVE_NUMBER" and broken:
        tok = parts[-1]
        return ("N111", f"move number '{tok}' is not followed by a move",
                tok.start_pos, tok.end_pos)

    if last is None or last == "MOVE_NUMBER":
        return _explain_item(text, bad, char, found, end, after_move, closable)

    if last == "COLOR" and broken:
        at = parts[-1].end_pos
        return ("N103", f"expected a rank (2 to 10, or H) right after the colour "
                f"'{so_far}'", at, at)

    if last == "COLOR":
        rank = _matched(_ALNUM, text, bad)
        shown = f"'{shortened(rank)}'" if rank else found
        return ("N103", f"expected a rank (2 to 10, or H) after the colour '{so_far}', "
                f"found {shown}", bad, bad + len(rank) if rank else end())

    if last in ("RANK", "DISCARD"):
        if broken:
            at = parts[-1].end_pos
            return ("N104", f"incomplete move '{so_far}': expected '-' and a draw, "
                    f"as in '{so_far}-D'", at, at)
        if last == "RANK" and char.isdigit():
            rank = parts[-1]
            digits = _matched(_RANK_RUN, text, rank.start_pos)
            return ("N103", f"'{shortened(digits)}' is not a rank: ranks are 2 to 10, or H",
                    rank.start_pos, rank.start_pos + len(digits))
        marker = " (or the discard marker D or X)" if last == "RANK" else ""
        return ("N104", f"expected '-'{marker} after '{so_far}', found {found}", bad, end())

    # last == "MINUS": the draw is missing or malformed.
    if broken:
        at = parts[-1].end_pos
        return ("N105", f"missing draw after '{so_far}': expected a colour letter "
                "or D (the draw pile)", at, at)
    nxt = text[bad + 1] if bad + 1 < len(text) else ""
    if char in _DRAW_LETTERS and nxt:
        if nxt in _DISCARDS:
            return ("N106", f"'{nxt}' after the draw '{char}': a discard marker belongs "
                    f"to the placement, before the hyphen (as in '{so_far[:-1]}{nxt}-{char}')",
                    bad + 1, end())
        return ("N107", f"unexpected '{_run(text, bad + 1)}' after the draw '{char}': "
                "a move ends with its draw", bad + 1, end())
    if char.upper() in ("H", "X"):
        return ("N105", f"'{char}' is not a draw source: expected a colour letter or D "
                "(the draw pile)", bad, end())
    return ("N105", f"expected a draw after '{so_far}' (a colour letter or D for the "
            f"draw pile), found {found}", bad, end())


def _explain_item(text: str, bad: int, char: str, found: str, end: Callable[[], int],
                  after_move: Optional[str], closable: Optional[bool]) -> Explanation:
    if char == "{":
        # A '}' must follow for a comment; looking for one first is quick.
        comment = None
        if closable or (closable is None and text.find("}", bad) >= 0):
            comment = _BRACE_COMMENT.match(text, bad)
        if comment is not None:
            # Only where the start symbol allows no comment (parse_move).
            return ("N101", "unexpected comment: expected a move such as 'R3-D'",
                    bad, comment.end())
        return ("N110", "comment '{' is never closed: expected '}'", bad, line_end(text, bad))
    if char == "}":
        return ("N101", "'}' without an opening '{'", bad, bad + 1)
    if char == "[":
        return explain_header(text, bad)
    if after_move is not None and char:
        glued = _matched(PUNCTUATION, text, bad) or char
        return ("N107", f"unexpected '{shortened(glued)}' after the move '{after_move}': "
                "moves are separated by spaces or new lines", bad, bad + len(glued))
    upper = char.upper()
    if upper in _RESERVED:
        return ("N102", f"'{char}' is not a colour letter: {_RESERVED[upper]}", bad, bad + 1)
    if char.isdigit() or char == "-":
        digits = _matched(_DIGITS, text, bad)
        after = bad + len(digits)
        if digits and not text.startswith(("-", *_DISCARDS), after):
            return ("N101", f"unexpected {found}: a move number is written with a dot, "
                    f"as '{shortened(digits)}.'", bad, end())
        return ("N101", f"unexpected {found}: a move starts with a colour letter, "
                "as in 'R3-D'", bad, end())
    if not char:
        return ("N101", "expected a move such as 'R3-D', found the end of the text", bad, bad)
    return ("N101", f"unexpected {found}: expected a move (such as 'R3-D'), "
            "a move number or a comment", bad, end())


_TAG = re.compile(rf"\[[ \t]*({LEXICON.terminals['HEADER_NAME']})")
_VALUE = re.compile(r'[ \t]+"([^"\\\r\n]*(?:\\.[^"\\\r\n]*)*)("?)')


def explain_header(text: str, bad: int) -> Explanation:
    """Explain a header line that does not have the form ``[Name "value"]``."""
    end = line_end(text, bad)
    m = _TAG.match(text, bad)
    if m is None:
        return ("N108", "malformed header: expected a name after '[', as in "
                "[Event \"value\"]", bad, end)
    name = shortened(m.group(1))
    v = _VALUE.match(text, m.end())
    if v is None:
        return ("N108", f"malformed header '{name}': expected a space and a value "
                "in double quotes", m.end(), end)
    escape = re.search(r'\\[^"\\]', v.group(1))
    if escape is not None:
        at = v.start(1) + escape.start()
        return ("N108", f"unknown escape '{escape.group()}' in the value of header "
                f"'{name}': only \\\" and \\\\ are escapes", at, at + 2)
    if not v.group(2):
        return ("N108", f"the value of header '{name}' has no closing '\"'",
                v.start(1) - 1, end)
    return ("N108", f"header '{name}' is missing its closing ']'", v.end(), end)


def describe_parts(parts: List[Tok]) -> str:
    """The text of an unfinished move, for messages."""
    return _joined(parts)
