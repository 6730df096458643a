"""Properties of the FreeCell notation: random legal games from random deals
format, re-read and replay the same; the formatter is a fixed point on its
output and keeps what any other layout of the same record means."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from lcnotation import freecell
from lcnotation.freecell.cards import FULL_DECK, SUITS, Card
from lcnotation.freecell.deals import DEAL_LIMIT, deal
from lcnotation.freecell.formatter import MOVES_PER_LINE
from lcnotation.freecell.state import IllegalMove, Position, horne_safe
from strategies import examples

Step = Tuple[str, str, bool]
_PLACES = "abcd12345678"


def legal_moves(position: Position) -> List[Step]:
    found: List[Step] = []
    for source in _PLACES:
        for target in _PLACES + "h":
            for single in (False, True):
                empty_target = target.isdigit() and not position.columns[int(target) - 1]
                if single and not (empty_target and source.isdigit()):
                    continue
                try:
                    position.copy().play(source, target, single)
                except IllegalMove:
                    continue
                found.append((source, target, single))
    return found


@st.composite
def games(draw: st.DrawFn) -> Tuple[int, List[Step], Position]:
    """A deal number, a random legal sequence of moves, and the position it reaches."""
    number = draw(st.integers(0, DEAL_LIMIT - 1))
    position = Position.fresh(deal(number))
    position.automove()
    steps: List[Step] = []
    for _ in range(draw(st.integers(0, 40))):
        options = legal_moves(position)
        if not options:
            break
        step = draw(st.sampled_from(options))
        position.play(*step)
        position.automove()
        steps.append(step)
    return number, steps, position


def solution_lines(steps: List[Step], widths: List[int]) -> List[str]:
    lines, i, w = [], 0, 0
    while i < len(steps):
        width = widths[w % len(widths)] if widths else MOVES_PER_LINE
        lines.append("".join(("." if s[2] else " ") + s[0] + s[1] for s in steps[i:i + width]))
        i, w = i + width, w + 1
    return lines


@given(games())
@examples(25)
def test_random_games_format_reread_and_replay_the_same(game) -> None:
    number, steps, reached = game
    text = freecell.deal(number) + "".join(line + "\n" for line in solution_lines(steps, []))
    record = freecell.parse(text)
    assert record.errors == ()
    assert [(m.source, m.target, m.single) for m in record.moves] == steps
    assert freecell.format(record) == text
    result = freecell.check(record)
    assert result.verdict in ("not_won", "won")
    assert result.position == reached
    assert result.moves == len(steps)


@given(games(), st.lists(st.integers(1, 14), max_size=4), st.booleans(), st.booleans(),
       st.text(" \t", max_size=2))
@examples(25)
def test_any_layout_of_a_record_formats_to_the_canonical_one(
        game, widths, drop_home, comment, trailing) -> None:
    number, steps, _ = game
    canonical = freecell.deal(number) + (
        "a comment line\n" if comment else "") + "".join(
        line + "\n" for line in solution_lines(steps, []))
    lines = freecell.deal(number).splitlines()
    if drop_home:
        del lines[1]
    lines = [line + trailing for line in lines]
    if comment:
        lines.append("a comment line")
    lines.extend(line + trailing for line in solution_lines(steps, widths))
    variant = "\r\n".join(lines) + "\n\n"
    record = freecell.parse(variant)
    assert record.meaning() == freecell.parse(canonical).meaning()
    assert freecell.format(record) == canonical
    assert freecell.format(freecell.parse(canonical)) == canonical
    assert freecell.check(record).position == freecell.check(freecell.parse(canonical)).position


_PIECES = st.sampled_from(["JD", "KS", "AH", "6X", "BB", "  ", " ", "-", "=", "+", ".", "[",
                           "]", "??", "5a", "1h", "Game #", "617", "-1", "99999999999",
                           "\n", "\r\n", "\r", "\t", "x", "\x00", "\ufeff"])


@given(st.lists(_PIECES, max_size=60).map("".join) | st.text(max_size=80))
@examples(200)
def test_any_text_reads_and_checks_without_an_exception(text: str) -> None:
    record = freecell.parse(text)
    result = freecell.check(record)
    assert result.verdict in freecell.VERDICTS
    for d in result.diagnostics:
        assert 1 <= d.line and 1 <= d.column and d.code in freecell.FREECELL_CODES
    if not any(d.severity.value == "error" for d in record.errors):
        canonical = freecell.format(record)
        assert freecell.parse(canonical).meaning() == record.meaning()
        assert freecell.format(freecell.parse(canonical)) == canonical


_LINE_PIECES = st.sampled_from(["JD", "6X", "KS", "  ", " ", ".", "5a", ".1h", " 2h", "[",
                                "]", "x", "\t", "a", "h"])


@given(st.lists(_LINE_PIECES, max_size=14).map("".join))
@examples(200)
def test_fast_paths_read_lines_as_the_grammar_does(text: str) -> None:
    from lark.exceptions import UnexpectedInput

    from lcnotation.freecell import parser

    text = text.rstrip(" \t")
    try:
        parser._lark().parse(text, start="column_line")
        is_columns = True
    except UnexpectedInput:
        is_columns = False
    assert (text != "" and parser._fast_cells().fullmatch(text) is not None) == is_columns
    if parser._fast_moves().fullmatch(text):
        tree = parser._lark().parse(text, start="solution_line")
        tokens = list(tree.scan_values(lambda v: True))
        assert [t.type for t in tokens] == ["MOVE"] * (len(text) // 3)
        assert [str(t) for t in tokens] == [text[i:i + 3] for i in range(0, len(text), 3)]


def automove_as_horne_says(position: Position) -> List[Card]:
    """Automoves as Horne's rule reads, card by card: each pass looks at the
    top of every column in order, then every freecell, asking horne_safe of
    the card there as the piles stand, until a pass sends nothing."""
    sent: List[Card] = []
    moved = True
    while moved:
        moved = False
        for cards in position.columns:
            while cards and horne_safe(cards[-1], position.homes):
                card = cards.pop()
                position.homes[card.suit] = card.rank
                sent.append(card)
                moved = True
        for cell, held in enumerate(position.freecells):
            if held is not None and horne_safe(held, position.homes):
                position.freecells[cell] = None
                position.homes[held.suit] = held.rank
                sent.append(held)
                moved = True
    return sent


def horne_as_written(card: Card, homes: Dict[str, int]) -> bool:
    """Horne's rule in the words of its definition, suit by suit: the card's
    own pile one below it, each pile of the other colour at least two below
    it, the other pile of its colour (and its own) at least three below."""
    if homes[card.suit] != card.rank - 1:
        return False
    for suit in SUITS:
        same_colour = (suit in "DH") == (card.suit in "DH")
        if homes[suit] < card.rank - (3 if same_colour else 2):
            return False
    return True


@given(st.sampled_from(FULL_DECK), st.tuples(*[st.integers(0, 13)] * 4))
@example(Card(3, "H"), (1, 2, 0, 1))
@example(Card(3, "H"), (1, 2, 1, 1))
@example(Card(5, "S"), (2, 3, 3, 4))
@example(Card(5, "S"), (3, 3, 3, 4))
@example(Card(13, "D"), (13, 12, 13, 11))
@example(Card(1, "C"), (0, 0, 0, 0))
@examples(300)
def test_horne_safe_is_the_rule_as_written(card: Card, heights: Tuple[int, ...]) -> None:
    """horne_safe (read by the heights of the piles) and the cards that
    automove sends (a cached set by the four heights) are Horne's rule."""
    homes = dict(zip(SUITS, heights))
    assert horne_safe(card, homes) is horne_as_written(card, homes)
    position = Position([None] * 4, [False] * 4, homes, [[card]] + [[]] * 7)
    assert position.automove() == ([card] if horne_as_written(card, homes) else [])


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any position of the 52 cards: piles of any height, the rest shuffled
    into the freecells (some blocked) and the columns."""
    homes = {suit: draw(st.integers(0, 13)) for suit in SUITS}
    rest = draw(st.permutations([c for c in FULL_DECK if c.rank > homes[c.suit]]))
    cells = draw(st.integers(0, min(4, len(rest))))
    blocked = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    freecells: List[Optional[Card]] = [None] * 4
    for i, card in enumerate(rest[:cells]):
        if not blocked[i]:
            freecells[i] = card
    cuts = sorted(draw(st.lists(st.integers(cells, len(rest)), min_size=7, max_size=7)))
    bounds = [cells, *cuts, len(rest)]
    columns = [list(rest[a:b]) for a, b in zip(bounds, bounds[1:])]
    return Position(freecells, blocked, homes, columns)


@given(st.one_of(positions(), games().map(lambda game: game[2])), st.booleans())
@examples(300)
def test_automoves_are_those_of_horne_s_rule_card_by_card(position: Position,
                                                          sorted_columns: bool) -> None:
    if sorted_columns:  # runs that go home one card after another
        position.columns = [sorted(c, key=lambda card: -card.rank) for c in position.columns]
    expected = position.copy()
    assert position.automove() == automove_as_horne_says(expected)
    assert position == expected


@given(games(), st.data())
@examples(100)
def test_a_move_settled_is_the_move_and_its_automoves(game, data: st.DataObject) -> None:
    """move_settled, from a position automoves have settled, reaches what
    play and automove reach, for every legal move and for illegal ones."""
    _, _, position = game
    for _ in range(data.draw(st.integers(1, 30))):
        options = legal_moves(position)
        step = data.draw(st.sampled_from(options) if options and data.draw(st.booleans())
                         else st.tuples(st.sampled_from(_PLACES), st.sampled_from(_PLACES + "h"),
                                        st.booleans()))
        expected = position.copy()
        try:
            expected.play(*step)
        except IllegalMove as exc:
            with pytest.raises(IllegalMove) as raised:
                position.move_settled(*step)
            assert (raised.value.code, raised.value.reason) == (exc.code, exc.reason)
        else:
            expected.automove()
            position.move_settled(*step)
        assert position == expected


def run_as_written(position: Position, column: int, target: str, single: bool) -> int:
    """How many cards a move from ``column`` carries, as the rules read: the
    first n of the run at the top (its length asked first) that fits on the
    target, within the limit; an empty target takes the longest run allowed."""
    if not target.isdigit():
        return 1
    destination = position.columns[int(target) - 1]
    run = position.run_length(column)
    if not destination:
        return 1 if single else min(run, position.limit(into_empty=True))
    below = destination[-1]
    cards = position.columns[column]
    for n in range(1, run + 1):
        if n <= len(cards) and cards[-n].rank == below.rank - 1 \
                and cards[-n].is_red != below.is_red:
            limit = position.limit(into_empty=False)
            if n > limit:
                raise IllegalMove("F305", f"{n} > {limit}")
            return n
    raise IllegalMove("F304", f"run of {run}")


@given(st.one_of(positions(), games().map(lambda game: game[2])), st.integers(0, 7),
       st.sampled_from(_PLACES + "h"), st.booleans())
@examples(300)
def test_the_cards_a_move_carries_are_those_the_rules_say(
        position: Position, column: int, target: str, single: bool) -> None:
    if not position.columns[column]:
        return
    try:
        expected: object = run_as_written(position, column, target, single)
    except IllegalMove as exc:
        expected = exc.code
    try:
        found: object = position._run_for(column, target, single)
    except IllegalMove as exc:
        found = exc.code
    assert found == expected


@st.composite
def runs(draw: st.DrawFn) -> Position:
    """Column 1 ends in a run (each card one lower and of the other colour),
    column 2 with a card it fits on somewhere (or not), the freecells and
    the other columns full or empty, so that the limit is small or large."""
    length = draw(st.integers(1, 12))
    top = draw(st.integers(1, 13 - length + 1))
    red = draw(st.booleans())
    run = [Card(top + length - 1 - i, ("H" if (red ^ (i % 2 == 1)) else "S"))
           for i in range(length)]
    base = [Card(draw(st.integers(1, 13)), draw(st.sampled_from(SUITS)))
            for _ in range(draw(st.integers(0, 3)))]
    n = draw(st.integers(1, length))
    fit = run[-n]
    below = Card(fit.rank + 1, "C" if fit.is_red else "D") if fit.rank < 13 and draw(
        st.booleans()) else Card(draw(st.integers(1, 13)), draw(st.sampled_from(SUITS)))
    others = [[] if draw(st.integers(0, 3)) == 0 else [Card(5, "C")] for _ in range(6)]
    columns = [base + run, [below] if draw(st.integers(0, 4)) else [], *others]
    freecells = [None if draw(st.integers(0, 2)) == 0 else Card(9, "D") for _ in range(4)]
    return Position(freecells, [False] * 4, {s: 0 for s in SUITS}, columns)


@given(runs(), st.booleans())
@examples(300)
def test_the_cards_a_run_carries_are_those_the_rules_say(position: Position,
                                                         single: bool) -> None:
    try:
        expected: object = run_as_written(position, 0, "2", single)
    except IllegalMove as exc:
        expected = exc.code
    try:
        found: object = position._run_for(0, "2", single)
    except IllegalMove as exc:
        found = exc.code
    assert found == expected
