"""Everyday workflows (issue #11): lint, fmt and fix agree with each other.

Each test of a defect failed on the code before its fix.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from lcnotation.game.generator import generate_games
from lcnotation.text.formatter import format_games
from lcnotation.tools.lint import LintConfig, fix_text, lint_text
from lcnotation.tools.style import Edit, Fix, apply_fixes

ROOT = Path(__file__).resolve().parent.parent
MISTAKES = (ROOT / "examples" / "mistakes.lcn").read_text("utf-8")
GAMES = format_games(generate_games(3, seed=3))


def _mangled(text: str, seed: int, marker: str = "") -> str:
    """``text`` with moves in random letter case (and, with ``marker``, every
    discard written with that marker)."""
    rng = random.Random(seed)

    def move(m: "re.Match[str]") -> str:
        written = m.group()
        if marker and re.fullmatch(r"[A-Z](?:10|[2-9H])[DX]-[A-Z]", written, re.I):
            written = written[:-3] + marker + written[-2:]
        return "".join(c.lower() if rng.random() < 0.5 else c for c in written)

    return re.sub(r"(?m)(?<=\. )[A-Za-z0-9]+-[A-Za-z]", move, text)


# Defect 1: --fix was quadratic in the number of fixes.

def _reference_apply(text: str, fixes: list) -> tuple:
    """The old, quadratic apply_fixes: the meaning the fast one must keep."""
    edits, taken, applied = [], [], 0
    for fix in sorted(fixes, key=lambda f: min(e.start for e in f.edits)):
        if any(e.start < end and start < e.end or e.start == start
               for e in fix.edits for start, end in taken):
            continue
        for e in fix.edits:
            taken.append((e.start, e.end))
            edits.append((e.start, e.end, e.replacement))
        applied += 1
    out, pos = [], 0
    for start, end, replacement in sorted(edits):
        out.append(text[pos:start] + replacement)
        pos = end
    return "".join(out) + text[pos:], applied


_edits = st.tuples(st.integers(0, 30), st.integers(0, 4), st.text("xyz", max_size=3)).map(
    lambda t: Edit(t[0], t[0] + t[1], t[2]))
_fixes = st.lists(st.lists(_edits, min_size=1, max_size=3).map(
    lambda es: Fix("f", tuple(es))), max_size=12)


@settings(max_examples=200, deadline=None)
@given(_fixes)
def test_apply_fixes_skips_overlaps_as_before(fixes):
    text = "abcdefghijklmnopqrstuvwxyz0123456789"
    assert apply_fixes(text, fixes) == _reference_apply(text, fixes)


def test_fix_of_a_large_lower_case_file_is_complete():
    text = format_games(generate_games(40, seed=3), "lower")
    fixed, applied, report = fix_text(text)
    assert fixed == format_games(generate_games(40, seed=3))
    assert applied > 2000 and not [d for d in report.diagnostics if d.code.startswith("S")]
