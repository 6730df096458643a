"""FreeCell against Freecell Solver (Debian's freecell-solver-bin): its deals,
and its solutions imported into the notation and replayed to a win."""

from __future__ import annotations

import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from lcnotation import freecell
from lcnotation.freecell.deals import deal
from lcnotation.freecell.fcsolve import import_fc_solve, read_fc_solve
from lcnotation.core.diagnostics import NotationError
from tools import require

DATA = Path(__file__).resolve().parent / "data" / "freecell"
ENV = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}


def board(n: int) -> str:
    tool = require("make-microsoft-freecell-board", "fc-solve's Microsoft deals")
    return subprocess.run([tool, "-t", str(n)], capture_output=True, text=True, check=True,
                          env=ENV).stdout


@lru_cache(maxsize=None)
def solve(n: int, *options: str) -> str:
    tool = require("fc-solve", "solutions to import")
    return subprocess.run([tool, "-m", *options], input=board(n), capture_output=True,
                          text=True, check=True, env=ENV).stdout


@pytest.mark.parametrize("n", [0, 1, 617, 11982, 1000000, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1,
                               2 ** 32 - 1, 2 ** 32, 2 ** 32 + 12345, 2 ** 33 - 1])
def test_deals_are_fc_solves(n: int) -> None:
    ours = "".join(" ".join(map(str, column)) + "\n" for column in deal(n))
    assert ours == board(n)


@pytest.mark.parametrize("n, options", [
    (1, ("-sn",)), (2, ("-snx",)), (3, ()), (5, ("-sn", "-sp", "r:tf")),
    (7, ("-snx", "-sp", "r:tf")),
])
def test_solutions_import_and_replay_to_a_win(n: int, options: tuple) -> None:
    record = import_fc_solve(solve(n, *options), n)
    result = freecell.check(freecell.parse(record))
    assert result.verdict == "won", result.diagnostics
    # Horne automoves did part of fc-solve's work: fewer explicit moves.
    _, theirs = read_fc_solve(solve(n, *options))
    assert result.moves < len(theirs)
    assert freecell.format(freecell.parse(record)) == record


def test_the_board_in_the_output_is_the_layout() -> None:
    output = solve(1, "-p", "-t", "-sam", "-sn")
    record = freecell.parse(import_fc_solve(output))
    assert record.game is None
    assert [[p.card for p in c] for c in record.columns] == [list(c) for c in deal(1)]
    assert freecell.check(record).verdict == "won"


def test_the_committed_fixtures_are_what_fc_solve_and_import_give() -> None:
    for n in (1, 4, 617):
        assert (DATA / f"fc-solve-{n}.snx.txt").read_text() == solve(n, "-snx")
        assert (DATA / f"deal-{n}.txt").read_text() == import_fc_solve(solve(n, "-snx"), n)


def test_a_solution_of_another_deal_is_refused() -> None:
    with pytest.raises(NotationError) as caught:
        import_fc_solve(solve(1, "-sn"), 2)
    assert caught.value.code == "F402"


def test_deal_11982_has_no_solution_and_reads_as_not_won() -> None:
    assert "I could not solve this game." in solve(11982, "-sn")
    assert freecell.check(freecell.parse(freecell.deal(11982))).verdict == "not_won"


def test_a_mid_game_board_imports_with_its_freecells_and_home_piles() -> None:
    from lcnotation.freecell.state import Position

    record = freecell.parse((DATA / "deal-1.txt").read_text())
    position = Position.fresh(deal(1))
    position.automove()
    for move in record.moves[:12]:
        position.play(move.source, move.target, move.single)
        position.automove()
    ranks = "0A23456789TJQK"
    board = "".join([
        "Foundations: " + " ".join(f"{s}-{ranks[position.homes[s]]}" for s in "HCDS") + "\n",
        "Freecells: " + " ".join(str(c) if c else "-" for c in position.freecells) + "\n",
        *(": " + " ".join(map(str, column)) + "\n" for column in position.columns)])
    tool = require("fc-solve", "solutions to import")
    output = subprocess.run([tool, "-m", "-p", "-t", "-sam", "-sn"], input=board,
                            capture_output=True, text=True, check=True, env=ENV).stdout
    imported = freecell.parse(import_fc_solve(output))
    assert imported.game is None
    assert [str(f.card) for f in imported.home.freecells] == [
        str(c) for c in position.freecells]
    result = freecell.check(imported)
    assert result.verdict == "won", result.diagnostics


# ---- fidelity (issue 20, item 5; issue 26, 21) ---------------------------------------

#: The deals whose -l tfts solutions were refused (F402) by the importer that
#: searched the length of every move into an empty column, 200,000 steps at most.
TFTS_DEALS = [96, 104, 392, 840, 1228, 6862926705]


@pytest.mark.parametrize("notation", ["-snx", "-sn"])
@pytest.mark.parametrize("n", TFTS_DEALS)
def test_tfts_solutions_import_and_win(n: int, notation: str) -> None:
    record = import_fc_solve(solve(n, "-l", "tfts", notation), n)
    result = freecell.check(freecell.parse(record))
    assert result.verdict == "won", result.diagnostics


#: Everything home but the queens and kings of hearts and spades: KH under QS
#: in the first column, KS under QH in the third (fc-solve's board, deepest first).
SMALL_BOARD = ("Foundations: H-J C-K D-K S-J\nFreecells:\n: KH QS\n:\n: KS QH\n:\n:\n:\n:\n:\n"
               "\n")


def test_a_sn_run_into_an_empty_column_is_as_long_as_the_later_moves_need() -> None:
    # 34 and 12 each move two cards: the moves after them need both there.
    record = import_fc_solve(SMALL_BOARD + "34 12 2h 4h 2h 4h\n")
    assert freecell.check(freecell.parse(record)).verdict == "won"


def test_a_snx_move_into_an_empty_column_without_v_is_one_card() -> None:
    # The same solution as fc-solve -snx would not write it: 34v2 says its
    # length, so 12 (no v) moves one card, and the fifth move cannot be made.
    with pytest.raises(NotationError) as caught:
        import_fc_solve(SMALL_BOARD + "34v2 12 2h 4h 2h 4h\n")
    assert caught.value.code == "F402" and "move 5 (2h" in caught.value.message


def test_a_sn_run_length_the_moves_leave_open_is_reported() -> None:
    # 12 may move QS alone or KH and QS: nothing after it says which.
    with pytest.raises(NotationError) as caught:
        import_fc_solve(SMALL_BOARD + "12\n")
    assert caught.value.code == "F403"
    assert "move 1 (12" in caught.value.message and "-snx" in caught.value.message


def _cut(text: str, where: float) -> str:
    """``text`` cut in the middle of the moves line at about ``where`` of it."""
    lines = text.splitlines(keepends=True)
    moves = [i for i, line in enumerate(lines) if re.match(r"^(?:[1-8a-d][1-8a-dh]\S* )+$",
                                                            line)]
    index = moves[int(len(moves) * where)]
    return "".join(lines[:index]) + lines[index][:len(lines[index]) // 2 + 1]


@pytest.mark.parametrize("options", [("-snx",), ("-sn",)])
@pytest.mark.parametrize("where", [0.0, 0.5, 0.99])
def test_output_cut_in_the_middle_of_a_moves_line_is_truncated(options: tuple,
                                                               where: float) -> None:
    cut = _cut(solve(617, *options), where)
    with pytest.raises(NotationError) as caught:
        import_fc_solve(cut, 617)
    assert caught.value.code == "F401" and "truncated" in caught.value.message
    assert caught.value.line == cut.count("\n") + 1


@pytest.mark.parametrize("options", [("-snx",), (), ("-p", "-t", "-sam", "-sn")])
def test_output_cut_between_lines_is_truncated(options: tuple) -> None:
    full = solve(617, *options)
    cut = full[:full.index("This game is solveable.")]
    with pytest.raises(NotationError) as caught:
        import_fc_solve(cut, 617)
    assert caught.value.code == "F401" and "truncated" in caught.value.message
    half = full[:len(full) // 2]
    with pytest.raises(NotationError) as caught:
        import_fc_solve(half, 617)
    assert caught.value.code == "F401" and "truncated" in caught.value.message


def test_a_damaged_word_in_a_moves_line_is_an_error_not_dropped() -> None:
    text = solve(617, "-snx")
    lines = text.splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.startswith(("1", "2", "3", "4",
                                                                         "5", "6", "7", "8")))
    damaged = lines[index][:3] + "5x" + lines[index][5:]
    with pytest.raises(NotationError) as caught:
        import_fc_solve("".join(lines[:index] + [damaged] + lines[index + 1:]), 617)
    assert (caught.value.code, caught.value.line, caught.value.column) == (
        "F401", index + 1, 4)


def test_the_lcn_command_says_truncated(tmp_path: Path, run) -> None:
    path = tmp_path / "cut.txt"
    path.write_text(_cut(solve(617, "-snx"), 0.5))
    ran = run("freecell", "import", "--from", "fc-solve", str(path), "--deal", "617")
    assert ran.status == 1 and ran.out == ""
    first = ran.err.splitlines()[0]
    assert "F401" in first and "truncated" in first and f"{path}:" in first


def test_an_unsolved_game_is_said_so() -> None:
    with pytest.raises(NotationError) as caught:
        import_fc_solve(solve(11982, "-sn"), 11982)
    assert caught.value.code == "F401" and "could not solve" in caught.value.message


def test_too_many_open_readings_are_reported_not_followed(monkeypatch) -> None:
    from lcnotation.freecell import fcsolve

    # Deal 104's -l tfts solution keeps 640 readings open at most: below that
    # bound the import says the output is too ambiguous to follow.
    monkeypatch.setattr(fcsolve, "MOST_READINGS", 100)
    with pytest.raises(NotationError) as caught:
        import_fc_solve(solve(104, "-l", "tfts", "-sn"), 104)
    assert caught.value.code == "F403" and "more than 100 readings" in caught.value.message
    monkeypatch.setattr(fcsolve, "MOST_READINGS", 640)
    assert "Game #104" in import_fc_solve(solve(104, "-l", "tfts", "-sn"), 104)


def test_a_cut_sentence_or_move_line_of_a_bare_list_is_truncated() -> None:
    # Without fc-solve's first line, the last line still shows the cut.
    for text in ("Move a card from stack 4 to freecell 0\nMove a card from sta",
                 "5a 5b 5c 5d 5h b2 8\n", "5a 5b 5c 5d 5h b2 8bv"):
        with pytest.raises(NotationError) as caught:
            import_fc_solve(text, 1)
        assert caught.value.code == "F401" and "truncated" in caught.value.message, text
    # A last "Move:" line of fc-solve -p -t, whole, is not cut.
    assert "Game #1" in import_fc_solve("Move: 5a\n", 1)
