"""The grammar itself: it builds cleanly, names its terminals, and accepts
exactly the language the notation defines.

These tests use a plain Lark parser (no builder, no recovery), so they test
grammar/lcnotation.lark alone.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from lcnotation.lostcities.text import reader
from lcnotation.core.grammar import grammar_text
from lcnotation.lostcities.text.parser import START_SYMBOLS

SOURCE = Path(__file__).resolve().parent.parent / "grammar" / "lcnotation.lark"


def build(start, **options) -> Lark:
    return Lark(grammar_text("lcnotation.lark"), parser="lalr", lexer="contextual", start=start,
                strict=True, **options)


@pytest.fixture(scope="module")
def lark() -> Lark:
    return build(START_SYMBOLS, keep_all_tokens=True)


def accepts(lark: Lark, start: str, text: str) -> bool:
    try:
        lark.parse(text, start=start)
    except UnexpectedInput:
        return False
    return True


def tokens(tree: Tree) -> list:
    return [t for t in tree.scan_values(lambda v: isinstance(v, Token))]


# ---------------------------------------------------------------- building


def test_every_start_symbol_is_tested():
    assert set(START_SYMBOLS) == {"file", "game", "move", "cards", "colors"}


@pytest.mark.parametrize("start", START_SYMBOLS)
def test_the_grammar_builds_strictly_for_each_start_symbol(start):
    """strict=True turns terminal collisions (checked with interegular) and
    LALR conflicts into errors."""
    pytest.importorskip("interegular")
    assert build(start).parse  # built without raising


def test_the_grammar_builds_strictly_for_all_start_symbols_at_once():
    build(START_SYMBOLS)


def test_the_packaged_grammar_is_the_source_grammar():
    assert grammar_text("lcnotation.lark") == SOURCE.read_text("utf-8")


# ---------------------------------------------------------------- terminals


def test_every_terminal_is_named(lark):
    names = {t.name for t in lark.terminals}
    assert names == {"COLOR", "RANK", "DISCARD", "DRAW_COLOR", "DRAW_PILE", "MOVE_NUMBER",
                     "HEADER", "BRACE_COMMENT", "LINE_COMMENT", "WS", "MINUS"}
    assert not any(name.startswith("__ANON") for name in names)
    # MINUS is the hyphen, which no dialect spells differently; like every part
    # of a move after the colour, it looks back to forbid white space before it.
    minus = next(t for t in lark.terminals if t.name == "MINUS")
    assert minus.pattern.value.endswith("-") and minus.pattern.value.startswith("(?<=")
    assert lark.ignore_tokens == ["WS"]


@pytest.mark.parametrize("text, expected", [
    ("R3-D", [("COLOR", "R"), ("RANK", "3"), ("MINUS", "-"), ("DRAW_PILE", "D")]),
    ("r10x-b", [("COLOR", "r"), ("RANK", "10"), ("DISCARD", "x"), ("MINUS", "-"),
                ("DRAW_COLOR", "b")]),
    ("BhD-d", [("COLOR", "B"), ("RANK", "h"), ("DISCARD", "D"), ("MINUS", "-"),
               ("DRAW_PILE", "d")]),
    ("12.kH-K", [("MOVE_NUMBER", "12."), ("COLOR", "k"), ("RANK", "H"), ("MINUS", "-"),
                 ("DRAW_COLOR", "K")]),
])
def test_tokens_whose_spelling_varies_keep_their_spelling(lark, text, expected):
    tree = lark.parse(text, start="move")
    assert [(t.type, str(t)) for t in tokens(tree)] == expected


@pytest.mark.parametrize("letter", string.ascii_letters)
def test_which_letters_are_colours_ranks_markers_and_draws(lark, letter):
    upper = letter.upper()
    assert accepts(lark, "move", f"{letter}3-D") == (upper not in "DHX")
    assert accepts(lark, "move", f"R{letter}-D") == (upper == "H")
    assert accepts(lark, "move", f"R3{letter}-D") == (upper in "DX")
    assert accepts(lark, "move", f"R3-{letter}") == (upper not in "HX")
    assert accepts(lark, "colors", letter) == (upper not in "DHX")


@pytest.mark.parametrize("char", ["\u212a", "\u0130", "\u0131", "\u017f", "\uff32", "é", "Ж"])
def test_non_ascii_look_alikes_are_not_letters_of_the_notation(lark, char):
    # The Kelvin sign, dotted/dotless I and long s case-fold to ASCII letters;
    # a grammar written with /i would accept them.
    assert not accepts(lark, "move", f"{char}3-D")
    assert not accepts(lark, "move", f"R3-{char}")
    assert not accepts(lark, "colors", char)


def test_the_header_pattern_of_the_reader_is_the_grammars(lark):
    """split_games finds header lines with its own copy of the HEADER terminal."""
    header = next(t for t in lark.terminals if t.name == "HEADER")
    # Lark has turned the escapes \t, \r and \n into the characters themselves.
    ours = header.pattern.value.replace("\t", r"\t").replace("\r", r"\r").replace("\n", r"\n")
    assert reader._HEADER_TOKEN.pattern == ours


# ---------------------------------------------------------------- the language


@pytest.mark.parametrize("text", [
    "R3-D", "BHD-D", "R4-B", "KH-K", "P7D-R", "BHX-D", "bhd-d", "r10-b", "r10x-B", "Y2d-D",
    "G10-D", "1. R3-D", "1.R3-D", "123. R3-D", "1. {c} R3-D", "1. ;c\nR3-D",
    " R3-D ", "\ufeffR3-D", "\tR3-D\n",
])
def test_move_accepts(lark, text):
    assert accepts(lark, "move", text)


@pytest.mark.parametrize("text", [
    "", "R", "R3", "R3-", "R-D", "3-D", "-D", "RR3-D",
    "R11-D", "R1-D", "R0-D", "R01-D", "R100-D", "RH3-D", "R3H-D",
    "D3-D", "H3-D", "X3-D", "d3-d", "h3-d", "x3-d",
    "R3-H", "R3-X", "R3-h", "R3-x", "R3-1",
    "R3-BD", "R3-DX", "R3-DD", "R3-DB4-D", "R3-D-D", "R3--D", "R3DD-D", "R3DX-D",
    "R3-D!!", "R3-D_", "R3-D1", "R3-Dé",
    "1.", "1 R3-D", "1..R3-D", ".R3-D", "R3-D 2.",
    "R3-D R4-D", "R3-D {c}", "{c} R3-D", "[Event \"x\"] R3-D", "R3-{c}D", "R{c}3-D",
])
def test_move_rejects(lark, text):
    assert not accepts(lark, "move", text)


@pytest.mark.parametrize("text", [
    "", " \n\t", "{c}", ";c", "; c\n{d}\n",
    "R3-D BHD-D R4-B", "1. R3-D 2. BHD-D 3. R4-B", "1. R3-D BHD-D 2. R4-B",
    "[Event \"x\"]", "[Event \"x\"]\n[Site \"y\"]\n\n1. R3-D",
    "{a} [Event \"x\"] ;b\n{c} 1. {d} R3-D {e} ;f\n{g} BHD-D",
    "[Event \"a \\\" b \\\\ c\"]", "[ Event\t\"\" ]", "[x_2 \"v\"]",
    "R3-D{c}BHD-D", "R3-D;c\nBHD-D",
])
def test_game_accepts(lark, text):
    assert accepts(lark, "game", text)


@pytest.mark.parametrize("text", [
    "R3-D [Event \"x\"]", "R3-D\n[Event \"x\"]\nG4-D",       # a header after moves
    "[Event \"x]", "[Event \"x\\y\"]", "[Event \"x\"", "[\"x\"]", "[Event x]",
    "[1x \"v\"]", "[Event \"a\nb\"]",
    "{never closed", "}", "R3-D }", "1.", "R3-D 2.", "1. 2. R3-D", "12 R3-D",
    "R3-DBHD-D", "R3-D,BHD-D",
])
def test_game_rejects(lark, text):
    assert not accepts(lark, "game", text)


@pytest.mark.parametrize("text", [
    "", "[Round \"1\"]\nR3-D\n[Round \"2\"]\nG4-D", "R3-D\n[Round \"2\"]",
    "{a}\n[Round \"1\"] R3-D [Round \"2\"] ;b\n",
])
def test_file_accepts_games_one_after_another(lark, text):
    assert accepts(lark, "file", text)


@pytest.mark.parametrize("text", ["R11-D", "[Round \"1\"", "1.", "}"])
def test_file_rejects(lark, text):
    assert not accepts(lark, "file", text)


def test_a_file_of_one_game_is_a_game(lark):
    for text in ["", "{c}", "[A \"1\"]", "R3-D", "[A \"1\"] {c}\n1. R3-D ;d\n"]:
        assert accepts(lark, "file", text) and accepts(lark, "game", text)


@pytest.mark.parametrize("text, ok", [
    ("RGWBY", True), ("RGWBYK", True), ("rgwbyp", True), ("R G W", True), ("A", True),
    ("", False), ("RGWBYD", False), ("RH", False), ("R1", False), ("R,G", False),
])
def test_colors(lark, text, ok):
    assert accepts(lark, "colors", text) == ok


@pytest.mark.parametrize("text, ok", [
    ("", True), ("R3", True), ("R3 BH W10 g2 kh", True), ("R3R4", True),
    ("R11", False), ("D3", False), ("R", False), ("R3-D", False), ("R3,B4", False),
    ("R3D", False),
])
def test_cards(lark, text, ok):
    # "R3R4" (cards without a space between them) is a header-value error that
    # parse_cards reports, not a grammar error.
    assert accepts(lark, "cards", text) == ok
