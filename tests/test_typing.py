"""The text layer type-checks under ``mypy --strict``, and so does a user's
script that reads a position without a None check (positions of nodes read
from text are always there; see lcnotation/text/span.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

USER_SCRIPT = textwrap.dedent("""
    from lcnotation import parse_game, parse_move

    line: int = parse_move("R3-D").span.line
    column: int = parse_move("R3-D").card_span.column
    first: int = parse_game("1. R3-D").moves[0].draw_span.end_column
    sorted_cards = sorted(m.card for m in parse_game("R3-D B4-D").moves)
""")


def test_the_text_layer_and_a_user_script_pass_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT)
    # The check can fail: a span is a Span, not a str.
    wrong = tmp_path / "wrong.py"
    wrong.write_text('from lcnotation import parse_move\nx: str = parse_move("R3-D").span\n')
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
         "--cache-dir", str(tmp_path / "cache"), str(ROOT / "lcnotation" / "text"),
         str(script), str(wrong)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, done.stdout + done.stderr
    assert errors[0].startswith(str(wrong)) and "Incompatible types in assignment" in errors[0]
