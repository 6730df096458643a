"""The compiled accelerator (lcnotation/lostcities/_speedups.c) changes no report.

Its check answers "clean" (with the moves, whether one discards, and the
final scores) or "look closer" for one game; these properties hold "clean"
to the pure-Python fused path (same verdict, same moves) and to the rules
checker's replay (same scores), over generated games, games mutated token by
token (deleted, swapped, doubled, recased tokens, stray and non-ASCII
characters, comments, huge numbers) and hostile text; and they lint whole
texts and files with and without it and compare every finding and every
byte of ``lcn lint``'s output.

The tests skip where the extension is not built (a machine without a
compiler), except under CI (``CI=true``), which has one: there they fail.
They use the extension even when ``LCNOTATION_PURE_PYTHON=1`` turns it off
for the rest of the suite.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lcnotation import format_game, format_games, generate_game, generate_games
from lcnotation.core.lint import LintConfig
from lcnotation.lostcities import accel
from lcnotation.lostcities.fused import clean_moves
from lcnotation.lostcities.game.state import GameState
from lcnotation.lostcities.lint import colors_of, lint_text, style_state
from lcnotation.lostcities.style import StyleState
from lcnotation.lostcities.text.reader import GameText, parse_game, split_games
from strategies import PIECES, notation_text, written_games
from test_fused import configs, everything, legal_files, legal_games, mutated
from tools import extension

ROOT = Path(__file__).resolve().parent.parent


SPEEDUPS = extension("lcnotation.lostcities._speedups", accel.tables(), "the C accelerator")

CHECK: Callable[[str, Tuple[str, ...]], Optional[accel.Verdict]] = SPEEDUPS.check

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture
def pure(monkeypatch):
    """The fused path without the accelerator, for the test's length."""
    monkeypatch.setattr(accel, "check", None)


@pytest.fixture
def accelerated(monkeypatch):
    monkeypatch.setattr(accel, "check", CHECK)


def pure_clean_moves(part: GameText, style: StyleState,
                     colors: Tuple[str, ...]) -> Optional[int]:
    saved = accel.check
    accel.check = None
    try:
        return clean_moves(part, style, colors)
    finally:
        accel.check = saved


def holds(text: str, colors: Tuple[str, ...]) -> int:
    """Each game of ``text`` the C check calls clean is clean to the Python
    path, with the same moves, discards and scores; how many it called clean."""
    called_clean = 0
    for part in split_games([text]):
        verdict = CHECK(part.text, colors)
        if verdict is None:
            continue
        called_clean += 1
        moves, discarded, first, second = verdict
        assert pure_clean_moves(part, StyleState(default_colors=colors), colors) == moves, \
            part.text
        game = parse_game(part.text)
        assert len(game.moves) == moves and not game.errors
        state = GameState.from_game(game) if any(h.name == "Colors" for h in game.headers) \
            else _state(game, colors)
        assert state.play(game.moves) == []
        assert state.scores().totals == (first, second)
        assert discarded == any(m.placement.discard for m in game.moves)
    return called_clean


def _state(game, colors: Tuple[str, ...]) -> GameState:
    from lcnotation.lostcities.game.setup import read_setup

    return GameState.from_setup(read_setup(game, colors))


colour_choices = st.sampled_from([("R", "G", "W", "B", "Y"), ("R", "G", "W", "B", "Y", "K"),
                                  ("A", "B", "C", "E", "F"), ("R",)])

#: What a token may be replaced by, or have put beside it.
STRAYS = ["x", "X", "d", "{c}", "; note", "{", "}", "[", "]", '"', "\\", ".", "-", "0.",
          "01.", "99999999999999999999.", "1" * 40, "\u00e9", "\u00a0", "\u2028", "\ufeff",
          "\x0b", "\x0c", "\r", "\x00", "\x85", "\t", "\n", "\n\n", "lcn: ignore", "R3-D",
          "R3D-R", "RH-D", "R10-D", "Q5-D", "D5-D", "H5-D", "R1-D", "R11-D", "R3-X",
          "R3-DD", "R3--D", "RHH-D", '[Event "x"]', '[event "x"]', '[Result "*"]',
          '[Result "0-0"]', '[Colors "RGWBY"]', '[Colors "RGWBYK"]', '[Hand1 "R3"]']


@st.composite
def token_mutants(draw) -> str:
    """A legal file with edits token by token: a token deleted, two swapped,
    one doubled, one's letter case changed, a stray piece put in or beside
    one, a number made huge, a header's value changed."""
    text = draw(legal_files())
    for _ in range(draw(st.integers(1, 3))):
        sep = draw(st.sampled_from([" ", "\n"]))
        tokens = text.split(sep)
        i = draw(st.integers(0, len(tokens) - 1))
        j = draw(st.integers(0, len(tokens) - 1))
        kind = draw(st.sampled_from(["delete", "swap", "double", "case", "stray", "beside",
                                     "huge", "digit", "value", "value"]))
        if kind == "value":
            # A character of a header's value replaced, put in or taken out.
            lines = text.split("\n")
            headers = [k for k, line in enumerate(lines)
                       if line.startswith("[") and line.count('"') >= 2]
            if headers:
                k = draw(st.sampled_from(headers))
                line = lines[k]
                a, b = line.index('"') + 1, line.rindex('"')
                at = draw(st.integers(a, b))
                cut = draw(st.integers(0, 1 if at < b else 0))
                lines[k] = line[:at] + draw(st.sampled_from(list("0123456789- *RGWBYKDh")
                                                            + ["", "  ", "R3 ", "\t"])) \
                    + line[at + cut:]
            text = "\n".join(lines)
            continue
        if kind == "delete":
            del tokens[i]
        elif kind == "swap":
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "double":
            tokens.insert(i, tokens[i])
        elif kind == "case":
            tokens[i] = tokens[i].swapcase() if draw(st.booleans()) else tokens[i].lower()
        elif kind == "stray":
            tokens[i] = draw(st.sampled_from(STRAYS))
        elif kind == "beside":
            at = draw(st.integers(0, len(tokens[i])))
            tokens[i] = tokens[i][:at] + draw(st.sampled_from(STRAYS)) + tokens[i][at:]
        elif kind == "huge":
            tokens[i] = tokens[i].replace(".", "9" * draw(st.sampled_from([3, 7, 30])) + ".", 1)
        else:
            digits = [k for k, c in enumerate(tokens[i]) if c.isdigit()]
            if digits:
                k = draw(st.sampled_from(digits))
                tokens[i] = tokens[i][:k] + draw(st.sampled_from("0123456789")) + tokens[i][k + 1:]
        text = sep.join(tokens)
    return text


hostile = st.lists(st.sampled_from(list("RGWBYKDHX0123456789-.[]\"{}; \t\n\r\u00e9\ufeff")
                                   + ["R3-D ", "1. ", "\n[Event \"x\"]\n", "BHD-D "]),
                   max_size=80).map("".join)

texts = st.one_of(legal_files(), token_mutants(), mutated(),
                  written_games(max_moves=12).map(lambda g: g[1]), notation_text, hostile)


@SETTINGS
@given(st.one_of(legal_files(), token_mutants(), token_mutants()), colour_choices)
def test_a_game_the_accelerator_calls_clean_is_clean_to_python(text: str,
                                                               colors: Tuple[str, ...]):
    holds(text, colors)


@SETTINGS
@given(texts, colour_choices)
def test_on_any_text_clean_means_clean(text: str, colors: Tuple[str, ...]):
    holds(text, colors)


@settings(max_examples=60, deadline=None)
@given(legal_games(), st.data())
def test_hostile_insertions(game, data: st.DataObject):
    text = format_game(game)
    insert = data.draw(st.sampled_from([
        "9" * 5000 + ". ", "R" * 10000, "{" * 200, "[" * 200, "\ufeff", "1.\nR3-D ",
        "R3-D " * 300, "1. " * 100, '[Colors "' + "RGWBYK" * 10 + '"]\n',
        '[Hand1 "' + "R3 " * 300 + '"]\n', "\u00e9" * 50, "\U0001f600", "\x00"]))
    at = data.draw(st.integers(0, len(text)))
    holds(text[:at] + insert + text[at:], ("R", "G", "W", "B", "Y"))


@SETTINGS
@given(texts, configs)
def test_lint_reports_the_same_with_and_without_the_accelerator(text: str,
                                                                 config: LintConfig):
    saved = accel.check
    try:
        accel.check = CHECK
        fast = everything(lint_text(text, "f.lcn", config))
        accel.check = None
        slow = everything(lint_text(text, "f.lcn", config))
    finally:
        accel.check = saved
    assert fast == slow


@SETTINGS
@given(texts, configs)
def test_the_style_state_moves_on_as_without_it(text: str, config: LintConfig):
    fast, slow = style_state(config), style_state(config)
    for part in split_games([text]):
        saved = accel.check
        try:
            accel.check = CHECK
            a = clean_moves(part, fast, colors_of(config))
            accel.check = None
            b = clean_moves(part, slow, colors_of(config))
        finally:
            accel.check = saved
        if a is not None:
            assert a == b
        assert fast == slow or a is None
        fast = dataclasses.replace(slow)


def test_generated_games_are_all_clean_to_the_accelerator():
    """Canonically written games are checked in C (else no speed)."""
    colors = ("R", "G", "W", "B", "Y")
    for deal in (True, False):
        text = format_games(list(generate_games(40, seed=11, deal=deal)))
        parts = list(split_games([text]))
        assert holds(text, colors) == len(parts) == 40


def neighbours(text: str, colors: str):
    """Every text one edit away from a canonically written game: each move
    with another colour, rank, discard or draw; two moves swapped; a move
    taken out; each card of the deal replaced by another; the result one
    point off."""
    import re

    lines = text.split("\n")
    moves = [i for i, line in enumerate(lines) if re.fullmatch(r"[0-9]+\. \S+", line)]
    ranks = ["H", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    outside = next(c for c in "QZAC" if c not in colors)
    for i in moves:
        number, move = lines[i].split(" ")
        for c in colors + outside:
            for r in ranks:
                for d in ("", "D"):
                    for source in "D" + colors:
                        edited = f"{c}{r}{d}-{source}"
                        if edited != move:
                            yield "\n".join(lines[:i] + [f"{number} {edited}"] + lines[i + 1:])
    for a, b in zip(moves, moves[1:]):
        swapped = list(lines)
        swapped[a] = lines[a].split(" ")[0] + " " + lines[b].split(" ")[1]
        swapped[b] = lines[b].split(" ")[0] + " " + lines[a].split(" ")[1]
        yield "\n".join(swapped)
    for i in moves:  # a move taken out (the numbers after it then skip)
        yield "\n".join(lines[:i] + lines[i + 1:])
    cards = [c + r for c in colors for r in ranks]
    for k, line in enumerate(lines):
        m = re.fullmatch(r'\[(Hand1|Hand2|Deck) "(.*)"\]', line)
        if m:
            dealt = m.group(2).split(" ")
            for j in range(len(dealt)):
                for card in cards:
                    if card != dealt[j]:
                        value = " ".join(dealt[:j] + [card] + dealt[j + 1:])
                        yield "\n".join(lines[:k] + [f'[{m.group(1)} "{value}"]'] + lines[k + 1:])
        m = re.fullmatch(r'\[Result "(-?[0-9]+)-(-?[0-9]+)"\]', line)
        if m:
            first, second = int(m.group(1)), int(m.group(2))
            for claimed in [(first + 1, second), (first - 1, second), (first, second + 1),
                            (first, second - 1), (second, first)]:
                yield "\n".join(lines[:k] + [f'[Result "{claimed[0]}-{claimed[1]}"]']
                                + lines[k + 1:])


@pytest.mark.parametrize("seed, colors, deal", [(1, "RGWBY", True), (2, "RGWBYK", True),
                                                (3, "RGWBY", False), (4, "RGWBYP", False)])
def test_every_neighbour_of_a_clean_game(seed: int, colors: str, deal: bool):
    """Every single edit of a clean game (another card, rank, marker or draw
    in any move; two moves swapped; a move dropped; a dealt card changed; the
    result off by one) that the C check calls clean is clean to Python."""
    text = format_game(generate_game(seed, colors=colors, deal=deal))
    assert CHECK(text, tuple(colors)) is not None
    called_clean = sum(holds(edited, tuple(colors)) for edited in neighbours(text, colors))
    assert called_clean > 0  # some edits are still legal games: the comparison ran


@pytest.mark.parametrize("colors", ["RGWB", "RGWBYKP"])
def test_a_colors_header_of_another_count_is_left_to_python(colors: str):
    """Four or seven colours replay cleanly, but the Colors header is R203."""
    for deal in (True, False):
        text = format_game(generate_game(7, colors=colors, deal=deal))
        assert f'[Colors "{colors}"]' in text
        assert CHECK(text, ("R", "G", "W", "B", "Y")) is None
        assert holds(text, ("R", "G", "W", "B", "Y")) == 0


def test_headers_the_check_leaves_to_python():
    """Deal and colour headers that are wrong, or right in a way the C check
    does not read (a partial deal), are looked closer at."""
    import re

    text = format_game(generate_game(8, colors="RGWBYK", deal=True))
    colors = ("R", "G", "W", "B", "Y")
    assert CHECK(text, colors) is not None
    hand1 = re.search(r'\[Hand1 "(.*)"\]', text).group(1)
    hand2 = re.search(r'\[Hand2 "(.*)"\]', text).group(1)
    given, last = hand2.rsplit(" ", 1)
    deck = re.search(r'\[Deck "(.*)"\]', text).group(1)
    first, rest = deck.split(" ", 1)
    edits = {
        "a colour twice": text.replace('[Colors "RGWBYK"]', '[Colors "RGWBYR"]'),
        "a colour in lower case": text.replace('[Colors "RGWBYK"]', '[Colors "RGWBYk"]'),
        "blanks in Colors": text.replace('[Colors "RGWBYK"]', '[Colors "R G W B Y K"]'),
        "nine cards in Hand1": text.replace(f'"{hand1}"', f'"{hand1} {first}"').replace(
            f'"{deck}"', f'"{rest}"'),
        # The same cards in the same order, nine and seven (R201): read as
        # eight and eight they would replay cleanly.
        "nine and seven": text.replace(f'"{hand1}"', f'"{hand1} {last}"').replace(
            f'"{hand2}"', f'"{given}"'),
        "no Deck": re.sub(r'\[Deck ".*"\]\n', "", text),
        "no hands": re.sub(r'\[Hand[12] ".*"\]\n', "", text),
        "two blanks between cards": text.replace(f'"{hand1}"', '"' + hand1.replace(" ", "  ", 1)
                                                 + '"'),
    }
    for name, edited in edits.items():
        assert edited != text, name
        assert CHECK(edited, colors) is None, name
        holds(edited, colors)
    # Cards in lower case are the deal headers' own spelling too: clean both ways.
    lower = text.replace(f'"{hand1}"', '"' + hand1.lower() + '"')
    assert holds(lower, colors) == 1


def test_near_misses_are_looked_closer_at():
    """Each text one edit from clean that test_fused lists is not called clean
    unless Python calls it clean too."""
    from test_fused import NEAR_MISSES, _clean_file

    a, b = _clean_file()
    for name, edit in NEAR_MISSES.items():
        holds(edit(a, b), ("R", "G", "W", "B", "Y"))
    for wrong in ('[Result "1', '[Result "-', '[Result "0', '[Result " ', '[Result "+'):
        assert CHECK(a.replace('[Result "', wrong, 1), ("R", "G", "W", "B", "Y")) is None
    # A result of the right form, one point off either way.
    _, _, first, second = CHECK(a, ("R", "G", "W", "B", "Y"))
    right = f'[Result "{first}-{second}"]'
    assert right in a
    for claimed in [(first + 1, second), (first, second - 1), (second, first)]:
        if claimed != (first, second):
            wrong = a.replace(right, f'[Result "{claimed[0]}-{claimed[1]}"]')
            assert CHECK(wrong, ("R", "G", "W", "B", "Y")) is None


def test_what_it_leaves_to_python():
    game = format_game(generate_game(5, deal=True))
    colors = ("R", "G", "W", "B", "Y")
    assert CHECK(game, colors) is not None
    for edit in [lambda t: t.replace("\n3. ", "\n3. {c} ", 1),        # a comment
                 lambda t: t.replace("\n3. ", "\n\u00a03. ", 1),      # other white space
                 lambda t: t.replace('"]\n', '" ]\n', 1),             # blanks the grammar allows
                 lambda t: t.replace('"]\n', '\\""]\n', 1),          # an escape
                 lambda t: t.replace("\n", "\r\n")]:
        edited = edit(game)
        verdict = CHECK(edited, colors)
        python = pure_clean_moves(GameText(edited, 1, 0), StyleState(), colors)
        assert verdict is None or verdict[0] == python


def test_unusual_arguments_are_refused_or_looked_closer_at():
    assert CHECK("1. R3-D", ["R", "G"]) is None  # type: ignore[arg-type]
    assert CHECK("1. R3-D", ("RG",)) is None
    with pytest.raises(TypeError):
        SPEEDUPS.check(b"1. R3-D", ())


def test_it_is_loaded_by_the_first_game_only():
    """Every command imports the lint engine; only those that lint load the
    extension."""
    code = ("import sys, lcnotation.cli; from lcnotation.lostcities import accel\n"
            "before = 'lcnotation.lostcities._speedups' in sys.modules\n"
            "accel.describe(); print(before, 'lcnotation.lostcities._speedups' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LCNOTATION_PURE_PYTHON": "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "True"]


def test_the_environment_variable_turns_it_off():
    code = "from lcnotation.lostcities import accel; print(accel.describe().startswith('pure'))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    on = subprocess.run([sys.executable, "-c", code], env={**env, "LCNOTATION_PURE_PYTHON": "0"},
                        capture_output=True, text=True, check=True).stdout.strip()
    off = subprocess.run([sys.executable, "-c", code], env={**env, "LCNOTATION_PURE_PYTHON": "1"},
                         capture_output=True, text=True, check=True).stdout.strip()
    assert (on, off) == ("False", "True")


def _files(folder: Path) -> List[Path]:
    """Many files: clean games, games with findings, mutants, hostile text;
    LF, CRLF, lone CR and mixed line ends, byte-order marks, bytes that are
    not UTF-8."""
    import random

    rng = random.Random(25)
    paths = []
    games = list(generate_games(60, seed=25, deal=True)) + list(generate_games(30, seed=26))
    for k in range(40):
        chosen = rng.sample(games, rng.randint(1, 6))
        text = format_games(chosen, rng.choice(["v1", "v1", "x-discard", "lower"]))
        for _ in range(rng.randint(0, 3)):
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(STRAYS + PIECES) + text[at + rng.randint(0, 3):]
        if k % 5 == 0:
            text = text.replace("\n", "\r\n")
        elif k % 7 == 1:
            text = text.replace("\n", "\r")
        elif k % 7 == 2:
            text = "".join(line + rng.choice(["\n", "\n", "\r\n"])
                           for line in text.split("\n"))
        data = text.encode("utf-8")
        if k % 6 == 3:
            data = b"\xef\xbb\xbf" + data
        if k % 8 == 4:
            at = rng.randrange(len(data))
            data = data[:at] + b"\xff" + data[at:]
        path = folder / f"f{k:02}.lcn"
        path.write_bytes(data)
        paths.append(path)
    return paths


def _lcn(args: List[str], pure_python: str) -> Tuple[int, bytes, bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LCNOTATION_PURE_PYTHON": pure_python}
    done = subprocess.run([sys.executable, "-m", "lcnotation", *args], env=env,
                          capture_output=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("form, extra", [("text", []), ("json", []), ("github", []),
                                         ("concise", ["--statistics"]), ("sarif", [])])
def test_lcn_lint_writes_the_same_bytes_with_and_without_it(tmp_path, form, extra):
    paths = [str(p) for p in _files(tmp_path)]
    runs = [_lcn(["lint", "--no-progress", "--output-format", form, *extra, *paths], pure)
            for pure in ("0", "1")]
    assert runs[0] == runs[1]
    assert runs[0][1]  # there were findings to compare


def test_lcn_lint_fix_writes_the_same_files_with_and_without_it(tmp_path):
    """--fix (and --force): the same files written, the same output."""
    import shutil

    (tmp_path / "files").mkdir()
    _files(tmp_path / "files")
    outcomes = []
    for pure in ("0", "1"):
        for force in ([], ["--force"]):
            folder = tmp_path / f"run{pure}{len(force)}"
            shutil.copytree(tmp_path / "files", folder)
            done = _lcn(["lint", "--no-progress", "--fix", *force, str(folder)], pure)
            outcomes.append((done[0], done[1].replace(bytes(folder), b"F"),
                             done[2].replace(bytes(folder), b"F"),
                             [p.read_bytes() for p in sorted(folder.iterdir())]))
    assert outcomes[:2] == outcomes[2:]
    assert b"applied" in outcomes[0][2]  # some files were fixed


def test_lcn_lint_j2_on_a_large_file_writes_the_same_bytes(tmp_path):
    """-j 2 on a file large enough to be cut (workers lint their pieces with
    the scan): what one process in pure Python writes."""
    games = format_games(list(generate_games(400, seed=31, deal=True)))
    broken = games.replace("\n7. ", "\n7. r", 3)
    path = tmp_path / "large.lcn"
    with open(path, "wb") as out:
        while out.tell() < 2_200_000:
            out.write((games + "\n" + broken + "\n").encode())
    two = _lcn(["lint", "--no-progress", "-j", "2", str(path)], "0")
    one = _lcn(["lint", "--no-progress", "-j", "1", str(path)], "1")
    assert two == one and b"N103" in one[1]


# ---------------------------------------------------------------- the split in C
#
# _speedups.scan reads a file's bytes, splits them into games as the reader
# does and checks them; lint_blocks (lcnotation/lostcities/lint.py) gives the
# Python way the first game it does not call clean.  These properties lint
# files of every kind as bytes with it and without it (pure Python) and
# compare every finding, position, message, fix and count; in blocks of any
# size (a game cut between blocks), in pieces as -j N's workers lint them,
# and with the unfinished game's bound made small.

SCAN = SPEEDUPS.scan

#: Lines put between games: comments before, between and across header
#: lines, header lines with blanks the C code does not read (form feed, a
#: byte-order mark), headers with more on their line, malformed headers,
#: escapes and letters that are not ASCII.
BETWEEN = ["\n", "\n\n", "{c}\n", "{\n", "}\n", "{a\nb}\n", "; note\n", "\x0c[Round \"2\"]\n",
           "\ufeff[Event \"x\"]\n", " \t[Event \"y\"]\n", "[Event \"a\"] R3-D\n",
           "[Event \"a\"] {c}\n", "[bad\n", "[Event \"x\\\"y\"]\n", "[Event \"\u00e9\"]\n",
           "[Round \"2\"]\n{\n[Round \"3\"]\n", "\u00a0\n", "\x0b\n", "R3-D\n", "1. \n", ""]
BAD_BYTES = [b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80",
             b"\r", b"\x00"]


@st.composite
def scanned_files(draw) -> bytes:
    """A file's bytes: runs of clean games (which the scan checks) and games
    of every other kind (mutated, hostile, record files), lines of every kind
    between them, any line ends, a byte-order mark or not, bytes that are
    not UTF-8 here and there."""
    from strategies import file_bytes, record_files

    parts: List[str] = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["clean", "clean", "clean", "texts", "record"]))
        if kind == "clean":
            games = [generate_game(draw(st.integers(0, 2**32)), deal=draw(st.booleans()),
                                   colors=draw(st.sampled_from(["RGWBY", "RGWBYK"])))
                     for _ in range(draw(st.integers(1, 3)))]
            parts.append(format_games(games, draw(st.sampled_from(["v1", "v1", "x-discard"]))))
        elif kind == "texts":
            parts.append(draw(texts))
        else:
            parts.append(draw(record_files()).decode("utf-8", "replace"))
        parts.append(draw(st.sampled_from(BETWEEN)))
    return file_bytes(draw, "".join(parts), BAD_BYTES, 2)


def _reported(data: bytes, config: LintConfig, accelerated: bool, block: int = 1 << 20,
              longest: Optional[int] = None) -> tuple:
    """Everything lint_blocks reports of the bytes ``data`` read in blocks of
    about ``block`` bytes, with the accelerator or without it."""
    import io
    import unittest.mock

    from lcnotation.core.lint import FileReport
    from lcnotation.lostcities import lint
    from lcnotation.lostcities.text.reader import line_blocks

    report = FileReport("f.lcn")
    with unittest.mock.patch.object(accel, "check", CHECK if accelerated else None), \
            unittest.mock.patch.object(accel, "scan", SCAN if accelerated else None), \
            unittest.mock.patch.object(lint, "_LONGEST_SCANNED",
                                       longest or lint._LONGEST_SCANNED):
        try:
            style = lint.lint_blocks(line_blocks(io.BytesIO(data), block), "f.lcn", config,
                                     report, report.findings.extend)
        except OSError as exc:  # a game past the reader's bound: the same error both ways
            return ("error", str(exc))
    return everything(report) + (style.marker,)


@SETTINGS
@given(scanned_files(), configs)
def test_files_lint_the_same_with_the_split_in_c(data: bytes, config: LintConfig):
    assert _reported(data, config, True) == _reported(data, config, False)


@SETTINGS
@given(scanned_files(), st.integers(1, 400), st.sampled_from([None, 40]))
def test_in_blocks_of_any_size(data: bytes, block: int, longest: Optional[int]):
    """A game cut between blocks is read whole; past ``longest`` unfinished
    bytes the rest of the file goes the Python way."""
    config = LintConfig()
    assert _reported(data, config, True, block, longest) == _reported(data, config, False)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(scanned_files(), st.integers(1, 600), configs)
def test_pieces_as_the_workers_lint_them(data: bytes, step: int, config: LintConfig):
    """-j N's workers lint pieces cut at game boundaries (lint_piece of bytes):
    piece by piece, with the accelerator, what the whole file gives without it."""
    import io
    import unittest.mock

    from lcnotation.lostcities import lint, parallel

    with unittest.mock.patch.object(parallel, "PIECE", step):
        placed = list(parallel.cuts(io.BytesIO(data), len(data)))
    findings, games, moves, marker = [], 0, 0, None
    with unittest.mock.patch.object(accel, "check", CHECK), \
            unittest.mock.patch.object(accel, "scan", SCAN):
        for cut in placed:
            try:
                done, left = lint.lint_piece(data[cut.start:cut.end],
                                             (cut.start, cut.line, cut.offset), "f.lcn", config,
                                             marker)
            except OSError as exc:
                assert _reported(data, config, False) == ("error", str(exc))
                return
            if marker is not None and left is not None and left != marker \
                    and config.dialect is None:
                done, left = lint.lint_piece(data[cut.start:cut.end],
                                             (cut.start, cut.line, cut.offset), "f.lcn",
                                             config, marker)
            marker = marker if marker is not None else left
            findings += everything(done)[2]
            games += done.games
            moves += done.moves
    whole = _reported(data, config, False)
    assert (games, moves, findings) == whole[:3]


def _scanned(data: bytes, colors=("R", "G", "W", "B", "Y")) -> Tuple[int, int, int]:
    """The games and moves scan calls clean from the start of ``data`` (all
    of it, to its end), and where it stops."""
    from lcnotation.lostcities.text.reader import holds_moves_in

    end, games, moves, _, _, _, _ = SCAN(data, 0, True, colors, holds_moves_in)
    return games, moves, end


def test_clean_files_are_split_and_checked_in_c_alone():
    """Canonically written games, with LF or CRLF line ends, a byte-order
    mark or not, names that are not ASCII, go the C way whole (else no speed)."""
    games = list(generate_games(30, seed=4, deal=True)) + list(generate_games(30, seed=5))
    text = format_games(games).replace('[Event "', '[Event "\u00e9\u00e8 ')
    moves = sum(len(g.moves) for g in games)
    for data in (text.encode("utf-8"), text.replace("\n", "\r\n").encode("utf-8")):
        assert _scanned(data) == (60, moves, len(data))
    report = _reported(b"\xef\xbb\xbf" + text.encode("utf-8"), LintConfig(), True)
    assert report[:3] == (60, moves, [])


def test_what_the_split_leaves_to_python():
    """The scan stops at the first game it does not call clean, and says
    where that game ends: the next game's start, as the reader splits."""
    from lcnotation.lostcities.text.reader import holds_moves_in

    one, two, three = (format_game(generate_game(s, deal=True)) for s in (1, 2, 3))
    colors = ("R", "G", "W", "B", "Y")
    for edit in [b"\r", b"{c}", b"\x0c", "\u00a0".encode(), b"\xef\xbb\xbf", b"; x", b"\xff",
                 b"\xc3"]:
        broken = two.encode().replace(b"\n3. ", b"\n" + edit + b"3. ", 1)
        data = (one + "\n").encode() + broken + ("\n" + three).encode()
        end, games, moves, _, lines, chars, after = SCAN(data, 0, True, colors,
                                                         holds_moves_in)
        assert (games, end) == (1, len(one) + 1), edit
        assert lines == one.count("\n") + 1 and chars == len(one) + 1
        assert data[after:] == three.encode(), edit
    # A header after a move on its line is no game's start (N109): on the last
    # line of a game, after its last move, it is read in Python.
    lines = one.rstrip("\n").split("\n")
    for at in (len(lines) - 1, len(lines) - 2):
        edited = "\n".join(lines[:at] + [lines[at] + ' [Event "x"]'] + lines[at + 1:]) + "\n"
        data = (edited + "\n" + two).encode()
        _, games, _, _, _, _, after = SCAN(data, 0, True, colors, holds_moves_in)
        assert games == 0 and data[after:] == two.encode()
    # A stretch the C code does not judge goes to the reader's rule: a comment
    # before the first move, a header with more on its line.
    for edit in ["{c}\n", "[Event \"x\"] {c}\n", "\x0c\n", "\u00a0\n"]:
        data = (one + "\n" + two.replace("\n1. ", "\n" + edit + "1. ", 1) + "\n"
                + three).encode()
        asked: List[bytes] = []

        def judge(raw: bytes) -> bool:
            asked.append(raw)
            return holds_moves_in(raw)

        _, games, _, _, _, _, after = SCAN(data, 0, True, colors, judge)
        assert games == 1 and data[after:] == three.encode(), edit
        assert asked and edit.encode() in asked[-1], edit


def test_scan_refuses_what_it_cannot_read():
    from lcnotation.lostcities.text.reader import holds_moves_in

    colors = ("R", "G", "W", "B", "Y")
    with pytest.raises(TypeError):
        SCAN("text", 0, True, colors, holds_moves_in)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SCAN(b"1. R3-D", 9, True, colors, holds_moves_in)
    with pytest.raises(ZeroDivisionError):  # the judge's error goes through
        SCAN(b"{c}\n[Round \"1\"]\n", 0, True, colors, lambda raw: 1 / 0)
    game = format_game(generate_game(3))
    data = (game + "\n" + game).encode()
    # Not final: the last game may go on past the data.
    assert SCAN(data, 0, False, colors, holds_moves_in)[::6] == (len(game) + 1, -1)


@SETTINGS
@given(st.one_of(st.binary(max_size=3000),
                 st.lists(st.sampled_from([b"\r", b"\n", b"\r\n", b"a", b"\xff", b"R3-D "]),
                          max_size=600).map(b"".join)))
def test_line_ends_are_counted_as_python_counts_them(data: bytes):
    """The count the lint engine reads files with (CountingReader, line_blocks)."""
    from lcnotation.core.lineends import byte_line_ends

    assert SPEEDUPS.line_ends(data) == byte_line_ends(data)
    assert accel.line_end_counter()(data) == byte_line_ends(data)


def _fixed(data: bytes, config: LintConfig, accelerated: bool, block: int = 1 << 20) -> tuple:
    """What lcn lint --fix writes of the bytes ``data`` (read in blocks of
    about ``block`` bytes) and what it reports, with the accelerator or
    without it."""
    import io
    import unittest.mock

    from lcnotation.lostcities import lint
    from lcnotation.lostcities.text.reader import line_blocks

    written: List[str] = []
    with unittest.mock.patch.object(accel, "check", CHECK if accelerated else None), \
            unittest.mock.patch.object(accel, "scan", SCAN if accelerated else None):
        try:
            result = lint.fix_blocks(line_blocks(io.BytesIO(data), block), "f.lcn", config,
                                     written.append)
        except OSError as exc:
            return ("error", str(exc))
    first = result.first_error
    return ("".join(written), result.applied, result.error_count,
            None if first is None else (first.code, first.message, first.span),
            everything(result.report))


@SETTINGS
@given(scanned_files(), configs, st.sampled_from([1 << 20, 97]))
def test_fixes_are_the_same_with_the_split_in_c(data: bytes, config: LintConfig, block: int):
    """lcn lint --fix writes the same text, applies the same fixes and
    reports the same, with runs of clean games written as they were read."""
    assert _fixed(data, config, True, block) == _fixed(data, config, False)
