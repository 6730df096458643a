"""The fast path and the grammar read every text the same way.

The fast path (lcnotation/lostcities/text/fastpath.py) may only accept what the grammar
accepts, and must then build the identical tree, with identical positions;
anything else goes to Lark.  These properties read each text both ways and
compare everything, spans included.
"""

from __future__ import annotations


from hypothesis import given, settings
from hypothesis import strategies as st

from lcnotation import format_games, generate_game
from lcnotation.lostcities.text.builder import GameBuilder
from lcnotation.lostcities.text.parser import parser
from lcnotation.lostcities.text.fastpath import fast_parse
from paths import read_game, read_games
from strategies import written_games


def everything(game):
    """The tree with every position and hidden field, for exact comparison."""
    def comments(cs):
        return [(c, c.span) for c in cs]
    return (
        game, game.span, [(e.code, e.message, e.span) for e in game.errors],
        comments(game.comments),
        [(h, h.span, h.value_span, comments(h.comments)) for h in game.headers],
        [(m, m.span, m.number, m.turn, m.card_span, m.placement_span, m.draw_span,
          comments(m.comments)) for m in game.moves],
    )


def both_ways(text: str):
    fast = read_game(text)
    slow = read_game(text, fast=False)
    return fast, slow


def took_fast_path(text: str) -> bool:
    return fast_parse(GameBuilder(text, 1, 0), parser().fast)


@settings(max_examples=150, deadline=None)
@given(written_games())
def test_valid_records_read_the_same_both_ways(written):
    text = written[1] if isinstance(written, tuple) else written
    fast, slow = both_ways(text)
    assert everything(fast) == everything(slow)


# Text made of the notation's own pieces, often invalid in small ways.
_PIECES = ["R3-D", "BHD-D", "r10x-b", "K2-G", "1.", "12.", " ", "  ", "\n", "\r\n", "\t",
           "{c}", "{a\nb}", "; note\n", '[Event "x"]', '[Round "2"]\n', "R3", "-D", "D3-D",
           "R3-DB", "R3 -D", "}", "{", "[", "!!", ",", "\ufeff", "\r", "R11-D", "Y2X-B",
           "1000.", "007.", "0."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
def test_notation_fragments_read_the_same_both_ways(text):
    fast, slow = both_ways(text)
    assert everything(fast) == everything(slow)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join), max_size=4))
def test_games_after_the_first_read_the_same_both_ways(texts):
    # Later games start on later lines and offsets: the fast path counts
    # its lines in the file's lines.
    text = "".join(f'[Round "{i}"] ; r\n{t}\n' for i, t in enumerate(texts))
    fast = [everything(g) for g in read_games(text)]
    slow = [everything(g) for g in read_games(text, fast=False)]
    assert fast == slow


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_any_text_reads_the_same_both_ways(text):
    fast, slow = both_ways(text)
    assert everything(fast) == everything(slow)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_generated_games_take_the_fast_path(seed, deal):
    text = format_games([generate_game(seed, deal=deal)])
    assert took_fast_path(text)
    fast, slow = both_ways(text)
    assert everything(fast) == everything(slow) and not fast.errors


def test_the_fast_path_gives_up_on_what_it_does_not_read():
    for text in ["R3-D R11-D", "1. {c} R3-D", "R3-D\n[Event \"x\"]", "R3-D!!", "1.\nR3-D"]:
        assert not took_fast_path(text), text
    assert took_fast_path('{a}\n[Event "x"] ;b\n\n1. R3-D {c} 2.BHX-d\n')
