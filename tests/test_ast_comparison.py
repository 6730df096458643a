"""Syntax-tree nodes compare by meaning, coherently (see lcnotation/lostcities/text/ast.py).

Equality and hashing leave out positions and other hidden fields; a node
equals only a node of its own kind, never a plain tuple; cards are ordered
by meaning, and every other node refuses ordering with a clear TypeError.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lcnotation import Card, Comment, Draw, Game, Header, Move, Placement, Span, parse_game
from strategies import cards, comments, draws, examples, games, headers, moves, placements

#: Each kind of node, and how many of its fields are its meaning.
MEANING = {Card: 2, Placement: 2, Draw: 1, Comment: 2, Move: 3, Header: 3, Game: 3}
nodes = st.one_of(cards, placements, draws, comments, headers, moves, games(max_moves=3))
spans = st.builds(Span, *[st.integers(1, 99)] * 6)


def _placed(node, span: Span):
    """``node`` with other positions and hidden fields, where it has them."""
    changes = {}
    if "span" in node._fields:
        changes["span"] = span
    if isinstance(node, Move):
        changes.update(number=span.line, turn=span.column)
    if isinstance(node, Header):
        changes["value_span"] = span
    return node._replace(**changes)


@examples(80)
@given(nodes, spans)
def test_positions_take_no_part_in_equality_or_hash(node, span):
    placed = _placed(node, span)
    assert placed == node and not (placed != node)
    assert hash(placed) == hash(node)


@examples(80)
@given(nodes, nodes)
def test_equality_is_equality_of_meaning(a, b):
    same = type(a) is type(b) and a[:MEANING[type(a)]] == b[:MEANING[type(b)]]
    assert (a == b) is same and (a != b) is not same
    if same:
        assert hash(a) == hash(b)


@examples(60)
@given(nodes)
def test_a_node_never_equals_a_plain_tuple(node):
    n = MEANING[type(node)]
    for plain in (tuple(node), node[:n]):
        assert node != plain and plain != node
        assert not (node == plain) and not (plain == node)
    assert node == node._replace() and {node: 1}[node._replace()] == 1


def test_the_examples_of_the_issue():
    assert Card("R", 3) != ("R", 3, None) and ("R", 3, None) != Card("R", 3)
    assert Card("R", 3) != ("R", 3) and Draw(None) != (None,)
    game = parse_game("1. R3-D 2. B4-D 3. G5-D")
    with pytest.raises(TypeError, match="Move nodes have no order: sort them by a key"):
        sorted(game.moves)
    assert sorted(game.moves, key=lambda m: m.turn) == list(game.moves)


@examples(60)
@given(st.lists(cards, max_size=8))
def test_cards_sort_by_colour_then_rank(hand):
    ordered = sorted(hand)
    assert [(c.color, c.rank) for c in ordered] == sorted((c.color, c.rank) for c in hand)


@examples(60)
@given(cards, cards, spans)
def test_card_order_agrees_with_equality(a, b, span):
    b = b._replace(span=span)
    assert (a <= b and b <= a) is (a == b)
    assert (a < b) is (b > a) and (a <= b) is (b >= a)
    assert (a < b) or (a == b) or (a > b)


@examples(60)
@given(st.one_of(placements, draws, comments, headers, moves, games(max_moves=2)), nodes)
def test_other_nodes_refuse_ordering(a, b):
    for compare in (lambda: a < b, lambda: a <= b, lambda: a > b, lambda: a >= b):
        with pytest.raises(TypeError):
            compare()


@examples(50)
@given(cards)
def test_cards_are_not_ordered_against_plain_tuples(card):
    with pytest.raises(TypeError, match="ordered only against another Card"):
        card < tuple(card)
    with pytest.raises(TypeError, match="ordered only against another Card"):
        tuple(card) > card
