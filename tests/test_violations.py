"""Violations: the rules broken as data (lcnotation/lostcities/game/violations.py), worded once."""

from __future__ import annotations

import pickle

import pytest

from lcnotation.lostcities.game import violations as v
from lcnotation.lostcities.game.checker import check
from lcnotation.lostcities.game.state import GameState
from lcnotation.lostcities.text.ast import Card
from lcnotation.lostcities.text.reader import parse_game, parse_move
from lcnotation.core.span import NO_SPAN

KINDS = [k for k in vars(v).values()
         if isinstance(k, type) and issubclass(k, v.Violation) and k is not v.Violation]


def test_every_rule_code_has_a_kind_and_every_kind_a_code() -> None:
    assert sorted({k.code for k in KINDS}) == sorted(v.RULE_CODES)
    assert sorted(k.__name__ for k in KINDS) == sorted(
        name for name in v.__all__ if name in {k.__name__ for k in KINDS})


def test_a_violation_is_a_value() -> None:
    a = v.NotHigher(NO_SPAN, 2, "North", Card("R", 4), 7)
    b = v.NotHigher(NO_SPAN, 2, "North", Card("R", 4), 7)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != v.NotHigher(NO_SPAN, 2, "North", Card("R", 4), 8)
    assert a != v.DrawBack(NO_SPAN, 2, "North", Card("R", 4))
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError, match="read-only"):
        a.last = 3
    moved = a.at(parse_move("R4-B").span)
    assert moved.span.known and moved.last == 7 and not a.span.known
    assert repr(a) == ("NotHigher(span=Span(line=0, column=0, end_line=0, end_column=0, "
                       "start=0, end=0), turn=2, player='North', "
                       "card=Card(color='R', rank=4), last=7)")


def test_the_model_reports_facts_and_the_checker_words_them() -> None:
    game = parse_game('[Player1 "North"]\n[Player2 "South"]\nR7-D BHD-D R4-B')
    state = GameState.from_game(game)
    found = state.play(game.moves)
    assert found == [v.NotHigher(game.moves[2].span, 2, "North", Card("R", 4), 7)]
    d = check(game).diagnostics[0]
    assert (d.code, d.message, d.span, d.turn, d.severity) == (
        "R101", found[0].message, found[0].span, 2, v.RULE_CODES["R101"][0])


def test_a_clean_record_never_loads_the_wording() -> None:
    # The violation kinds cost their creation at import: only a violation pays it.
    import subprocess
    import sys

    code = ("import sys, lcnotation as l; g = l.generate_game(seed=3, deal=True); "
            "r = l.check(g); print(r.ok, 'lcnotation.lostcities.game.violations' in sys.modules); "
            "l.check(l.parse_game('R7-D BHD-D R4-B')); "
            "print('lcnotation.lostcities.game.violations' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "False", "True"]


# What an editor shows over a move (issue 24, defect 3): the reason the state
# is uncertain is the one that holds.

UNREADABLE_NOTE = "could not be read"


def test_hover_after_a_broken_rule_names_the_rule_not_unreadable_turns() -> None:
    from lcnotation.lostcities.describe import describe_move

    game = parse_game("1. R7-D 2. B4-D 3. R4-D 4. G3-D")
    rule = v.NotHigher(NO_SPAN, 2, "Player 1", Card("R", 4), 7).message
    this = describe_move(game, 2)
    assert UNREADABLE_NOTE not in this
    assert f"This move breaks rule R101: {rule}." in this
    assert "best-effort" in this
    later = describe_move(game, 3)
    assert UNREADABLE_NOTE not in later
    assert "Move 3 broke rule R101" in later and "best-effort" in later
    assert "best-effort" not in describe_move(game, 1)  # before it, all is known


def test_hover_after_an_unreadable_turn_says_so() -> None:
    from lcnotation.lostcities.describe import describe_move

    game = parse_game("1. R7-D 2. B44-D 3. R8-D")
    assert [e.code for e in game.errors] == ["N103"]
    shown = describe_move(game, 1)
    assert "Move 2 could not be read" in shown and "rule" not in shown
