"""The JSON form: lossless round trips, refusals with JSON paths, and the schema.

Every JSON document these tests produce is checked against
``spec/lcnotation-json.schema.json`` by :func:`schema_errors`, a small
validator for the part of JSON Schema 2020-12 that the schema uses.  It
refuses any keyword it does not implement, so no part of the schema can be
silently skipped, and it is itself tested on documents that must fail.
"""

from __future__ import annotations

import json
import pickle
import re
import string
from pathlib import Path
from typing import Any, Dict, List

import pytest
from hypothesis import given, settings, strategies as st

from lcnotation.lostcities.text.ast import HANDSHAKE, Card, Comment, Draw, Game, Header, Move, Placement
from lcnotation.lostcities.convert import convert_text, detect_dialect
from lcnotation.lostcities.text.dialects import ConversionError
from lcnotation.lostcities.text.formatter import format_games
from lcnotation.lostcities.jsonform import (JSONFormError, from_json, iter_json, locate, to_json)
from lcnotation.lostcities.text.reader import parse_game, parse_games, read_games

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "spec" / "lcnotation-json.schema.json").read_text("utf-8"))


# ---------------------------------------------------------------- a small validator

_ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "$defs"}
_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool))
    or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}


def _json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema means it: true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return a == b


def _pattern(p: str) -> "re.Pattern[str]":
    # ECMA-262's '$' matches only at the very end; Python's also before a final '\n'.
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", p))


def schema_errors(value: Any, schema: Dict[str, Any] = SCHEMA, at: str = "$") -> List[str]:
    """Where ``value`` breaks ``schema`` (empty when it is valid)."""
    unknown = set(schema) - _ANNOTATIONS - set(_KEYWORDS)
    if unknown:
        raise NotImplementedError(f"schema keyword(s) {sorted(unknown)} at {at}")
    errors: List[str] = []
    for keyword in _KEYWORDS:
        if keyword in schema:
            errors.extend(_KEYWORDS[keyword](value, schema, at))
    return errors


def _ref(value, schema, at):
    name = schema["$ref"]
    assert name.startswith("#/$defs/"), name
    return schema_errors(value, SCHEMA["$defs"][name[len("#/$defs/"):]], at)


def _type(value, schema, at):
    return [] if _TYPES[schema["type"]](value) else [f"{at}: not of type {schema['type']}"]


def _const(value, schema, at):
    return [] if _json_equal(value, schema["const"]) else [f"{at}: not {schema['const']!r}"]


def _enum(value, schema, at):
    ok = any(_json_equal(value, e) for e in schema["enum"])
    return [] if ok else [f"{at}: not one of {schema['enum']!r}"]


def _pattern_kw(value, schema, at):
    if not isinstance(value, str) or _pattern(schema["pattern"]).search(value):
        return []
    return [f"{at}: does not match {schema['pattern']!r}"]


def _required(value, schema, at):
    if not isinstance(value, dict):
        return []
    return [f"{at}: no {k!r}" for k in schema["required"] if k not in value]


def _properties(value, schema, at):
    if not isinstance(value, dict):
        return []
    return [e for k, sub in schema["properties"].items() if k in value
            for e in schema_errors(value[k], sub, f"{at}.{k}")]


def _additional(value, schema, at):
    assert schema["additionalProperties"] is False
    if not isinstance(value, dict):
        return []
    return [f"{at}: unknown key {k!r}" for k in value if k not in schema.get("properties", {})]


def _prefix_items(value, schema, at):
    if not isinstance(value, list):
        return []
    return [e for i, (v, sub) in enumerate(zip(value, schema["prefixItems"]))
            for e in schema_errors(v, sub, f"{at}[{i}]")]


def _items(value, schema, at):
    if not isinstance(value, list):
        return []
    skip = len(schema.get("prefixItems", ()))
    return [e for i, v in enumerate(value[skip:], skip)
            for e in schema_errors(v, schema["items"], f"{at}[{i}]")]


def _min_items(value, schema, at):
    ok = not isinstance(value, list) or len(value) >= schema["minItems"]
    return [] if ok else [f"{at}: fewer than {schema['minItems']} items"]


def _max_items(value, schema, at):
    ok = not isinstance(value, list) or len(value) <= schema["maxItems"]
    return [] if ok else [f"{at}: more than {schema['maxItems']} items"]


def _one_of(value, schema, at):
    passing = sum(not schema_errors(value, sub, at) for sub in schema["oneOf"])
    return [] if passing == 1 else [f"{at}: matches {passing} of oneOf, not exactly 1"]


_KEYWORDS = {
    "$ref": _ref, "type": _type, "const": _const, "enum": _enum, "pattern": _pattern_kw,
    "required": _required, "properties": _properties, "additionalProperties": _additional,
    "prefixItems": _prefix_items, "items": _items, "minItems": _min_items,
    "maxItems": _max_items, "oneOf": _one_of,
}


def checked(document: str) -> str:
    """``document`` after asserting that it is valid against the schema."""
    errors = schema_errors(json.loads(document))
    assert not errors, errors
    return document


def dumped(games) -> str:
    return checked(to_json(games))


# ---------------------------------------------------------------- games to generate

_COLORS = "RGWBYKP"
# Characters that mean something in a record, often; any other character, sometimes.
texts = st.text(st.sampled_from(' aZ3{}[];"\\-.\t\r\n\ufeffü✓'), max_size=10) | st.text(max_size=4)
comments = st.one_of(
    # A "{" comment that .lcn can hold: no "}", no lone CR, no line starting "[".
    st.builds(Comment, texts.map(lambda t: t.replace("}", "")).filter(
        lambda t: not re.search(r"\r(?!\n)|\n[ \t\f\v\ufeff]*\[", t)), st.just("brace")),
    st.builds(Comment, texts.map(lambda t: re.sub(r"[\r\n]", "", t)), st.just("line")))
comment_lists = st.lists(comments, max_size=2).map(tuple)
moves = st.builds(
    Move,
    st.builds(Placement, st.builds(Card, st.sampled_from(_COLORS),
                                   st.sampled_from([HANDSHAKE, *range(2, 11)])), st.booleans()),
    st.builds(Draw, st.none() | st.sampled_from(_COLORS)),
    comment_lists)
headers = st.builds(
    Header,
    st.builds(str.__add__, st.sampled_from(string.ascii_letters),
              st.text(string.ascii_letters + string.digits + "_", max_size=6)),
    texts.map(lambda t: re.sub(r"[\r\n]", "", t)),
    comment_lists)


@st.composite
def game_lists(draw, max_games: int = 3) -> List[Game]:
    """Games that a file can hold one after another (format_games' rules)."""
    n = draw(st.integers(0, max_games))
    result = []
    for i in range(n):
        last = i == n - 1
        result.append(Game(
            tuple(draw(st.lists(headers, min_size=0 if i == 0 else 1, max_size=3))),
            tuple(draw(st.lists(moves, min_size=0 if last else 1, max_size=6))),
            draw(comment_lists) if i == 0 else ()))
    return result


# ---------------------------------------------------------------- round trips


@settings(max_examples=150, deadline=None)
@given(game_lists())
def test_json_round_trip_gives_equal_games(games):
    assert from_json(dumped(games)) == games


@settings(max_examples=100, deadline=None)
@given(game_lists())
def test_canonical_text_survives_json_byte_for_byte(games):
    text = format_games(games)
    read = list(parse_games(text))
    assert format_games(from_json(dumped(read))) == text


@settings(max_examples=50, deadline=None)
@given(game_lists())
def test_conversion_to_json_and_back(games):
    text = format_games(games)
    document = checked(convert_text(text, to="json"))
    assert detect_dialect(document).dialect == "json"
    assert convert_text(document, to="v1") == text
    assert convert_text(document, to="json") == document


@settings(max_examples=50, deadline=None)
@given(game_lists())
def test_a_document_survives_the_way_through_lcn(games):
    document = dumped(games)
    back = convert_text(convert_text(document, to="v1"), to="json")
    if games == [Game()]:  # white space only: no game in the file written
        assert json.loads(back)["games"] == []
    else:
        assert back == document


MESSY = """{a file} ; comments first
[Event  "The \\"Open\\""]   {header note}
[Site "Bar"]

1. rh-d {wager} 2. BHX-D
3. R4-B ;draws it back
[Event "Two"]
  y2x-D 10. W10-g
"""


def test_any_layout_reads_back_to_an_equal_tree_with_every_comment():
    games = list(parse_games(MESSY))
    back = from_json(dumped(games))
    assert back == games
    assert [c.text for c in back[0].comments] == ["a file", " comments first"]
    assert back[0].headers[0].value == 'The "Open"'
    assert back[0].headers[0].comments == (Comment("header note"),)
    assert back[0].moves[2].comments == (Comment("draws it back", "line"),)
    assert [m.turn for m in back[1].moves] == [0, 1]


def test_the_bundled_example_round_trips():
    path = ROOT / "examples" / "match.lcn"
    games = list(read_games(path))
    assert games and all(g.moves for g in games)
    assert from_json(dumped(games)) == games
    canonical = format_games(games)
    assert format_games(from_json(to_json(parse_games(canonical)))) == canonical


def test_move_fields():
    doc = json.loads(dumped([parse_game("RH-D BHD-R W10-D")]))
    fields = [{k: m[k] for k in ("text", "color", "rank", "discard", "draw")}
              for m in doc["games"][0]["moves"]]
    assert fields == [
        {"text": "RH-D", "color": "R", "rank": 0, "discard": False, "draw": None},
        {"text": "BHD-R", "color": "B", "rank": 0, "discard": True, "draw": "R"},
        {"text": "W10-D", "color": "W", "rank": 10, "discard": False, "draw": None},
    ]


def test_streaming_pieces_make_the_same_document():
    games = list(parse_games(MESSY))
    assert "".join(iter_json(iter(games))) == to_json(games)
    assert json.loads(to_json([]))["games"] == []


def test_non_ascii_is_written_as_is():
    game = parse_game('[Site "Zürich"] R3-D {très bien ✓}')
    document = dumped([game])
    assert "Zürich" in document and "très bien ✓" in document
    assert from_json(document) == [game]


def test_a_game_with_syntax_errors_is_refused_not_half_written():
    game = parse_game("R3-D R11-D G4-D")
    with pytest.raises(ConversionError) as info:
        to_json([parse_game("R2-D"), game])
    assert info.value.errors == game.errors
    assert info.value.code == "N103"


# ---------------------------------------------------------------- refusals

GOOD = {"format": "lcnotation", "version": 1, "games": [
    {"comments": [{"kind": "line", "text": " first"}],
     "headers": [{"name": "Event", "value": "x"}],
     "moves": [{"text": "R3-D", "color": "R", "rank": 3, "discard": False, "draw": None}]},
    {"headers": [{"name": "Event", "value": "y", "comments": []}],
     "moves": [{"text": "BHD-G", "color": "B", "rank": 0, "discard": True, "draw": "G",
                "comments": [{"kind": "brace", "text": "ok"}]}]},
]}


def _with(path, value):
    """A copy of GOOD with the value at ``path`` replaced (or deleted, for ...)."""
    doc = json.loads(json.dumps(GOOD))
    *parents, last = path
    node = doc
    for key in parents:
        node = node[key]
    if value is ...:
        del node[last]
    else:
        node[last] = value
    return doc


def test_the_reference_document_is_good():
    assert not schema_errors(GOOD)
    games = from_json(json.dumps(GOOD))
    assert format_games(games) == (
        "; first\n[Event \"x\"]\n\n1. R3-D\n\n[Event \"y\"]\n\n1. BHD-G {ok}\n")


# (document, code, JSON path, words of the message, does the schema catch it too?)
BAD = [
    (_with(("format",), "pgn"), "J102", "$.format", "expected \"lcnotation\"", True),
    (_with(("version",), 2), "J102", "$.version", "cannot read version 2", True),
    (_with(("version",), True), "J102", "$.version", "cannot read version true", True),
    (_with(("games",), {}), "J102", "$.games", "expected an array of games", True),
    (_with(("extra",), 1), "J102", "$.extra", "unknown key 'extra'", True),
    (_with(("games", 0, "moves"), ...), "J102", "$.games[0]", "has no 'moves'", True),
    (_with(("games", 0, "moves", 0, "colour"), "R"), "J102", "$.games[0].moves[0].colour",
     "unknown key 'colour'", True),
    (_with(("games", 0, "moves", 0, "rank"), 1), "J102", "$.games[0].moves[0].rank",
     "expected a rank", True),
    (_with(("games", 0, "moves", 0, "rank"), 3.5), "J102", "$.games[0].moves[0].rank",
     "expected a rank", True),
    (_with(("games", 0, "moves", 0, "discard"), 0), "J102", "$.games[0].moves[0].discard",
     "expected true or false", True),
    (_with(("games", 0, "moves", 0, "color"), "D"), "J102", "$.games[0].moves[0].color",
     "expected a colour letter", True),
    (_with(("games", 0, "moves", 0, "draw"), "d"), "J102", "$.games[0].moves[0].draw",
     "expected null (the draw pile) or a colour letter", True),
    (_with(("games", 0, "moves", 0, "text"), "R11-D"), "J103", "$.games[0].moves[0].text",
     "is not a move: expected a rank", True),
    (_with(("games", 0, "moves", 0, "text"), "r3-d"), "J103", "$.games[0].moves[0].text",
     "not in the canonical spelling: write \"R3-D\"", True),
    (_with(("games", 0, "moves", 0, "text"), " R3-D"), "J103", "$.games[0].moves[0].text",
     "not in the canonical spelling", True),
    (_with(("games", 0, "moves", 0, "text"), 7), "J102", "$.games[0].moves[0].text",
     "expected the move text (a string), found a number", True),
    (_with(("games", 0, "moves", 0, "text"), "R4-D"), "J104", "$.games[0].moves[0]",
     "the fields say R3-D but the text says R4-D", False),
    (_with(("games", 0, "comments", 0, "kind"), "block"), "J102",
     "$.games[0].comments[0].kind", "\"brace\" or \"line\"", True),
    (_with(("games", 0, "comments", 0, "text"), "a\nb"), "J105",
     "$.games[0].comments[0].text", "cannot contain a line break", True),
    (_with(("games", 1, "moves", 0, "comments", 0, "text"), "a}b"), "J105",
     "$.games[1].moves[0].comments[0].text", "cannot contain '}'", True),
    (_with(("games", 0, "headers", 0, "name"), "Event Name"), "J105",
     "$.games[0].headers[0].name", "cannot be a header name", True),
    (_with(("games", 0, "headers", 0, "value"), "a\rb"), "J105",
     "$.games[0].headers[0].value", "cannot contain a line break", True),
    (_with(("games", 1, "headers"), []), "J106", "$.games[1]",
     "must start with a header", True),
    (_with(("games", 1, "comments"), [{"kind": "brace", "text": "c"}]), "J106", "$.games[1]",
     "no comments before it", True),
    (_with(("games", 0, "moves"), []), "J106", "$.games[0].moves",
     "only the last game can be without moves", False),
    ([], "J102", "$", "expected a JSON form document (an object), found an array", True),
]


@pytest.mark.parametrize("doc, code, where, words, schema_too", BAD)
def test_bad_documents_are_refused_with_their_json_path(doc, code, where, words, schema_too):
    text = json.dumps(doc, indent=1)
    with pytest.raises(ConversionError) as info:
        from_json(text, path="doc.json")
    errors = info.value.errors
    assert [(e.code, e.json_path) for e in errors] == [(code, where)]
    err = errors[0]
    assert isinstance(err, JSONFormError) and err.path == "doc.json"
    assert words in err.message and err.message.startswith(where + ": ")
    # The position is that of the value the path names.
    assert text[err.span.start:err.span.end] == _text_at(text, where)
    assert bool(schema_errors(doc)) == schema_too


def _text_at(text: str, where: str) -> str:
    parts = tuple(int(p) if p.isdigit() else p
                  for p in re.findall(r"\.([^.\[]+)|\[(\d+)\]", where) for p in p if p)
    span = locate(text, [parts])[parts]
    return text[span.start:span.end]


def test_every_problem_is_reported_in_document_order():
    doc = _with(("games", 0, "moves", 0, "rank"), 11)
    doc["games"][1]["moves"][0]["text"] = "BHD-X"
    doc["games"][0]["headers"][0]["name"] = "1st"
    text = json.dumps(doc, indent=2)
    with pytest.raises(ConversionError) as info:
        from_json(text)
    assert [e.json_path for e in info.value.errors] == [
        "$.games[0].headers[0].name", "$.games[0].moves[0].rank", "$.games[1].moves[0].text"]
    assert [e.line for e in info.value.errors] == sorted(e.line for e in info.value.errors)
    assert "and 2 more problems" in str(info.value)


def test_line_and_column_name_the_value():
    text = '{"format": "lcnotation",\n "version": 1,\n "games": [{"headers": [],\n  "moves": [\n   {"text": "R3-D", "color": "R", "rank": 3, "discard": "no", "draw": null}]}]}'
    with pytest.raises(ConversionError) as info:
        from_json(text)
    err = info.value
    assert (err.line, err.column, err.end_column) == (5, 57, 61)
    assert str(err) == ('line 5, column 57: $.games[0].moves[0].discard: expected true or '
                        'false, found a string (J102)')


def test_not_json_names_the_place():
    with pytest.raises(ConversionError) as info:
        from_json('{"format": "lcnotation",\n "version": 1 "games": []}')
    assert (info.value.code, info.value.line, info.value.column) == ("J101", 2, 15)
    with pytest.raises(ConversionError, match="J101"):
        from_json("")
    with pytest.raises(ConversionError, match="nested too deeply"):
        from_json("[" * 100000)


def test_a_repeated_key_is_refused_rather_than_one_value_dropped():
    text = ('{"format": "lcnotation", "version": 1, "games": [{"headers": [], "moves": [{'
            '"text": "R3-D", "color": "R", "rank": 3, "rank": 4, "discard": false, "draw": null}]}]}')
    with pytest.raises(ConversionError) as info:
        from_json(text)
    assert [(e.code, e.json_path) for e in info.value.errors] == [
        ("J102", "$.games[0].moves[0].rank")]
    assert "more than once" in info.value.message


def test_a_byte_order_mark_is_skipped_and_positions_stay_right():
    assert from_json("\ufeff" + json.dumps(GOOD)) == from_json(json.dumps(GOOD))
    with pytest.raises(ConversionError) as info:
        from_json('\ufeff{"format": 1, "version": 1, "games": []}')
    assert info.value.column == 13


def test_errors_survive_pickling():
    with pytest.raises(ConversionError) as info:
        from_json(json.dumps(_with(("games", 0, "moves", 0, "rank"), 1)), path="a.json")
    again = pickle.loads(pickle.dumps(info.value))
    assert isinstance(again, ConversionError) and str(again) == str(info.value)
    (err,) = again.errors
    assert isinstance(err, JSONFormError)
    assert (err.json_path, err.path, err.span) == ("$.games[0].moves[0].rank", "a.json",
                                                   info.value.span)


def test_locate_walks_strings_with_brackets_and_escapes():
    text = '{"a\\"]": [ "x}]", {"b": [1, {"c": "\\\\"}], "d": null} ], "e": -1.5e3}'
    data = json.loads(text)
    paths = [("a\"]",), ("a\"]", 0), ("a\"]", 1, "b", 1, "c"), ("a\"]", 1, "d"), ("e",)]
    spans = locate(text, paths)
    for path in paths:
        value = data
        for key in path:
            value = value[key]
        assert json.loads(text[spans[path].start:spans[path].end]) == value


# ---------------------------------------------------------------- spec/json-form.md

_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```$", re.M | re.S)


def _spec_blocks() -> Dict[str, List[str]]:
    blocks: Dict[str, List[str]] = {}
    for m in _FENCE.finditer((ROOT / "spec" / "json-form.md").read_text("utf-8")):
        blocks.setdefault(m.group(1).strip(), []).append(m.group(2))
    return blocks


def test_the_example_of_the_spec_is_what_the_code_writes():
    blocks = _spec_blocks()
    (record,), (document,) = blocks["lcn"], blocks["json"]
    assert convert_text(record, to="json") == checked(document)
    back = convert_text(document, to="v1")
    assert back == format_games(parse_games(record)) and "1. W2D-Y\n" in back
    assert from_json(document) == list(parse_games(record))


def test_the_refused_example_of_the_spec_gives_the_errors_it_shows():
    blocks = _spec_blocks()
    (document,), (shown,) = blocks["json refused"], blocks["errors"]
    with pytest.raises(ConversionError) as info:
        from_json(document)
    assert "".join(f"{e.line}:{e.column} {e.code} {e.message}\n"
                   for e in info.value.errors) == shown
    assert schema_errors(json.loads(document))


def test_the_codes_of_the_spec_are_the_codes_used():
    text = (ROOT / "spec" / "json-form.md").read_text("utf-8")
    documented = set(re.findall(r"^\| `(J\d{3})` \|", text, re.M))
    used = set(re.findall(r'"(J\d{3})"', (ROOT / "lcnotation" / "lostcities" / "jsonform.py").read_text("utf-8")))
    assert documented == used == {f"J10{i}" for i in range(1, 8)}


# ---------------------------------------------------------------- the validator itself


def _subschemas(node):
    for key, value in node.items():
        if key in ("properties", "$defs"):
            yield from value.values()
        elif key in ("prefixItems", "oneOf"):
            yield from value
        elif key == "items":
            yield value


def test_the_validator_knows_every_keyword_of_the_schema():
    seen = 0
    todo = [SCHEMA]
    while todo:
        node = todo.pop()
        assert not set(node) - _ANNOTATIONS - set(_KEYWORDS), node
        seen += 1
        todo.extend(_subschemas(node))
    assert seen > 20
    with pytest.raises(NotImplementedError):
        schema_errors(1, {"minimum": 0})


def test_the_validator_catches_what_it_must():
    assert schema_errors({"kind": "brace", "text": "a}"}, SCHEMA["$defs"]["comment"])
    assert schema_errors({"kind": "line", "text": "a\n"}, SCHEMA["$defs"]["comment"])
    assert not schema_errors({"kind": "line", "text": "a}"}, SCHEMA["$defs"]["comment"])
    move = SCHEMA["$defs"]["move"]
    ok = {"text": "R3-D", "color": "R", "rank": 3, "discard": False, "draw": None}
    assert not schema_errors(ok, move)
    for key, bad in [("rank", True), ("rank", 1), ("discard", 1), ("draw", "X"),
                     ("text", "R3-D\n"), ("color", "r")]:
        assert schema_errors({**ok, key: bad}, move), (key, bad)


# ---------------------------------------------------------------- the digest


def test_each_game_carries_its_digest_and_a_wrong_one_is_refused():
    from lcnotation.archive import game_digest

    games = list(parse_games('[Event "Club"]\nRH-D {a wager} BHD-R\n[Event "B"]\nr3-d'))
    data = json.loads(to_json(games))
    assert [g["digest"] for g in data["games"]] == [game_digest(g) for g in games]
    assert list(data["games"][0])[0] == "digest"
    # Absent, it is not required; given, it must be the game's.
    del data["games"][0]["digest"]
    assert from_json(json.dumps(data)) == games
    data["games"][1]["digest"] = "0" * 32
    with pytest.raises(ConversionError) as caught:
        from_json(json.dumps(data, indent=1))
    (problem,) = caught.value.errors
    assert problem.code == "J107" and problem.json_path == "$.games[1].digest"
    assert game_digest(games[1]) in problem.message and problem.line > 1
