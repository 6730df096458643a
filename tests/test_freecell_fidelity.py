"""FreeCell fidelity: what the 2012 proposal and its follow-up allow is read as
they say (issue 20, item 5), and long lines cost little memory (issue 26).
Each test here failed on the code before its fix.  The fc-solve side of the
same work is in test_freecell_fcsolve.py."""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Callable, List, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lcnotation import freecell
from lcnotation.freecell.checker import is_fresh_deal
from lcnotation.freecell.deals import deal as deal_columns
from lcnotation.freecell.formatter import layout_text
from lcnotation.freecell.parser import parse
from lcnotation.freecell.state import Position
from strategies import examples
from test_freecell_properties import games, solution_lines

DATA = Path(__file__).resolve().parent / "data" / "freecell"
#: Everything home but the queen and king of hearts, the king on the queen:
#: a tiny layout that one move wins.
KINGS = "  -  -  -  +KC KD JH KS\nQH\nKH\n 1a\n"


def codes(text: str) -> List[str]:
    return [d.code for d in freecell.check(parse(text)).diagnostics]


def middle_of_deal_1(index: int) -> Tuple[Position, str]:
    """The position before move ``index`` of deal 1's solution, and the moves
    from there on as solution lines."""
    record = parse((DATA / "deal-1.txt").read_text())
    position = Position.fresh(deal_columns(1))
    position.automove()
    for move in record.moves[:index]:
        position.play(move.source, move.target, move.single)
        position.automove()
    rest = "".join(m.prefix + str(m) for m in record.moves[index:])
    return position, rest + "\n"


# ---- 2. a tag or file name in place of the Game# line (point 12, remedy 1) ----------

@pytest.mark.parametrize("tag", ["Solved at last", "my-layout.sfn", "layout7.txt",
                                 "tag: the fourth of Gary's puzzles", "#mine"])
def test_a_tag_or_file_name_stands_in_place_of_the_game_line(tag: str) -> None:
    text = tag + "\n" + KINGS
    record = parse(text)
    assert record.errors == ()
    assert record.game is not None and record.game.text == tag
    assert record.game.number is None and record.deal_number is None
    result = freecell.check(record)
    assert result.verdict == "won"
    # An information note says the layout is taken as written.
    assert [(d.code, d.severity.value, d.line) for d in result.diagnostics] == [
        ("F209", "info", 1)]
    assert freecell.format(record) == text


def test_a_tag_over_a_marker_leaves_the_moves_before_it_unchecked() -> None:
    result = freecell.check(parse("my-layout.sfn\n" + KINGS.replace(" 1a", " 3a[1a]")))
    assert result.verdict == "won"
    assert [d.code for d in result.diagnostics] == ["F209", "F207"]


def test_a_first_line_of_moves_is_still_f108() -> None:
    # Moves cannot name a layout: a record that begins with them lost its header.
    assert [d.code for d in parse(" 5a 5b\n" + KINGS).errors] == ["F108"]


# ---- 3. a Game# line over a mid-game layout, no marker (follow-up's point 3) ---------

def test_a_game_line_over_a_mid_game_layout_starts_the_moves_there() -> None:
    middle, rest = middle_of_deal_1(12)
    assert any(middle.freecells) or any(middle.homes.values())
    text = "Game #1\n" + layout_text(middle) + rest
    result = freecell.check(parse(text))
    assert result.verdict == "won", result.diagnostics
    assert [(d.code, d.severity.value, d.line) for d in result.diagnostics] == [
        ("F204", "info", 1)]


def test_a_game_line_over_a_fresh_deal_must_still_be_that_deal() -> None:
    assert codes(freecell.deal(1).replace("Game #1", "Game #2")) == ["F203"]
    assert codes(freecell.deal(1)) == ["F320"]


# ---- 4. a card under a row that ends early ------------------------------------------

@pytest.mark.parametrize("text, where", [
    ("JD 2D 9H\nKD KC 9S 5S\n", (2, 10)),       # row 1 ends after three columns
    ("JD 2D 9H   \nKD KC 9S 5S\n", (2, 10)),    # ... with trailing spaces
    ("JD\nKD\n2S KS\n", (3, 4)),                # two rows end early
    ("JD 2D\n\nKD KC\n", None),                 # a blank line ends the columns
])
def test_a_card_under_a_row_that_ends_early_is_a_gap(text: str, where) -> None:
    record = parse(text)
    gaps = [(d.line, d.column) for d in record.errors if d.code == "F107"]
    assert gaps == ([where] if where else [])
    if where:
        with pytest.raises(ValueError):
            freecell.format(record)


def test_lcn_freecell_fmt_leaves_a_record_with_a_gap_alone(run, tmp_path: Path) -> None:
    path = tmp_path / "gap.txt"
    path.write_text("JD 2D 9H\nKD KC 9S 5S\n")
    ran = run("freecell", "fmt", str(path))
    assert ran.status == 1 and "F107" in ran.err
    assert path.read_text() == "JD 2D 9H\nKD KC 9S 5S\n"


def _cells(text: str) -> List[Tuple[int, int, str]]:
    """Every card of a text's column section: (row, column, card), as written."""
    placed = [p for column in parse(text).columns for p in column]
    first = min((p.span.line for p in placed), default=0)
    return sorted((p.span.line - first, (p.span.column - 1) // 3, str(p.card)) for p in placed)


@given(st.lists(st.lists(st.sampled_from(["JD", "KS", "AH", "  ", "TC"]), max_size=9),
                min_size=1, max_size=5),
       st.text(" ", max_size=3))
@examples(150)
def test_fmt_never_moves_a_card(rows: List[List[str]], trailing: str) -> None:
    """Any column section: what reads without errors formats with every card
    at the row and column it was written at."""
    text = "".join(" ".join(row) + trailing + "\n" for row in rows)
    record = parse(text)
    if any(d.severity.value == "error" for d in record.errors):
        with pytest.raises(ValueError):
            freecell.format(record)
        return
    formatted = freecell.format(record)
    assert _cells(formatted) == _cells(text)


# ---- 5. where the deal number is ---------------------------------------------------

@pytest.mark.parametrize("line, number", [
    ("Windows 7 FreeCell #1", 1), ("Game #1234 + notes", 1234), ("Game # 617", 617),
    ("FreeCell Pro, 3 tries: #-1", -1), ("MS-617", 617), ("Game -2", -2),
    ("Game #617", 617), ("MS 11982 unsolvable, 2 tries", 11982), ("Deal no. 5-3", 5),
    ("8589934591", 8589934591), ("#-1 (a cookie deal)", -1),
])
def test_the_deal_number_is_where_the_proposal_puts_it(line: str, number: int) -> None:
    record = parse(line + "\n" + freecell.deal(1).split("\n", 1)[1])
    assert not [d for d in record.errors if d.code != "F103"]
    assert record.game is not None and record.game.number == number
    assert record.game.text == line
    assert record.home.span is not None and record.home.span.line == 2


def test_a_game_line_with_a_plus_at_position_12_is_not_the_freecell_home_line() -> None:
    record = parse("Game #1234 + notes\nJD\n")
    assert record.game is not None and record.game.number == 1234
    assert record.home.span is None
    assert [d.code for d in record.errors] == []


# ---- issue 26: negative deal numbers of any length are cookie deals ------------------

@pytest.mark.parametrize("digits", [11, 40, 5000])
def test_a_long_negative_deal_number_is_a_cookie_deal(digits: int) -> None:
    text = "Game #-" + "9" * digits + "\n" + KINGS
    record = parse(text)
    assert record.errors == ()
    assert record.game is not None and record.game.number is not None
    assert record.game.number < 0
    result = freecell.check(record)
    assert result.verdict == "won"
    f208 = [d for d in result.diagnostics if d.code == "F208"]
    assert len(f208) == 1 and len(f208[0].message) < 120


# ---- issue 26: memory per byte of a long line ---------------------------------------

LONG = 1_000_000


def _long_lines() -> List[Tuple[str, Callable[[str], str]]]:
    return [
        ("a Game# line", lambda x: "Game " + x + " #1\n" + KINGS),
        ("a tag line", lambda x: x + "\n" + KINGS),
        ("a freecell+home line", lambda x: "  -  -  -  +KC KD JH KS " + x + "\nQH\nKH\n"),
        ("a column line", lambda x: "  -  -  -  +KC KD JH KS\nQH " + x + "\nKH\n"),
        ("a comment line", lambda x: KINGS + x + "\n"),
        ("a solution line's comment", lambda x: KINGS + " 1h" + x + "\n"),
    ]


@pytest.mark.parametrize("name, make", _long_lines(), ids=[n for n, _ in _long_lines()])
@pytest.mark.parametrize("filler", ["x", "ab ", "KS ", "-1 ", "#"])
def test_a_long_line_costs_little_memory(name: str, make: Callable[[str], str],
                                         filler: str) -> None:
    text = make((filler * (LONG // len(filler)))[:LONG].rstrip())
    parse("Game #1\nJD\n")  # the grammar is built before measuring
    tracemalloc.start()
    try:
        record = parse(text)
        freecell.check(record)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak / len(text) < 20, f"{name}: {peak / len(text):.0f} bytes a byte"


@given(st.lists(st.sampled_from(["JD", "  ", "6X"]), min_size=95, max_size=250),
       st.integers(0, 1300), st.sampled_from(["", "x", " ", "\t", "  "]))
@examples(80)
def test_a_long_column_line_is_checked_as_the_grammar_reads_it(
        cells: List[str], at: int, damage: str) -> None:
    """The reader checks a long line a hundred cells at a time: the same answer
    as the grammar's rule column_line (spelled as one regular expression)."""
    from lcnotation.freecell import parser

    text = " ".join(cells)
    at %= len(text) + 1
    text = (text[:at] + damage + text[at:]).rstrip(" \t")
    assert parser._is_cells(text) == (parser._fast_cells().fullmatch(text) is not None)


@given(st.data())
@examples(25)
def test_a_game_line_over_any_position_of_a_game_replays_the_rest_from_it(data) -> None:
    """Any position of a random legal game, under its Game# line and followed by
    the moves after it, replays to where the whole game goes."""
    number, steps, reached = data.draw(games())
    split = data.draw(st.integers(0, len(steps)))
    middle = Position.fresh(deal_columns(number))
    middle.automove()
    for step in steps[:split]:
        middle.play(*step)
        middle.automove()
    text = (f"Game #{number}\n" + layout_text(middle)
            + "".join(line + "\n" for line in solution_lines(steps[split:], [])))
    result = freecell.check(parse(text))
    dealt = Position.fresh(deal_columns(number))
    if is_fresh_deal(middle) and middle != dealt:
        assert result.verdict == "layout_error"  # a fresh deal's shape is read as one
        return
    assert result.verdict in ("won", "not_won"), result.diagnostics
    assert result.position == reached
    notes = [d.code for d in result.diagnostics if d.code == "F204"]
    assert notes == ([] if is_fresh_deal(middle) else ["F204"])
