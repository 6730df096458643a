"""Bad input for the feature commands (render, view, import, export, freecell)
and their libraries: the promises of spec/guarantees.md held for them too."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable, Iterator

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


FC_SOLVE_DAMAGE = {
    "stack 99": "Move a card from stack 99 to freecell 1\n",
    "freecell 7": "Move a card from freecell 7 to the foundations\n",
    "a long stack": "Move a card from stack " + "9" * 5000 + " to freecell 1\n",
    "a long run": "Move " + "9" * 5000 + " cards from stack 1 to stack 2\n",
    "no cards": "Move 0 cards from stack 1 to stack 2\n",
    "unicode digits": "Move a card from stack \u0661 to freecell 1\n",
    "a long count": "12v" + "f" * 5000 + "\n",
    "a bad home": "Foundations: H-Z C-0 D-0 S-0\n1a\n",
}


@pytest.mark.parametrize("name", sorted(FC_SOLVE_DAMAGE))
def test_fc_solve_import_of_damaged_output(name: str, lcn: Callable[..., Ran],
                                           tmp_path: Path) -> None:
    from lcnotation.freecell import import_fc_solve
    from lcnotation.core.diagnostics import NotationError

    text = FC_SOLVE_DAMAGE[name]
    with pytest.raises(NotationError) as caught:  # and nothing else
        import_fc_solve(text, 1)
    assert caught.value.line == 1 and caught.value.code in ("F401", "F402")
    path = tmp_path / "solution.txt"
    path.write_text(text, encoding="utf-8")
    ran = lcn("freecell", "import", "--from", "fc-solve", str(path), "--deal", "1")
    assert ran.status == 1 and ran.out == ""
    assert re.match(f"lcn: {re.escape(str(path))}:1:[0-9]+: F40[12] ", ran.err)
    assert ran.err.count("\n") == 1
    assert len(ran.err) < 300


def test_render_and_view_take_the_colours_of_the_files_own_configuration(
        lcn: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As lcn lint does: the nearest [tool.lcnotation] above the file, not the
    working folder (main crashed here with a NameError after the merge of the
    per-file configuration)."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.lcnotation]\ncolors = "RGWBYK"\n', "utf-8")
    record = project / "six.lcn"
    record.write_text("K5D-D R3-K\n", "utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert lcn("lint", str(record)).status == 0  # K is a colour of the game
    ran = lcn("render", str(record))
    assert ran.status == 0 and 'data-slot="e0K"' in ran.out, ran.err
    ran = lcn("view", str(record))
    assert ran.status == 0 and '"dK"' in ran.out, ran.err


CHIKINN = ROOT / "tests" / "data" / "formats" / "chikinn" / "chikinn-seed01-kenny-committer.txt"


@pytest.mark.parametrize("where", ["round", "score"])
def test_a_chikinn_transcript_with_a_number_too_long(where: str, lcn: Callable[..., Ran],
                                                     tmp_path: Path) -> None:
    from lcnotation.formats import import_games
    from lcnotation.core.diagnostics import NotationError

    text = CHIKINN.read_text(encoding="utf-8")
    big = "9" * 5000
    text = (text.replace("ROUND 0:", f"ROUND {big}:", 1) if where == "round"
            else re.sub(r"Player 0 scores -?[0-9]+", f"Player 0 scores {big}", text, count=1))
    line = next(i for i, t in enumerate(text.splitlines(), 1) if big in t)
    with pytest.raises(NotationError) as caught:  # not ValueError
        import_games(text, "chikinn")
    assert caught.value.line == line
    path = tmp_path / "round.txt"
    path.write_text(text, encoding="utf-8")
    for argv in (["import", str(path)], ["import", "--from", "chikinn", str(path)],
                 ["lint", "--from", "chikinn", str(path)],
                 ["score", "--from", "chikinn", str(path)]):
        ran = lcn(*argv)
        assert ran.status in (1, 2), argv
        # (lcn lint says "FILE: cannot read: LINE:COLUMN: ..." for every unreadable file)
        assert re.search(f"{re.escape(str(path))}(: cannot read: |:){line}:[0-9]+: ",
                         ran.err + ran.out), argv
        assert len(ran.err) < 400, argv


@pytest.mark.parametrize("number", ["1_000", " 1", "\u0661", "+1", "9" * 5000, "-1",
                                    str(2 ** 33)])
def test_lcn_freecell_deal_takes_plain_numbers_only(number: str, lcn: Callable[..., Ran]
                                                    ) -> None:
    ran = lcn("freecell", "deal", number)
    assert ran.status == 2 and ran.out == ""
    assert ran.err.count("\n") == 1 and len(ran.err) < 200
    ran = lcn("freecell", "import", "--from", "fc-solve", "-", "--deal", number)
    assert ran.status == 2 and ran.out == "" and len(ran.err) < 200


def test_a_freecell_deal_number_too_long_is_said_in_words() -> None:
    from lcnotation import freecell

    record = freecell.parse("Game #" + "9" * 5000 + "\n")
    messages = [d.message for d in record.errors if d.code == "F103"]
    assert messages == ["a deal number of 5,000 digits does not exist: standard deals are "
                        "numbered below 2**33 (8589934592)"]


@pytest.mark.parametrize("option", ["--game", "--move"])
def test_lcn_render_of_a_game_or_move_far_past_the_end(option: str, lcn: Callable[..., Ran]
                                                       ) -> None:
    ran = lcn("render", str(MATCH), option, "9" * 4000)
    assert ran.status == 2 and ran.out == ""
    assert ran.err.count("\n") == 1 and len(ran.err) < 200, ran.err


FC_DEAL = ROOT / "tests" / "data" / "freecell" / "deal-1.txt"
METAPYZIKS = ROOT / "tests" / "data" / "formats" / "metapyziks" / "replay-v3.txt"


def feature_runs(record: str, transcript: str, solution: str) -> "list[list[str]]":
    """A run of each feature command and output format on the given inputs."""
    return [["render", record], ["view", record], ["export", "--to", "metapyziks", record],
            ["import", transcript], ["import", "--from", "metapyziks", transcript],
            ["freecell", "check", solution], ["freecell", "check", "--format", "json",
                                               solution],
            ["freecell", "check", "--format", "sarif", solution],
            ["freecell", "fmt", "--check", solution],
            ["freecell", "import", "--from", "fc-solve", solution, "--deal", "1"]]


UNREADABLE = {"missing": None, "folder": "", "not UTF-8": b"R3-D\n\xff\xfe\n",
              "binary": bytes(range(256)) * 4}


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
def test_feature_commands_on_unreadable_input(kind: str, lcn: Callable[..., Ran],
                                              tmp_path: Path) -> None:
    """Exit 2, one line naming the file (with the line and column of the first
    byte that is not UTF-8), nothing on standard output."""
    path = tmp_path / "input.txt"
    content = UNREADABLE[kind]
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content == "":
        path.mkdir()
    for argv in feature_runs(str(path), str(path), str(path)):
        ran = lcn(*argv)
        assert ran.status == 2, argv
        lines = ran.err.splitlines()
        assert lines[0].startswith(f"lcn: {path}") and "cannot read" in lines[0], argv
        if kind == "not UTF-8":
            assert lines[0].startswith(f"lcn: {path}:2:1: "), argv
        # (check --format json and sarif still write their document, with no file in it)
        assert ran.out == "" or argv[2:4] == ["--format", argv[3]], argv


def test_feature_commands_on_a_full_standard_output(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import io
    import os
    import sys

    from lcnotation.cli import main

    class FullDisk(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def write(self, data: object) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    solution = ROOT / "tests" / "data" / "freecell" / "fc-solve-1.snx.txt"
    failures = []
    runs = [argv for argv in feature_runs(str(MATCH), str(METAPYZIKS), str(FC_DEAL))
            if argv[:2] != ["freecell", "fmt"] and argv[:2] != ["freecell", "import"]]
    for argv in runs + [["freecell", "deal", "1"], ["freecell", "fmt", "-"],
                        ["freecell", "import", "--from", "fc-solve", str(solution),
                         "--deal", "1"]]:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(FC_DEAL.read_bytes())))
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(FullDisk()),
                                                            encoding="utf-8"))
        try:
            status = main(argv)
        except OSError:
            status = -1
        err = capsys.readouterr().err
        if status != 2 or err.count("\n") != 1:
            failures.append(argv)
    assert not failures


def test_feature_commands_on_input_too_large_for_memory(lcn: Callable[..., Ran],
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    from lcnotation.cli import common

    def too_large(data: bytes) -> None:
        raise MemoryError()

    monkeypatch.setattr(common, "decode_source", too_large)
    failures = []
    for argv in feature_runs(str(MATCH), str(METAPYZIKS), str(FC_DEAL)):
        stdin = b""
        if argv[0] in ("render", "view"):
            # They read a regular file game by game (below): standard input whole.
            argv, stdin = [argv[0], "-"], MATCH.read_bytes()
        try:
            ran = lcn(*argv, stdin=stdin)
        except MemoryError:
            failures.append(argv)
            continue
        if ran.status != 2 or "cannot read" not in ran.err:
            failures.append(argv)
    assert not failures


@pytest.mark.parametrize("command", ["render", "view"])
def test_render_and_view_of_a_game_too_large_for_memory(command: str, lcn: Callable[..., Ran],
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    from lcnotation.archive import reader

    def too_large(*args: object, **kwargs: object) -> Iterator[object]:
        raise MemoryError()
        yield  # a generator, as scan is

    monkeypatch.setattr(reader, "scan", too_large)
    ran = lcn(command, str(MATCH))
    assert ran.status == 2 and ran.err == f"lcn: {MATCH}: cannot read: out of memory\n"


def test_feature_commands_writing_where_they_cannot(lcn: Callable[..., Ran], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    pictures = tmp_path / "pictures.svg"  # lcn render writes what the extension names
    pictures.mkdir()
    for target in (tmp_path / "missing" / "out", folder, Path("/dev/full")):
        for argv in (["render", str(MATCH)], ["view", str(MATCH)], ["import", str(METAPYZIKS)],
                     ["export", "--to", "metapyziks", str(MATCH)]):
            written = target
            if argv[0] == "import" and target == folder:
                continue  # a folder to write NAME.lcn into (below)
            if argv[0] == "render":
                if target == Path("/dev/full"):
                    continue  # not a picture's name: refused before any writing
                written = pictures if target == folder else target.with_suffix(".svg")
            ran = lcn(*argv, "-o", str(written))
            assert ran.status == 2 and ran.out == "", (argv, written)
            assert ran.err == f"lcn: {written}: cannot write: {ran.err.split(': ')[-1]}"
    assert list(folder.iterdir()) == [] and not (tmp_path / "missing").exists()
    assert list(pictures.iterdir()) == []
    # lcn import writes into a folder, as lcn convert does (one NAME.lcn per input).
    ran = lcn("import", str(METAPYZIKS), "-o", str(folder))
    assert ran.status == 0 and [p.name for p in folder.iterdir()] == [
        METAPYZIKS.stem + ".lcn"]
    cairosvg = pytest.importorskip("cairosvg")
    kept = tmp_path / "kept.png"
    kept.write_bytes(b"the old picture")

    def fails(**_: object) -> bytes:
        raise ValueError("cannot draw")

    monkeypatch.setattr(cairosvg, "svg2png", fails)
    ran = lcn("render", str(MATCH), "-o", str(kept))
    assert ran.status == 2 and kept.read_bytes() == b"the old picture"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("argv", [["render"], ["view"], ["export", "--to", "metapyziks"],
                                  ["import", "--from", "metapyziks"]], ids=" ".join)
def test_an_output_over_the_input_is_refused(argv: "list[str]", lcn: Callable[..., Ran],
                                             tmp_path: Path) -> None:
    """-o naming the file read would replace the record with a picture, a page
    or another format: refused, the record kept."""
    source = METAPYZIKS if argv[0] == "import" else MATCH
    record = tmp_path / "record.txt"
    record.write_bytes(source.read_bytes())
    link = tmp_path / "link.txt"
    link.symlink_to(record)
    for output in (record, link, tmp_path / "." / "record.txt"):
        ran = lcn(*argv, str(record), "-o", str(output))
        assert ran.status == 2 and ran.out == "", output
        assert ran.err.count("\n") == 1 and "input" in ran.err
        assert record.read_bytes() == source.read_bytes()


# ---------------------------------------------------------------- any text


def _seeds() -> "list[str]":
    data = ROOT / "tests" / "data"
    return [p.read_text(encoding="utf-8") for p in sorted(
        [*(data / "formats" / "chikinn").glob("*.txt")][:1]
        + [data / "formats" / "metapyziks" / "replay-v3.txt"]
        + sorted((data / "freecell").glob("*.txt")))] + [
        # fc-solve -m without -sn: its moves in words
        "Move a card from stack 3 to freecell 0\nMove 3 cards from stack 1 to stack 7\n"
        "Move a card from freecell 0 to the foundations\n"]


_PIECES = ["9" * 5000, "99", "8", "0", "\x00", "\x1b[2J", "\u0661", "\r", "\n", " ", "-", ":", "#", "v",
           "Move ", " cards from stack ", " to freecell ", "ROUND ", "Player 0 scores ",
           "Foundations: H-", "Freecells:", '"Replay": "', "\\u002B", "=", "Game #"]


def test_the_feature_readers_raise_only_notation_errors_on_any_text() -> None:
    """Damaged inputs of every feature reader (other programs' records, fc-solve's
    output, FreeCell records): a NotationError or a result, nothing else."""
    from hypothesis import given, settings, strategies as st

    from lcnotation import freecell
    from lcnotation.formats import FORMATS, import_games
    from lcnotation.core.diagnostics import NotationError

    seeds = _seeds()

    @settings(max_examples=60, deadline=None)
    @given(st.sampled_from(seeds), st.lists(st.tuples(
        st.integers(0, 10 ** 6), st.integers(0, 40),
        st.one_of(st.sampled_from(_PIECES), st.text(max_size=8))), max_size=4))
    def damaged(seed: str, edits: "list[tuple[int, int, str]]") -> None:
        text = seed
        for at, cut, piece in edits:
            at %= len(text) + 1
            text = text[:at] + piece + text[at + cut:]
        for fmt in [None, *sorted(f for f in FORMATS if FORMATS[f].read is not None)]:
            try:
                import_games(text, fmt)
            except NotationError:
                pass
        for translated in [f for f in FORMATS.values() if f.translate is not None]:
            try:
                translated.translate(text, {"deal": 1})
            except NotationError:
                pass
        for number in (None, 1):
            try:
                freecell.import_fc_solve(text, number)
            except NotationError:
                pass
        record = freecell.parse(text)
        freecell.check(record)
        if not record.errors:
            freecell.format(record)

    damaged()


def test_fc_solve_moves_in_words_with_any_numbers() -> None:
    """fc-solve's sentences with any stack, freecell and card counts: a
    solution imported or a NotationError, nothing else."""
    from hypothesis import given, settings, strategies as st

    from lcnotation.freecell import import_fc_solve
    from lcnotation.core.diagnostics import NotationError

    number = st.one_of(st.integers(0, 15).map(str), st.just("9" * 5000), st.just("007"))
    sentence = st.one_of(
        st.builds("Move a card from stack {} to freecell {}".format, number, number),
        st.builds("Move a card from freecell {} to stack {}".format, number, number),
        st.builds("Move a card from stack {} to the foundations".format, number),
        st.builds("Move {} cards from stack {} to stack {}".format, number, number, number))

    @settings(max_examples=80, deadline=None)
    @given(st.lists(sentence, min_size=1, max_size=6))
    def imported(lines: "list[str]") -> None:
        try:
            import_fc_solve("\n".join(lines) + "\n", 1)
        except NotationError:
            pass

    imported()
