"""``lcn filter``, ``dedupe``, ``split`` and ``stats`` end to end, as a user runs them.

Properties: filter with --invert splits the input exactly in two; split then
concatenation gives the input back byte for byte; stats over the parts of a
split are the stats of the whole; dedupe drops the re-spellings of a game and
keeps the first copy byte for byte.  Bad input: unreadable games are named
with file, line and column and counted; no command writes over an input.
"""

from __future__ import annotations

import io
import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Callable, List, NamedTuple, Tuple

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from lcnotation import convert_text, format_game, format_games, generate_games, read_games
from lcnotation.archive import (BOM, StatsAccumulator, entry_stats, game_digest, read_at,
                                scan)
from lcnotation.cli import main

from strategies import SCALE


class Ran(NamedTuple):
    status: int
    out: bytes
    err: str


Lcn = Callable[..., Ran]


@pytest.fixture
def lcn(capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch) -> Lcn:
    def call(*argv: object, stdin: bytes = b"") -> Ran:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        status = main([str(a) for a in argv])
        out, err = capsysbinary.readouterr()
        assert b"Traceback" not in err
        return Ran(status, out, err.decode("utf-8"))
    return call


def _texts(n: int, seed: int, **options: object) -> List[str]:
    return [format_game(g) for g in generate_games(n, seed=seed, **options)]  # type: ignore[arg-type]


def _write(path: Path, texts: List[str], newline: str = "\n", bom: bool = False) -> bytes:
    data = (BOM if bom else b"") + "\n".join(texts).replace("\n", newline).encode("utf-8")
    path.write_bytes(data)
    return data


def _raws(data: bytes) -> List[bytes]:
    return [e.raw for e in scan(io.BytesIO(data))]


# ---------------------------------------------------------------- filter


def test_filter_writes_the_matching_games_as_they_were_written(lcn: Lcn, tmp_path: Path) -> None:
    texts = [t.replace("\n\n1.", "\n{a comment}\n1.") for t in _texts(30, 5)]
    data = _write(tmp_path / "a.lcn", texts, "\r\n")
    r = lcn("filter", tmp_path / "a.lcn", "--where", 'Player1 ~ /^[A-E]/')
    chosen = [raw for raw, game in zip(_raws(data), read_games(io.BytesIO(data)))
              if game.header("Player1")[0] in "ABCDE"]
    assert r.status == 0 and r.out == b"".join(chosen) and 0 < len(chosen) < 30
    assert b"{a comment}\r\n" in r.out
    r = lcn("filter", tmp_path / "a.lcn", "--where", 'Player1 == "Nobody"')
    assert (r.status, r.out) == (1, b"")


QUERIES = ['Player1 ~ /^[A-F]/', "expedition.wagers >= 2", "score[1] > score[2]",
           "color[R].opened < 2 and moves > 55", '{"<": [{"field": "margin"}, 20]}',
           "not clean", 'Round == 1 and expedition[2, G].cards >= 3']


@given(st.integers(0, 1000), st.sampled_from(QUERIES), st.booleans())
@settings(max_examples=12 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_filter_and_its_inverse_share_out_the_input(lcn: Lcn, tmp_path: Path, seed: int,
                                                    query: str, crlf: bool) -> None:
    path = tmp_path / "in.lcn"
    data = _write(path, _texts(12, seed), "\r\n" if crlf else "\n")
    kept = lcn("filter", path, "--where", query)
    left = lcn("filter", path, "--where", query, "--invert")
    assert {kept.status, left.status} <= {0, 1}
    mine, theirs = _raws(kept.out), _raws(left.out)
    assert len(mine) + len(theirs) == 12
    order = _raws(data)
    assert sorted(mine + theirs) == sorted(order)
    assert mine == [r for r in order if r in mine] and theirs == [r for r in order if r in theirs]
    count = lcn("filter", path, "--where", query, "--count")
    assert count.out == f"{len(mine)}\n".encode()


def test_count_offsets_and_limit(lcn: Lcn, tmp_path: Path) -> None:
    path = tmp_path / "a.lcn"
    _write(path, _texts(40, 2))
    r = lcn("filter", path, "--where", "expedition.wagers >= 2", "--offsets")
    rows = [line.split("\t") for line in r.out.decode().splitlines()]
    assert r.status == 0 and rows and all(name == str(path) for name, _ in rows)
    for _, offset in rows:
        game = read_at(path, int(offset)).game()
        assert any(sum(c.rank == 0 for c in m) >= 2 for m in
                   [[mv.card for mv in game.moves[p::2] if not mv.placement.discard
                     and mv.card.color == color] for p in (0, 1) for color in "RGWBYKP"])
    r = lcn("filter", path, path, "--where", "expedition.wagers >= 2", "--count")
    assert r.out.decode() == f"{path}\t{len(rows)}\n" * 2
    r = lcn("filter", path, "--where", "number > 0", "--limit", "3", "-o", tmp_path / "o.lcn")
    assert r.status == 0 and len(_raws((tmp_path / "o.lcn").read_bytes())) == 3


def test_filter_names_games_it_cannot_read_in_full(lcn: Lcn, tmp_path: Path) -> None:
    texts = _texts(3, 9)
    texts[1] = texts[1].replace("\n1. ", "\n1. R11-D ")
    _write(tmp_path / "a.lcn", texts)
    line = "\n".join(texts[:1]).count("\n") + 1 + texts[1].split("\n").index(
        next(x for x in texts[1].split("\n") if "R11-D" in x)) + 1
    r = lcn("filter", tmp_path / "a.lcn", "--where", "moves > 0", "--count")
    assert r.out == b"3\n"
    assert f"a.lcn:{line}:5: game 2 cannot be read in full: 1 syntax error (first: N103" in r.err
    assert "1 game could not be read in full" in r.err


def test_filter_refuses_bad_queries_and_never_writes_over_an_input(lcn: Lcn,
                                                                   tmp_path: Path) -> None:
    path = tmp_path / "a.lcn"
    data = _write(path, _texts(3, 1))
    r = lcn("filter", path, "--where", "score[3] < 0")
    assert r.status == 2 and "column 1: score[3]: a player is 1 or 2" in r.err
    r = lcn("filter", path, "--where", "Round == 1", "-o", path)
    assert r.status == 2 and "never writes over an input" in r.err
    assert path.read_bytes() == data
    (tmp_path / "link.lcn").symlink_to(path)
    r = lcn("filter", path, "--where", "Round == 1", "-o", tmp_path / "link.lcn")
    assert r.status == 2 and path.read_bytes() == data
    r = lcn("filter", tmp_path / "missing.lcn", "--where", "Round == 1")
    assert r.status == 2 and "missing.lcn: cannot read" in r.err


def test_filter_keeps_games_apart_when_it_joins_files(lcn: Lcn, tmp_path: Path) -> None:
    (tmp_path / "a.lcn").write_bytes(b'[Round "1"]\nR3-D')          # no final line end
    (tmp_path / "b.lcn").write_bytes(b"1. B4-D\n")                  # no header
    (tmp_path / "c.lcn").write_bytes(b'{first}\n[Round "3"]\nG5-D\n')
    r = lcn("filter", tmp_path / "a.lcn", tmp_path / "b.lcn", tmp_path / "c.lcn",
            "--where", "moves > 0")
    assert r.status == 2 and "b.lcn:1:1: game 1 is not written to standard output" in r.err
    assert r.out == b'[Round "1"]\nR3-D\n{first}\n[Round "3"]\nG5-D\n'
    assert len(list(read_games(io.BytesIO(r.out)))) == 2


def test_filter_reads_standard_input(lcn: Lcn) -> None:
    r = lcn("filter", "-", "--where", "Round == 2", stdin=b'[Round "1"]\nR3-D\n[Round "2"]\nB4-D\n')
    assert (r.status, r.out) == (0, b'[Round "2"]\nB4-D\n')


# ---------------------------------------------------------------- dedupe


def test_dedupe_drops_every_respelling_and_keeps_the_first_copy(lcn: Lcn,
                                                                tmp_path: Path) -> None:
    texts = _texts(10, 3)
    a = _write(tmp_path / "a.lcn", texts)
    respelt = convert_text("\n".join(texts[2:6]), to="lower").replace("\n\n", "\n{dup}\n")
    b = _write(tmp_path / "b.lcn", [respelt, texts[0].replace('"1"]', '"2"]')], "\r\n")
    r = lcn("dedupe", tmp_path / "a.lcn", tmp_path / "b.lcn", "-o", tmp_path / "out.lcn")
    out = (tmp_path / "out.lcn").read_bytes()
    assert r.status == 0 and out == a + _raws(b)[-1]
    lines = [line for line in r.err.splitlines() if " dropped: " in line]
    assert len(lines) == 4 and lines[0].startswith(f"{tmp_path / 'b.lcn'}:1:1: game 1 dropped: "
                                                   f"the same game as {tmp_path / 'a.lcn'}:")
    assert "kept 11 of 15 games; dropped 4 (4 duplicates)" in r.err
    r = lcn("dedupe", tmp_path / "a.lcn", tmp_path / "b.lcn", "--report", tmp_path / "r.json",
            "--report-format", "json", "-o", tmp_path / "out2.lcn")
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    games = list(read_games(tmp_path / "a.lcn"))
    assert [x["digest"] for x in report] == [game_digest(g) for g in games[2:6]]
    assert report[0]["kept"] == {"path": str(tmp_path / "a.lcn"), "number": 3,
                                 "line": report[0]["kept"]["line"],
                                 "offset": _offset_of(a, 3)}


def _offset_of(data: bytes, number: int) -> int:
    return [e.offset for e in scan(io.BytesIO(data))][number - 1]


def test_dedupe_by_deal_and_by_prefix(lcn: Lcn, tmp_path: Path) -> None:
    games = list(generate_games(4, seed=11, deal=True))
    long = games[1]
    short = long._replace(moves=long.moves[:9], headers=tuple(
        h._replace(value="*") if h.name == "Result" else h for h in long.headers))
    other_headers = long._replace(headers=tuple(
        h._replace(value="Elsewhere") if h.name == "Event" else h for h in long.headers))
    other_play = games[2]._replace(moves=games[2].moves[:-1])
    texts = [format_game(g) for g in (short, games[0], long, other_headers, games[2],
                                      other_play, games[3])]
    _write(tmp_path / "a.lcn", texts)
    r = lcn("dedupe", tmp_path / "a.lcn", "-o", tmp_path / "o.lcn", "--prefix")
    kept = list(read_games(tmp_path / "o.lcn"))
    assert r.status == 0 and kept == [games[0], long, games[2], games[3]]
    assert "game 1 dropped: its 9 moves are the first of" in r.err
    assert "game 4 dropped: the same moves as" in r.err and "under other headers" in r.err
    assert "game 6 dropped: its" in r.err
    r = lcn("dedupe", tmp_path / "a.lcn", "-o", tmp_path / "o.lcn", "--deal")
    assert [g.header("Event") for g in read_games(tmp_path / "o.lcn")] == \
        [short.header("Event"), games[0].header("Event"), games[2].header("Event"),
         games[3].header("Event")]
    assert r.err.count("the same deal as") == 3
    r = lcn("dedupe", "-", "--prefix", stdin=b"R3-D\n")
    assert r.status == 2 and "not standard input" in r.err


def test_dedupe_never_drops_a_game_it_cannot_read(lcn: Lcn, tmp_path: Path) -> None:
    bad = '[Round "1"]\nR3-D R11-D\n'
    (tmp_path / "a.lcn").write_text(bad + bad, "utf-8")
    r = lcn("dedupe", tmp_path / "a.lcn", "-o", tmp_path / "o.lcn")
    assert (tmp_path / "o.lcn").read_text("utf-8") == bad + bad
    assert "a.lcn:2:7: game 1 cannot be read in full" in r.err
    assert "a.lcn:4:7: game 2 cannot be read in full" in r.err
    assert "2 with syntax errors kept" in r.err
    r = lcn("dedupe", tmp_path / "a.lcn", "-o", tmp_path / "a.lcn")
    assert r.status == 2 and (tmp_path / "a.lcn").read_text("utf-8") == bad + bad


# ---------------------------------------------------------------- split


@given(st.integers(0, 1000), st.integers(1, 7), st.sampled_from(["\n", "\r\n", "\r"]),
       st.booleans(), st.booleans())
@settings(max_examples=15 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_split_then_concatenation_gives_the_input_back(lcn: Lcn, tmp_path_factory,
                                                        seed: int, n: int, newline: str,
                                                        bom: bool, last_line_end: bool) -> None:
    tmp = tmp_path_factory.mktemp("split")
    texts = _texts(9, seed)
    data = _write(tmp / "in.lcn", texts, newline, bom)
    if not last_line_end:
        data = data.rstrip(b"\r\n")
        (tmp / "in.lcn").write_bytes(data)
    r = lcn("split", tmp / "in.lcn", "--games", n, "-o", tmp / "parts")
    parts = sorted((tmp / "parts").iterdir())
    assert r.status == 0 and len(parts) == -(-9 // n)
    assert b"".join(p.read_bytes() for p in parts) == data
    assert [p.name for p in parts][0] == "in-0001.lcn"
    assert not [p for p in (tmp / "parts").iterdir() if p.name.startswith(".")]


def test_split_by_header_and_by_deal(lcn: Lcn, tmp_path: Path) -> None:
    games = list(generate_games(12, seed=4, deal=True))
    games[3] = games[3]._replace(headers=tuple(h for h in games[3].headers
                                               if h.name != "Player1"))
    weird = games[5]._replace(headers=tuple(h._replace(value="A/B ü") if h.name == "Player1"
                                            else h for h in games[5].headers))
    games[5] = weird
    games.append(games[0])  # the same deal twice
    data = _write(tmp_path / "in.lcn", [format_game(g) for g in games])
    r = lcn("split", tmp_path / "in.lcn", "--by", "Player1", "-o", tmp_path / "p")
    assert r.status == 0
    names = {p.name for p in (tmp_path / "p").iterdir()}
    assert "no-Player1.lcn" in names and "A_B.lcn" in names
    seen = []
    for part in (tmp_path / "p").iterdir():
        raws = _raws(part.read_bytes())
        values = {g.header("Player1") for g in read_games(part)}
        assert len(values) == 1
        seen += raws
    assert sorted(seen) == sorted(_raws(data))
    r = lcn("split", tmp_path / "in.lcn", "--by", "deal", "-o", tmp_path / "d")
    files = list((tmp_path / "d").iterdir())
    assert r.status == 0 and len(files) == 12
    assert sorted(len(list(read_games(f))) for f in files) == [1] * 11 + [2]
    r = lcn("split", tmp_path / "in.lcn", "--by", "deal", "-o", tmp_path / "d")
    assert r.status == 2 and "exists; lcn split replaces files only with --force" in r.err
    assert lcn("split", tmp_path / "in.lcn", "--by", "deal", "-o", tmp_path / "d",
               "--force").status == 0


def test_split_never_writes_over_its_input(lcn: Lcn, tmp_path: Path) -> None:
    data = _write(tmp_path / "in.lcn", ['[Event "in"]\nR3-D\n', '[Event "x"]\nB4-D\n'])
    r = lcn("split", tmp_path / "in.lcn", "--by", "Event", "-o", tmp_path, "--force")
    assert r.status == 2 and "is the input" in r.err
    assert (tmp_path / "in.lcn").read_bytes() == data and not (tmp_path / "x.lcn").exists()


# ---------------------------------------------------------------- stats


def _stats(lcn: Lcn, *paths: object) -> dict:
    r = lcn("stats", *paths, "--format", "json")
    assert r.status == 0, r.err
    return json.loads(r.out)


def test_stats_json_has_the_figures_the_issue_names(lcn: Lcn, tmp_path: Path) -> None:
    _write(tmp_path / "a.lcn", _texts(60, 7))
    s = _stats(lcn, tmp_path / "a.lcn")
    assert s["games"] == 60 and s["complete"] == 60 and s["unusable"] == 0
    first = s["first_mover"]
    assert set(first) >= {"wins", "rate", "interval"}
    low, high = first["interval"]
    assert low < first["rate"] < high and first["rate"] == first["wins"] / 60
    for p in s["players"].values():
        assert set(p) >= {"games", "wins", "losses", "draws", "mean_score"}
        assert p["wins"] + p["losses"] + p["draws"] == p["games"]
    assert sum(p["games"] for p in s["players"].values()) == 120
    assert set(s["scores"]["percentiles"]) == {"0", "5", "10", "25", "50", "75", "90", "95",
                                               "100"}
    assert set(s["colors"]) >= set("RGWBY") and s["mean_length"] > 40


def test_every_figure_agrees_with_lcn_score_game_by_game(lcn: Lcn, tmp_path: Path) -> None:
    texts = _texts(40, 12)
    texts[4] = texts[4].replace("\n2. ", "\n2. R11-D ")     # a syntax error
    texts[9] = texts[9].replace('[Result "', '[Result "1')   # a Result the moves contradict
    _write(tmp_path / "a.lcn", texts)
    r = lcn("score", tmp_path / "a.lcn", "--format", "json", "--allow-errors")
    score = json.loads(r.out)
    s = _stats(lcn, tmp_path / "a.lcn")
    results = [g for g in score["games"] if g["result"]]
    assert s["unusable"] == 2 and s["results"] == len(results) == 38
    totals: dict = {}  # every match's (each generated game is an Event of its own)
    for match in score["matches"]:
        for name, points in match["totals"].items():
            totals[name] = totals.get(name, 0) + points
    assert {name: p["points"] for name, p in s["players"].items()} == totals
    scores = sorted(v for g in results for v in g["scores"])
    hist = [v for v, n in s["scores"]["histogram"] for _ in range(n)]
    assert hist == scores
    for color, c in s["colors"].items():
        opened = [v for g in results for side in g["by_color"] if color in side
                  for v in [side[color]]]
        assert c["expeditions"] == len(opened)
    wins = sum(g["scores"][0] > g["scores"][1] for g in results if g["complete"])
    assert s["first_mover"]["wins"] == wins
    r = lcn("stats", tmp_path / "a.lcn")
    assert "a.lcn:" in r.err and "game 5 is not used: N103" in r.err and "game 10 is not used" in r.err
    assert "not used 2" in r.out.decode()


@given(st.integers(0, 1000), st.lists(st.integers(1, 25_000), max_size=4))
@settings(max_examples=10 * SCALE, deadline=None)
def test_stats_of_parts_combine_into_the_stats_of_the_whole(seed: int, cuts: List[int]) -> None:
    data = "\n".join(_texts(15, seed)).encode("utf-8")
    whole = StatsAccumulator().add_all(entry_stats(e) for e in scan(io.BytesIO(data)))
    bounds = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    parts = [StatsAccumulator().add_all(entry_stats(e) for e in scan(io.BytesIO(data),
                                                                     start=a, end=b))
             for a, b in zip(bounds, bounds[1:])]
    combined = StatsAccumulator()
    for part in reversed(parts):   # in any order
        combined = combined.combine(part)
    assert combined == whole and combined.summary() == whole.summary()


def test_stats_over_a_split_folder_are_those_of_the_file(lcn: Lcn, tmp_path: Path) -> None:
    _write(tmp_path / "a.lcn", _texts(25, 31))
    assert lcn("split", tmp_path / "a.lcn", "--games", "4", "-o", tmp_path / "parts").status == 0
    assert _stats(lcn, tmp_path / "parts") == _stats(lcn, tmp_path / "a.lcn")


def test_stats_draws_a_picture(lcn: Lcn, tmp_path: Path) -> None:
    _write(tmp_path / "a.lcn", _texts(20, 3))
    r = lcn("stats", tmp_path / "a.lcn", "--format", "svg", "-o", tmp_path / "s.svg")
    tree = ElementTree.parse(tmp_path / "s.svg")
    texts = {t.text for t in tree.iter("{http://www.w3.org/2000/svg}text")}
    assert r.status == 0 and {"R", "G", "W", "B", "Y"} <= texts
    assert any(t and t.startswith("Round scores (40") for t in texts)
    r = lcn("stats", tmp_path / "a.lcn", "-o", tmp_path / "a.lcn")
    assert r.status == 2 and "never writes over an input" in r.err


# ---------------------------------------------------------------- bad input, writes


def test_archive_commands_on_unreadable_input(lcn: Lcn, tmp_path: Path) -> None:
    (tmp_path / "bad.lcn").write_bytes(b'[Round "1"]\nR3-D\n[Round "\xff"]\nB4-D\n')
    for argv in (["filter", "--where", "Round == 1"], ["stats"], ["dedupe"],
                 ["split", "--games", "1", "-o", tmp_path / "p"]):
        r = lcn(argv[0], tmp_path / "missing.lcn", *argv[1:])
        assert r.status == 2 and "missing.lcn: cannot read: No such file" in r.err, argv
    # Bytes that are not UTF-8: the game is named with its line and column and
    # counted; its bytes are written as they are.
    r = lcn("stats", tmp_path / "bad.lcn", "--format", "json")
    assert json.loads(r.out)["unusable"] == 1
    assert "bad.lcn:3:9: game 2 is not used: N001" in r.err
    r = lcn("filter", tmp_path / "bad.lcn", "--where", "moves == 1")
    assert r.out == (tmp_path / "bad.lcn").read_bytes() and "bad.lcn:3:9: game 2 cannot" in r.err


def test_archive_commands_writing_where_they_cannot(lcn: Lcn, tmp_path: Path) -> None:
    _write(tmp_path / "a.lcn", _texts(3, 1))
    for argv in (["filter", "--where", "Round == 1"], ["dedupe"], ["stats"]):
        r = lcn(argv[0], tmp_path / "a.lcn", *argv[1:], "-o", tmp_path / "no" / "such.lcn")
        assert r.status == 2 and "cannot write" in r.err, argv
    if Path("/dev/full").exists():
        r = lcn("filter", tmp_path / "a.lcn", "--where", "Round == 1", "-o", "/dev/full")
        assert r.status == 2 and "cannot write" in r.err
    # A split that cannot finish leaves the folder as it was: no file, no temporary.
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "a-0002.lcn").write_text("mine", "utf-8")
    r = lcn("split", tmp_path / "a.lcn", "--games", "1", "-o", tmp_path / "p")
    assert r.status == 2 and sorted(p.name for p in (tmp_path / "p").iterdir()) == ["a-0002.lcn"]
    assert (tmp_path / "p" / "a-0002.lcn").read_text("utf-8") == "mine"
