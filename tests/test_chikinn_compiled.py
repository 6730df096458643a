"""The compiled reader of chikinn transcripts (lcnotation/formats/_chikinn.c)
changes nothing that is imported.

For a round it answers what the Python reader makes of it (its game, every
field and span of it, and where the reader goes on) or None, and the round
is read in Python.  These properties hold each answer to the Python reader
(``_Reader.whole_round`` without it, at the same place) and whole
transcripts read with and without it to the same games or the same error,
over generated transcripts, the samples and transcripts mutated line by
line, card by card, number by number and byte by byte (CRLF, tabs, letters
that are not ASCII, cut lines, hostile lengths); they check that it answers
for every round the engine prints, and ``lcn import`` writes the same bytes
with ``LCNOTATION_PURE_PYTHON=1``.

The tests skip where the extension is not built, except under CI
(``CI=true``), which has a compiler: there they fail.  They use the
extension even when ``LCNOTATION_PURE_PYTHON=1`` turns it off for the rest
of the suite.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lcnotation as lcn
from formatwriters import chikinn_round, chikinn_transcript
from lcnotation.formats import chikinn
from tools import compiled, every_field

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((Path(__file__).parent / "data" / "formats" / "chikinn").glob("*.txt"))


COMPILED = compiled("lcnotation.formats._chikinn", chikinn.tables(),
                    "the compiled chikinn reader")
ROUND = COMPILED.round

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def outcome(text: str, compiled: Any) -> Any:
    """The games the reader makes of ``text`` (every field), or its error."""
    try:
        return every_field(chikinn._Reader(text, "t.txt", compiled).games())
    except lcn.NotationError as err:
        return (err.code, err.message, tuple(err.span), err.path)


def answers(text: str) -> int:
    """Hold each answer of the compiled reader, at the start of every line
    of ``text``, to what the Python reader reads there; how many it gave."""
    given = 0
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    for line, pos in enumerate(starts):
        answer = ROUND(text, pos, line)
        if answer is None:
            continue
        given += 1
        python = chikinn._Reader(text, "t.txt", None)
        python.at, python.i, python.at_line = pos, line, line
        expected = python.whole_round()  # an error here is a difference too
        assert expected is not None, (line, text.split("\n")[line])
        compiled = chikinn._Reader(text, "t.txt", None)
        game = compiled.answered(answer)
        assert every_field(game) == every_field(expected)
        assert (compiled.at, compiled.i, compiled.at_line) == (
            python.at, python.i, python.at_line)
    return given


def same(text: str) -> None:
    """The compiled reader answers only as Python reads, and the transcript
    reads the same with it and without it."""
    answers(text)
    assert outcome(text, ROUND) == outcome(text, None)


def transcript(seed: int, rounds: int = 1, winner: bool = True,
               names: Tuple[str, str] = ("Ann", "Bob")) -> str:
    """A transcript of ``rounds`` generated games between ``names``."""
    games = [_named(lcn.generate_game(seed + k, colors="RGWBYP", deal=True), names)
             for k in range(rounds)]
    if rounds == 1 and winner:
        return chikinn_transcript(games[0])
    return "".join(chikinn_round(g, k) for k, g in enumerate(games))


def _named(game: lcn.Game, names: Tuple[str, str]) -> lcn.Game:
    headers = tuple(h._replace(value=names[0]) if h.name == "Player1" else
                    h._replace(value=names[1]) if h.name == "Player2" else h
                    for h in game.headers)
    return game._replace(headers=headers)


# ---------------------------------------------------------------- it answers


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_it_answers_for_each_sample_as_python_reads_it(path):
    text = path.read_text("utf-8")
    assert answers(text) == 2  # the round, at its blank first line and at ROUND 0:
    assert outcome(text, ROUND) == outcome(text, None)


def test_it_answers_for_every_round_of_a_bench_transcript():
    """The transcript bench/table.py times (its first rounds): every round
    answered, none left to Python."""
    played = list(lcn.generate_games(40, 2026, deal=True, colors="RGWBYP"))
    text = "".join(chikinn_round(g, i) for i, g in enumerate(played))
    called: List[bool] = []

    def counted(*args: Any) -> Any:
        answer = ROUND(*args)
        called.append(answer is not None)
        return answer

    games = chikinn._Reader(text, None, counted).games()
    assert len(games) == 40 and called == [True] * 40 + [False]  # the last: the text's end
    assert every_field(games) == every_field(chikinn._Reader(text, None, None).games())
    assert answers(text) == 80  # each round at its blank line and at ROUND N:


def test_read_uses_it_and_writes_the_same():
    text = transcript(5, rounds=3)
    assert chikinn.compiled_round() is not None or os.environ.get(
        "LCNOTATION_PURE_PYTHON") == "1"
    games = chikinn.read(text)
    assert lcn.format_games(games) == lcn.format_games(chikinn._Reader(text, None).games())


# ---------------------------------------------------------------- generated and mutated

#: Lines put in the place of one, or beside it.
ODD_LINES = ["", " ", "\t", "  Draws b9", "  Draws q9", "  Draws b9 ", "  Draws  b9", "\tx",
             "--", "---", "--- ", "----x", "Winner: A", "Winner: Ann", "Winner:", "Winner",
             "Ann: b0 zz", "Ann : b0 b1", " Ann: b0", "Ann:b0", "Ann: b0  b1", "Ann: b0 b1 ",
             "  Plays b1", "  Plays b1 ", "  Discards b1", "Plays b1", " Plays b10",
             " " * 12, "ROUND 7:", "ROUND 7: ", "ROUND :", "ROUND -1:", "ROUND 1234567890123456789:",
             "ROUND 123456789012345678:", "Player 0 scores 12", "Player 1 scores -3",
             "Player 1 scores 12345678901234567890", "Player 1 scores 123456789012345678",
             "Player 0 scores -0", "Player 1 scores 007", "Player 1 scores - 3",
             "Ann wins 0.5 +/- 0.1", "é: b0", "Ann\x85: b0", "Ann: b0\r", "  Plays b1\r",
             "\u2028", "Ann\u00a0: b0", 'A"n\\: b0 b1', "Winner: Ann\t", "Winner:  Ann",
             "Player 0 scores : b0 b1", "  Ann \xa0 ", "-" * 79 + "\r"]


def _mutate(text: str, data: st.DataObject) -> str:
    lines = text.split("\n")
    kind = data.draw(st.sampled_from(["line", "cards", "numbers", "bytes", "cut", "crlf",
                                      "hostile", "names"]))
    at = data.draw(st.integers(0, len(lines) - 1))
    line = lines[at]
    if kind == "line":
        lines[at:at + 1] = data.draw(st.sampled_from([
            [], [line, line], [line + data.draw(st.sampled_from([" ", "\t", "\x85", " x", "\r"]))],
            [data.draw(st.sampled_from(ODD_LINES))], [line, data.draw(st.sampled_from(ODD_LINES))],
            [line[:data.draw(st.integers(0, max(0, len(line) - 1)))]]]))
        return "\n".join(lines)
    if kind == "cards":  # a card changed, two swapped, one dropped or doubled
        spots = [m for m in re.finditer(r"\b[bgprwy][0-9]\b", text)]
        if not spots:
            return text
        a = data.draw(st.sampled_from(spots))
        b = data.draw(st.sampled_from(spots))
        new = data.draw(st.sampled_from(["b0", "p9", "y5", "r1", "g0", "w9", "", a.group() + " "
                                         + a.group(), b.group(), "x1", "b"]))
        if data.draw(st.booleans()) and a.start() < b.start():
            return (text[:a.start()] + b.group() + text[a.end():b.start()] + a.group()
                    + text[b.end():])
        return text[:a.start()] + new + text[a.end():]
    if kind == "numbers":
        spots = list(re.finditer(r"-?[0-9]{1,30}", text))
        if not spots:
            return text
        m = data.draw(st.sampled_from(spots))
        value = int(m.group()) + data.draw(st.sampled_from([-1, 1, 10, -100]))
        return text[:m.start()] + data.draw(st.sampled_from([str(value), "0" + m.group(),
                                                             "9" * 30])) + text[m.end():]
    if kind == "bytes":
        chars = list(text)
        for _ in range(data.draw(st.integers(1, 4))):
            i = data.draw(st.integers(0, max(0, len(chars) - 1)))
            if chars:
                chars[i] = data.draw(st.sampled_from(
                    [" ", "\n", ":", "-", "b", "0", "W", "P", "\t", "\r", "é", "\x00", "\x85",
                     "\u2028", "x", "R"]))
        return "".join(chars)
    if kind == "cut":
        return text[:data.draw(st.integers(0, len(text)))]
    if kind == "crlf":
        return text.replace("\n", "\r\n") if data.draw(st.booleans()) else \
            "\n".join(lines[:at]) + "\r\n" + "\n".join(lines[at:])
    if kind == "names":  # the players renamed, or one of them, one line or all
        name = data.draw(st.sampled_from(["Ann", "Bob", "A n", 'Q"uote', "Back\\slash",
                                          "Win", "Winner", "x" * 300, "Ann ", "é", "Ann\t"]))
        old = data.draw(st.sampled_from(["Ann", "Bob"]))
        if data.draw(st.booleans()):
            return text.replace(old, name)
        lines[at] = line.replace(old, name)
        return "\n".join(lines)
    # hostile lengths
    piece = data.draw(st.sampled_from(["b0 " * 200 + "b0", "7" * 5000, "-" * 10_000,
                                       " " * 10_000, "x" * 10_000]))
    lines[at:at] = [data.draw(st.sampled_from([piece, "Ann: " + piece, "ROUND " + piece + ":",
                                               "Player 0 scores " + piece]))]
    return "\n".join(lines)


@given(seed=st.integers(0, 10**6), rounds=st.integers(1, 3), winner=st.booleans())
@SETTINGS
def test_generated_transcripts_read_the_same(seed, rounds, winner):
    text = transcript(seed, rounds, winner)
    assert answers(text) == 2 * rounds
    same(text)


@given(seed=st.integers(0, 10**6), rounds=st.integers(1, 3), data=st.data())
@settings(SETTINGS, max_examples=600)
def test_mutated_transcripts_read_the_same(seed, rounds, data):
    if seed % 4 == 0:
        text = SAMPLES[seed % len(SAMPLES)].read_text("utf-8")
    else:
        text = transcript(seed, rounds, winner=seed % 3 != 0,
                          names=("Ann", "Bob") if seed % 2 else ("Kenny", "Ann"))
    for _ in range(data.draw(st.integers(1, 3))):
        text = _mutate(text, data)
    same(text)


@given(st.text(alphabet="bgprwy0123456789 :\n-ROUNDPlaysDiscardsWinner", max_size=400))
@SETTINGS
def test_notation_soup_reads_the_same(text):
    same(text)


def test_every_single_card_change_of_a_round_reads_the_same():
    """Each card of a round's hands and moves replaced by each other card in
    turn: the rebuild's checks (a card held, hands that follow, a draw that
    is the card gained, the deck's copies) are the compiled reader's too."""
    text = transcript(11, rounds=1)
    spots = list(re.finditer(r"\b[bgprwy][0-9]\b", text))
    for m in spots[:: max(1, len(spots) // 40)]:
        for card in ("b0", "g5", "p9", "r1", "w3", "y8"):
            if card != m.group():
                same(text[:m.start()] + card + text[m.end():])


CARDS = [s + d for s in "bgprwy" for d in "0123456789"]


def _edits(text: str):
    """Every single edit of the places where a round's rebuild and its
    shape are decided: the hands and cards of the first and last turns
    (each card by each other, one added, one dropped, the spaces between
    them), the lines of dashes, the names, the blank lines, the scores and
    the winner."""
    lines = text.split("\n")
    hands = [i for i, line in enumerate(lines) if re.match(r"\S[^:]*: [bgprwy]\d", line)]
    for i in hands[:2] + hands[-4:]:
        line = lines[i]
        name, cards = line.split(": ")
        yield i, [line + " b0", line[:-3], line.replace(" ", "  ", 2), line.replace(" ", ",", 2),
                  *(f"{name}: {cards.replace(' ', sep, 1)}" for sep in ("  ", ",", "x", "\t")),
                  line[:-3] + " " + line[-2:], "Winner: " + cards, "Winner" + ": " + cards,
                  name + "\t: " + cards, name + "é: " + cards, name + "x: " + cards,
                  " " + line, name + ":  " + cards, line + "\t"]
        some = sorted(set(CARDS[::9]) | set(cards.split(" ")) | set(lines[i - 1].split()))
        yield i, [f"{name}: {cards[:k]}{card}{cards[k + 2:]}"
                  for k in range(0, len(cards), 3) for card in some]
        action = lines[i + 1]
        yield i + 1, [action[:-2] + card for card in some] + [
            action.replace("Plays", "Discards") if "Plays" in action else
            action.replace("Discards", "Plays"), action + " ", action.lstrip(),
            action.replace(" ", "\t", 1)]
        if "Draws" in lines[i + 2]:
            draw = lines[i + 2]
            yield i + 2, [draw[:-2] + card for card in some] + [draw + " ", draw + "x"]
        else:
            yield i + 2, [lines[i + 2] + "\n  Draws " + card for card in some[::3]]
    dashes = [i for i, line in enumerate(lines) if line.startswith("---")]
    for i in dashes[:1] + dashes[-1:]:
        yield i, ["--", "---", "---x", "--- ", "-" * 79 + "\t", "x" + "-" * 78,
                  "\n" + lines[i], lines[i] + "\n"]
    for i, line in enumerate(lines):
        if line.startswith(("Player", "Winner", "ROUND")):
            yield i, [line + " ", line + "\t", "\n" + line, line + "x", line[:-1],
                      line.replace(" ", "  ", 1), line.upper(), ""]
        if line.startswith("Winner: "):
            yield i, ["Winner: " + name for name in ("Ann", "Bob", "Ann ", "Bob  ", " Ann",
                                                      "Annx", "Ann\t", "An", "Kenny")]


@pytest.mark.parametrize("seed, names", [(11, ("Ann", "Bob")), (12, ("Kenny", "Ed"))])
def test_every_single_edit_of_a_round_reads_the_same(seed, names):
    """Each edit of :func:`_edits`: the compiled reader answers only where
    Python reads the same game, and whole transcripts read the same."""
    text = transcript(seed, names=names) + chikinn_round(
        _named(lcn.generate_game(seed + 7, colors="RGWBYP", deal=True), names), 1)
    lines = text.split("\n")
    for i, versions in _edits(text):
        for version in versions:
            same("\n".join(lines[:i] + [version] + lines[i + 1:]))
    for name in ("Winner", "Winner ", "Win ner", "x" * 300, "A\tn", "\xe9", "A\x85", 'Q"\\',
                 "A:", "Player 0 scores", names[1]):  # a player renamed, hands and winner
        same(text.replace(names[0], name))


def test_a_text_of_wider_characters_is_left_to_python():
    text = transcript(3) + "\u2028"
    assert ROUND(text, 0, 0) is None
    same(text)
    # Letters that are not ASCII in a table, one byte a character still: answered.
    latin = transcript(3).replace("Discards  b", "Discards \xe9b")
    assert "\xe9" in latin and answers(latin) == 2
    same(latin)
    named = transcript(3).replace("Ann", "\xc5nn")  # in a name: left to Python
    assert answers(named) == 0
    same(named)


def test_configure_refuses_tables_it_cannot_hold():
    tables = chikinn.tables()
    assert tables is not None
    try:
        for change in ({"cards": ("b0", "b0") + tuple(tables["cards"])[2:]},  # type: ignore
                       {"cards": ("b:",) + tuple(tables["cards"])[1:]},  # type: ignore
                       {"copies": [1, 2]}, {"ordered": [0] * len(tables["cards"])},  # type: ignore
                       {"placed": ()}, {"move": list}):
            with pytest.raises((ValueError, TypeError)):
                COMPILED.configure(**{**tables, **change})
    finally:
        COMPILED.configure(**tables)
    assert ROUND(transcript(1), 0, 0) is not None


# ---------------------------------------------------------------- lcn import


def _lcn(args: List[str], pure: bool, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "LCNOTATION_PURE_PYTHON": "1" if pure else "0",
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "lcnotation", *args], cwd=cwd, env=env,
                          capture_output=True, timeout=300)


def test_lcn_import_writes_the_same_bytes_in_pure_python(tmp_path):
    inputs = {"many.txt": transcript(7, rounds=12), "one.txt": transcript(8),
              "sample.txt": SAMPLES[0].read_text("utf-8"),
              "crlf.txt": transcript(9, rounds=2).replace("\n", "\r\n"),
              "odd.txt": transcript(10, rounds=3).replace("Plays", "Plays ", 1),
              "bad.txt": transcript(12, rounds=2).replace("Player 1 scores", "Player 1 scored"),
              "contradicts.txt": re.sub(r"Plays [bgprwy]\d", "Plays x9", transcript(13), 1)}
    for name, text in inputs.items():
        (tmp_path / name).write_bytes(text.encode("utf-8"))
    for args in (["many.txt", "one.txt", "sample.txt", "crlf.txt", "odd.txt"],
                 ["many.txt"], ["bad.txt"], ["contradicts.txt"], ["many.txt", "bad.txt"]):
        outputs = []
        for pure in (False, True):
            out = tmp_path / f"out-{pure}.lcn"
            done = _lcn(["import", "--from", "chikinn", *args, "-o", out.name], pure, tmp_path)
            outputs.append((done.returncode, done.stdout, done.stderr,
                            out.read_bytes() if out.exists() else None))
            if out.exists():
                out.unlink()
        assert outputs[0] == outputs[1], args
    done = _lcn(["import", "--from", "chikinn", "many.txt"], False, tmp_path)
    assert done.returncode == 0 and done.stdout.count(b'[Round "') == 12


def test_the_extension_is_loaded_by_the_first_transcript_read_and_can_be_turned_off():
    script = ("import sys; from lcnotation.formats import chikinn, import_games; "
              "import lcnotation.cli.importcmd; "
              "name = 'lcnotation.formats._chikinn'; before = name in sys.modules; "
              "import_games(open(sys.argv[1]).read(), format='chikinn'); "
              "print(before, name in sys.modules, chikinn.compiled_round() is not None)")
    for pure, expected in (("0", "False True True"), ("1", "False False False")):
        done = subprocess.run([sys.executable, "-c", script, str(SAMPLES[0])], capture_output=True,
                              text=True, timeout=120,
                              env={**os.environ, "LCNOTATION_PURE_PYTHON": pure,
                                   "PYTHONPATH": str(ROOT)})
        assert done.stdout.split() == expected.split(), done.stderr


def test_offsets_out_of_the_text_and_wrong_arguments():
    text = transcript(4)
    for pos, line in ((-1, 0), (len(text) + 1, 0), (len(text), 0), (0, -1), (len(text) - 1, 3)):
        assert ROUND(text, pos, line) is None
    for args in ((b"ROUND 0:\n", 0, 0), (text, "0", 0), (text, 0)):
        with pytest.raises(TypeError):
            ROUND(*args)
    # Every offset, line starts or not: an answer or None, never a crash.
    for pos in range(0, 400):
        answer = ROUND(text, pos, 0)
        assert answer is None or text[pos - 1:pos] in ("", "\n")  # at a line's start


@pytest.mark.parametrize("turns", [2, 3, 7, 20])
def test_a_round_cut_short_is_answered_with_its_cards_never_drawn(turns):
    """A round that ends after a few turns (the scores printed early): the
    cards never drawn are the deal's last, in a header's order, with a note."""
    text = transcript(21, winner=False)
    dashes = [m.end() for m in re.finditer(r"(?m)^-{3,}\n", text)]
    short = text[:dashes[turns - 1]] + "Player 0 scores 3\nPlayer 1 scores -4\n"
    assert answers(short) == 2
    same(short)
    (game,) = chikinn.read(short)
    deck = next(h for h in game.headers if h.name == "Deck")
    assert len(game.moves) == turns and "are never drawn" in deck.comments[-1].text
