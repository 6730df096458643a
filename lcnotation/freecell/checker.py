"""Checking a record: its layout, then its solution replayed with Horne automoves.

:func:`check` gives a :class:`CheckResult` with one of five verdicts:
``won`` (every card home after the last move), ``illegal`` (a move breaks the
rules: the first such is reported, with the position before it),
``not_won`` (every move legal, cards left out), ``layout_error`` (the record
cannot be read or its layout is impossible) and ``unsupported`` (it declares
WKR automoves, which no source defines).

>>> from .parser import parse
>>> result = check(parse("Game #1\\n" + "JD 2D 9H JC 5D 7H 7C 5H"))
>>> str(result.verdict), [d.code for d in result.diagnostics]
('layout_error', ['F202'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ..core.diagnostics import Diagnostic, Severity
from .ast import WKR, Move, Record, Span
from .cards import FULL_DECK, SUITS, Card
from .codes import FREECELL_CODES
from .deals import DEAL_LIMIT, FRESH_DEAL_COLUMNS, deal
from .rules import FREECELLS, VERDICTS, Verdict
from .state import IllegalMove, Position

__all__ = ["VERDICTS", "Verdict", "CheckResult", "check", "is_fresh_deal", "layout_position"]


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check` found.

    ``moves`` counts the explicit moves read; ``first_bad_move`` is the 0-based
    index of the first illegal one (``moves`` when all are legal but the game
    is not won; None when it is won, or when no move could be replayed).
    ``position`` is the last position reached: after the last move, or just
    before the illegal one.  A result is a value, as Lost Cities' CheckReport is.
    """

    verdict: Verdict
    deal: Optional[int]
    moves: int
    first_bad_move: Optional[int]
    diagnostics: Tuple[Diagnostic, ...] = ()
    position: Optional[Position] = None
    path: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.WON


class _Checker:
    def __init__(self, record: Record, path: Optional[str]) -> None:
        self.record = record
        self.path = path
        self.diagnostics: List[Diagnostic] = [d.with_path(path) if path else d
                                              for d in record.errors]

    def report(self, code: str, message: str, span: Span, turn: Optional[int] = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, FREECELL_CODES[code][0],
                                           self.path, turn))

    def anchor(self) -> Span:
        """Where a finding about the whole layout is reported: its first line."""
        r = self.record
        if r.game is not None:
            return r.game.span
        if r.home.span is not None:
            return r.home.span
        placed = [c[0] for c in r.columns if c]
        return placed[0].span if placed else Span(1, 1, 1, 1, 0, 0)

    # ---- the layout ---------------------------------------------------------

    def layout(self) -> Optional[Position]:
        """The depicted position, or None (with diagnostics) when it is impossible."""
        r = self.record
        errors = len(self.diagnostics)
        seen: Dict[Card, Span] = {}

        def count(card: Card, span: Span) -> None:
            if card in seen:
                first = seen[card]
                self.report("F201", f"{card} is here and at line {first.line}, column "
                            f"{first.column}", span)
            else:
                seen[card] = span

        freecells: List[Optional[Card]] = [None] * FREECELLS
        blocked = [False] * FREECELLS
        homes = {s: 0 for s in SUITS}
        fallback = r.home.span or self.anchor()
        for i, cell in enumerate(r.home.freecells):
            freecells[i] = cell.card
            blocked[i] = cell.blocked is not None
            if cell.card:
                count(cell.card, cell.span or fallback)
        suits_seen: Dict[str, Span] = {}
        for card, span in zip(r.home.homes, r.home.home_spans):
            if card is None:
                continue
            where = span or fallback
            if card.suit in suits_seen:
                self.report("F205", f"two home piles of {card.suit}: a pile holds one "
                            "suit, written as its top card", where)
                continue
            suits_seen[card.suit] = where
            homes[card.suit] = card.rank
            for rank in range(1, card.rank + 1):
                count(Card(rank, card.suit), where)
        for column in r.columns:
            for placed in column:
                count(placed.card, placed.span)
        missing = [c for c in FULL_DECK if c not in seen]
        if missing:
            shown = " ".join(str(c) for c in missing[:13])
            more = f" and {len(missing) - 13} more" if len(missing) > 13 else ""
            verb = "is" if len(missing) == 1 else "are"
            self.report("F202", f"{len(missing)} of the 52 cards {verb} nowhere in the "
                        f"layout: {shown}{more}", self.anchor())
        if len(self.diagnostics) > errors:
            return None
        return Position(freecells, blocked, homes, [[p.card for p in c] for c in r.columns])

    def fresh_deal(self, number: int, depicted: Position) -> Optional[Position]:
        """The starting position of deal ``number`` when the moves start from it
        (a marker, or columns that show a fresh deal, which must be that deal's),
        else ``depicted``: a Game# line over a mid-game layout starts there."""
        start = Position.fresh(deal(number))
        start.blocked = list(depicted.blocked)
        if self.record.marker is not None:
            return start
        r = self.record
        if not is_fresh_deal(depicted):
            assert r.game is not None
            self.report("F204", f"the layout is not {r.game.described} as dealt: the moves "
                        "start from the layout shown (whether the deal leads to it is not "
                        "checked)", r.game.span)
            return depicted
        if start.columns == depicted.columns:  # r.columns' cards: nothing to report
            return start
        for index, (wanted, column) in enumerate(zip(start.columns, r.columns)):
            for row in range(max(len(wanted), len(column))):
                have = column[row] if row < len(column) else None
                want = wanted[row] if row < len(wanted) else None
                if have is None or want is None or have.card != want:
                    span = have.span if have is not None else self.anchor()
                    self.report("F203", f"deal {number} has "
                                f"{want if want else 'no card'} in column {index + 1}, row "
                                f"{row + 1}, not {have.card if have else 'nothing'}", span)
                    return None
        return start

    # ---- the moves ----------------------------------------------------------

    def replay(self, position: Position, moves: Sequence[Move], first: int
               ) -> Tuple[Optional[int], Position]:
        """Play ``moves`` (numbered from ``first``); the index of the first illegal
        one (None if all are legal) and the position reached (before it)."""
        # The position has had its automoves (see the callers): each move and
        # its automoves are then made by move_settled.
        for offset, move in enumerate(moves):
            try:  # an illegal move leaves the position as it was
                position.move_settled(move.source, move.target, move.single)
            except IllegalMove as exc:
                index = first + offset
                self.report(exc.code, f"move {index + 1} ({move}) is illegal: {exc.reason}",
                            move.span, index)
                return index, position
        return None, position

    def run(self) -> CheckResult:
        verdict, bad, position = self.verdict()
        return CheckResult(verdict, self.record.deal_number, len(self.record.moves), bad,
                           tuple(self.diagnostics), position, self.path)

    def verdict(self) -> Tuple[Verdict, Optional[int], Optional[Position]]:
        """The verdict, the index of the first bad move and the last position."""
        r = self.record
        moves = r.moves
        number = r.deal_number
        layout_error = (Verdict.LAYOUT_ERROR, None, None)
        if any(d.severity is Severity.ERROR for d in self.diagnostics):
            return layout_error
        depicted = self.layout()
        if depicted is None:
            return layout_error
        if r.home.automove == WKR:
            self.report("F210", "this record declares WKR automoves ('=' at positions 3, 6 "
                        "and 9); no definition of them is known, so its solution cannot be "
                        "replayed", r.home.span or self.anchor())
            return Verdict.UNSUPPORTED, None, None
        marker = r.marker
        start: Optional[Position] = depicted
        if r.game is not None and number is None:
            self.report("F209", f"{r.game.described} names the layout (in place of a deal "
                        "number): it is taken as written", r.game.span)
        elif r.game is not None and number is not None and number < 0:
            self.report("F208", f"{r.game.described} is a cookie deal: the layout is taken "
                        "as written", r.game.number_span or r.game.span)
        elif number is not None and number < DEAL_LIMIT:
            start = self.fresh_deal(number, depicted)
            if start is None:
                return layout_error
        first = 0
        if marker is not None:
            if start is depicted:
                if marker:
                    self.report("F207", f"{_moves(marker, 'before the marker')} not "
                                "checked: without a deal number, where the solution starts "
                                "is unknown", moves[0].span)
            else:
                assert start is not None
                start.automove()
                bad, start = self.replay(start, moves[:marker], 0)
                if bad is not None:
                    return Verdict.ILLEGAL, bad, start
                depicted.automove()
                if start != depicted:
                    span = moves[marker].span if marker < len(moves) else moves[-1].span
                    self.report("F206", f"from deal {number}, the moves before the marker "
                                f"({marker}) reach another position than the layout shown",
                                span)
                    return layout_error
            first = marker
        assert start is not None
        start.automove()
        bad, reached = self.replay(start, moves[first:], first)
        if bad is not None:
            return Verdict.ILLEGAL, bad, reached
        if reached.is_won:
            return Verdict.WON, None, reached
        else:
            span = moves[-1].span if moves else self.anchor()
            out = reached.cards_out()
            self.report("F320", f"not won: after {len(moves)} move"
                        f"{'' if len(moves) == 1 else 's'}, {out} card"
                        f"{' is' if out == 1 else 's are'} not home", span)
            return Verdict.NOT_WON, len(moves), reached


def _moves(n: int, where: str) -> str:
    """``the move before the marker is`` / ``the 3 moves before the marker are``."""
    return f"the move {where} is" if n == 1 else f"the {n} moves {where} are"


def is_fresh_deal(position: Position) -> bool:
    """Whether ``position`` depicts a fresh deal of the cards: nothing in the
    freecells or home, 7 cards in each of the left four columns, 6 in the right
    four (point 8).  Blocked freecells do not matter."""
    return (not any(position.freecells) and not any(position.homes.values())
            and tuple(len(c) for c in position.columns) == FRESH_DEAL_COLUMNS)


def layout_position(record: Record) -> Optional[Position]:
    """The position the record's layout depicts (None when it is impossible)."""
    return _Checker(record, None).layout()


def check(record: Record, path: Optional[str] = None) -> CheckResult:
    """Check ``record``: its layout, the deal it names, and its solution."""
    return _Checker(record, path).run()


