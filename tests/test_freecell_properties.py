"""Properties of the FreeCell notation: random legal games from random deals
format, re-read and replay the same; the formatter is a fixed point on its
output and keeps what any other layout of the same record means."""

from __future__ import annotations

from typing import List, Tuple

from hypothesis import given
from hypothesis import strategies as st

from lcnotation import freecell
from lcnotation.freecell.deals import DEAL_LIMIT, deal
from lcnotation.freecell.formatter import MOVES_PER_LINE
from lcnotation.freecell.state import IllegalMove, Position
from strategies import examples

Step = Tuple[str, str, bool]
_PLACES = "abcd12345678"


def legal_moves(position: Position) -> List[Step]:
    found: List[Step] = []
    for source in _PLACES:
        for target in _PLACES + "h":
            for single in (False, True):
                empty_target = target.isdigit() and not position.columns[int(target) - 1]
                if single and not (empty_target and source.isdigit()):
                    continue
                try:
                    position.copy().play(source, target, single)
                except IllegalMove:
                    continue
                found.append((source, target, single))
    return found


@st.composite
def games(draw: st.DrawFn) -> Tuple[int, List[Step], Position]:
    """A deal number, a random legal sequence of moves, and the position it reaches."""
    number = draw(st.integers(0, DEAL_LIMIT - 1))
    position = Position.fresh(deal(number))
    position.automove()
    steps: List[Step] = []
    for _ in range(draw(st.integers(0, 40))):
        options = legal_moves(position)
        if not options:
            break
        step = draw(st.sampled_from(options))
        position.play(*step)
        position.automove()
        steps.append(step)
    return number, steps, position


def solution_lines(steps: List[Step], widths: List[int]) -> List[str]:
    lines, i, w = [], 0, 0
    while i < len(steps):
        width = widths[w % len(widths)] if widths else MOVES_PER_LINE
        lines.append("".join(("." if s[2] else " ") + s[0] + s[1] for s in steps[i:i + width]))
        i, w = i + width, w + 1
    return lines


@given(games())
@examples(25)
def test_random_games_format_reread_and_replay_the_same(game) -> None:
    number, steps, reached = game
    text = freecell.deal(number) + "".join(line + "\n" for line in solution_lines(steps, []))
    record = freecell.parse(text)
    assert record.errors == ()
    assert [(m.source, m.target, m.single) for m in record.moves] == steps
    assert freecell.format(record) == text
    result = freecell.check(record)
    assert result.verdict in ("not_won", "won")
    assert result.position == reached
    assert result.moves == len(steps)


@given(games(), st.lists(st.integers(1, 14), max_size=4), st.booleans(), st.booleans(),
       st.text(" \t", max_size=2))
@examples(25)
def test_any_layout_of_a_record_formats_to_the_canonical_one(
        game, widths, drop_home, comment, trailing) -> None:
    number, steps, _ = game
    canonical = freecell.deal(number) + (
        "a comment line\n" if comment else "") + "".join(
        line + "\n" for line in solution_lines(steps, []))
    lines = freecell.deal(number).splitlines()
    if drop_home:
        del lines[1]
    lines = [line + trailing for line in lines]
    if comment:
        lines.append("a comment line")
    lines.extend(line + trailing for line in solution_lines(steps, widths))
    variant = "\r\n".join(lines) + "\n\n"
    record = freecell.parse(variant)
    assert record.meaning() == freecell.parse(canonical).meaning()
    assert freecell.format(record) == canonical
    assert freecell.format(freecell.parse(canonical)) == canonical
    assert freecell.check(record).position == freecell.check(freecell.parse(canonical)).position
