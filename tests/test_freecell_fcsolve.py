"""FreeCell against Freecell Solver (Debian's freecell-solver-bin): its deals,
and its solutions imported into the notation and replayed to a win."""

from __future__ import annotations

import os
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
