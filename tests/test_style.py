"""The style rules' shortcuts against the full checks.

Each style rule says when it can fire (``StyleRule.can_fire``), so that most
games skip its check; it must only ever say no when the check would find
nothing, and a rule that does not say is always run.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lcnotation.lostcities import style
from lcnotation.lostcities.text.reader import parse_game
from lcnotation.lostcities.style import StyleState, check_style
from strategies import examples, written_games


def findings(text: str, shortcut: bool, marker, colors) -> list:
    state = StyleState(marker=marker, default_colors=colors)
    if shortcut:
        return check_style(parse_game(text), text, 0, state)
    saved = [rule.can_fire for rule in style.STYLE_RULES]
    for rule in style.STYLE_RULES:
        rule.can_fire = lambda g: True  # type: ignore[method-assign]
    try:
        return check_style(parse_game(text), text, 0, state)
    finally:
        for rule, can_fire in zip(style.STYLE_RULES, saved):
            rule.can_fire = can_fire  # type: ignore[method-assign]


def renumbered(text: str, which: int, by: int) -> str:
    """The text with its ``which``-th move number moved by ``by``."""
    numbers = list(re.finditer(r"(?<![0-9])([0-9]+)\.", text))
    if not numbers:
        return text
    m = numbers[which % len(numbers)]
    return text[:m.start(1)] + str(max(1, int(m.group(1)) + by)) + text[m.end(1):]


@examples(200)
@given(written_games(max_moves=10), st.integers(0, 9), st.sampled_from([0, 1, -1, 5]),
       st.sampled_from([None, "D", "X"]),
       st.sampled_from([("R", "G", "W", "B", "Y"), tuple("ABCEFGIJKLMNOPQRSTUVWYZ")]))
def test_the_shortcut_finds_what_the_full_checks_find(written, which, by, marker, colors):
    _, text = written
    text = renumbered(text, which, by)
    assert findings(text, True, marker, colors) == findings(text, False, marker, colors)


@pytest.mark.parametrize("text, codes", [
    ("1. R3-D 2. G4-D 3. B5-D", []),
    ("R3-D G4-D B5-D", []),
    ("1. R3-D 3. G4-D 3. B5-D", ["S103"]),
    ("1. R3-D G4-D 3. B5-D", []),
    ("1. R3-D 2. G4-D 2. B5-D", ["S103"]),
    ("2. R3-D 3. G4-D", ["S103", "S103"]),
])
def test_move_numbers_are_checked_with_or_without_the_shortcut(text, codes):
    for shortcut in (True, False):
        found = findings(text, shortcut, None, ("R", "G", "W", "B", "Y"))
        assert [f.diagnostic.code for f in found] == codes


class _Everywhere(style.StyleRule):
    """A rule added to the list, saying nothing of when it can fire."""

    codes = ("S199",)

    def check(self, g, findings):
        findings.append(style.Finding(style.Diagnostic("S199", "seen", g.game.moves[0].span)))


def test_a_new_rule_fires_on_plainly_clean_games(monkeypatch):
    # Before the rules said when they fire, one shortcut for every per-move check
    # skipped plainly clean games, and a new check never ran on them.
    monkeypatch.setattr(style, "STYLE_RULES", [*style.STYLE_RULES, _Everywhere()])
    found = check_style(parse_game("1. R3-D 2. G4-D"), "1. R3-D 2. G4-D", 0, StyleState())
    assert [f.diagnostic.code for f in found] == ["S199"]


@pytest.mark.parametrize("text", [" 1.aH-D", "1. r3-d 2. k4-d", "1. R3-D 2. K4-d"])
def test_a_lower_case_colour_outside_the_defaults_is_still_seen(text):
    # Hypothesis found it: the colour rule looked for capitals only.
    colors = ("R", "G", "W", "B", "Y")
    found = findings(text, True, None, colors)
    assert found == findings(text, False, None, colors)
    assert "S104" in [f.diagnostic.code for f in found] or "k" not in text.lower()
