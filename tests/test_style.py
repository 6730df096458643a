"""The style checks' shortcut for plainly clean games against the full checks.

``style._plainly_clean`` lets most games skip the per-move style checks; it
must only ever say so when those checks would find nothing.
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
    saved = style._plainly_clean
    style._plainly_clean = lambda *args: False
    try:
        return check_style(parse_game(text), text, 0, state)
    finally:
        style._plainly_clean = saved


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
