"""The rules checker: replay a game and report every rule it breaks.

:func:`check` reads the game's headers (colours, players, the deal, the
result), replays its moves on a :class:`~lcnotation.lostcities.game.state.GameState` and
returns a :class:`CheckReport`: the diagnostics (the game's own syntax errors
included), sorted by position, the final state and the score.

>>> from lcnotation.lostcities.text.reader import parse_game
>>> report = check(parse_game('[Player1 "North"]\\n[Player2 "South"]\\nR7-D BHD-D R4-B'))
>>> for d in report.diagnostics:
...     print(d)
3:12: R101 Red 4 cannot follow Red 7 on North's expedition: number cards must go up
3:16: R110 the record ends with 42 cards in the draw pile: the round is incomplete, and is scored as it stands
>>> report.score.totals, report.ok
((-9, 0), False)

Every rule has a stable code; :data:`RULE_CODES` lists them,
:mod:`lcnotation.lostcities.game.violations` words them (imported on the first one) and ``spec/rules.md`` gives a
record that triggers each.  :func:`score` replays and scores a game without
the checks; :func:`match_totals` adds up the rounds of a match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Tuple, Union

from ..text.ast import Game, Header, Span
from ...core.diagnostics import Diagnostic, NotationError, Severity
from ..text.headers import DEFAULT_COLORS, parse_result
from .scoring import GameScore
from ...core.span import NO_SPAN, first_known
from .codes import RULE_CODES
from .setup import Setup, read_setup
from .state import GameState

__all__ = ["RULE_CODES", "CheckReport", "check", "check_played", "check_result",
           "result_holds", "score", "match_totals"]

ERROR, INFO = Severity.ERROR, Severity.INFO


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
    return check_played(game, setup, GameState.from_setup(setup), path=path)[0]


def check_played(game: Game, setup: Setup, state: GameState, *,
                 path: Optional[str] = None) -> Tuple[CheckReport, bool]:
    """:func:`check` of ``game`` whose headers :func:`read_setup` read as
    ``setup``, on ``state``, set up from it (the moves are played on it),
    and whether the moves followed the rules, each played at its turn (no
    rule broken, no turn that could not be read before a move): then each
    move did what a move does, and nothing had to be guessed (the replay
    page replays such a game itself)."""
    diagnostics: List[Diagnostic] = [e.to_diagnostic() for e in game.errors]
    diagnostics += setup.diagnostics
    moves = game.moves
    broken = state.play(moves)
    if broken:
        diagnostics += [v.to_diagnostic() for v in broken]
    score = state.scores()
    for header in game.headers:
        if header.name == "Result":
            diagnostics += check_result(header, state, score)
            break
    low, high = state.draw_pile_range
    if low:
        from .violations import Incomplete

        where = moves[-1].span if moves else _last_read(game)
        diagnostics.append(Incomplete(_end_of(where), None, low, high).to_diagnostic())
    if len(diagnostics) > 1:
        diagnostics.sort(key=_position)
    if path is not None:
        diagnostics = [d.with_path(path) for d in diagnostics]
    return (CheckReport(tuple(diagnostics), state, score, state.is_over),
            not broken and state.certain)


def _position(d: Diagnostic) -> int:
    return d.span.start


def _last_read(game: Game) -> Span:
    """What a game without a readable move ends with: its last header,
    comment or unreadable text (its span runs on over the blank lines after
    them, to the next game); at its start when it holds none."""
    spans = [e.span for e in game.errors]
    spans += [h.span for h in game.headers]
    spans += [c.span for c in game.comments]
    spans += [c.span for h in game.headers for c in h.comments]
    known = [s for s in spans if s.known]
    if known:
        return max(known, key=_end)
    span = game.span
    return span._replace(end_line=span.line, end_column=span.column, end=span.start)


def _end(span: Span) -> int:
    return span.end


def _end_of(span: Span) -> Span:
    """An empty span just after ``span``."""
    if not span.known:
        return NO_SPAN
    return span._replace(line=span.end_line, column=span.end_column, start=span.end)


def check_result(header: Header, state: GameState, score: GameScore) -> List[Diagnostic]:
    """The Result header against the score (only a complete, certain replay is scored
    for sure)."""
    try:
        claimed = parse_result(header)
    except NotationError as err:
        return [err.to_diagnostic()]
    actual = score.totals
    if claimed is None or _result_holds(claimed, state, actual):
        return []
    from .violations import WrongResult

    return [WrongResult(first_known(header.value_span, header.span), None, claimed, actual,
                        state.players).to_diagnostic()]


def _result_holds(claimed: Tuple[int, int], state: GameState, totals: Tuple[int, int]) -> bool:
    """Whether a Result header that claims the scores ``claimed`` agrees with
    the replay ``state``, whose totals are ``totals``: only a complete,
    certain replay is scored for sure."""
    return not state.is_over or not state.certain or claimed == totals


def result_holds(value: str, state: GameState) -> bool:
    """Whether :func:`check_result` finds nothing wrong with a Result header
    of value ``value`` after the replay ``state`` (lint's fused path asks so,
    without a score's table).

    >>> result_holds("*", GameState()), result_holds("0-0", GameState()), result_holds("x", GameState())
    (True, True, False)
    """
    try:
        claimed = parse_result(value)
    except NotationError:
        return False
    return claimed is None or _result_holds(claimed, state, state.totals())


def score(game: Game) -> GameScore:
    """Replay ``game`` and score it (as it stands, if the record is incomplete).

    Rules violations do not stop the replay; :func:`check` reports them.

    >>> from lcnotation.lostcities.text.reader import parse_game
    >>> s = score(parse_game('[Player1 "Ann"]\\n[Player2 "Bob"]\\nR5-D BH-D R8-D'))
    >>> s.players, s.totals, s.complete
    (('Ann', 'Bob'), (-7, -40), False)
    """
    state = GameState.from_game(game)
    state.play(game.moves)
    return state.scores()


def match_totals(games_or_scores: Iterable[Union[Game, GameScore]]) -> Dict[str, int]:
    """Total score per player name over the rounds of a match.

    Players may swap seats between rounds; totals follow the names in the
    ``Player1``/``Player2`` headers.

    >>> r1 = GameScore(("Ann", "Bob"), ("R",), ((10,), (-6,)))
    >>> r2 = GameScore(("Bob", "Ann"), ("R",), ((30,), (0,)))
    >>> match_totals([r1, r2])
    {'Ann': 10, 'Bob': 24}
    """
    totals: Dict[str, int] = {}
    for item in games_or_scores:
        result = item if isinstance(item, GameScore) else score(item)
        for name, points in zip(result.players, result.totals):
            totals[name] = totals.get(name, 0) + points
    return totals
