"""The compiled accelerator of lint's fused path, when it is there.

``lcnotation.lostcities._speedups`` is a small C extension (built by
``setup.py`` where a compiler is; ``pip install .`` without one skips it).
It answers two questions:

- ``check(text, default_colors)`` looks at one game's text and answers
  ``(moves, discarded, total1, total2)`` when linting the game would find
  nothing -- its number of moves, whether a move discards, the final scores
  -- or None: "look closer", and the game goes the Python way
  (:func:`lcnotation.lostcities.fused.clean_moves`, then the tree path),
  which says what is wrong;
- ``scan(data, start, final, default_colors, judge)`` reads the bytes of a
  file from a game's start, splits them into games as the reader would
  (:func:`~lcnotation.lostcities.text.reader.split_games` of the decoded
  text; ``judge(raw)`` is the reader's own rule,
  :func:`~lcnotation.lostcities.text.reader.holds_moves_in`, for stretches
  of lines the C code does not judge) and checks each as ``check`` does, up
  to the first game it does not call clean: it answers ``(end, games, moves,
  discarded, lines, chars, next)``, the byte where the clean games end, how
  many games and moves they hold, whether one of them discards, the line
  ends and characters they take as the reader counts them, and where the
  game at ``end`` ends (-1: past the data, unless ``final``), which the lint
  engine then reads in Python (:func:`lcnotation.lostcities.lint.lint_blocks`).

Both accept a subset of what the Python fused path accepts, so a report is
the Python path's whether the extension is there or not
(tests/test_speedups.py holds it so).

:data:`check` is the first, or None when the extension is not built or when
the environment variable ``LCNOTATION_PURE_PYTHON`` is ``1`` (read once,
when this module is imported); :func:`scanner` gives the second, or None.
The extension is loaded by the first game checked (every command imports
the lint engine, few lint), and the lexical and rules tables the C code
works from are given to it then, from the modules that own them.

>>> check is None or check("1. R3-D", ("R", "G", "W", "B", "Y")) is None
True
>>> describe() in ("the C accelerator (lcnotation.lostcities._speedups)",
...                "pure Python (the C accelerator is not built)",
...                "pure Python (LCNOTATION_PURE_PYTHON=1)")
True
"""

from __future__ import annotations

import re
import string
from typing import Callable, Dict, Optional, Tuple

from ..core.compiled import PURE_PYTHON
from ..core.lineends import LineEndCounts, byte_line_ends
from .game.scoring import score_ranks
from .game.setup import COLOR_COUNTS, COPIES, HAND_SIZE, draw_pile_start
from .style import NOT_PLAIN
from .text.ast import HANDSHAKE
from .text.headers import CARD_WORDS, KNOWN_TAGS
from .text.lexical import LEXICON, without_lookbehind
from .text.reader import MAX_GAME

__all__ = ["PURE_PYTHON", "Verdict", "Scanned", "Check", "Scan", "LineEnds", "check", "scanner",
           "line_end_counter", "describe", "tables"]


#: What the accelerator says of a clean game: its moves, whether one of them
#: discards, and the two players' totals.
Verdict = Tuple[int, bool, int, int]
#: What ``scan`` says of a file's bytes: where its clean games end, how many
#: games and moves they hold, whether one discards, their line ends and
#: characters, and where the next game ends (-1: past the data).
Scanned = Tuple[int, int, int, bool, int, int, int]
#: ``check(text, default_colors)``.
Check = Callable[[str, Tuple[str, ...]], Optional[Verdict]]
#: ``scan(data, start, final, default_colors, judge)``.
Scan = Callable[[bytes, int, bool, Tuple[str, ...], Callable[[bytes], bool]], Scanned]
#: ``line_ends(data)``: CRLF, lone CR and LF line ends of bytes.
LineEnds = Callable[[bytes], LineEndCounts]

#: The headers whose values the check reads, in the order it expects them.
_READ_HEADERS = ("Colors", "Hand1", "Hand2", "Deck", "Result")
#: Colours a game can have at most, as the extension counts them.
_MAX_COLORS = 26


def _plain(text: str) -> bool:
    return NOT_PLAIN.search(text) is None


#: The escapes a class of the grammar may list its characters with.
_ESCAPES = {"t": "\t", "f": "\f", "v": "\v", "n": "\n", "r": "\r"}
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}


def _listed(cls: str) -> Optional[str]:
    r"""The characters of the regular expression's class ``cls`` when it lists
    them one by one, as the grammar writes the blanks before a header line's
    ``[`` (plain characters and the escapes ``\t``, ``\uFEFF``, ...); None for
    anything else (a range, a negation, a class escape such as ``\s``).

    >>> _listed(r"[ \t\ufeff]"), _listed(r"[\s]"), _listed("[a-z]")
    (' \t\ufeff', None, None)
    """
    if len(cls) < 2 or cls[0] != "[" or cls[-1] != "]":
        return None
    body, chars, i = cls[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c in "-^[]":
            return None
        if c != "\\":
            chars.append(c)
            i += 1
            continue
        e = body[i + 1:i + 2]
        if e in _ESCAPES:
            chars.append(_ESCAPES[e])
            i += 2
            continue
        digits = body[i + 2:i + 2 + _HEX_DIGITS.get(e, 0)]
        if e not in _HEX_DIGITS or len(digits) != _HEX_DIGITS[e] or not all(
                d in string.hexdigits for d in digits):
            return None
        chars.append(chr(int(digits, 16)))
        i += 2 + len(digits)
    return "".join(chars)


def tables() -> Optional[Dict[str, object]]:
    """The tables the extension is configured with, from the grammar's lexicon,
    the deal headers' card words, the known tags and the rules; None when
    they do not have the shape the extension reads (a grammar changed so
    far that it would need new C code)."""
    colors = "".join(sorted(c for c in LEXICON.color_letters if _plain(c)))
    piles = "".join(sorted(c for c in LEXICON.draw_letters
                           if _plain(c) and c not in LEXICON.color_letters))
    draws = {c for c in LEXICON.draw_letters if _plain(c)}
    minus = [c for c in string.punctuation
             if re.fullmatch(without_lookbehind(LEXICON.terminals["MINUS"]), c)]
    card_colors = {word[0]: card.color for word, card in CARD_WORDS.items()}
    card_ranks = {word[1:]: card.rank for word, card in CARD_WORDS.items()}
    product = all((CARD_WORDS[c + r].color, CARD_WORDS[c + r].rank) == (card_colors[c], card_ranks[r])
                  for c in card_colors for r in card_ranks if c + r in CARD_WORDS)
    line_blanks = _listed(LEXICON.line_blank_class)
    if line_blanks is not None and not all(LEXICON.header_first.fullmatch(c + "[")
                                           for c in line_blanks):
        line_blanks = None  # (not what the class means: a parse gone wrong)
    if (len(minus) != 1 or draws != set(colors) | set(piles) or not product
            or len(CARD_WORDS) != len(card_colors) * len(card_ranks) or line_blanks is None):
        return None
    return dict(
        colors=colors,
        ranks={w: v for w, v in LEXICON.rank_of.items() if _plain(w)},
        discards="".join(sorted(c for c in LEXICON.discard_letters if _plain(c))),
        minus=minus[0], piles=piles, card_colors=card_colors, card_ranks=card_ranks,
        tags=KNOWN_TAGS, names=_READ_HEADERS, hand_size=HAND_SIZE, copies=COPIES,
        handshake=HANDSHAKE, draw_start=[draw_pile_start(n) for n in range(_MAX_COLORS + 1)],
        color_counts=COLOR_COUNTS, score_ranks=score_ranks, max_game=MAX_GAME,
        line_blanks=line_blanks)


def _built() -> bool:
    import importlib.util

    return importlib.util.find_spec(__name__.rpartition(".")[0] + "._speedups") is not None


def describe() -> str:
    """Which path lint's fused check takes here, in words (for benchmarks and
    bug reports)."""
    if check is _first:
        _first("", ())
    if check is not None:
        return "the C accelerator (lcnotation.lostcities._speedups)"
    if not _built():
        return "pure Python (the C accelerator is not built)"
    if PURE_PYTHON:
        return "pure Python (LCNOTATION_PURE_PYTHON=1)"
    return "pure Python (the C accelerator does not fit this grammar's lexicon)"


def _load() -> Tuple[Optional[Check], Optional[Scan], Optional[LineEnds]]:
    """The extension's check, scan and line end count, configured; None when
    it is not there, turned off or cannot hold the tables."""
    if PURE_PYTHON:
        return None, None, None
    try:  # the extension's one client is this module
        from ._speedups import check as checks, configure, line_ends as counts, scan as scans
    except ImportError:
        return None, None, None
    configuration = tables()
    if configuration is None:
        return None, None, None
    try:
        configure(**configuration)  # type: ignore[arg-type]
    except ValueError:  # tables the C code cannot hold (a letter that is not ASCII)
        return None, None, None
    return checks, scans, counts


def _first(text: str, colors: Tuple[str, ...]) -> Optional[Verdict]:
    """The check before the first game: loads the extension, and puts its
    check, scan and count (or None) in their places."""
    global check, scan, _line_ends
    check, scan, _line_ends = _load()
    return None if check is None else check(text, colors)


def scanner() -> Optional[Scan]:
    """The accelerator's scan of a file's bytes (loading the extension), or
    None: pure Python (or the check turned off, as tests do)."""
    if check is _first:
        _first("", ())
    return scan if check is not None else None


def line_end_counter() -> LineEnds:
    """What counts the line ends of bytes (CRLF, lone CR, LF) for the lint
    engine: the accelerator's count (loading the extension), or
    :func:`~lcnotation.core.lineends.byte_line_ends`; the same counts."""
    if check is _first:
        _first("", ())
    return _line_ends if check is not None and _line_ends is not None else byte_line_ends


#: The accelerator's check of one game, or None (pure Python).
check: Optional[Check] = None if PURE_PYTHON else _first
#: Its scan of a file's bytes, once loaded (:func:`scanner`).
scan: Optional[Scan] = None
_line_ends: Optional[LineEnds] = None
