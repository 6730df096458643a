"""The package type-checks under ``mypy --strict`` and ``pyright`` (both pinned
in the test extra), and so does a user's script that reads a position without
a None check (positions of nodes read from text are always there; see
lcnotation/core/span.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Tuple

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow  # each checks the whole package

USER_SCRIPT = textwrap.dedent("""
    from lcnotation import parse_game, parse_move

    line: int = parse_move("R3-D").span.line
    column: int = parse_move("R3-D").card_span.column
    first: int = parse_game("1. R3-D").moves[0].draw_span.end_column
    sorted_cards = sorted(m.card for m in parse_game("R3-D B4-D").moves)

    import io
    from typing import List
    from lcnotation.archive import (BaseVisitor, StatsAccumulator, game_digest,
                                    game_stats, scan, visit)
    from lcnotation import Move

    class Wagers(BaseVisitor[int]):
        def __init__(self) -> None:
            self.count = 0
        def visit_move(self, move: Move) -> None:
            self.count += move.card.is_handshake
        def result(self) -> int:
            return self.count

    data = io.BytesIO(b'[Round "1"]\\nRH-D\\n')
    offsets: List[int] = [e.offset for e in scan(data)]
    wagers: List[int] = list(visit(io.BytesIO(b"RH-D"), Wagers))
    digest: str = game_digest(parse_game("R3-D"))
    total: StatsAccumulator = StatsAccumulator().combine(StatsAccumulator())
    total.add(game_stats(parse_game("R3-D")))
    rate: object = total.summary()["first_mover"]
""")


def _scripts(tmp_path: Path) -> Tuple[Path, Path]:
    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT)
    # The check can fail: a span is a Span, not a str.
    wrong = tmp_path / "wrong.py"
    wrong.write_text('from lcnotation import parse_move\nx: str = parse_move("R3-D").span\n')
    return script, wrong


def test_the_package_and_a_user_script_pass_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    script, wrong = _scripts(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"),
         str(ROOT / "lcnotation"), str(script), str(wrong)],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, done.stdout + done.stderr
    assert errors[0].startswith(str(wrong)) and "Incompatible types in assignment" in errors[0]


def test_the_package_and_a_user_script_pass_pyright(tmp_path: Path) -> None:
    pytest.importorskip("pyright")
    script, wrong = _scripts(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pyright", "--outputjson", str(ROOT / "lcnotation"),
         str(script), str(wrong)],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    report = json.loads(done.stdout[done.stdout.index("{"):])
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert len(errors) == 1, json.dumps(errors, indent=1)
    assert errors[0]["file"] == str(wrong) and errors[0]["range"]["start"]["line"] == 1
