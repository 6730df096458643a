"""Bad input for the feature commands (render, view, import, export, freecell)
and their libraries: the promises of spec/guarantees.md held for them too."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

import pytest

from lcnotation import GameState, parse_game
from lcnotation.svg import board_svg
from running import Ran, in_process

ROOT = Path(__file__).resolve().parent.parent
MATCH = ROOT / "examples" / "match.lcn"
#: Characters a record may hold that no XML document may (or that drive a terminal).
HOSTILE = "\x01\x1b[2J\x0b\x9b31m\uffff"


@pytest.fixture
def lcn(capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> Callable[..., Ran]:
    return in_process(capsys, monkeypatch)


def hostile_record(tmp_path: Path) -> Path:
    text = MATCH.read_text(encoding="utf-8").replace('"North"', f'"No{HOSTILE}rth"', 1)
    path = tmp_path / "hostile.lcn"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_picture_is_well_formed_xml_whatever_the_players_are_called() -> None:
    game = parse_game(f'[Player1 "A{HOSTILE}<&>"]\n[Player2 "B\x00"]\nR7-D BHD-D')
    state = GameState.from_game(game)
    state.play(game.moves)
    svg = board_svg(state, last_move=game.moves[-1])
    root = ET.fromstring(svg)  # raised "not well-formed" for the control characters
    texts = "".join(root.itertext())
    assert "A\\x01\\x1b[2J" in texts and "<&>" in texts  # shown, escaped
    assert not any(c in svg for c in "\x00\x01\x1b\x0b\x9b\uffff")


def test_lcn_render_png_of_hostile_names(lcn: Callable[..., Ran], tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    out = tmp_path / "board.png"
    ran = lcn("render", str(hostile_record(tmp_path)), "-o", str(out))
    assert ran.status == 0, ran.err
    assert out.read_bytes().startswith(b"\x89PNG")


CONTROLS = [chr(c) for c in [*range(0, 9), *range(11, 32), *range(0x7F, 0xA0)]]


def test_lcn_view_puts_nothing_raw_on_a_terminal(lcn: Callable[..., Ran], tmp_path: Path
                                                 ) -> None:
    record = hostile_record(tmp_path)
    text = record.read_text(encoding="utf-8").replace('[Event "Club night"]',
                                                      f'[Event "Club{HOSTILE}"]')
    named = tmp_path / "a\n::error file=x::\x1b]0;T\x07.lcn"
    named.write_text(text, encoding="utf-8")
    ran = lcn("view", str(named))
    assert ran.status == 0, ran.err
    assert not [c for c in CONTROLS if c in ran.out], "raw control characters in the page"
    assert "\n::error" not in ran.out
    assert "a\\n::error file=x::\\x1b]0;T\\x07.lcn" in ran.out  # the title, shown escaped


@pytest.mark.parametrize("size", ["1" + "0" * 400, "1" + "0" * 5000, "100001"])
def test_lcn_render_refuses_a_size_too_large(lcn: Callable[..., Ran], size: str) -> None:
    ran = lcn("render", str(MATCH), "--size", size)
    assert ran.status == 2 and ran.out == ""
    assert ran.err.count("\n") == 1 and "--size" in ran.err and len(ran.err) < 200


def test_lcn_render_png_that_cairo_cannot_draw(lcn: Callable[..., Ran], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    cairosvg = pytest.importorskip("cairosvg")

    def fails(**_: object) -> bytes:
        raise MemoryError()

    monkeypatch.setattr(cairosvg, "svg2png", fails)
    out = tmp_path / "board.png"
    ran = lcn("render", str(MATCH), "-o", str(out))
    assert ran.status == 2 and not out.exists()
    assert ran.err.startswith("lcn: ") and "PNG" in ran.err and ran.err.count("\n") == 1
