"""Lint's fused path and the tree path report the same, on every text.

The fused path (lcnotation/lostcities/fused.py) answers "clean" for a game
only when the tree path (parse, rules check, style checks, suppressions)
reports nothing; every other game goes the tree path.  These properties lint
generated, mutated and hostile texts both ways (``fused=False`` builds every
tree) and compare every finding, position, message and fix; and they hold
the quiet replay to the reporting one.
"""

from __future__ import annotations

import dataclasses
from typing import List, Optional, Tuple

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lcnotation import format_game, format_games, generate_game, generate_games
from lcnotation.lostcities.text.fastpath import NumberTooLong
from lcnotation.lostcities import fused
from lcnotation.lostcities.fused import clean_moves
from lcnotation.lostcities.game.checker import check_result, result_holds
from lcnotation.lostcities.game.setup import clean_setup, read_setup
from lcnotation.lostcities.game.state import GameState
from lcnotation.lostcities.text.ast import Card, Game, Header
from lcnotation.lostcities.text.headers import game_colors
from lcnotation.lostcities.text.reader import parse_game, split_games
from lcnotation.core.lint import LintConfig
from lcnotation.lostcities.lint import colors_of, lint_game, lint_text, style_state
from strategies import PIECES, notation_text, written_games
from test_check_properties import observable

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

colour_sets = st.sampled_from(["RGWBY", "RGWBYK", "RGWBYP", "ABCEF"])


@st.composite
def legal_games(draw, headers: Optional[bool] = None) -> Game:
    return generate_game(seed=draw(st.integers(0, 2**32)), colors=draw(colour_sets),
                         deal=draw(st.booleans()), take=draw(st.floats(0.0, 0.9)),
                         build=draw(st.floats(0.0, 1.0)),
                         headers=draw(st.booleans()) if headers is None else headers)


@st.composite
def legal_files(draw) -> str:
    """One to three legal games in any dialect the formatter writes."""
    games = [draw(legal_games())]
    games += draw(st.lists(legal_games(headers=True), max_size=2))
    dialects = st.sampled_from(["v1", "v1", "x-discard", "lower"])
    if draw(st.booleans()):
        return format_games(games, draw(dialects))
    # Each game in its own dialect: a file whose discard marker changes.
    return "\n".join(format_game(g, draw(dialects)) for g in games)


#: Small changes that a game's text may suffer: each may or may not break it.
EDITS = PIECES + ["1.", "99.", "\n\n", "-", "D", "X", "d", "10", "H", "K", "lcn: ignore",
                  "; lcn: ignore[R101]", '[Result "0-0"]\n', '[Colors "RGWBY"]\n',
                  '[colors "RGWBY"]\n', '[Player1 "A"]\n', "\u00a0", "\u2003", "\x0b"]


@st.composite
def mutated(draw) -> str:
    """A legal file with a few edits: characters replaced, deleted, inserted,
    lines swapped, dropped or doubled."""
    text = draw(legal_files())
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["replace", "delete", "insert", "swap", "drop", "double",
                                     "join", "comment"]))
        if kind in ("swap", "drop", "double", "join", "comment"):
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "swap":
                lines[i], lines[j] = lines[j], lines[i]
            elif kind == "drop":
                del lines[i]
            elif kind == "join" and i + 1 < len(lines):
                lines[i:i + 2] = [lines[i] + draw(st.sampled_from([" ", "", "\t"])) + lines[i + 1]]
            elif kind == "comment":
                lines[i] += draw(st.sampled_from([" ; lcn: ignore", " {lcn: ignore[S1]}", " {c}",
                                                  " ; a note", " ;lcn:ignore[R110]"]))
            else:
                lines.insert(i, lines[i])
            text = "\n".join(lines)
            continue
        at = draw(st.integers(0, len(text)))
        end = at + (draw(st.integers(1, 4)) if kind != "insert" else 0)
        piece = "" if kind == "delete" else draw(st.sampled_from(EDITS))
        text = text[:at] + piece + text[end:]
    return text


configs = st.builds(
    LintConfig,
    select=st.sampled_from([("N", "R", "S"), ("R",), ("S1",), ("N",)]),
    ignore=st.sampled_from([(), ("S103",), ("R110",)]),
    colors=st.sampled_from([None, ("R", "G", "W", "B", "Y"), ("R", "G", "W", "B", "Y", "K")]),
    dialect=st.sampled_from([None, None, "v1", "x-discard", "lower"]))

texts = st.one_of(legal_files(), mutated(), written_games(max_moves=12).map(lambda g: g[1]),
                  notation_text)


def everything(report) -> tuple:
    return (report.games, report.moves,
            [(f.diagnostic.code, f.diagnostic.message, f.diagnostic.span, f.diagnostic.severity,
              f.diagnostic.turn, f.diagnostic.path, f.fix) for f in report.findings])


@SETTINGS
@given(texts, configs)
def test_the_fused_path_reports_what_the_tree_path_reports(text: str, config: LintConfig):
    fused = lint_text(text, "f.lcn", config)
    tree = lint_text(text, "f.lcn", config, fused=False)
    assert everything(fused) == everything(tree)


@SETTINGS
@given(texts, configs)
def test_a_game_called_clean_has_no_finding_and_the_same_style_state(text: str,
                                                                      config: LintConfig):
    fused_style, tree_style = style_state(config), style_state(config)
    for part in split_games([text]):
        before = dataclasses.replace(fused_style)
        moves = clean_moves(part, fused_style, colors_of(config))
        game, findings = lint_game(part, tree_style, config, None)
        if moves is None:
            assert fused_style == before  # left alone for the tree path
            fused_style = dataclasses.replace(tree_style)
            continue
        everything_selected = dataclasses.replace(config, select=("N", "R", "S"), ignore=())
        _, all_findings = lint_game(part, dataclasses.replace(before), everything_selected,
                                    None)
        assert all_findings == [] and findings == []
        assert moves == len(game.moves)
        assert fused_style == tree_style


def test_clean_games_take_the_fused_path():
    """Generated games, as canonically written, are all checked without a tree
    (else the speed docs/speed.md claims would not be there)."""
    text = format_games(list(generate_games(30, seed=3, deal=True)))
    style = style_state(LintConfig())
    parts = list(split_games([text]))
    assert [clean_moves(p, style) is not None for p in parts] == [True] * len(parts)
    without_deal = format_games(list(generate_games(10, seed=4)))
    assert all(clean_moves(p, style) is not None for p in split_games([without_deal]))


@settings(max_examples=40, deadline=None)
@given(legal_games(), st.data())
def test_hostile_and_long_tokens_go_the_tree_path(game: Game, data: st.DataObject):
    text = format_game(game)
    insert = data.draw(st.sampled_from([
        "9" * 5000 + ". ", "R" * 10000, "{" * 200, "[" * 200, "\ufeff", "1.\nR3-D ",
        "R3-D" * 300, "1. " * 100]))
    at = data.draw(st.integers(0, len(text)))
    hostile = text[:at] + insert + text[at:]
    assert everything(lint_text(hostile)) == everything(lint_text(hostile, fused=False))


def steps_of(game: Game) -> list:
    return [(m.card.color, m.card.rank, m.placement.discard, m.draw.color) for m in game.moves]


@SETTINGS
@given(st.one_of(legal_files(), mutated()))
def test_the_quiet_replay_agrees_with_the_reporting_one(text: str):
    for game in map(parse_game, (p.text for p in split_games([text]))):
        assume(all(m.turn == i for i, m in enumerate(game.moves)))
        quiet, loud = GameState.from_game(game), GameState.from_game(game)
        ok = quiet.play_quietly(steps_of(game))
        found = loud.play(game.moves)
        assert ok == (found == [])
        if ok:
            assert observable(quiet) == observable(loud)
            assert quiet.totals() == loud.scores().totals


def _clean_file() -> List[str]:
    return [format_game(generate_game(seed, deal=True)) for seed in (5, 6)]


#: Texts one edit away from clean, each with a finding that only a close look
#: sees; the fused path must send each game to the tree path.
NEAR_MISSES = {
    "the file's first discard is X, a later one D (S101)":
        lambda a, b: format_game(generate_game(5, deal=True), "x-discard") + "\n" + b,
    "two headers on one line (N109)":
        lambda a, b: a.replace('"]\n[', '"] [', 1) + "\n" + b,
    "a suppression in the headers (S100)":
        lambda a, b: a.replace('"]\n', '"] ; lcn: ignore[R101]\n', 1) + "\n" + b,
    "a tag in the wrong case (S105)": lambda a, b: a.replace("[Round", "[round", 1),
    "a tag twice (S106)": lambda a, b: a.replace("[Round", '[Event "x"]\n[Round', 1),
    "a wrong result (R204)": lambda a, b: a.replace('[Result "', '[Result "1', 1),
    "a number that skips (S103)": lambda a, b: a.replace("\n3. ", "\n4. ", 1),
    "a number on its own line": lambda a, b: a.replace("\n3. ", "\n3.\n", 1),
    "a game cut short (R110)": lambda a, b: a[:a.rindex("\n", 0, len(a) - 2)] + "\n",
    "a lower-case move (S102)": lambda a, b: a.replace("-D\n", "-d\n", 1),
    "a comment among the moves":
        lambda a, b: a.replace("-D\n", "-D {c}\n", 1).replace("[Result", "[Resalt", 1),
    "a byte-order mark among the moves": lambda a, b: a.replace("\n3. ", "\n\ufeff3. ", 1),
    "a colour outside the deck (R106)": lambda a, b: a.replace("\n3. ", "\n3. Q5-D\n4. ", 1),
    "a move after a header after the moves": lambda a, b: a + '[Event "late"]\n1. R3-D\n',
    "a number before a number (N)": lambda a, b: a.replace("\n3. ", "\n3. 3. ", 1),
    "a number at the end (N)": lambda a, b: a.rstrip("\n") + " 99.\n",
    "a number and a blank line": lambda a, b: a.replace("\n3. ", "\n3. \n", 1),
}


def test_near_misses_go_the_tree_path():
    a, b = _clean_file()
    assert lint_text(a + "\n" + b).findings == []
    for name, edit in NEAR_MISSES.items():
        text = edit(a, b)
        fused, tree = lint_text(text), lint_text(text, fused=False)
        assert everything(fused) == everything(tree), name
        if not any(word in name for word in ("own line", "comment among", "mark", "blank")):
            assert tree.findings, name  # the edit is a real near miss


#: Edits of a header line or value: each may or may not leave it as the
#: formatter writes it.
HEADER_EDITS = ['"', "\\", '\\"', " ", "\t", "  ", "\u00eb", "\u2028", "\x00", "\x7f", "]", "[",
                "{c}", "; c", "\n", "\n\n", "K", "r3", "R11", "Q5", "*", "-", "9" * 30, "\ufeff"]


@st.composite
def header_edited(draw) -> str:
    """A legal game (perhaps with others after it) with a few edits among its
    header lines: pieces inserted or characters replaced, anywhere from the
    start of the text to its first move."""
    text = format_game(draw(legal_games(headers=True)))
    for _ in range(draw(st.integers(1, 3))):
        block = text.find("\n1.")
        at = draw(st.integers(0, max(0, block)))
        end = at + draw(st.sampled_from([0, 0, 1, 2]))
        text = text[:at] + draw(st.sampled_from(HEADER_EDITS)) + text[end:]
    return text + draw(st.sampled_from(["", "\n" + format_game(generate_game(1, deal=True))]))


@SETTINGS
@given(st.one_of(texts, header_edited()))
def test_the_plain_header_lines_read_as_any_header_lines(text: str):
    """Header lines as the formatter writes them are read at once (one match
    for them all); what that gives is what reading them token by token gives."""
    fused._scan("")  # the expressions, made once
    for part in split_games([text]):
        try:
            token_by_token = fused._read_headers(part.text, fused._reading[0])
        except NumberTooLong:
            continue
        assert fused._scan(part.text) == token_by_token


#: Edits of a header's value: each may or may not leave it readable, and sound.
VALUE_EDITS = ["", " ", "  ", "\t", "R3", "R3 ", " R3", "r3", "R11", "Q5", "K", "RH", "R", "RGWB",
               "RGWBYKP", "RRGWB", "rgwby", "ABCEF", "RGWBYP", "\u00eb", "\\"]


@st.composite
def header_values(draw) -> Tuple[dict, Game]:
    """The headers of a legal game, by tag, with a few values edited (a piece
    inserted or put in place of a part, a header dropped), and the game of
    those headers."""
    game = draw(legal_games(headers=True))
    values = {h.name: h.value for h in game.headers}
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(["Colors", "Hand1", "Hand2", "Deck", "Player1", "Player2"]))
        value = values.get(name, "")
        if draw(st.integers(0, 5)) == 0:
            values.pop(name, None)
            continue
        at = draw(st.integers(0, len(value)))
        end = at + draw(st.sampled_from([0, 0, 2, 3, len(value)]))
        values[name] = value[:at] + draw(st.sampled_from(VALUE_EDITS)) + value[end:]
    return values, Game(headers=tuple(Header(k, v) for k, v in values.items()))


@SETTINGS
@given(header_values(), colour_sets)
def test_a_clean_setup_is_the_one_read_setup_reads(values_and_game, default: str):
    """clean_setup answers only where read_setup finds nothing, with its setup."""
    values, game = values_and_game
    colors = tuple(default)
    before = clean_setup(values, colors)
    read = read_setup(game, colors)
    quick = clean_setup(values, colors)  # read_setup has seen the Colors header now
    for setup in (before, quick):
        assert setup is None or setup == read and not read.diagnostics
    if not read.diagnostics and all(values[k] == " ".join(values[k].split())
                                    for k in ("Hand1", "Hand2", "Deck") if k in values):
        assert quick == read  # the common way is read at once


def test_generated_games_are_set_up_at_once():
    """The deal headers of generated games, as the formatter writes them, are
    read without a Header (else the speed docs/speed.md claims would not be
    there)."""
    for game in generate_games(20, seed=8, deal=True):
        values = {h.name: h.value for h in game.headers}
        read_setup(game)  # its Colors header, read once
        assert clean_setup(values) == read_setup(game)


results = st.one_of(st.sampled_from(["*", " * ", "", "x", "1", "0-0", "1-2", " 3 - 4 ",
                                     "-5--6", "9" * 40 + "-0", "1-2-3", "\u0661-1"]),
                    st.tuples(st.integers(-200, 200), st.integers(-200, 200)).map(
                        lambda t: f"{t[0]}-{t[1]}"))


@SETTINGS
@given(legal_games(), st.integers(0, 120), results, st.data())
def test_a_result_holds_where_check_result_finds_nothing(game: Game, played: int, value: str,
                                                           data: st.DataObject):
    state = GameState.from_game(game)
    state.play_quietly(steps_of(game)[:played])
    if data.draw(st.booleans()):  # the true result, or one point off
        a, b = state.totals()
        value = f"{a}-{b + data.draw(st.sampled_from([0, 0, 1, -1]))}"
    found = check_result(Header("Result", value), state, state.scores())
    assert result_holds(value, state) == (found == [])


@SETTINGS
@given(st.one_of(texts, header_edited(), st.lists(st.sampled_from(
    ["1.", "2.", "3.", "01.", "R3-D", "b4-d", "G5X-D", "\n", " ", "  ", "\t", "\u2003", ".", "1",
     "{c}", "2.R3-D", "R3-D."]), max_size=12).map(" ".join)))
def test_the_usual_layout_reads_as_any_movetext(text: str):
    """Movetext numbered turn by turn, "1. R3-D", is read at once (one match,
    the moves picked by their places); what that gives is what reading it
    token by token gives."""
    fused._scan("")  # the expressions, made once
    for t in [text] + [part.text[part.text.find("\n1. "):] for part in split_games([text])]:
        try:
            token_by_token = fused._any_steps(t)
        except NumberTooLong:
            continue
        assert fused._steps(t) == token_by_token


def test_the_quiet_replay_refuses_each_broken_rule():
    """Each rule play_quietly checks, broken by the last step (what play says
    of it too); the same steps without it are played."""
    game = generate_game(7, deal=True)
    steps = steps_of(game)
    state = GameState.from_game(game)
    assert state.play_quietly(steps)
    assert not GameState.from_game(game).play_quietly(steps + [steps[-1]])  # after the end (R109)
    hand = GameState.from_game(game).hand(0)
    held = hand[0]
    absent = next((c, r) for c in game_colors(game) for r in (2, 3, 4, 5, 6, 7, 8, 9, 10)
                  if Card(c, r) not in hand)
    broken = {
        "R106, a colour outside the game": [("Q", 5, False, None)],
        "R106, a draw from a pile outside": [(held.color, held.rank, True, "Q")],
        "R107, a draw from an empty pile": [(held.color, held.rank, False,
                                             next(c for c in game_colors(game)
                                                  if c != held.color))],
        "R108, the card just discarded drawn back": [(held.color, held.rank, True, held.color)],
        "R103, a card not held": [(absent[0], absent[1], False, None)],
    }
    for name, tail in broken.items():
        assert not GameState.from_game(game).play_quietly(tail), name
    free = GameState()
    assert free.play_quietly([("R", 7, False, None), ("B", 4, True, None)])
    for name, last in {"R101": ("R", 4, False, None), "R102": ("R", 0, False, None)}.items():
        state = GameState()
        assert not state.play_quietly([("R", 7, False, None), ("B", 4, True, None), last]), name
