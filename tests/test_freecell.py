"""Standard FreeCell Notation: reading, the layout, the moves, Horne automoves,
the checker's verdicts and the formatter (no outside tool needed; the tests
that use Freecell Solver are in test_freecell_fcsolve.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Optional, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lcnotation import freecell
from lcnotation.freecell.cards import FULL_DECK, Card, parse_card
from lcnotation.freecell.checker import check
from lcnotation.freecell.deals import deal as deal_columns
from lcnotation.freecell.formatter import layout_text
from lcnotation.freecell.parser import parse
from lcnotation.freecell.state import IllegalMove, Position, horne_safe
from lcnotation.core.diagnostics import NotationError

DATA = Path(__file__).resolve().parent / "data" / "freecell"


def cards(text: str) -> List[Card]:
    found = [parse_card(t) for t in text.split()]
    assert all(found)
    return [c for c in found if c]


def layout(columns: Sequence[str], freecells: Sequence[Optional[str]] = (None,) * 4,
           blocked: Sequence[bool] = (False,) * 4, fill: bool = True) -> Position:
    """A position from columns written deepest card first; with ``fill`` the
    cards not named go into columns 5 to 8, aces deepest (so nothing moves)."""
    cols = [cards(c) for c in columns] + [[] for _ in range(8 - len(columns))]
    cells = [parse_card(c) if c else None for c in freecells]
    if fill:
        used = {c for col in cols for c in col} | {c for c in cells if c}
        rest = [c for c in FULL_DECK if c not in used]  # aces first: they end up deepest
        for i, card in enumerate(rest):
            cols[4 + i % 4].append(card)
    return Position(cells, blocked, {s: 0 for s in "CDHS"}, cols)


def record_of(position: Position, moves: str = "") -> str:
    return layout_text(position) + (moves + "\n" if moves else "")


def verdict(text: str):
    return check(parse(text))


# ---- reading --------------------------------------------------------------------

def test_deal_1_reads_back_as_its_layout() -> None:
    record = parse(freecell.deal(1))
    assert record.errors == ()
    assert record.game is not None and record.game.number == 1
    assert [str(p.card) for p in record.columns[0]] == "JD KD 2S 4C 3S 6D 6S".split()
    assert [len(c) for c in record.columns] == [7, 7, 7, 7, 6, 6, 6, 6]


@pytest.mark.parametrize("line, number", [
    ("Game #617", 617), ("#-1 (a cookie deal)", -1), ("MS 11982 unsolvable, 2 tries", 11982),
    ("8589934591", 8589934591), ("Deal no. 5-3", 5),
])
def test_game_line_number(line: str, number: int) -> None:
    record = parse(line + "\n" + freecell.deal(1).split("\n", 1)[1])
    assert record.game is not None and record.game.number == number
    assert record.game.text == line


def test_game_number_out_of_range_is_f103() -> None:
    record = parse("Game #8589934592\nJD\n")
    assert [(d.code, d.line, d.column) for d in record.errors][0] == ("F103", 1, 7)


def test_missing_column_section_is_f105() -> None:
    assert [d.code for d in parse("Game #1\n").errors] == ["F105"]


def test_home_line_fields() -> None:
    text = "BB-AH-  -xx+KS    QD\nJD\n"
    record = parse(text)
    home = record.home
    assert home is not None and record.errors == ()
    assert [f.card for f in home.freecells] == [None, Card(1, "H"), None, None]
    assert [f.blocked for f in home.freecells] == ["BB", None, None, "xx"]
    assert home.homes == (Card(13, "S"), None, Card(12, "D"), None)


@pytest.mark.parametrize("line, column", [
    ("  -  -  -  +K", 13),       # a home cell of one character
    ("  -  -  =  +", 9),        # separators disagree
    ("  -  -  -  +KS KH QD JC 9H", 25),  # a fifth home pile
    ("  -  -  -  +ZZ", 13),       # not a card
])
def test_bad_home_line_is_f102(line: str, column: int) -> None:
    errors = parse(line + "\nJD\n").errors
    assert [(d.code, d.column) for d in errors][:1] == [("F102", column)]


def _parsed(pattern: str) -> str:
    return str(re._parser.parse(pattern))  # type: ignore[attr-defined]


def test_the_terminals_read_without_lark_are_larks() -> None:
    from lcnotation.freecell import parser as fc_parser

    lark_terms = {t.name: t.pattern.to_regexp() for t in fc_parser._lark().terminals}
    assert set(fc_parser._terminals()) == set(lark_terms)
    for name, pattern in fc_parser._terminals().items():
        assert _parsed(pattern) == _parsed(lark_terms[name]), name


@settings(max_examples=400, deadline=None)
@given(st.one_of(
    st.text(st.sampled_from(" -=+AKSHQDTJ23x\t"), max_size=26),
    st.builds(lambda cells, seps, homes: "".join(
        c + s for c, s in zip(cells, [*seps, "+"])) + " ".join(homes),
        st.lists(st.sampled_from(["  ", "AH", "KS", "BB", "AH", "KS", "  ", " x"]),
                 min_size=4, max_size=4),
        st.lists(st.sampled_from(["-", "=", " ", "-", "=", " ", "+", ""]), min_size=3,
                 max_size=3),
        st.lists(st.sampled_from(["  ", "KS", "QD", "ZZ", "KS", "QD", "K", ""]), max_size=5))))
def test_a_home_line_is_read_as_lark_reads_it(text: str) -> None:
    """The freecell+home line is read without Lark: the same parts where Lark
    reads the line, nothing where Lark fails (it then says where)."""
    from lark import Tree
    from lark.exceptions import UnexpectedInput

    from lcnotation.freecell import parser as fc_parser

    text = text.rstrip(" \t")  # as the reader gives a line
    try:
        tree = fc_parser._lark().parse(text, start="home_line")
    except UnexpectedInput:
        assert fc_parser._home_parts(text) is None
    else:
        assert isinstance(tree, Tree)
        assert fc_parser._home_parts(text) == fc_parser._tree_parts(tree)


def test_column_cells_and_errors() -> None:
    record = parse("JD 6X    4C\n2D    3H 5C\n")
    codes = [(d.code, d.line, d.column) for d in record.errors]
    assert codes == [("F101", 1, 4), ("F107", 2, 7)]
    assert [len(c) for c in record.columns] == [2, 0, 1, 2, 0, 0, 0, 0]


def test_too_many_columns_and_rows_is_f104() -> None:
    nine = " ".join(["KD"] * 9)
    assert [d.code for d in parse(nine + "\n").errors] == ["F104"]
    rows = "\n".join(["KD"] * 19)
    assert [d.code for d in parse(rows + "\n").errors] == ["F104"]


def test_solution_line_cycle_and_comments() -> None:
    record = parse("JD\ncomment first\n 5a.5b[6c] 7h7x 12\n\n 8h\n")
    assert [str(m) for m in record.moves] == ["5a", "5b", "6c", "7h", "8h"]
    assert [m.single for m in record.moves] == [False, True, False, False, False]
    assert record.marker == 2
    f110 = [d for d in record.errors if d.code == "F110"]
    assert [(d.line, d.column) for d in f110] == [(3, 14)]
    assert str(f110[0].severity) == "info"


def test_dot_versus_space_prefix_is_read() -> None:
    record = parse("JD\n.15 15\n")
    assert [m.single for m in record.moves] == [True, False]


def test_markers_misplaced_are_f106() -> None:
    assert "F106" in [d.code for d in parse("JD\n 5a[5b][6c]\n").errors]
    assert "F106" in [d.code for d in parse("JD\n 5a[??] 6c\n").errors]
    end = parse("JD\n 5a 6c[??]\n")
    assert end.marker == 2 and not end.errors


def test_strict_raises_the_first_error() -> None:
    with pytest.raises(NotationError) as caught:
        parse("JD 6X\n", strict=True)
    assert (caught.value.code, caught.value.line, caught.value.column) == ("F101", 1, 4)


# ---- the layout -------------------------------------------------------------------

def test_duplicate_and_missing_cards() -> None:
    text = freecell.deal(1).replace("KC", "JD")
    result = verdict(text)
    assert result.verdict == "layout_error"
    assert [d.code for d in result.diagnostics] == ["F201", "F202"]
    assert "KC" in result.diagnostics[1].message


def test_columns_must_be_the_deal_named() -> None:
    text = freecell.deal(1).replace("Game #1", "Game #2")
    result = verdict(text)
    assert result.verdict == "layout_error"
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [("F203", 3, 1)]


def test_home_cards_count_every_lower_rank() -> None:
    # Everything home but the kings of clubs and hearts (in the columns).
    text = "  -  -  -  +QC KD QH KS\nKC KH\n"
    result = verdict(text)
    assert result.verdict == "won" and result.moves == 0


def test_two_piles_of_one_suit_is_f205() -> None:
    result = verdict("  -  -  -  +KS QS\nKC\n")
    assert "F205" in [d.code for d in result.diagnostics]


def test_wkr_is_unsupported() -> None:
    text = "  =  =  =  +QC KD QH KS\nKC KH\n 1h 2h\n"
    result = verdict(text)
    assert result.verdict == "unsupported"
    assert [d.code for d in result.diagnostics] == ["F210"]


def test_cookie_deal_is_taken_as_written() -> None:
    text = freecell.deal(5).replace("Game #5", "Game #-1")
    result = verdict(text)
    assert result.verdict == "not_won"
    assert [d.code for d in result.diagnostics] == ["F208", "F320"]


# ---- Horne automoves -------------------------------------------------------------

@pytest.mark.parametrize("card, homes, safe", [
    ("AS", "0 0 0 0", True),
    ("2H", "0 0 1 0", True),       # twos always go
    ("3H", "0 0 2 0", False),      # the black piles are below 1
    ("3H", "1 0 2 1", True),       # C D H S: blacks at 1, diamonds at 0
    ("4D", "2 3 1 2", True),       # hearts (same colour) at 1 = 4 - 3
    ("4D", "2 3 0 2", False),
    ("4D", "1 3 1 2", False),      # clubs at 1 < 4 - 2
    ("5S", "3 3 3 4", True),
    ("5S", "3 3 2 4", False),     # hearts at 2 < 5 - 2
])
def test_horne_rule(card: str, homes: str, safe: bool) -> None:
    piles = dict(zip("CDHS", (int(n) for n in homes.split())))
    parsed = parse_card(card)
    assert parsed is not None
    assert horne_safe(parsed, piles) is safe


def test_automoves_run_until_nothing_moves() -> None:
    position = layout(["KD 2C AC", "KH AD", "KS 2D"], fill=False)
    position.columns[3] = [c for c in FULL_DECK if c.rank > 2]
    sent = position.automove()
    assert sorted(map(str, sent)) == ["2C", "2D", "AC", "AD"]
    assert position.homes == {"C": 2, "D": 2, "H": 0, "S": 0}


# ---- moves ------------------------------------------------------------------------

SUPER = ["QD", "KC JS TH 9S", "JC", "KH"]


@pytest.mark.parametrize("source, target, code", [
    ("b", "1", "F301"),   # freecell b is empty
    ("2", "a", "F302"),   # freecell a holds 5C
    ("2", "h", "F303"),   # 9S cannot go home
    ("2", "4", "F304"),   # nothing of JS TH 9S fits on KH
    ("2", "2", "F306"),
])
def test_illegal_move_kinds(source: str, target: str, code: str) -> None:
    p = layout(SUPER, freecells=("5C", None, None, None))
    before = p.copy()
    with pytest.raises(IllegalMove) as e:
        p.play(source, target, False)
    assert e.value.code == code
    assert p == before


@pytest.mark.parametrize("free, longest", [(0, 1), (1, 2), (2, 3), (3, 4)])
def test_supermove_limit_without_empty_columns(free: int, longest: int) -> None:
    blocked = [i >= free for i in range(4)]
    # JS TH 9S onto QD needs 3 cards; TH 9S onto JC needs 2; 9S alone fits nothing here.
    for target, count in (("1", 3), ("3", 2)):
        p = layout(SUPER, blocked=blocked)
        if count <= longest:
            assert p.play("2", target, False) == count
        else:
            with pytest.raises(IllegalMove) as e:
                p.play("2", target, False)
            assert e.value.code == "F305"


def test_supermove_one_over_the_limit_with_an_empty_column() -> None:
    # One free freecell and one empty column: (1 + 1) * 2 = 4 cards onto a card.
    p = layout(["KH", "KC QD JS TH 9S 8H", "QH", "KD"], blocked=(False, True, True, True))
    p.columns[7] = []
    assert p.limit(into_empty=False) == 4
    assert p.copy().play("2", "3", False) == 4  # JS to 8H onto QH: the limit
    p.columns[2] = cards("KS")
    with pytest.raises(IllegalMove) as e:  # QD to 8H onto KS: one over
        p.play("2", "3", False)
    assert e.value.code == "F305"


def test_into_an_empty_column_dot_moves_one_space_the_most() -> None:
    base = layout(SUPER, blocked=(False, False, True, True))
    base.columns[7] = []
    # Two free freecells, one other empty column besides the target? none: 3 * 2**0.
    assert base.limit(into_empty=True) == 3
    single, most = base.copy(), base.copy()
    assert single.play("2", "8", True) == 1
    assert most.play("2", "8", False) == 3
    assert [str(c) for c in most.columns[7]] == ["JS", "TH", "9S"]
    assert single != most


def test_the_empty_target_column_is_not_counted() -> None:
    p = layout(SUPER, blocked=(True, True, True, True))
    p.columns[6], p.columns[7] = [], []
    # No freecell, two empty columns: onto a card 2**2 = 4, into one of them 2**1 = 2.
    assert p.limit(into_empty=False) == 4
    assert p.limit(into_empty=True) == 2
    assert p.copy().play("2", "8", False) == 2


# ---- the checker ------------------------------------------------------------------

def solved(n: int) -> str:
    return (DATA / f"deal-{n}.txt").read_text()


@pytest.mark.parametrize("n", [1, 617])
def test_a_real_solution_is_won(n: int) -> None:
    result = verdict(solved(n))
    assert result.verdict == "won", result.diagnostics
    assert result.first_bad_move is None and result.diagnostics == ()
    assert result.moves == len(parse(solved(n)).moves)


def positions_before(text: str) -> List[Position]:
    """The position before each move of a legal solution (and after the last)."""
    record = parse(text)
    position = Position.fresh(deal_columns(record.game.number))  # type: ignore[union-attr]
    position.automove()
    seen = [position.copy()]
    for move in record.moves:
        position.play(move.source, move.target, move.single)
        position.automove()
        seen.append(position.copy())
    return seen


def with_move(text: str, index: int, move: str) -> str:
    """``text`` with its move ``index`` replaced by ``move`` (prefix and two characters)."""
    record = parse(text)
    span = record.moves[index].span
    return text[:span.start] + move + text[span.end:]


def illegal_move(position: Position, kind: str) -> str:
    """A move of the kind asked for, illegal in ``position``."""
    names = "abcd"
    if kind == "F301":
        empty = [i for i in range(4) if position.freecells[i] is None]
        if empty:
            return " " + names[empty[0]] + "h"
        return " " + str(position.columns.index([]) + 1) + "h"
    if kind == "F302":
        full = [i for i in range(4) if position.freecells[i] is not None]
        column = next(i for i, c in enumerate(position.columns) if c)
        return f" {column + 1}{names[full[0]]}"
    if kind == "F303":
        column = next(i for i, c in enumerate(position.columns)
                      if c and position.homes[c[-1].suit] != c[-1].rank - 1)
        return f" {column + 1}h"
    if kind == "F304":
        for i, a in enumerate(position.columns):
            for j, b in enumerate(position.columns):
                if i != j and a and b and all(
                        not (x.rank == b[-1].rank - 1 and x.is_red != b[-1].is_red)
                        for x in a[-position.run_length(i):]):
                    return f" {i + 1}{j + 1}"
    if kind == "F306":
        return " 11"
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["F301", "F302", "F303", "F304", "F306"])
@pytest.mark.parametrize("index", [3, 40, 80])
def test_mutated_solution_is_illegal_at_that_move(kind: str, index: int) -> None:
    text = solved(1)
    before = positions_before(text)[index]
    if kind == "F302" and all(c is None for c in before.freecells):
        pytest.skip("no occupied freecell at this move")
    mutated = with_move(text, index, illegal_move(before, kind))
    result = verdict(mutated)
    assert (result.verdict, result.first_bad_move) == ("illegal", index)
    bad = [d for d in result.diagnostics if d.severity.value == "error"]
    assert [d.code for d in bad] == [kind]
    assert bad[0].turn == index
    assert result.position == before


def test_truncated_solution_is_not_won() -> None:
    text = solved(617)
    record = parse(text)
    cut = record.moves[50].span.start
    result = verdict(text[:cut].rstrip() + "\n")
    assert (result.verdict, result.first_bad_move, result.moves) == ("not_won", 50, 50)
    assert [d.code for d in result.diagnostics] == ["F320"]


def test_dot_versus_space_changes_the_replay() -> None:
    # The moves into an empty column that carried more than one card: with "."
    # they carry one, and the solution no longer works.
    text = solved(4)
    record = parse(text)
    seen = positions_before(text)
    flipped = 0
    for index, move in enumerate(record.moves):
        before = seen[index]
        if (move.target.isdigit() and not before.columns[int(move.target) - 1]
                and move.source.isdigit() and not move.single
                and before.run_length(int(move.source) - 1) > 1):
            changed = text[:move.span.start] + "." + text[move.span.start + 1:]
            after = before.copy()
            after.play(move.source, move.target, True)
            after.automove()
            assert after != seen[index + 1]
            result = verdict(changed)
            assert result.verdict != "won"
            assert result.first_bad_move is None or result.first_bad_move > index
            flipped += 1
    assert flipped >= 1


def test_broken_cycle_turns_the_rest_into_a_comment() -> None:
    text = solved(1)
    record = parse(text)
    span = record.moves[5].span
    broken = text[:span.start] + span_text(text, span).replace(" ", "x", 1) + text[span.end:]
    result = verdict(broken)
    reread = parse(broken)
    # The moves from the break to the end of that line are a comment now.
    line_moves = [m for m in record.moves if m.span.line == span.line]
    lost = len([m for m in line_moves if m.span.start >= span.start])
    assert len(reread.moves) == len(record.moves) - lost
    assert "F110" in [d.code for d in result.diagnostics]
    assert result.verdict in ("illegal", "not_won")


def span_text(text: str, span) -> str:
    return text[span.start:span.end]


def test_deal_11982_layout_is_not_won() -> None:
    result = verdict(freecell.deal(11982))
    assert (result.verdict, result.moves, result.first_bad_move) == ("not_won", 0, 0)


def test_marker_with_game_line_checks_both_halves() -> None:
    text = solved(1)
    record = parse(text)
    index = 30
    middle = positions_before(text)[index]
    moves = record.moves
    steps = ["".join(m.prefix + str(m) for m in moves[:index]),
             "[" + ("." if moves[index].single else "") + str(moves[index]) + "]",
             "".join(m.prefix + str(m) for m in moves[index + 1:])]
    marked = "Game #1\n" + layout_text(middle) + "".join(steps) + "\n"
    result = verdict(marked)
    assert result.verdict == "won", result.diagnostics
    wrong = "Game #1\n" + layout_text(positions_before(text)[index + 1]) + "".join(steps) + "\n"
    assert [d.code for d in verdict(wrong).diagnostics] == ["F206"]
    unnamed = layout_text(middle) + "".join(steps) + "\n"
    result = verdict(unnamed)
    assert result.verdict == "won"
    assert [d.code for d in result.diagnostics] == ["F207"]


# ---- the formatter ------------------------------------------------------------------

def test_canonical_files_round_trip_byte_for_byte() -> None:
    for n in (1, 617):
        text = solved(n)
        assert freecell.format(parse(text)) == text
    assert freecell.format(parse(freecell.deal(7))) == freecell.deal(7)


def test_format_reflows_and_keeps_comments() -> None:
    text = ("Game #1   \n\nJD 2D 9H JC 5D 7H 7C 5H  \nKD KC 9S 5S AD QC KH 3H\n"
            "Solved by hand\n 5a 5b\n 5c 5d 5h b2 8b a8 7a b7 58 6b 65\n"
            " 6h 5h  done for today\n\n")
    formatted = freecell.format(parse(text))
    assert formatted == ("Game #1\n  -  -  -  +\nJD 2D 9H JC 5D 7H 7C 5H\n"
                         "KD KC 9S 5S AD QC KH 3H\nSolved by hand\n"
                         " 5a 5b 5c 5d 5h b2 8b a8 7a b7\n 58 6b 65 6h 5h  done for today\n")
    assert parse(formatted).meaning() == parse(text).meaning()


def test_the_package_is_an_attribute_of_lcnotation() -> None:
    import subprocess
    import sys
    code = ("import lcnotation as lcn; fc = lcn.freecell; r = fc.parse(fc.deal(3)); "
            "print(fc.check(r).verdict, fc.format(r) == fc.deal(3))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "not_won True\n"


def test_a_real_supermove_made_one_card_over_the_limit() -> None:
    # Find a multi-card move onto a card made at exactly the limit with no empty
    # column; one more occupied freecell before it makes it one card too many.
    for n in (1, 4, 617):
        text = solved(n)
        record = parse(text)
        seen = positions_before(text)
        for index, move in enumerate(record.moves):
            before = seen[index]
            if not (move.source.isdigit() and move.target.isdigit()):
                continue
            if not before.columns[int(move.target) - 1] or before.empty_columns():
                continue
            carried = before.copy().play(move.source, move.target, move.single)
            if carried < 2 or carried != before.limit(into_empty=False):
                continue
            cell = "abcd"[before.freecells.index(None)]
            other = next(str(i + 1) for i, c in enumerate(before.columns)
                         if c and str(i + 1) not in (move.source, move.target))
            span = move.span
            mutated = text[:span.start] + f" {other}{cell}" + text[span.start:]
            result = verdict(mutated)
            assert (result.verdict, result.first_bad_move) == ("illegal", index + 1)
            assert [d.code for d in result.diagnostics] == ["F305"]
            assert f"the {carried} cards" in result.diagnostics[0].message
            assert f"more than the {carried - 1}" in result.diagnostics[0].message
            return
    pytest.fail("no supermove at the limit in the solutions")


def test_a_check_result_is_a_value_with_a_verdict_of_its_own() -> None:
    # As Lost Cities' CheckReport: frozen, and its verdict a Verdict (a string too).
    import dataclasses

    result = freecell.check(freecell.parse(freecell.deal(1)))
    assert result.verdict is freecell.Verdict.NOT_WON and result.verdict == "not_won"
    assert isinstance(result.diagnostics, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.verdict = freecell.Verdict.WON  # type: ignore[misc]
    assert freecell.VERDICTS == ("won", "illegal", "not_won", "layout_error", "unsupported")


def test_the_reader_s_quick_builders_make_what_the_constructors_make() -> None:
    import dataclasses

    from lcnotation.freecell.ast import Move, Placed, Span, move_of, placed_of

    span = Span(3, 4, 3, 7, 40, 43)
    for quick, slow in ((move_of("5", "a", True, span), Move("5", "a", True, span)),
                        (placed_of(Card(12, "H"), span), Placed(Card(12, "H"), span))):
        assert vars(quick) == vars(slow) and repr(quick) == repr(slow) and quick == slow
        assert hash(quick) == hash(slow) and type(quick) is type(slow)
        assert list(vars(quick)) == [f.name for f in dataclasses.fields(slow)]
        with pytest.raises(dataclasses.FrozenInstanceError):
            quick.span = span  # type: ignore[misc]
