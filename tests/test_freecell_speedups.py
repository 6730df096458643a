"""The compiled clean path of ``lcn freecell check`` (lcnotation/freecell/_speedups.c)
changes no report.

Its check answers ``(deal, moves)`` for a record it calls won and clean, or
None ("look closer"). These tests hold it to the Python check
(``check(parse(text))``): on records in the canonical layout of a fresh deal
-- fc-solve's solutions, the repository's, random legal play, and solutions
whose moves were changed, dropped, swapped, doubled or cut -- it answers
exactly when the Python check says "won" without a diagnostic, with the same
deal and moves; on anything else (bytes flipped, lines cut or doubled, CRLF,
tabs, a BOM, hostile text) it may say None, and when it answers, the Python
check agrees. ``lcn freecell check`` prints the same bytes and exits with
the same status with and without it.

The tests skip where the extension is not built, except under CI
(``CI=true``), where they fail. They use the extension even when
``LCNOTATION_PURE_PYTHON=1`` turns it off for the rest of the suite.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lcnotation import freecell
from lcnotation.core.grammar import grammar_terminals, grammar_text
from lcnotation.freecell import accel
from lcnotation.freecell.deals import DEAL_LIMIT, deal
from lcnotation.freecell.fcsolve import import_fc_solve
from lcnotation.freecell.formatter import MOVES_PER_LINE, layout_text
from lcnotation.freecell.parser import GRAMMAR_FILE
from lcnotation.freecell.rules import GAME_PREFIX
from lcnotation.freecell.state import IllegalMove, Position
from test_freecell_properties import games
from tools import compiled

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "freecell"
REFERENCE = ROOT / "tests" / "reference" / "freecell"
#: The solved records of the repository (fc-solve's, imported).
SOLVED = sorted(DATA.glob("deal-*.txt")) + sorted(REFERENCE.glob("deal-*.txt"))


SPEEDUPS = compiled("lcnotation.freecell._speedups", accel.tables(), "the FreeCell C extension")

CHECK: Callable[[str], Optional[Tuple[int, int]]] = SPEEDUPS.check

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def python_clean(text: str) -> Optional[Tuple[int, int]]:
    """What the C check must answer: the Python check's deal and moves when it
    says "won" without a diagnostic, else None."""
    result = freecell.check(freecell.parse(text))
    if result.verdict != "won" or result.diagnostics or result.deal is None:
        return None  # (the C code reads the records of a numbered deal alone)
    return result.deal, result.moves


def holds(text: str) -> Optional[Tuple[int, int]]:
    """The C check answers only what the Python check says; its answer."""
    answer = CHECK(text)
    if answer is not None:
        assert answer == python_clean(text), text
    return answer


def exact(text: str) -> Optional[Tuple[int, int]]:
    """On the canonical layout of a fresh deal, the C check answers exactly
    when the Python check says won and clean."""
    answer = CHECK(text)
    assert answer == python_clean(text), text
    return answer


def canonical(number: int, moves: List[str]) -> str:
    """A record of deal ``number`` in the canonical layout, with ``moves``
    (each written with its prefix, ``" 5a"``, ``".48"``)."""
    lines = [freecell.deal(number).rstrip("\n")]
    lines += ["".join(moves[i:i + MOVES_PER_LINE]) for i in range(0, len(moves), MOVES_PER_LINE)]
    return "\n".join(lines) + "\n"


def moves_of(text: str) -> Tuple[int, List[str]]:
    record = freecell.parse(text)
    assert record.deal_number is not None
    return record.deal_number, [m.prefix + str(m) for m in record.moves]


@lru_cache(maxsize=None)
def fc_solve(number: int) -> str:
    """fc-solve's solution of deal ``number``, imported (skips without fc-solve)."""
    from test_freecell_fcsolve import solve

    return import_fc_solve(solve(number, "-snx"), number)


def python_replay(number: int, moves: List[str]) -> Tuple[int, bool, str]:
    """What the C replay must give: the moves played before the first
    illegal one, whether there is one, and the position reached (state.py's
    Position.move_settled, as the checker replays)."""
    position = Position.fresh(deal(number))
    position.automove()
    for played, move in enumerate(moves):
        try:
            position.move_settled(move[1], move[2], move[0] == ".")
        except IllegalMove:
            return played, True, layout_text(position)
    return len(moves), False, layout_text(position)


def same_replay(number: int, moves: List[str]) -> None:
    """The C replay reaches the position the Python one reaches, move by move
    (each prefix of the moves), and stops at the same illegal move."""
    for end in sorted({len(moves), *range(0, len(moves), 7)}):
        assert SPEEDUPS.replay(canonical(number, moves[:end])) == python_replay(
            number, moves[:end]), (number, moves[:end])


# ---------------------------------------------------------------- won records


@pytest.mark.parametrize("path", SOLVED, ids=lambda p: p.name)
def test_the_repositorys_solutions_are_answered(path: Path) -> None:
    text = path.read_text("utf-8")
    assert exact(text) == moves_of(text)[:1] + (len(moves_of(text)[1]),)


@pytest.mark.parametrize("number", [0, 2, 3, 5, 100, 1000000, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1,
                                    2 ** 32 - 1, 2 ** 32, 2 ** 32 + 12345, 2 ** 33 - 1])
def test_fc_solves_solutions_are_answered(number: int) -> None:
    text = fc_solve(number)
    found = exact(text)
    assert found is not None and found[0] == number


@lru_cache(maxsize=None)
def _solved() -> List[str]:
    return [p.read_text("utf-8") for p in SOLVED]


@pytest.mark.parametrize("path", sorted(REFERENCE.iterdir()), ids=lambda p: p.name)
def test_the_reference_records_are_answered_only_as_python_checks_them(path: Path) -> None:
    # Solutions, and mutations of them (a byte, a line, a move changed).
    text = path.read_text("utf-8")
    answer = holds(text)
    assert (answer is not None) == (path.name.startswith("deal-") or python_clean(text) is not None
                                    and text == canonical(*moves_of(text)))


Mutation = Callable[[List[str]], List[str]]
_MOVE = st.builds(lambda p, s, t: p + s + t, st.sampled_from(" ."),
                  st.sampled_from("abcd12345678"), st.sampled_from("abcd12345678h"))


@st.composite
def mutated_moves(draw: st.DrawFn) -> Tuple[int, List[str]]:
    """A solution of the repository with a few of its moves changed, dropped,
    swapped, doubled, given the other prefix, or cut short."""
    number, moves = moves_of(draw(st.sampled_from(_solved())))
    for _ in range(draw(st.integers(1, 3))):
        if not moves:
            break
        i = draw(st.integers(0, len(moves) - 1))
        kind = draw(st.sampled_from(["replace", "drop", "swap", "double", "prefix", "cut",
                                     "insert"]))
        if kind == "replace":
            moves[i] = draw(_MOVE)
        elif kind == "drop":
            del moves[i]
        elif kind == "swap" and i + 1 < len(moves):
            moves[i], moves[i + 1] = moves[i + 1], moves[i]
        elif kind == "double":
            moves.insert(i, moves[i])
        elif kind == "prefix":
            moves[i] = ("." if moves[i][0] == " " else " ") + moves[i][1:]
        elif kind == "cut":
            del moves[i:]
        else:
            moves.insert(i, draw(_MOVE))
    return number, moves


@SETTINGS
@given(mutated_moves())
def test_a_changed_solution_is_answered_exactly_when_python_says_won(case) -> None:
    number, moves = case
    exact(canonical(number, moves))
    same_replay(number, moves)


@pytest.mark.parametrize("path", SOLVED, ids=lambda p: p.name)
def test_the_replay_of_a_solution_is_pythons_move_by_move(path: Path) -> None:
    same_replay(*moves_of(path.read_text("utf-8")))


@SETTINGS
@given(games(), st.integers(0, DEAL_LIMIT - 1), st.lists(_MOVE, max_size=4))
def test_random_legal_play_is_answered_exactly(game, other: int, more: List[str]) -> None:
    number, steps, _ = game
    moves = [("." if single else " ") + source + target for source, target, single in steps]
    exact(canonical(number, moves))
    same_replay(number, moves)
    # Any moves after them, legal or not, as Python plays them.
    same_replay(number, moves + more)
    # The same moves under another deal's number: F203 in Python, None here.
    text = canonical(number, moves).replace(f"{GAME_PREFIX}{number}\n",
                                            f"{GAME_PREFIX}{other}\n", 1)
    exact(text)


@SETTINGS
@given(st.integers(0, DEAL_LIMIT - 1))
@example(0)
@example(2 ** 31 - 1)
@example(2 ** 31)
@example(2 ** 32 - 1)
@example(2 ** 32)
@example(DEAL_LIMIT - 1)
def test_the_c_code_deals_as_python_does(number: int) -> None:
    # The layout of the deal, before any move and after its automoves.
    assert SPEEDUPS.replay(freecell.deal(number)) == python_replay(number, [])
    position = Position.fresh(deal(number))
    if not position.automove():
        assert SPEEDUPS.replay(freecell.deal(number))[2] == freecell.deal(number).split("\n", 1)[1]


def test_a_deal_number_out_of_range_is_not_read() -> None:
    text = SOLVED[0].read_text("utf-8")
    number, _ = moves_of(text)
    for written in (str(DEAL_LIMIT), "9" * 13, "-1", "0" + str(number), "+" + str(number)):
        wrong = text.replace(f"{GAME_PREFIX}{number}\n", f"{GAME_PREFIX}{written}\n", 1)
        assert SPEEDUPS.replay(wrong) is None and CHECK(wrong) is None
        assert python_clean(wrong) in (None, (number, len(moves_of(text)[1])))


def test_a_solution_under_another_deals_number_is_not_answered() -> None:
    text = SOLVED[0].read_text("utf-8")
    number, _ = moves_of(text)
    wrong = text.replace(f"{GAME_PREFIX}{number}\n", f"{GAME_PREFIX}{number + 1}\n", 1)
    assert CHECK(wrong) is None and python_clean(wrong) is None


# ---------------------------------------------------------------- other text


_NOISE = st.sampled_from(["\r", "\r\n", "\t", " ", "\n", "\ufeff", "\x00", "é", "#", "[??]",
                          "[ 5a]", "0", "9", "Game #1", "  -  -  -  +", "BB", "=", "x", "h",
                          "//", "\x0c", "-", "+"])


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """A solved record with a few bytes changed, lines cut, doubled or
    swapped, or noise put in."""
    text = draw(st.sampled_from(_solved()))
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        kind = draw(st.sampled_from(["byte", "noise", "line-cut", "line-double", "line-swap",
                                     "line-drop", "crlf", "end"]))
        i = draw(st.integers(0, max(len(text) - 1, 0)))
        k = draw(st.integers(0, len(lines) - 1))
        if kind == "byte" and text:
            text = text[:i] + chr(draw(st.integers(0, 0x24F))) + text[i + 1:]
        elif kind == "noise":
            text = text[:i] + draw(_NOISE) + text[i:]
        elif kind == "line-cut":
            lines[k] = lines[k][:draw(st.integers(0, len(lines[k])))]
            text = "\n".join(lines)
        elif kind == "line-double":
            text = "\n".join(lines[:k + 1] + lines[k:])
        elif kind == "line-swap" and k + 1 < len(lines):
            lines[k], lines[k + 1] = lines[k + 1], lines[k]
            text = "\n".join(lines)
        elif kind == "line-drop":
            text = "\n".join(lines[:k] + lines[k + 1:])
        elif kind == "crlf":
            text = text.replace("\n", "\r\n")
        else:
            text = text.rstrip("\n") + draw(st.sampled_from(["", "\n\n", " \n", "\n//\n"]))
    return text


@SETTINGS
@given(damaged())
@example("Game #01\n" + SOLVED[0].read_text("utf-8").split("\n", 1)[1] if SOLVED else "")
@example("Game #1 \n" + SOLVED[0].read_text("utf-8").split("\n", 1)[1] if SOLVED else "")
@example("\ufeff" + SOLVED[0].read_text("utf-8") if SOLVED else "")
@example(SOLVED[0].read_text("utf-8").rstrip("\n") if SOLVED else "")
def test_a_damaged_record_is_answered_only_as_python_checks_it(text: str) -> None:
    holds(text)


@SETTINGS
@given(st.lists(_NOISE | _MOVE | st.sampled_from(["JD ", "KS", "AH", "  -  -", "Game #",
                                                  "617"]), max_size=40).map("".join)
       | st.text(max_size=80))
def test_any_text_is_answered_only_as_python_checks_it(text: str) -> None:
    holds(text)
    holds(freecell.deal(1) + text)


def test_what_python_calls_won_but_the_c_code_leaves_to_it() -> None:
    text = SOLVED[0].read_text("utf-8")
    number, moves = moves_of(text)
    for variant in (text.replace("\n", "\r\n"), "\ufeff" + text, text + "\n\n",
                    text.replace(GAME_PREFIX, GAME_PREFIX + "0", 1),
                    text.replace("\n", "  \n"), text + "// a comment\n"):
        assert python_clean(variant) == (number, len(moves)), variant
        assert CHECK(variant) is None
    assert CHECK(text.rstrip("\n")) == (number, len(moves))


# ---------------------------------------------------------------- the tables


@pytest.mark.parametrize("change", [
    {"suits": "CDH"}, {"suits": "CDHC"}, {"red_suits": "D"}, {"ranks": "A23456789TJQA"},
    {"freecell_names": "ab1d"}, {"home": "a"}, {"single": " "}, {"columns": 10},
    {"deck": "ACAD"}, {"deck": "AC" * 52}, {"shift": 40}, {"mask": 2 ** 33},
    {"suits": "CDH\u00e9"}, {"extra": 1},
])
def test_tables_of_another_shape_are_refused(change) -> None:
    tables = accel.tables()
    assert tables is not None
    try:
        with pytest.raises(ValueError):
            SPEEDUPS.configure(**{**tables, **change})
    finally:
        SPEEDUPS.configure(**tables)


def test_the_check_is_off_in_pure_python() -> None:
    code = ("from lcnotation.freecell import accel; print(accel.clean_check() is None)")
    for env, off in (({"LCNOTATION_PURE_PYTHON": "1"}, "True"), ({}, "False")):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env={**os.environ, "LCNOTATION_PURE_PYTHON": "",
                                               **env})
        assert done.stdout.strip() == off


# ---------------------------------------------------------------- the command


def lcn(args: List[str], pure: bool, cwd: Path) -> Tuple[int, str, str]:
    env = {**os.environ, "LCNOTATION_PURE_PYTHON": "1" if pure else ""}
    done = subprocess.run([sys.executable, "-m", "lcnotation", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("form", ["text", "json", "github", "sarif"])
def test_the_command_prints_the_same_bytes_with_and_without_it(form: str, tmp_path) -> None:
    text = SOLVED[0].read_text("utf-8")
    number, moves = moves_of(text)
    files = {"won.txt": text, "won2.txt": SOLVED[-1].read_text("utf-8"),
             "not-won.txt": canonical(number, moves[:-3]),
             "illegal.txt": canonical(number, [" 1h"] + moves),
             "crlf.txt": text.replace("\n", "\r\n"),
             "layout.txt": text.replace("JD", "QQ", 1),
             "\x1bodd name.txt": text}
    for name, body in files.items():
        (tmp_path / name).write_bytes(body.encode("utf-8"))
    args = ["freecell", "check", "--format", form, *files, "missing.txt", "won.txt"]
    compiled = lcn(args, False, tmp_path)
    assert compiled == lcn(args, True, tmp_path)
    assert compiled[0] == 2
    if form == "text":
        assert "won.txt: won (" in compiled[1] and "illegal.txt: illegal" in compiled[1]


def test_the_c_functions_refuse_what_is_not_one_text() -> None:
    for call in (lambda: CHECK(b"Game #1\n"), lambda: SPEEDUPS.replay(),  # type: ignore
                 lambda: SPEEDUPS.check("a", "b")):
        with pytest.raises(TypeError):
            call()
    # Before configure(), in a fresh process: an error, never an answer.
    done = subprocess.run([sys.executable, "-c", "from lcnotation.freecell import _speedups\n"
                           "try:\n    _speedups.check('Game #1\\n')\n"
                           "except RuntimeError as exc:\n    print(exc)"],
                          capture_output=True, text=True, check=True)
    assert "configure() was not called" in done.stdout


def test_the_c_code_reads_a_move_where_the_grammar_has_one() -> None:
    # The grammar's MOVE terminal is a product of three classes, and so is
    # what the C code reads (its tables): each place is tried with every
    # printable character, the other two standing for a move.
    move = re.compile(grammar_terminals(grammar_text(GRAMMAR_FILE))["MOVE"])
    start = canonical(moves_of(SOLVED[0].read_text("utf-8"))[0], [])
    for place in range(3):
        for char in map(chr, range(32, 127)):
            written = " 5a"[:place] + char + " 5a"[place + 1:]
            read = SPEEDUPS.replay(start + written + "\n") is not None
            assert read == bool(move.fullmatch(written)), repr(written)
