"""The query language of ``lcn filter`` (spec/query.md, lcnotation/archive/query.py):
the spec's examples, every field against what the package computes on its own,
the text and JSON forms alike, and no query text that raises anything but
QueryError."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import List

import pytest
from hypothesis import given, strategies as st

from lcnotation import check, format_games, generate_games, read_games
from lcnotation.archive import game_digest, scan
from lcnotation.archive.query import (FIELDS, FileFindings, GameView, Level, QueryError,
                                      compile_query, parse_query, query_from_json)
from lcnotation.lostcities.game.digest import move_text
from lcnotation import lint_text

from strategies import examples

SPEC = Path(__file__).resolve().parent.parent / "spec" / "query.md"
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


def _selected(query: str, data: bytes) -> List[int]:
    q = compile_query(query)
    findings = FileFindings() if q.level >= Level.FINDINGS else None
    chosen = []
    for entry in scan(io.BytesIO(data), path="spec.lcn"):
        view = GameView(entry, findings=findings)
        if findings is not None:
            view.findings()
        if q.matches(view):
            chosen.append(entry.number)
    return chosen


def test_the_examples_of_the_spec() -> None:
    blocks = [(m.group(1).strip(), m.group(2)) for m in _FENCE.finditer(SPEC.read_text("utf-8"))]
    data = b""
    checked = 0
    for info, body in blocks:
        if info == "lcn":
            data = body.encode("utf-8")
        elif info == "query":
            for line in body.splitlines():
                query, _, expected = line.rpartition(" => ")
                if expected.startswith("error: "):
                    with pytest.raises(QueryError) as caught:
                        compile_query(query)
                    assert str(caught.value).startswith(expected[len("error: "):]), query
                else:
                    want = [] if expected == "none" else [int(n) for n in expected.split(", ")]
                    assert _selected(query, data) == want, query
                checked += 1
    assert checked >= 25


GAMES = list(generate_games(40, seed=21))
DATA = format_games(GAMES).encode("utf-8")


def _each(query: str) -> List[bool]:
    q = parse_query(query)
    findings = FileFindings() if q.level >= Level.FINDINGS else None
    out = []
    for entry in scan(io.BytesIO(DATA)):
        view = GameView(entry, findings=findings)
        if findings is not None:
            view.findings()
        out.append(q.matches(view))
    return out


def test_outcome_and_table_fields_say_what_the_checker_says() -> None:
    reports = [check(g) for g in GAMES]
    assert _each("score[1] < score[2]") == [r.score.totals[0] < r.score.totals[1]
                                           for r in reports]
    assert _each("winner == Player1") == [r.score.winner == r.score.players[0]
                                          and r.score.totals[0] != r.score.totals[1]
                                          for r in reports]
    assert _each("margin >= 30") == [abs(r.score.totals[0] - r.score.totals[1]) >= 30
                                     for r in reports]
    assert _each("complete") == [r.complete for r in reports]
    assert _each("expedition.cards >= 6") == [
        any(len(r.state.expedition(p, c)) >= 6 for p in (0, 1) for c in r.score.colors)
        for r in reports]
    assert _each("expedition[2, B].wagers == 2") == [
        sum(card.rank == 0 for card in r.state.expedition(1, "B")) == 2 for r in reports]
    assert _each("expedition.score < -30") == [
        any(v < -30 for side in r.score.expeditions for v in side) for r in reports]
    assert _each("color.opened == 2") == [
        any(all(r.state.expedition(p, c) for p in (0, 1)) for c in r.score.colors)
        for r in reports]
    assert _each("color[Y].discards >= 3") == [len(r.state.discard_pile("Y")) >= 3
                                               for r in reports]
    assert any(_each("expedition.cards >= 6")) and not all(_each("expedition.cards >= 6"))


def test_move_and_header_fields() -> None:
    assert _each('move == "RH-D"') == [any(move_text(m) == "RH-D" for m in g.moves)
                                       for g in GAMES]
    assert _each("moves > 60") == [len(g.moves) > 60 for g in GAMES]
    assert _each('Player1 ~ /^[A-F]/') == [bool(re.match("[A-F]", g.header("Player1") or ""))
                                           for g in GAMES]
    assert _each('colors == "RGWBYK"') == [g.header("Colors") == "RGWBYK" for g in GAMES]
    assert _each(f'digest == "{game_digest(GAMES[3])}"') == [i == 3 for i in range(40)]
    assert _each("number <= 3") == [i < 3 for i in range(40)]
    assert _each('player[2] == Player2') == [True] * 40


def test_findings_fields_say_what_lint_says() -> None:
    text = format_games(GAMES[:6], "lower").replace("\n\n1.", "\n\n1. r11-d")
    data = text.encode("utf-8")
    games = text.split("\n\n[")
    assert len(games) == 6
    q = parse_query('code == "S102" and errors > 0')
    got = []
    findings = FileFindings()
    for entry in scan(io.BytesIO(data)):
        view = GameView(entry, findings=findings)
        got.append((q.matches(view), parse_query("clean").matches(view)))
    assert got == [(True, False)] * 6
    report = lint_text(text)
    assert {d.code for d in report.diagnostics} >= {"S102", "N103"}


def test_a_query_on_headers_never_parses_the_moves(monkeypatch) -> None:
    from lcnotation.archive.reader import GameEntry

    def no(self, strict: bool = False):  # type: ignore[no-untyped-def]
        raise AssertionError("parsed")

    monkeypatch.setattr(GameEntry, "game", no)
    q = parse_query('Player1 == "Ada" or Round in ("2", "3") or not Deck')
    assert q.level is Level.HEADERS
    assert sum(q.matches(GameView(e)) for e in scan(io.BytesIO(DATA))) == 40


def test_the_json_form_is_the_text_form() -> None:
    pairs = [
        ('Player1 == "Ada" and expedition.wagers >= 2',
         {"and": [{"==": [{"field": "Player1"}, "Ada"]},
                  {">=": [{"field": "expedition", "attribute": "wagers"}, 2]}]}),
        ("not complete or score[1] < 0",
         {"or": [{"not": {"field": "complete"}}, {"<": [{"field": "score[1]"}, 0]}]}),
        ('Player2 in ("Bram", "Cleo")', {"in": [{"field": "Player2"}, ["Bram", "Cleo"]]}),
        ("expedition[1, R].cards > 3",
         {">": [{"field": "expedition", "player": 1, "color": "R", "attribute": "cards"}, 3]}),
        ("Player1 ~ /^a/i", {"~": [{"header": "Player1"}, {"regex": "^a", "flags": "i"}]}),
    ]
    for text, data in pairs:
        assert _each(text) == [q.matches(v) for q, v in
                               ((query_from_json(data), GameView(e))
                                for e in scan(io.BytesIO(DATA)))], text
        if "header" not in json.dumps(data):
            assert compile_query(json.dumps(data)).fields == parse_query(text).fields


@pytest.mark.parametrize("text, message", [
    ("expedition", "expedition needs an attribute"),
    ("expedition.cardz > 1", "no attribute 'cardz'"),
    ("score[3] > 1", "a player is 1 or 2"),
    ("score[R] > 1", "score takes a player"),
    ("color[1].opened", "color takes a colour letter"),
    ("Player1[1]", "a header (Player1) takes no brackets"),
    ("winner ~ /(/", "not a regular expression"),
    ("winner ~ /a/x", "the only flag"),
    ('{"==": [1]}', "$[\"==\"]: == takes an array of two operands"),
    ('{"xor": []}', "unknown operator 'xor'"),
    ('{"==": [{"field": "score", "color": 3}, 1]}', "a color is a colour letter"),
    ("{not json", "not JSON"),
])
def test_refused_queries_say_why(text: str, message: str) -> None:
    with pytest.raises(QueryError, match=re.escape(message)):
        compile_query(text)


_WORDS = st.sampled_from(["Player1", "Round", "score", "[1]", "[R]", "[", "]", ".cards",
                          "expedition", "color", ".opened", "==", "!=", "<", ">=", "~", "!~",
                          " and ", " or ", "not ", "in", "(", ")", ",", '"Ada"', "'x'", "3",
                          "-2.5", "/^A/i", "/(/", "true", "null", "header", "code", "clean",
                          " ", "\\", "@", "=", "é", "{", "}", ":"])


@given(st.lists(_WORDS, max_size=12).map("".join))
@examples(300)
def test_no_query_text_raises_anything_but_query_error(text: str) -> None:
    try:
        q = compile_query(text)
    except QueryError:
        return
    for entry in scan(io.BytesIO(DATA[:3000])):
        q.matches(GameView(entry, findings=FileFindings()))


def test_every_field_is_documented() -> None:
    spec = SPEC.read_text("utf-8")
    for name in FIELDS:
        assert f"`{name}" in spec, name
