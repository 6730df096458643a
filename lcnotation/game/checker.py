"""The rules checker: replay a game and report every rule it breaks.

:func:`check` reads the game's headers (colours, players, the deal, the
result), replays its moves on a :class:`~lcnotation.game.state.GameState` and
returns a :class:`CheckReport`: the diagnostics (the game's own syntax errors
included), sorted by position, the final state and the score.

>>> from lcnotation.text.reader import parse_game
>>> report = check(parse_game('[Player1 "North"]\\n[Player2 "South"]\\nR7-D BHD-D R4-B'))
>>> for d in report.diagnostics:
...     print(d)
3:12: R101 Red 4 cannot follow Red 7 on North's expedition: number cards must go up
3:16: R110 the record ends with 42 cards in the draw pile: the round is incomplete, and is scored as it stands
>>> report.score.totals, report.ok
((-9, 0), False)

Every rule has a stable code; :data:`RULE_CODES` lists them and
``spec/rules.md`` gives a record that triggers each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from ..text.ast import Game, Header, Span
from ..text.errors import Diagnostic, NotationError, Severity
from ..text.headers import DEFAULT_COLORS, parse_result
from .scoring import GameScore
from ..text.span import NO_SPAN, first_known
from .state import GameState, read_setup

__all__ = ["RULE_CODES", "CheckReport", "check"]

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

#: Every rules code: its severity and what it reports.
RULE_CODES: Dict[str, Tuple[Severity, str]] = {
    "R101": (ERROR, "a number card not higher than the last card of its expedition"),
    "R102": (ERROR, "a handshake played after a number card of its expedition"),
    "R103": (ERROR, "a card already on the table (every copy is on an expedition or a "
                    "discard pile)"),
    "R104": (ERROR, "a card known to be in the other player's hand"),
    "R105": (ERROR, "a card the mover cannot hold: by the deal it is in the draw pile, or "
                    "the mover's hand is known and lacks it"),
    "R106": (ERROR, "a colour outside the game's colour set"),
    "R107": (ERROR, "a draw from an empty discard pile"),
    "R108": (ERROR, "drawing back the card discarded in the same turn"),
    "R109": (ERROR, "a move after the last card of the draw pile was drawn"),
    "R110": (INFO, "a record that ends before the draw pile is spent (incomplete, still "
                   "scored)"),
    "R201": (ERROR, "a Hand1, Hand2 or Deck header with the wrong number of cards"),
    "R202": (ERROR, "a card of the deal that is not in the game's deck, or is dealt more "
                    "times than it exists"),
    "R203": (ERROR, "a deal (Hand1, Hand2 and Deck) that misses cards of the full deck"),
    "R204": (ERROR, "a Result header that disagrees with the score of the moves"),
    "R205": (WARNING, "a Colors header with a number of colours other than 5 or 6"),
}


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check` found.

    ``diagnostics`` are sorted by position; ``state`` is the state after the
    last move; ``score`` the score of the round as it stands; ``complete``
    says that the draw pile was spent.
    """

    diagnostics: Tuple[Diagnostic, ...]
    state: GameState
    score: GameScore
    complete: bool

    @property
    def errors(self) -> Tuple[Diagnostic, ...]:
        """The error-severity diagnostics."""
        return tuple(d for d in self.diagnostics if d.severity is ERROR)

    @property
    def ok(self) -> bool:
        """True when nothing worse than information was found."""
        return all(d.severity is INFO for d in self.diagnostics)


def check(game: Game, *, path: Optional[str] = None,
          default_colors: Tuple[str, ...] = DEFAULT_COLORS) -> CheckReport:
    """Check ``game`` against the rules; see the module docstring.

    ``path`` names the file in the diagnostics; ``default_colors`` are the
    colours of a game without a Colors header.
    """
    setup = read_setup(game, default_colors)
    diagnostics: List[Diagnostic] = [e.to_diagnostic() for e in game.errors]
    diagnostics += setup.diagnostics
    state = GameState.from_setup(setup)
    moves = game.moves
    diagnostics += state.play(moves)
    score = state.scores()
    for header in game.headers:
        if header.name == "Result":
            diagnostics += _check_result(header, state, score)
            break
    low, high = state.draw_pile_range
    if low:
        where = moves[-1].span if moves else game.span
        left = f"{high}" if low == high else f"{low} to {high}"
        diagnostics.append(Diagnostic(
            "R110", f"the record ends with {left} cards in the draw pile: "
            "the round is incomplete, and is scored as it stands",
            _end_of(where), INFO))
    if len(diagnostics) > 1:
        diagnostics.sort(key=_position)
    if path is not None:
        diagnostics = [d.with_path(path) for d in diagnostics]
    return CheckReport(tuple(diagnostics), state, score, state.is_over)


def _position(d: Diagnostic) -> int:
    return d.span.start


def _end_of(span: Span) -> Span:
    """An empty span just after ``span``."""
    if not span.known:
        return NO_SPAN
    return span._replace(line=span.end_line, column=span.end_column, start=span.end)


def _check_result(header: Header, state: GameState, score: GameScore) -> List[Diagnostic]:
    """The Result header against the score (only a complete, certain replay is scored
    for sure)."""
    try:
        claimed = parse_result(header)
    except NotationError as err:
        return [err.to_diagnostic()]
    if claimed is None or not state.is_over or not state.certain:
        return []
    actual = score.totals
    if claimed == actual:
        return []
    a, b = state.players
    return [Diagnostic(
        "R204", f"Result says {claimed[0]}-{claimed[1]}, but the moves score "
        f"{actual[0]}-{actual[1]} ({a} {actual[0]}, {b} {actual[1]})",
        first_known(header.value_span, header.span))]
