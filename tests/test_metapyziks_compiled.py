"""The compiled decoder of metapyziks replays (lcnotation/formats/_metapyziks.c)
changes nothing that is imported.

For a replay's bytes it answers what ``decode_replay`` makes of them (the
game, every field and span of it) or None, and the replay is decoded in
Python.  These properties hold each answer to the Python decoder
(``metapyziks._decoded``, at the same place) and whole files read with and
without it to the same games or the same error, over generated games
(written by ``export_game`` and by the tests' own writer, both seats first,
five and six colours, disqualifications), the sample, the engine's JSON
with escapes, and replays mutated byte by byte (bytes flipped, cut,
extended, counts changed, hand indexes out of range, draws from empty
piles, disqualifications, wrong winners and scores); they check that it
answers for every clean replay, and ``lcn import`` writes the same bytes
with ``LCNOTATION_PURE_PYTHON=1``.

The tests skip where the extension is not built, except under CI
(``CI=true``), which has a compiler: there they fail.  They use the
extension even when ``LCNOTATION_PURE_PYTHON=1`` turns it off for the rest
of the suite.
"""

from __future__ import annotations

import base64
import os
import struct
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, List, Optional

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import lcnotation as lcn
from formatwriters import replay, replay_of
from lcnotation.formats import export_game, metapyziks
from lcnotation.formats.base import TextLines
from lcnotation.lostcities.text.ast import Card
from tools import compiled, every_field

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = Path(__file__).parent / "data" / "formats" / "metapyziks" / "replay-v3.txt"

COMPILED = compiled("lcnotation.formats._metapyziks", metapyziks.tables(),
                    "the compiled metapyziks decoder")
DECODE = COMPILED.replay

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def python(value: str, place: "metapyziks._Place") -> Any:
    """What the Python decoder makes of ``value`` (every field), or its error."""
    try:
        return every_field(metapyziks._decoded(base64.b64decode(value), place, len(value)))
    except lcn.NotationError as err:
        return (err.code, err.message, tuple(err.span), err.path)


def answer(value: str, place: Optional["metapyziks._Place"] = None) -> Optional[Any]:
    """The compiled decoder's game of ``value`` (every field), held to the
    Python decoder's; None when it does not answer."""
    if place is None:
        place = metapyziks._Place(TextLines(value, "r.txt"), 1, range(1, len(value) + 2))
    got = DECODE(base64.b64decode(value), *metapyziks._where(place, len(value)))
    if got is None:
        return None
    game = every_field(metapyziks._answered(got, place.span(0, len(value))))
    assert game == python(value, place)
    return game


@contextmanager
def decoder(decode: Any) -> Iterator[None]:
    """metapyziks.read with the decoder ``decode`` (None: Python only)."""
    saved = metapyziks._compiled, metapyziks._loaded
    metapyziks._compiled, metapyziks._loaded = decode, True
    try:
        yield
    finally:
        metapyziks._compiled, metapyziks._loaded = saved


def outcome(text: str, decode: Any) -> Any:
    """The games read from ``text`` (every field), or the error."""
    with decoder(decode):
        try:
            return every_field(metapyziks.read(text, "r.txt"))
        except lcn.NotationError as err:
            return (err.code, err.message, tuple(err.span), err.path)


def same(text: str) -> None:
    assert outcome(text, DECODE) == outcome(text, None)


def engine_json(*replays: str) -> str:
    """The engine's --output file around ``replays`` (+ written \\u002B)."""
    return '{"Summaries":[' + ",".join(
        '{"Winner":"Player1","Replay":"' + r.replace("+", "\\u002B") + '"}'
        for r in replays) + '],"Results":null}'


games = st.builds(lambda seed, colors, build, take: lcn.generate_game(
    seed, colors=colors, deal=True, build=build, take=take),
    st.integers(0, 10**6), st.sampled_from(["RGWBY", "RGWBYP"]), st.floats(0, 1),
    st.floats(0, 0.9))


def disqualified(game: lcn.Game, moves: int) -> lcn.Game:
    """``game`` cut after ``moves`` moves, the player to move disqualified."""
    return game._replace(moves=game.moves[:moves], headers=game.headers + (
        lcn.Header("Disqualified", str(moves % 2 + 1)),))


# ---------------------------------------------------------------- it answers


def test_it_answers_for_the_sample_and_every_bench_replay():
    value = SAMPLE.read_text().strip()
    assert answer(value) is not None
    same(SAMPLE.read_text())
    played = list(lcn.generate_games(40, 2026, deal=True, colors="RGWBYP"))
    replays = [export_game(g, "metapyziks") for g in played]
    assert all(answer(r) is not None for r in replays)
    same("\n".join(replays) + "\n")


@given(game=games, first=st.sampled_from([1, 2]))
@SETTINGS
def test_it_answers_for_every_generated_game(game, first):
    for value in (export_game(game, "metapyziks"), replay_of(game, first)):
        assert answer(value) is not None


@given(game=games, moves=st.integers(0, 20))
@settings(max_examples=100, deadline=None)
def test_it_answers_for_a_disqualification(game, moves):
    value = export_game(disqualified(game, moves), "metapyziks")
    assert base64.b64decode(value)[3] in (1, 2)
    assert answer(value) is not None


def test_it_answers_for_a_replay_of_an_unfinished_round_and_of_unknown_cards():
    # The deck is not spent: the result is "*".
    value = replay(deck=[Card("R", 9), Card("R", 10)], hand1=[Card("R", 2)],
                   hand2=[Card("R", 4)], actions=[0x00], winner=2)
    assert answer(value) is not None
    # Player 1 draws from the empty green pile: a card that cannot be known.
    value = replay(deck=[Card("R", 9)], hand1=[Card("R", 2)], hand2=[Card("R", 4)],
                   actions=[0x20], winner=2)
    assert answer(value) is not None
    # Disqualifications, the scores the engine's (no bonus).
    for dq in (dict(disqualified=1, winner=2, scores=(0, 0), actions=[]),
               dict(disqualified=1, winner=2, scores=(-18, 0), actions=[0x00])):
        value = replay(deck=[Card("R", 9), Card("R", 10)], hand1=[Card("R", 2)],
                       hand2=[Card("R", 4)], **dq)  # type: ignore[arg-type]
        assert answer(value) is not None


def test_the_engines_json_with_escapes_reads_the_same():
    played = [lcn.generate_game(seed, colors="RGWBY", deal=True) for seed in (9, 10, 11)]
    replays = [export_game(g, "metapyziks") for g in played]
    assert any("+" in r for r in replays)
    text = engine_json(*replays)
    same(text)
    with decoder(DECODE):
        again = metapyziks.read(text)
    assert [g.moves for g in again] == [g.moves for g in played]


def test_read_uses_it_and_writes_the_same():
    assert metapyziks.compiled_replay() is not None or os.environ.get(
        "LCNOTATION_PURE_PYTHON") == "1"
    played = list(lcn.generate_games(5, 3, deal=True, colors="RGWBY"))
    text = "\n".join(export_game(g, "metapyziks") for g in played)
    with decoder(DECODE):
        fast = lcn.format_games(metapyziks.read(text))
    with decoder(None):
        assert fast == lcn.format_games(metapyziks.read(text))


# ---------------------------------------------------------------- mutated


def _count_at(data: bytearray) -> Optional[int]:
    """Where the action count of a replay's bytes stands (after the header,
    the scores after a disqualification, the player to move and six lists),
    if they hold it."""
    if len(data) < 4:
        return None
    pos = 4 + (8 if data[3] else 0) + 1
    for _ in range(6):
        if pos >= len(data):
            return None
        pos += 1 + data[pos]
    return pos if pos + 4 <= len(data) else None


def _mutated(data: bytes, draw: st.DataObject) -> bytes:
    out = bytearray(data)
    count_at = _count_at(out)
    kinds = ["flip", "cut", "extend"] if not out else ["flip", "cut", "extend", "winner"]
    if count_at is not None:
        kinds += ["count", "index", "draw", "disqualify", "scores", "header", "list"]
    kind = draw.draw(st.sampled_from(kinds))
    if not out or kind == "extend":
        out += bytes(draw.draw(st.lists(st.integers(0, 255), min_size=1, max_size=5)))
    elif kind == "flip":
        at = draw.draw(st.integers(0, len(out) - 1))
        out[at] = draw.draw(st.integers(0, 255))
    elif kind == "cut":
        del out[draw.draw(st.integers(0, len(out) - 1)):]
    elif kind == "winner" or count_at is None:
        out[2 % len(out)] = draw.draw(st.integers(0, 3))
    elif kind == "count":
        (count,) = struct.unpack_from("<i", out, count_at)
        new = draw.draw(st.sampled_from([count - 1, count + 1, 0, -1, 2**31 - 1, -2**31]))
        struct.pack_into("<I", out, count_at, new % 2**32)
    elif kind in ("index", "draw") and len(out) > count_at + 4:
        at = draw.draw(st.integers(count_at + 4, len(out) - 1))
        if kind == "index":
            out[at] = out[at] & 0xF8 | draw.draw(st.integers(0, 7))
        else:
            out[at] = out[at] & 0x0F | draw.draw(st.integers(0, 15)) << 4
    elif kind == "disqualify" and out[3] == 0:
        seat = draw.draw(st.sampled_from([1, 2]))
        scores = draw.draw(st.tuples(st.integers(-200, 200), st.integers(-200, 200)))
        out[3] = seat
        out[2] = draw.draw(st.sampled_from([3 - seat, 0, seat]))
        out[4:4] = struct.pack("<ii", *scores)
    elif kind == "scores" and out[3] != 0:
        at = draw.draw(st.sampled_from([4, 8]))
        (score,) = struct.unpack_from("<i", out, at)
        struct.pack_into("<I", out, at, (score + draw.draw(st.sampled_from([-1, 1, 20]))) % 2**32)
    elif kind == "header":
        out[draw.draw(st.integers(0, 4))] = draw.draw(st.integers(0, 7))
    elif kind == "list":  # a card of a list changed, or its count
        at = draw.draw(st.integers(4 + (8 if out[3] else 0) + 1, count_at - 1))
        out[at] = draw.draw(st.sampled_from([out[at] + 1, out[at] - 1, 0x60, 0x70, 0x11,
                                             0x1B, 0x10, 0x6A, 0]))  % 256
    return bytes(out)


@given(game=games, data=st.data(), dq=st.booleans())
@SETTINGS
def test_a_mutated_replay_decodes_the_same_or_is_left_to_python(game, data, dq):
    if dq:
        game = disqualified(game, data.draw(st.integers(0, 20)))
    value = export_game(game, "metapyziks")
    raw = base64.b64decode(value)
    for _ in range(data.draw(st.integers(1, 3))):
        raw = _mutated(raw, data)
    mutated = base64.b64encode(raw).decode("ascii")
    event("answered" if answer(mutated) is not None else "left to Python")
    same(mutated + "\n")


def _faults(data: bytes) -> Iterator[bytes]:
    """``data`` (a clean replay's bytes) with one fault each, every one of
    which the Python decoder refuses."""
    count_at = _count_at(bytearray(data))
    assert count_at is not None
    colors, winner, dq = data[1], data[2], data[3]

    def at(i: int, value: int) -> bytes:
        return data[:i] + bytes((value,)) + data[i + 1:]

    yield at(0, data[0] + 1)
    yield at(1, 4)
    yield at(1, 7)
    for other in {0, 1, 2, 3} - {winner}:
        yield at(2, other)
    yield at(3, 3)
    first = 4 + (8 if dq else 0)
    yield at(first, 0)
    yield at(first, 3)
    if dq:
        for score_at in (4, 8):
            (score,) = struct.unpack_from("<i", data, score_at)
            for change in (-1, 1):
                yield data[:score_at] + struct.pack("<i", score + change) + data[score_at + 4:]
    (count,) = struct.unpack_from("<i", data, count_at)
    for change in (-1, 1):
        yield data[:count_at] + struct.pack("<i", count + change) + data[count_at + 4:]
    yield data[:-1]
    yield data + b"\x00"
    yield at(first + 2, colors + 1 << 4 | 5)  # the deck's first card: no colour of the game
    yield at(first + 2, 1 << 4 | 1)  # no value
    actions = range(count_at + 4, len(data))
    for i in (actions[0], actions[len(actions) // 2], actions[-1]) if actions else ():
        yield at(i, data[i] & 0x0F | (colors + 1) << 4)  # a draw from no colour
    # (A hand index past the hand needs a hand of fewer than 8 cards: see
    # test_small_faulty_replays_are_left_to_python.)


@pytest.mark.parametrize("seed", range(6))
def test_each_fault_is_left_to_python(seed):
    game = lcn.generate_game(seed, colors="RGWBY" if seed % 2 else "RGWBYP", deal=True)
    for cut in (None, 4 + seed):
        played = game if cut is None else disqualified(game, cut)
        value = export_game(played, "metapyziks")
        assert answer(value) is not None
        for fault in _faults(base64.b64decode(value)):
            faulty = base64.b64encode(fault).decode("ascii")
            place = metapyziks._Place(TextLines(faulty, "r.txt"), 1,
                                      range(1, len(faulty) + 2))
            assert python(faulty, place)[0] != "Game", fault  # an error
            assert answer(faulty) is None, fault


R = [Card("R", rank) for rank in range(11)]


@pytest.mark.parametrize("args", [
    dict(actions=[0x06]), dict(actions=[0x02]), dict(actions=[0x70]), dict(actions=[0x60]),
    dict(table=((R[5],), (), ())), dict(table=((), (R[5],), ())), dict(table=((), (), (R[5],))),
    dict(actions=[0x20, 0x00, 0x01]), dict(actions=[0x00], winner=1), dict(count=2, actions=[0]),
    dict(disqualified=1, winner=2, scores=(1, 0), actions=[]),
    dict(disqualified=1, winner=2, scores=(-18, 1), actions=[0x00]),
    dict(disqualified=2, winner=2, scores=(-18, 0), actions=[0x00])])
def test_small_faulty_replays_are_left_to_python(args):
    # Player 1 holds red 2 and 3, Player 2 red 4, the deck red 9 and 10:
    # indexes past a hand, draws from no colour, cards on the table at the
    # start, a card drawn from an empty pile played, wrong winners and scores.
    value = replay(**{**dict(deck=[R[9], R[10]], hand1=[R[2], R[3]], hand2=[R[4]],
                             actions=[0x00], winner=2), **args})
    place = metapyziks._Place(TextLines(value, "r.txt"), 1, range(1, len(value) + 2))
    assert python(value, place)[0] != "Game"
    assert answer(value) is None


@given(data=st.binary(max_size=120))
@settings(max_examples=300, deadline=None)
def test_any_bytes_decode_the_same_or_are_left_to_python(data):
    value = base64.b64encode(data).decode("ascii")
    if value:
        event("answered" if answer(value) is not None else "left to Python")


@given(game=games, data=st.data())
@settings(max_examples=100, deadline=None)
def test_a_replay_in_json_with_escapes_answers_with_the_columns_of_its_characters(game, data):
    value = export_game(game, "metapyziks")
    raw = bytearray(base64.b64decode(value))
    if data.draw(st.booleans()):
        raw = bytearray(_mutated(bytes(raw), data))
    text = engine_json(base64.b64encode(bytes(raw)).decode("ascii"), value)
    same(text)


# ---------------------------------------------------------------- the tables


def test_the_tables_score_each_expedition_as_the_rules_do():
    tables = metapyziks.tables()
    assert tables is not None
    numbers, most = tables["numbers"], tables["most"]
    # Two wagers, red 4, 6 and 10: (20 - 20) * 3; and eight cards, with the bonus.
    for ranks in ([0, 0, 4, 6, 10], [0, 2, 3, 4, 5, 6, 7, 8], [], [10, 9, 8, 7, 6, 5, 4, 3, 2]):
        k = len([r for r in ranks if r]), sum(ranks)
        at = (ranks.count(0) * (numbers + 1) + k[0]) * (most + 1) + k[1]
        assert tables["rules"][at] == lcn.score_expedition(ranks)
        assert tables["engine"][at] == metapyziks.engine_scores([{"R": ranks}, {}])[0]


def test_configure_refuses_tables_it_cannot_hold():
    tables = metapyziks.tables()
    assert tables is not None
    for change in (dict(placed=(None,) * 10), dict(counts=(5, 9)), dict(rules=[0]),
                   dict(move=int), dict(wagers=99)):
        with pytest.raises((ValueError, TypeError)):
            COMPILED.configure(**{**tables, **change})
    COMPILED.configure(**tables)  # as before, for the tests after
    assert answer(SAMPLE.read_text().strip()) is not None


# ---------------------------------------------------------------- the command


@pytest.mark.parametrize("inputs", [[str(SAMPLE)], ["generated.txt"]])
def test_lcn_import_writes_the_same_bytes_in_pure_python(inputs, tmp_path):
    played = list(lcn.generate_games(20, 7, deal=True, colors="RGWBYP"))
    (tmp_path / "generated.txt").write_text(
        "\n".join(export_game(g, "metapyziks") for g in played) + "\n")
    outs: List[bytes] = []
    for pure in ("0", "1"):
        env = {**os.environ, "LCNOTATION_PURE_PYTHON": pure, "PYTHONPATH": str(ROOT)}
        ran = subprocess.run([sys.executable, "-m", "lcnotation", "import", "--from",
                              "metapyziks", *inputs, "-o", "-"], cwd=tmp_path, env=env,
                             capture_output=True)
        assert ran.returncode == 0, ran.stderr
        outs.append(ran.stdout)
    assert outs[0] == outs[1] and outs[0].count(b"[Result ") == (1 if inputs[0] != "generated.txt"
                                                                  else 20)
