"""Style checks (family S): how a record is written, not whether it is legal.

Each finding may carry a :class:`Fix`, a set of text edits that is safe to
apply: only spellings whose meaning is certain are ever rewritten.

>>> from lcnotation.lostcities.text.reader import parse_game
>>> text = "1. r3-d 2. BHX-D 3. R4D-B"
>>> [(f.diagnostic.code, f.diagnostic.column) for f in check_style(parse_game(text), text)]
[('S102', 4), ('S101', 21)]
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from .text.ast import Game, Move, Span
from .text.dialects import Dialect, get_dialect
from ..core.diagnostics import Diagnostic, Severity
from ..core.codes import Family
from ..core.findings import Edit, Finding, Fix
from ..core.lineends import LINE_END_NAMES, CountingReader, mixed
from .text.headers import DEFAULT_COLORS, KNOWN_TAGS

__all__ = ["StyleState", "StyleRule", "STYLE_RULES", "check_style", "STYLE_CODES", "STYLE", "mixed_line_ends",
           "resolve_dialect", "first_discard_marker", "discard_marker"]

#: Style codes: (severity, summary).
STYLE_CODES: Dict[str, Tuple[Severity, str]] = {
    "S100": (Severity.WARNING, "a suppression comment that suppresses nothing"),
    "S101": (Severity.WARNING, "a discard marker other than the file's first one (or the "
             "configured dialect's)"),
    "S102": (Severity.WARNING, "letters not in the case of the dialect (upper case, or lower "
             "case for lower)"),
    "S103": (Severity.WARNING, "a move number that skips or repeats"),
    "S104": (Severity.WARNING, "a colour outside the default colours, in a game without a "
             "Colors header"),
    "S105": (Severity.WARNING, "a tag that differs from a known tag only in letter case"),
    "S106": (Severity.WARNING, "a tag given twice in one game"),
    "S107": (Severity.WARNING, "a file that mixes line ends (LF, CRLF, CR)"),
}

#: The family S: style, documented in ``spec/diagnostics.md``.
STYLE = Family("S", "style", "diagnostics.md", STYLE_CODES)


@dataclass
class StyleState:
    """What style checks remember from one game of a file to the next.

    ``dialect`` is the spelling expected; None expects upper case and the
    discard marker the file uses first.
    """

    #: The discard marker first used in the file (upper case), if any.
    marker: Optional[str] = None
    dialect: Optional[Dialect] = None
    default_colors: Tuple[str, ...] = DEFAULT_COLORS


# In a clean movetext: a lower-case letter, X, or a comment needs a closer look.
_NOT_PLAIN = re.compile(r"[a-z{;X]")
_CAPITALS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_RANK_AND_MARKER = frozenset("DH")
_KNOWN = frozenset(KNOWN_TAGS)
_KNOWN_BY_LOWER = {t.lower(): t for t in KNOWN_TAGS}
_NUMBER_BEFORE = re.compile(r"([0-9]+)\.[ \t]*\Z")


def resolve_dialect(configured: "Optional[str | Dialect]", first_marker: Optional[str]) -> Dialect:
    """The dialect a file is held to, by every command (``lint``, ``fmt``, the editor).

    The configured dialect (``[tool.lcnotation] dialect``, ``--dialect``)
    when there is one; else the file's own spelling: upper case, with the
    discard marker of the file's first discard (``first_marker``, ``"D"`` or
    ``"X"``; None when the file has no discard yet, which then reads as v1).

    >>> resolve_dialect(None, "X").name, resolve_dialect(None, None).name
    ('x-discard', 'v1')
    >>> resolve_dialect("lower", "X").name
    'lower'
    """
    if configured is not None:
        return get_dialect(configured)
    return get_dialect("x-discard" if first_marker is not None and first_marker.upper() == "X"
                       else "v1")


def discard_marker(move: Move, text: str, offset: int = 0) -> Optional[str]:
    """The discard marker of ``move`` as written (``D``, ``d``, ``X`` or ``x``), or
    None when the move is not a discard; ``text`` is the source from file offset ``offset``."""
    span = move.span
    if not move.placement.discard or not span.known:
        return None
    written = text[span.start - offset:span.end - offset]
    return written[written.index("-") - 1]  # the marker stands right before the hyphen


def first_discard_marker(game: Game, text: str, offset: int = 0) -> Optional[str]:
    """The marker (upper case) of the first discard of ``game``, or None.

    >>> from lcnotation.lostcities.text.reader import parse_game
    >>> first_discard_marker(parse_game("R3-D bhx-d G4D-D"), "R3-D bhx-d G4D-D")
    'X'
    """
    for move in game.moves:
        marker = discard_marker(move, text, offset)
        if marker is not None:
            return marker.upper()
    return None


def _diag(code: str, message: str, span: Span, move: Optional[Move] = None) -> Diagnostic:
    return Diagnostic(code, message, span, STYLE_CODES[code][0],
                      turn=None if move is None else move.turn)


class _Game:
    """One game as the style rules look at it: its tree, its text and the file's
    :class:`StyleState`; ``movetext`` (the text from its first move to its last)
    is cut once, when a rule first asks."""

    __slots__ = ("game", "text", "offset", "state", "_movetext", "_plain")

    def __init__(self, game: Game, text: str, offset: int, state: StyleState) -> None:
        self.game, self.text, self.offset, self.state = game, text, offset, state
        self._movetext: Optional[str] = None
        self._plain: Optional[bool] = None

    @property
    def plain(self) -> bool:
        """No lower-case letter, X or comment among the moves (looked for once)."""
        if self._plain is None:
            self._plain = _NOT_PLAIN.search(self.movetext) is None
        return self._plain

    @property
    def movetext(self) -> str:
        if self._movetext is None:
            moves = self.game.moves
            first, last = moves[0].span, moves[-1].span
            self._movetext = (self.text[first.start - self.offset:last.end - self.offset]
                              if first.known and last.known else self.text)
        return self._movetext

    @property
    def colors_declared(self) -> bool:
        return any(h.name == "Colors" for h in self.game.headers)


class StyleRule:
    """A style rule: the codes it reports, when it can fire, and its check.

    :meth:`can_fire` is a cheap look at the game (most records are clean, and
    a rule that cannot fire is not run); it must be True whenever :meth:`check`
    could find anything.  Each rule says it for itself, so that a new rule
    never depends on what another rule's shortcut knows.
    """

    codes: Tuple[str, ...] = ()

    def can_fire(self, g: _Game) -> bool:
        return True

    def check(self, g: _Game, findings: List[Finding]) -> None:
        raise NotImplementedError

    def skipped(self, g: _Game) -> None:
        """Called instead of :meth:`check` when the rule cannot fire: what the
        file's state must still learn from the game."""


class _Headers(StyleRule):
    codes = ("S105", "S106")

    def can_fire(self, g: _Game) -> bool:
        return bool(g.game.headers)

    def check(self, g: _Game, findings: List[Finding]) -> None:
        _check_headers(g.game, findings)


class _Spelling(StyleRule):
    """S101 and S102.  A game without a lower-case letter, an X or a comment
    among its moves, in a file whose discards are marked D, and with no
    dialect configured, is spelt as expected: then only its first discard
    is noted (it sets the file's marker)."""

    codes = ("S101", "S102")

    def can_fire(self, g: _Game) -> bool:
        state = g.state
        return bool(g.game.moves) and (
            state.dialect is not None or bool(g.game.errors) or state.marker not in (None, "D")
            or not g.plain)

    def check(self, g: _Game, findings: List[Finding]) -> None:
        _check_spelling(g.game, g.text, g.offset, g.state, findings)

    def skipped(self, g: _Game) -> None:
        # Every discard of a plain game is marked D: the file's marker, if first.
        if g.state.marker is None:
            for m in g.game.moves:
                if m.placement.discard:
                    g.state.marker = "D"
                    break


class _Numbers(StyleRule):
    """S103: it can fire only where a number is not its turn's, or after an error."""

    codes = ("S103",)

    def can_fire(self, g: _Game) -> bool:
        if g.game.errors:
            return True
        for m in g.game.moves:  # a loop, not any(): this runs on every game
            if m.number is not None and m.turn is not None and m.number != m.turn + 1:
                return True
        return False

    def check(self, g: _Game, findings: List[Finding]) -> None:
        _check_numbers(g.game, g.text, g.offset, findings)


class _Colors(StyleRule):
    """S104: only a game without a Colors header whose moves hold a letter
    that is no default colour (nor D or H), in either case, can use another colour."""

    codes = ("S104",)

    def can_fire(self, g: _Game) -> bool:
        if not g.game.moves or g.colors_declared:
            return False
        return (bool(g.game.errors) or not g.plain  # 'a3-d'
                or _other_capitals(tuple(g.state.default_colors)).search(g.movetext)
                is not None)

    def check(self, g: _Game, findings: List[Finding]) -> None:
        _check_colors(g.game, g.state, findings)


#: The style rules run on each game, in order.
STYLE_RULES: List[StyleRule] = [_Headers(), _Spelling(), _Numbers(), _Colors()]


def check_style(game: Game, text: str, offset: int = 0,
                state: Optional[StyleState] = None) -> List[Finding]:
    """Style findings for ``game``, whose source is ``text`` starting at file
    offset ``offset``.  Pass the same ``state`` for every game of a file."""
    g = _Game(game, text, offset, state if state is not None else StyleState())
    findings: List[Finding] = []
    for rule in STYLE_RULES:
        if rule.can_fire(g):
            rule.check(g, findings)
        else:
            rule.skipped(g)
    findings.sort(key=lambda f: f.diagnostic.span.start)
    return findings


_OTHER_CAPITALS: Dict[Tuple[str, ...], "re.Pattern[str]"] = {}


def _other_capitals(colors: Tuple[str, ...]) -> "re.Pattern[str]":
    """A capital letter that is neither one of ``colors``, nor D nor H.

    >>> bool(_other_capitals(("R", "G")).search("R3-D G4-R")), bool(_other_capitals(("R",)).search("K3-D"))
    (False, True)
    """
    pattern = _OTHER_CAPITALS.get(colors)
    if pattern is None:
        others = "".join(sorted(_CAPITALS - _RANK_AND_MARKER - set(colors)))
        pattern = re.compile(f"[{others}]" if others else "(?!)")
        if len(_OTHER_CAPITALS) > 64:
            _OTHER_CAPITALS.clear()
        _OTHER_CAPITALS[colors] = pattern
    return pattern


def _check_headers(game: Game, findings: List[Finding]) -> None:
    seen: Dict[str, Span] = {}
    for h in game.headers:
        known = None if h.name in _KNOWN else _KNOWN_BY_LOWER.get(h.name.lower())
        if known is not None and known != h.name:
            findings.append(Finding(_diag(
                "S105", f"tag '{h.name}' is not '{known}': tags are case-sensitive, so it "
                "is kept as an unknown tag", h.span)))
        if h.name in seen:
            first = seen[h.name]
            where = f" (first on line {first.line})" if first.known else ""
            findings.append(Finding(_diag(
                "S106", f"tag '{h.name}' is given twice{where}; the first one counts",
                h.span)))
        else:
            seen[h.name] = h.span


def _check_spelling(game: Game, text: str, offset: int, state: StyleState,
                    findings: List[Finding]) -> None:
    """S101 (discard marker) and S102 (letter case).

    Each fix changes only what its finding is about, so that ignoring one
    code never lets another code's fix change it; where the fixes of one
    move overlap, ``lcn lint --fix`` applies them one after the other.
    """
    dialect = state.dialect
    if dialect is not None:
        state.marker = dialect.discard
    for move in game.moves:
        span = move.span
        if not span.known:
            continue
        written = text[span.start - offset:span.end - offset]
        marker = discard_marker(move, text, offset)
        if marker is not None:
            at = written.index("-") - 1
            if state.marker is None:
                state.marker = marker.upper()
            elif marker.upper() != state.marker:
                wanted = state.marker if marker.isupper() else state.marker.lower()
                whose = ("this file uses" if dialect is None
                         else f"the configured dialect {dialect.name} uses")
                findings.append(Finding(
                    _diag("S101", f"'{written}' marks its discard with {marker.upper()}, "
                          f"but {whose} {state.marker}", span, move),
                    Fix(f"write {wanted} for {marker}",
                        (Edit(span.start + at, span.start + at + 1, wanted),))))
        lowercase = resolve_dialect(dialect, state.marker).lowercase
        expected = written.lower() if lowercase else written.upper()
        if written != expected:
            case = "lower" if lowercase else "upper"
            findings.append(Finding(
                _diag("S102", f"'{written}' should be written in {case} case: "
                      f"'{expected}'", span, move),
                Fix(f"write '{expected}'", (Edit(span.start, span.end, expected),))))


def _check_numbers(game: Game, text: str, offset: int, findings: List[Finding]) -> None:
    """Numbers follow one convention: one per turn, or one per round of two turns.

    The finding is on the number when it stands right before its move on
    the same line; it is fixed only when every turn of the game was read.
    After a syntax error the count is taken up again from the next number
    written: the unreadable text may have held one move or several, and the
    error is reported already (one cause, one finding).
    """
    numbered = [m for m in game.moves if m.number is not None and m.turn is not None]
    if not numbered:
        return
    pairs = [(m.number or 0, m.turn or 0) for m in numbered]
    per_turn = sum(1 for number, turn in pairs if number == turn + 1)
    per_round = sum(1 for number, turn in pairs if turn % 2 == 0 and number == turn // 2 + 1)
    by_round = per_round > per_turn
    certain = not game.errors
    errors = sorted(e.span.start for e in game.errors if e.span.start >= 0)
    passed = 0   # errors before the current move
    shift = 0    # turns to add to a move's turn after the last error
    for m in numbered:
        number, turn = m.number or 0, (m.turn or 0)
        before = bisect_right(errors, m.span.start) if errors and m.span.known else 0
        if before > passed:
            passed = before
            # The first number after an error: taken as written.
            shift = (2 * (number - 1) if by_round else number - 1) - turn
        turn += shift
        expected = turn // 2 + 1 if by_round else turn + 1
        if m.number == expected and not (by_round and turn % 2 == 1):
            continue
        if number == expected:
            message = (f"move number {number} repeats: this game numbers rounds, so only "
                       "the first move of a round carries a number")
        else:
            kind = "repeats" if number < expected else "skips ahead"
            message = f"move number {number} {kind}: expected {expected}"
        span, digits = _number_span(m, text, offset)
        fix = None
        if certain and digits is not None and m.number != expected:
            fix = Fix(f"write '{expected}.'",
                      (Edit(span.start, span.start + digits, str(expected)),))
        findings.append(Finding(_diag("S103", message, span, m), fix))


def _number_span(move: Move, text: str, offset: int) -> Tuple[Span, Optional[int]]:
    """The span of ``move``'s number with its dot and how many digits it has,
    when it stands right before the move on its line; else the move's span."""
    span = move.span
    start = span.start - offset
    tail = text[max(0, start - 24):start]
    found = _NUMBER_BEFORE.search(tail)
    if found is None or int(found.group(1)) != move.number:
        return span, None
    back = len(tail) - found.start(1)
    digits = len(found.group(1))
    return Span(span.line, span.column - back, span.line, span.column - back + digits + 1,
                span.start - back, span.start - back + digits + 1), digits


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


def mixed_line_ends(counted: CountingReader) -> Optional[Finding]:
    """The S107 finding of a file read through ``counted``, or None when its
    lines all end the same way.  It points at the first line that ends
    otherwise than most do; its fix writes every line end as the majority's."""
    found = mixed(counted)
    if found is None:
        return None
    line, majority, ends = found
    name = LINE_END_NAMES[majority]
    span = Span(line, 1, line, 1, -1, -1)
    return Finding(Diagnostic("S107", f"the file mixes line ends ({ends}): line {line} is "
                              f"the first not to end with {name}, as most lines do",
                              span, STYLE_CODES["S107"][0]),
                   Fix(f"end every line with {name}", (), newline=majority))
