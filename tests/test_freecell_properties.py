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


_PIECES = st.sampled_from(["JD", "KS", "AH", "6X", "BB", "  ", " ", "-", "=", "+", ".", "[",
                           "]", "??", "5a", "1h", "Game #", "617", "-1", "99999999999",
                           "\n", "\r\n", "\r", "\t", "x", "\x00", "\ufeff"])


@given(st.lists(_PIECES, max_size=60).map("".join) | st.text(max_size=80))
@examples(200)
def test_any_text_reads_and_checks_without_an_exception(text: str) -> None:
    record = freecell.parse(text)
    result = freecell.check(record)
    assert result.verdict in freecell.VERDICTS
    for d in result.diagnostics:
        assert 1 <= d.line and 1 <= d.column and d.code in freecell.FREECELL_CODES
    if not any(d.severity.value == "error" for d in record.errors):
        canonical = freecell.format(record)
        assert freecell.parse(canonical).meaning() == record.meaning()
        assert freecell.format(freecell.parse(canonical)) == canonical


_LINE_PIECES = st.sampled_from(["JD", "6X", "KS", "  ", " ", ".", "5a", ".1h", " 2h", "[",
                                "]", "x", "\t", "a", "h"])


@given(st.lists(_LINE_PIECES, max_size=14).map("".join))
@examples(200)
def test_fast_paths_read_lines_as_the_grammar_does(text: str) -> None:
    from lark.exceptions import UnexpectedInput

    from lcnotation.freecell import parser

    text = text.rstrip(" \t")
    try:
        parser._lark().parse(text, start="column_line")
        is_columns = True
    except UnexpectedInput:
        is_columns = False
    assert (text != "" and parser._fast_cells().fullmatch(text) is not None) == is_columns
    if parser._fast_moves().fullmatch(text):
        tree = parser._lark().parse(text, start="solution_line")
        tokens = list(tree.scan_values(lambda v: True))
        assert [t.type for t in tokens] == ["MOVE"] * (len(text) // 3)
        assert [str(t) for t in tokens] == [text[i:i + 3] for i in range(0, len(text), 3)]
