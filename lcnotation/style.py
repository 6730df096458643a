"""Style checks (family S): how a record is written, not whether it is legal.

Each finding may carry a :class:`Fix`, a set of text edits that is safe to
apply: only spellings whose meaning is certain are ever rewritten.

>>> from lcnotation.reader import parse_game
>>> text = "1. r3-d 2. BHX-D 3. R4D-B"
>>> [(f.diagnostic.code, f.diagnostic.column) for f in check_style(parse_game(text), text)]
[('S102', 4), ('S101', 21)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from .ast import Game, Move, Span
from .dialects import Dialect, get_dialect
from .errors import Diagnostic, Severity
from .formatter import format_move
from .headers import DEFAULT_COLORS, KNOWN_TAGS

__all__ = ["Edit", "Fix", "Finding", "StyleState", "check_style", "STYLE_CODES"]

#: Style codes: (severity, summary).
STYLE_CODES: Dict[str, Tuple[Severity, str]] = {
    "S100": (Severity.WARNING, "a suppression comment that suppresses nothing"),
    "S101": (Severity.WARNING, "discard markers D and X mixed in one file"),
    "S102": (Severity.WARNING, "letters not in the case of the dialect (upper case for v1)"),
    "S103": (Severity.WARNING, "a move number that skips or repeats"),
    "S104": (Severity.WARNING, "a colour outside the five base colours without a Colors header"),
    "S105": (Severity.WARNING, "a tag that differs from a known tag only in letter case"),
    "S106": (Severity.WARNING, "a tag given twice in one game"),
}


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` (offsets in the file) with ``replacement``."""

    start: int
    end: int
    replacement: str


@dataclass(frozen=True)
class Fix:
    """Edits that together make a finding go away."""

    description: str
    edits: Tuple[Edit, ...]


@dataclass(frozen=True)
class Finding:
    """A diagnostic and, when the intent is certain, its fix."""

    diagnostic: Diagnostic
    fix: Optional[Fix] = None


@dataclass
class StyleState:
    """What style checks remember from one game of a file to the next."""

    #: The discard marker first used in the file (upper case), if any.
    marker: Optional[str] = None
    dialect: Dialect = field(default_factory=lambda: get_dialect("v1"))
    default_colors: Tuple[str, ...] = DEFAULT_COLORS


_KNOWN_BY_LOWER = {t.lower(): t for t in KNOWN_TAGS}
_NUMBER_BEFORE = re.compile(r"([0-9]+)\.[ \t]*\Z")


def _diag(code: str, message: str, span: Span, move: Optional[Move] = None) -> Diagnostic:
    return Diagnostic(code, message, span, STYLE_CODES[code][0],
                      turn=None if move is None else move.turn)


def check_style(game: Game, text: str, offset: int = 0,
                state: Optional[StyleState] = None) -> List[Finding]:
    """Style findings for ``game``, whose source is ``text`` starting at file
    offset ``offset``.  Pass the same ``state`` for every game of a file."""
    state = state if state is not None else StyleState()
    findings: List[Finding] = []
    _check_headers(game, findings)
    _check_spelling(game, text, offset, state, findings)
    _check_numbers(game, text, offset, findings)
    _check_colors(game, state, findings)
    findings.sort(key=lambda f: f.diagnostic.span.start)
    return findings


def _check_headers(game: Game, findings: List[Finding]) -> None:
    seen: Dict[str, Span] = {}
    for h in game.headers:
        known = _KNOWN_BY_LOWER.get(h.name.lower())
        if known is not None and known != h.name:
            findings.append(Finding(_diag(
                "S105", f"tag '{h.name}' is not '{known}': tags are case-sensitive, so it "
                "is kept as an unknown tag", h.span)))
        if h.name in seen:
            first = seen[h.name]
            findings.append(Finding(_diag(
                "S106", f"tag '{h.name}' is given twice (first on line {first.line}); "
                "the first one counts", h.span)))
        else:
            seen[h.name] = h.span


def _check_spelling(game: Game, text: str, offset: int, state: StyleState,
                    findings: List[Finding]) -> None:
    dialect = state.dialect
    for move in game.moves:
        span = move.span
        if span is None:
            continue
        written = text[span.start - offset:span.end - offset]
        if move.placement.discard:
            upper = written[len(written) - len(move.draw.color or "D") - 2].upper()
            if state.marker is None:
                state.marker = upper
            elif upper != state.marker:
                wanted = format_move(move, _with_marker(dialect, state.marker))
                findings.append(Finding(
                    _diag("S101", f"'{written}' marks its discard with {upper} but this file "
                          f"uses {state.marker}", span, move),
                    Fix(f"write '{wanted}'", (Edit(span.start, span.end, wanted),))))
                continue
        expected_case = written.lower() if dialect.lowercase else written.upper()
        if written != expected_case:
            case = "lower" if dialect.lowercase else "upper"
            findings.append(Finding(
                _diag("S102", f"'{written}' should be written in {case} case: "
                      f"'{expected_case}'", span, move),
                Fix(f"write '{expected_case}'", (Edit(span.start, span.end, expected_case),))))


def _with_marker(dialect: Dialect, marker: str) -> Dialect:
    if dialect.discard == marker:
        return dialect
    return Dialect(dialect.name, dialect.description, discard=marker,
                   lowercase=dialect.lowercase)


def _check_numbers(game: Game, text: str, offset: int, findings: List[Finding]) -> None:
    """Numbers follow one convention: one per turn, or one per round of two turns."""
    numbered = [m for m in game.moves if m.number is not None and m.turn is not None]
    if not numbered:
        return
    per_turn = sum(1 for m in numbered if m.number == m.turn + 1)
    per_round = sum(1 for m in numbered if m.turn % 2 == 0 and m.number == m.turn // 2 + 1)
    by_round = per_round > per_turn
    certain = not game.errors  # renumber only when every turn was read
    for m in numbered:
        expected = m.turn // 2 + 1 if by_round else m.turn + 1
        if m.number == expected and not (by_round and m.turn % 2 == 1):
            continue
        if m.number == expected:
            message = (f"move number {m.number} repeats: this game numbers rounds, so only "
                       "the first move of a round carries a number")
        else:
            kind = "repeats" if m.number < expected else "skips ahead"
            message = f"move number {m.number} {kind}: expected {expected}."
        fix = None
        start = m.span.start - offset
        tail = text[max(0, start - 24):start]
        found = _NUMBER_BEFORE.search(tail)
        if certain and found is not None and m.number != expected:
            at = m.span.start - (len(tail) - found.start(1))
            fix = Fix(f"write '{expected}.'", (Edit(at, at + len(found.group(1)), str(expected)),))
        findings.append(Finding(_diag("S103", message, m.span, m), fix))


def _check_colors(game: Game, state: StyleState, findings: List[Finding]) -> None:
    if any(h.name == "Colors" for h in game.headers):
        return
    for m in game.moves:
        outside = next((c for c in (m.card.color, m.draw.color)
                        if c is not None and c not in state.default_colors), None)
        if outside is not None:
            letters = "".join(state.default_colors) + outside
            findings.append(Finding(_diag(
                "S104", f"colour '{outside}' is used but the game has no Colors header: "
                f"add one such as [Colors \"{letters}\"]", m.span, m)))
            return


def apply_fixes(text: str, fixes: Sequence[Fix]) -> Tuple[str, int]:
    """Apply non-overlapping fixes to ``text``; return the new text and how
    many fixes were applied (a fix that overlaps an earlier one is skipped)."""
    edits: List[Tuple[int, int, str]] = []
    applied = 0
    taken: List[Tuple[int, int]] = []
    for fix in sorted(fixes, key=lambda f: min(e.start for e in f.edits)):
        if any(e.start < end and start < e.end or e.start == start
               for e in fix.edits for start, end in taken):
            continue
        for e in fix.edits:
            taken.append((e.start, e.end))
            edits.append((e.start, e.end, e.replacement))
        applied += 1
    out: List[str] = []
    pos = 0
    for start, end, replacement in sorted(edits):
        out.append(text[pos:start])
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    return "".join(out), applied
