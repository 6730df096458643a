"""Dialects: their definitions, what they can write, and the reader taking them all."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings, strategies as st

from lcnotation.lostcities.text.ast import HANDSHAKE, Card, Comment, Draw, Game, Header, Move, Placement, Span
from lcnotation.lostcities.convert import convert_text, detect_dialect
from lcnotation.lostcities.text.dialects import (COLOR_LETTERS, DIALECTS, ConversionError, Dialect,
                                 get_dialect, register_dialect)
from lcnotation.core.diagnostics import NotationError
from lcnotation.lostcities.text.formatter import format_game, format_games, format_move
from lcnotation.lostcities.text.reader import parse_game, parse_move


@pytest.fixture
def registry():
    """The registry, restored after the test."""
    saved = dict(DIALECTS)
    yield DIALECTS
    DIALECTS.clear()
    DIALECTS.update(saved)


def test_the_registered_dialects():
    assert list(DIALECTS) == ["v1", "x-discard", "lower", "v1-draft"]
    assert [(d.discard, d.lowercase, d.colors, d.comments) for d in DIALECTS.values()] == [
        ("D", False, None, True), ("X", False, None, True), ("D", True, None, True),
        ("D", False, "RGWBYK", True)]
    assert all(d.description for d in DIALECTS.values())


def test_get_dialect():
    assert get_dialect("lower") is DIALECTS["lower"]
    custom = Dialect("custom", "not registered", discard="X")
    assert get_dialect(custom) is custom
    with pytest.raises(ValueError, match="unknown dialect 'V1'; known dialects: v1, x-discard"):
        get_dialect("V1")


@pytest.mark.parametrize("fields, words", [
    ({"discard": "d"}, "discard marker must be D or X, not 'd'"),
    ({"discard": "H"}, "discard marker must be D or X"),
    ({"colors": "RGD"}, "colors must be distinct upper-case colour letters"),
    ({"colors": "RGr"}, "colors must be distinct"),
    ({"colors": "RGR"}, "colors must be distinct"),
    ({"colors": ""}, "colors must be distinct"),
])
def test_a_dialect_that_cannot_work_is_refused_when_defined(fields, words):
    with pytest.raises(ValueError, match=words):
        Dialect("bad", "", **fields)


def test_registering_adds_and_replaces(registry):
    loud = register_dialect(Dialect("loud", "x-discard, no comments", discard="X",
                                    comments=False))
    assert get_dialect("loud") is loud and list(registry)[-1] == "loud"
    quiet = register_dialect(Dialect("loud", "replaced"))
    assert get_dialect("loud") is quiet and list(registry).count("loud") == 1
    # A registered dialect is one conversion and detection know.
    assert convert_text("BHD-D", "loud") == "BHD-D"
    assert "loud" in detect_dialect("BHD-D").candidates


@pytest.mark.parametrize("name", ["json", "mixed", "unknown"])
def test_names_that_mean_something_else_are_refused(registry, name):
    with pytest.raises(ValueError, match="reserved"):
        register_dialect(Dialect(name, "a spelling"))
    assert name not in registry


def test_can_write_color():
    draft = get_dialect("v1-draft")
    assert [c for c in sorted(COLOR_LETTERS) if draft.can_write_color(c)] == sorted("RGWBYK")
    assert all(get_dialect("v1").can_write_color(c) for c in COLOR_LETTERS)


SAMPLES = ["R3-D", "BHD-D", "W10-B", "K2D-K", "PH-Y", "Y9-P"]


@pytest.mark.parametrize("name, spelt", [
    ("v1", ["R3-D", "BHD-D", "W10-B", "K2D-K", "PH-Y", "Y9-P"]),
    ("x-discard", ["R3-D", "BHX-D", "W10-B", "K2X-K", "PH-Y", "Y9-P"]),
    ("lower", ["r3-d", "bhd-d", "w10-b", "k2d-k", "ph-y", "y9-p"]),
])
def test_format_move_in_each_dialect(name, spelt):
    assert [format_move(parse_move(s), name) for s in SAMPLES] == spelt


def test_the_draft_dialect_refuses_other_colours():
    assert format_move(parse_move("K2D-K"), "v1-draft") == "K2D-K"
    for text, letter in [("PH-Y", "P"), ("Y9-P", "P"), ("A2-D", "A")]:
        with pytest.raises(ValueError, match=f"cannot write the colour {letter}"):
            format_move(parse_move(text), "v1-draft")
    with pytest.raises(ValueError, match="v1-draft cannot write the colour P"):
        format_games([parse_game("R3-D P4-D")], "v1-draft")


def test_a_dialect_without_comments_refuses_a_game_with_some():
    plain = Dialect("plain", "no comments", comments=False)
    assert format_game(parse_game("R3-D BHD-D"), plain) == "1. R3-D\n2. BHD-D\n"
    for text in ["{lead} R3-D", '[Event "a"] ;c\nR3-D', "R3-D {c}"]:
        with pytest.raises(ValueError, match="plain cannot write comments"):
            format_game(parse_game(text), plain)


def test_the_formatter_keeps_its_behaviour_for_v1():
    game = Game((Header("Event", "x", (Comment("c"),)),),
                (Move(Placement(Card("B", HANDSHAKE), True), Draw(None)),
                 Move(Placement(Card("Q", 10)), Draw("Q"), (Comment(" e", "line"),))))
    assert format_game(game) == '[Event "x"] {c}\n\n1. BHD-D\n2. Q10-Q ; e\n'
    assert format_game(game, "x-discard") == '[Event "x"] {c}\n\n1. BHX-D\n2. Q10-Q ; e\n'


moves = st.builds(
    Move,
    st.builds(Placement, st.builds(Card, st.sampled_from(sorted(COLOR_LETTERS)),
                                   st.sampled_from([HANDSHAKE, *range(2, 11)])), st.booleans()),
    st.builds(Draw, st.none() | st.sampled_from(sorted(COLOR_LETTERS))),
    st.just(()))


@settings(max_examples=300, deadline=None)
@given(moves, st.sampled_from(list(DIALECTS)))
def test_the_reader_reads_every_dialect_to_the_same_move(move, name):
    d = get_dialect(name)
    if not all(d.can_write_color(c) for c in (move.card.color, move.draw.color) if c):
        with pytest.raises(ValueError):
            format_move(move, d)
        return
    written = format_move(move, d)
    assert parse_move(written) == move
    assert name in detect_dialect(written).candidates


def test_conversion_error_carries_every_error():
    a = NotationError("first", Span(1, 1, 1, 2, 0, 1), code="N101", path="f.lcn")
    b = NotationError("second", Span(2, 1, 2, 2, 5, 6), code="C101", path="f.lcn")
    err = ConversionError([a, b])
    assert isinstance(err, NotationError) and isinstance(err, ValueError)
    assert (err.message, err.span, err.code, err.path, err.errors) == (
        "first", a.span, "N101", "f.lcn", (a, b))
    assert str(err) == "f.lcn, line 1, column 1: first (N101) (and 1 more problem)"
    assert str(ConversionError([b])) == "f.lcn, line 2, column 1: second (C101)"
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is ConversionError and str(again) == str(err)
    assert [(e.message, e.code, e.span) for e in again.errors] == [
        (e.message, e.code, e.span) for e in err.errors]
    with pytest.raises(ValueError):
        ConversionError([])
