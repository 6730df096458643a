"""The notation's lexical facts, each taken from the grammar.

``grammar/lcnotation.lark`` is the one definition of the notation's words:
which letters are colours, how ranks are written, which characters are
white space, what a header is, and where a ``{`` comment must stop.  This
module reads the grammar's terminals and derives from them every table and
regular expression that other modules need (the formatter's rank texts, the
reader's game splitting, the messages' letter sets, the deal reading of the
game layer, the JSON form's canonical moves).  A new colour letter or a new
blank character is a change to the grammar alone; tests/test_lexical.py
changes the grammar's terminals and sees every reader follow.

>>> LEXICON.ranks
(0, 2, 3, 4, 5, 6, 7, 8, 9, 10)
>>> "".join(sorted(LEXICON.reserved_letters)), LEXICON.rank_text[HANDSHAKE]
('DHX', 'H')
>>> bool(LEXICON.header_line.search('R3-D\\n  [Round "2"]'))
True
"""

from __future__ import annotations

import re
import string
from typing import Dict, FrozenSet, Mapping, Pattern, Tuple

from ...core.grammar import grammar_terminals, grammar_text
from .ast import HANDSHAKE

__all__ = ["Lexicon", "LEXICON", "GRAMMAR_FILE",
           "without_lookbehind",
           "COLOR_LETTERS", "RESERVED_LETTERS", "RESERVED_WHY", "RANK_OF", "RANK_TEXT",
           "RANKS"]

GRAMMAR_FILE = "lcnotation.lark"

# The blanks allowed before the "[" of a header line, as BRACE_COMMENT writes
# them: the class in its look-ahead "(?![...]*\[)".
_BARRIER = re.compile(r"\(\?!(\[(?:[^\]\\]|\\.)*\])\*\\\[\)")
# The characters looked at when finding the letters a terminal admits: the
# ASCII letters and those of Latin-1 and Latin Extended-A/B.
_CANDIDATES = string.ascii_letters + "".join(
    chr(c) for c in range(0xC0, 0x250) if chr(c).isalpha())
_LOOKBEHIND = re.compile(r"^\(\?<=[^)]*\)")

#: Why each letter that is no colour cannot be one.
RESERVED_WHY: Mapping[str, str] = {
    "D": "D is reserved for the draw pile",
    "H": "H is the handshake rank",
    "X": "X is the discard marker of the x-discard notation",
}


def without_lookbehind(pattern: str) -> str:
    """``pattern`` without the look-behind it begins with, if any.

    >>> without_lookbehind("(?<=[0-9Hh])[DdXx]")
    '[DdXx]'
    """
    return _LOOKBEHIND.sub("", pattern)


def _letters(pattern: str) -> FrozenSet[str]:
    """The candidate letters that ``pattern`` (look-behind removed) matches alone."""
    compiled = re.compile(without_lookbehind(pattern))
    return frozenset(c for c in _CANDIDATES if compiled.fullmatch(c))


class Lexicon:
    """The lexical facts of one grammar (see the module's docstring).

    Everything is derived once, when the lexicon is made; the package's
    modules use :data:`LEXICON`, that of the installed grammar.
    """

    def __init__(self, text: str) -> None:
        t = self.terminals = grammar_terminals(text)
        missing = {"COLOR", "RANK", "DISCARD", "MINUS", "DRAW_COLOR", "DRAW_PILE", "HEADER_NAME",
                   "HEADER", "BRACE_COMMENT", "WS"} - set(t)
        if missing:
            raise ValueError(f"the grammar lacks the terminals {', '.join(sorted(missing))}")
        colors = _letters(t["COLOR"])
        #: Every colour letter, upper case (the grammar admits both cases).
        self.color_letters: FrozenSet[str] = frozenset(c for c in colors if c == c.upper())
        #: Each colour letter as written (either case) and as stored (upper case).
        self.upper: Dict[str, str] = {c: c.upper() for c in colors}
        #: The letters of the draw: colours and the draw pile, either case.
        self.draw_letters: FrozenSet[str] = _letters(t["DRAW_COLOR"]) | _letters(t["DRAW_PILE"])
        #: Upper-case ASCII letters that can never name a colour.
        self.reserved_letters: FrozenSet[str] = frozenset(
            c for c in string.ascii_uppercase if c not in self.color_letters)
        #: The discard markers, either case.
        self.discard_letters: FrozenSet[str] = _letters(t["DISCARD"])
        rank = re.compile(without_lookbehind(t["RANK"]))
        written = [w for w in [str(n) for n in range(100)] + list(_CANDIDATES)
                   if rank.fullmatch(w)]
        #: Each way a rank may be written, and its value (HANDSHAKE for a letter).
        self.rank_of: Dict[str, int] = {w: int(w) if w.isdigit() else HANDSHAKE
                                        for w in written}
        #: The ranks, handshake first.
        self.ranks: Tuple[int, ...] = tuple(sorted(set(self.rank_of.values())))
        #: The canonical text of each rank: digits, or the upper-case letter.
        self.rank_text: Dict[int, str] = {
            value: w for w, value in sorted(self.rank_of.items(), key=lambda i: i[0].islower(),
                                            reverse=True)}
        #: A header's name, and the whole of a text that is one.
        self.header_name: Pattern[str] = re.compile(t["HEADER_NAME"])
        self.header_name_only: Pattern[str] = re.compile(t["HEADER_NAME"] + r"\Z")
        #: The grammar's header: ``[Name "value"]``.
        self.header: Pattern[str] = re.compile(t["HEADER"])
        #: The grammar's ``{`` comment.
        self.brace_comment: Pattern[str] = re.compile(t["BRACE_COMMENT"])
        ws = re.fullmatch(r"(\[.*\])\+", t["WS"])
        if ws is None:
            raise ValueError(f"WS must be one character class repeated, not /{t['WS']}/")
        #: One character of white space (the grammar's WS, one character).
        self.blank_class = ws.group(1)
        #: What the class of white space lists, for building other classes.
        self.blank_chars = self.blank_class[1:-1]
        #: White space (the grammar's WS).
        self.ws: Pattern[str] = re.compile(t["WS"])
        #: White space, possibly none.
        self.blanks: Pattern[str] = re.compile(self.blank_class + "*")
        #: A text (or its end) of white space alone.
        self.blank_text: Pattern[str] = re.compile(self.blank_class + r"*\Z")
        #: White space at the end of a text.
        self.trailing_blanks: Pattern[str] = re.compile(self.blank_class + r"+\Z")
        barrier = _BARRIER.search(t["BRACE_COMMENT"])
        if barrier is None:
            raise ValueError("BRACE_COMMENT must stop before a line that begins with "
                             "'[' as (?![...]*\\[)")
        #: The blanks that may stand before the "[" of a header line.
        self.line_blank_class = barrier.group(1)
        line_blanks = self.line_blank_class + "*"
        #: The start of a header line at the start of a text (blanks, then "[").
        self.header_first: Pattern[str] = re.compile(line_blanks + r"\[")
        #: A line end followed by the start of a header line; a header line
        #: begins right after the match's first character.
        self.header_line: Pattern[str] = re.compile(r"\n" + line_blanks + r"\[")
        #: A line of one header alone (blanks around it, its line end if any).
        self.header_alone: Pattern[str] = re.compile(
            line_blanks + t["HEADER"] + self.line_blank_class[:-1] + r"\r]*\n?\Z")
        #: What bounds a "{" comment: braces, and the starts of header lines.
        self.brace_stops: Pattern[str] = re.compile(r"[{}]|^" + line_blanks + r"\[", re.M)
        self._line_blank = re.compile(self.line_blank_class[:-1] + r"\r]*\Z")

    def skip_blanks(self, text: str, pos: int) -> int:
        """The offset of the first character at or after ``pos`` that is not white space."""
        found = self.ws.match(text, pos)
        return pos if found is None else found.end()

    def is_line_blank(self, text: str) -> bool:
        """Whether ``text`` is only blanks that may stand before a header on its
        line (a CR among them: only a lone CR could stand there).

        >>> LEXICON.is_line_blank(" \\t"), LEXICON.is_line_blank(" R3-D ")
        (True, False)
        """
        return self._line_blank.match(text) is not None

    def canonical_move(self, discard: str) -> Pattern[str]:
        """A whole move in upper case with ``discard`` as the discard marker
        (R3-D, BHD-G, W10-D): the groups are the colour, the rank, the
        marker (empty for a play) and the draw.

        >>> LEXICON.canonical_move("D").match("BHD-G").groups()
        ('B', 'H', 'D', 'G')
        """
        ranks = "|".join(sorted((w for w in self.rank_of if w == w.upper()),
                                key=len, reverse=True))
        draw = "".join(sorted(c for c in self.draw_letters if c == c.upper()))
        colors = "".join(sorted(self.color_letters))
        return re.compile(f"([{re.escape(colors)}])({ranks})({re.escape(discard)}?)"
                          f"-([{re.escape(draw)}])\\Z")


#: The lexical facts of the installed grammar.
LEXICON = Lexicon(grammar_text(GRAMMAR_FILE))
COLOR_LETTERS = LEXICON.color_letters
RESERVED_LETTERS = LEXICON.reserved_letters
RANK_OF = LEXICON.rank_of
RANK_TEXT = LEXICON.rank_text
RANKS = LEXICON.ranks
