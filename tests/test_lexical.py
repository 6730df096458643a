"""The notation's lexical facts are written once, in the grammar.

lcnotation.lostcities.text.lexical derives every table and expression from the
grammar's terminals.  These tests pin what it derives from the installed
grammar, and change the grammar (a new colour letter, a new blank
character) in a copy of the package to see every reader follow.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import lcnotation
from lcnotation.lostcities.text import lexical
from lcnotation.lostcities.text.fastpath import terminal_patterns
from lcnotation.core.grammar import grammar_text
from lcnotation.lostcities.text.lexical import LEXICON, Lexicon
from lcnotation.lostcities.text.parser import parser

ROOT = Path(__file__).resolve().parents[1]


def _parsed(pattern: str) -> str:
    return str(re._parser.parse(pattern))  # type: ignore[attr-defined]


def test_the_terminals_are_those_lark_reads():
    lark_terms = terminal_patterns(parser().lark)
    # HEADER_NAME is read only inside HEADER: Lark drops it from its list.
    assert set(LEXICON.terminals) - set(lark_terms) == {"HEADER_NAME"}
    for name, pattern in LEXICON.terminals.items():
        if name in lark_terms:
            assert _parsed(lark_terms[name]) == _parsed(f"(?:{pattern})"), name
    assert LEXICON.header_name.pattern in LEXICON.header.pattern


def test_the_facts_of_the_installed_grammar():
    assert LEXICON.color_letters == frozenset("ABCEFGIJKLMNOPQRSTUVWYZ")
    assert lexical.RESERVED_LETTERS == frozenset("DHX") and lcnotation.RESERVED_LETTERS == "DHX"
    assert lexical.RANK_OF == {**{str(n): n for n in range(2, 11)}, "H": 0, "h": 0}
    assert lexical.RANK_TEXT == {0: "H", **{n: str(n) for n in range(2, 11)}}
    assert lexical.RANKS == (0, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    assert LEXICON.discard_letters == frozenset("DdXx")
    assert LEXICON.draw_letters == frozenset("ABCDEFGIJKLMNOPQRSTUVWYZabcdefgijklmnopqrstuvwyz")
    assert LEXICON.upper["q"] == "Q" and "d" not in LEXICON.upper


def test_one_table_of_colour_letters():
    from lcnotation.lostcities.text import dialects, headers

    assert dialects.COLOR_LETTERS is LEXICON.color_letters
    assert headers._COLOR_CHOICES is LEXICON.color_letters


def test_a_grammar_without_its_terminals_is_refused():
    with pytest.raises(ValueError, match="lacks the terminals"):
        Lexicon("COLOR: /[A-Z]/\n")
    broken = grammar_text("lcnotation.lark").replace(r"(?![ \t\f\v\ufeff]*\[)", "")
    with pytest.raises(ValueError, match="BRACE_COMMENT"):
        Lexicon(broken)


# A changed grammar: the letter Ø (either case) is a colour, and the zero-width
# space U+200B is white space (also before a header's "[").
_NEW_COLOR = ("[A-CE-GI-WYZa-ce-gi-wyz]", "[A-CE-GI-WYZa-ce-gi-wyz\u00d8\u00f8]")
_NEW_BLANK = [(r"WS: /[\s\ufeff]+/", r"WS: /[\s\ufeff\u200b]+/"),
              (r"(?![ \t\f\v\ufeff]*\[)", r"(?![ \t\f\v\ufeff\u200b]*\[)")]

_READERS = textwrap.dedent('''
    import io, json
    import lcnotation as lcn
    from lcnotation.core.grammar import grammar_text
    from lcnotation.lostcities.text.parser import parser
    from lcnotation.lostcities.text.reader import parse_game
    from lcnotation.lostcities.jsonform import from_json, to_json
    from lcnotation.tools.lint import lint_text

    ZW = "\\u200b"
    found = {"grammar changed": "\\u00d8" in grammar_text("lcnotation.lark")}
    # The fast path, and Lark (an error in the game sends it there).
    clean = parse_game("R3-D" + ZW + "\\u00f84-\\u00f8 1." + ZW + "B5-D")
    found["fast"] = ([str(m.card.color) + str(m.draw.color) for m in clean.moves],
                     [e.code for e in clean.errors])
    broken = parse_game("R3-D" + ZW + "\\u00f84-\\u00f8 R11-D " + ZW + "\\u00d8H-D")
    found["lark"] = ([str(m.card.color) + str(m.draw.color) for m in broken.moves],
                     [e.code for e in broken.errors])
    # Game splitting and the brace comment's barrier: a header line after blanks.
    text = ('[Round "1"]\\n\\u00d83-D {open\\n' + ZW + '[Round "2"]\\n'
            + ZW + '[Colors "RGWBY\\u00d8"]\\n\\u00d84-D\\n')
    games = list(lcn.read_games(io.StringIO(text)))
    found["split"] = [(g.header("Round"), len(g.moves), [e.code for e in g.errors])
                      for g in games]
    found["colors"] = list(lcn.game_colors(games[1]))
    found["check"] = [d.code for d in lcn.check(games[1]).diagnostics]
    found["lint"] = sorted({d.code for d in lint_text(text).diagnostics})
    found["format"] = lcn.format_move(clean.moves[1])
    found["letters"] = "\\u00d8" in lcn.DIALECTS["v1"].colors if lcn.DIALECTS["v1"].colors \\
        else lcn.get_dialect("v1").can_write_color("\\u00d8")
    found["json"] = [lcn.format_move(m) for m in from_json(to_json([clean]))[0].moves]
    found["cards"] = [lcn.format_card(c) for c in lcn.parse_cards("\\u00d8H \\u00f810")]
    print(json.dumps(found))
''')


def _run_readers(grammar: str, tmp_path: Path) -> dict:
    """Run the readers in a copy of the package whose grammar is ``grammar``."""
    copy = tmp_path / "pkg"
    # lcnotation/grammar is a link to grammar/: the copy gets its own folder.
    shutil.copytree(ROOT / "lcnotation", copy / "lcnotation",
                    ignore=shutil.ignore_patterns("__pycache__", "grammar"))
    (copy / "lcnotation" / "grammar").mkdir()
    (copy / "lcnotation" / "grammar" / "__init__.py").write_text("")
    (copy / "lcnotation" / "grammar" / "lcnotation.lark").write_text(grammar, "utf-8")
    done = subprocess.run([sys.executable, "-c", _READERS], cwd=copy, capture_output=True,
                          text=True, env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> dict:
    grammar = grammar_text("lcnotation.lark")
    assert grammar.count(_NEW_COLOR[0]) == 1  # COLOR (DRAW_COLOR is made from it)
    grammar = grammar.replace(*_NEW_COLOR)
    for old, new in _NEW_BLANK:
        assert grammar.count(old) == 1
        grammar = grammar.replace(old, new)
    return _run_readers(grammar, tmp_path_factory.mktemp("grammar"))


def test_the_stock_grammar_reads_neither_change():
    game = lcnotation.parse_game("R3-D\u200b\u00f84-\u00f8")
    assert game.errors and "\u00d8" not in LEXICON.color_letters


def test_every_reader_follows_a_changed_grammar(changed: dict):
    assert changed["grammar changed"]
    assert changed["fast"] == [["RNone", "\u00d8\u00d8", "BNone"], []]
    assert changed["lark"] == [["RNone", "\u00d8\u00d8", "\u00d8None"], ["N103"]]
    assert changed["split"] == [["1", 1, ["N110"]], ["2", 1, []]]
    assert changed["colors"] == ["R", "G", "W", "B", "Y", "\u00d8"]
    assert changed["check"] == ["R110"]  # only: the record ends early
    assert "N109" not in changed["lint"] and "N110" in changed["lint"]
    assert changed["format"] == "\u00d84-\u00d8"
    assert changed["letters"] is True
    assert changed["json"] == ["R3-D", "\u00d84-\u00d8", "B5-D"]
    assert changed["cards"] == ["\u00d8H", "\u00d810"]
