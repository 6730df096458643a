"""Properties of the checker on generated games.

Every generated game checks clean and scores as a plain recomputation says;
a single forbidden change to one move is reported at exactly that move, with
nothing reported before it.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lcnotation.lostcities.text.ast import HANDSHAKE, Card, Draw, Game, Move, Placement
from lcnotation.lostcities.game.checker import RULE_CODES, CheckReport, check
from lcnotation.core.diagnostics import Severity
from lcnotation.lostcities.text.formatter import format_game
from lcnotation.lostcities.game.generator import generate_game
from lcnotation.lostcities.text.headers import parse_cards, parse_result
from lcnotation.lostcities.text.reader import parse_game
from lcnotation.lostcities.game.state import GameState

LETTERS = "ABCEFGIJKLMNOPQRSTUVWYZ"
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

colour_sets = st.one_of(
    st.sampled_from(["RGWBY", "RGWBYK", "RGWBYP"]),
    st.lists(st.sampled_from(LETTERS), min_size=5, max_size=6, unique=True).map("".join))


@st.composite
def games(draw, deal: Optional[bool] = None) -> Game:
    return generate_game(
        seed=draw(st.integers(0, 2**32)),
        colors=draw(colour_sets),
        deal=draw(st.booleans()) if deal is None else deal,
        take=draw(st.floats(0.0, 0.9)),
        build=draw(st.floats(0.0, 1.0)),
        headers=draw(st.booleans()),
    )


def plain_totals(game: Game) -> Tuple[int, int]:
    """The score, recomputed from the moves with nothing but the scoring rule."""
    expeditions: List[Dict[str, List[int]]] = [{}, {}]
    for index, move in enumerate(game.moves):
        if not move.placement.discard:
            expeditions[index % 2].setdefault(move.card.color, []).append(move.card.rank)
    totals = []
    for side in expeditions:
        total = 0
        for ranks in side.values():
            handshakes = ranks.count(HANDSHAKE)
            points = (sum(ranks) - 20) * (handshakes + 1)
            if len(ranks) >= 8:
                points += 20
            total += points
        totals.append(total)
    return totals[0], totals[1]


@SETTINGS
@given(games())
def test_generated_games_check_clean_and_score_plainly(game: Game) -> None:
    report = check(game)
    assert [d for d in report.diagnostics if d.severity is not Severity.INFO] == []
    assert report.complete and report.diagnostics == ()
    assert report.score.totals == plain_totals(game)
    if game.header("Result") is not None:
        assert parse_result(game.header("Result")) == plain_totals(game)


@SETTINGS
@given(games())
def test_generated_records_check_clean_from_text(game: Game) -> None:
    report = check(parse_game(format_game(game)))
    assert report.diagnostics == () and report.score.totals == plain_totals(game)


@settings(max_examples=10, deadline=None)
@given(games(deal=True))
def test_with_the_deal_every_move_is_a_listed_legal_move(game: Game) -> None:
    state = GameState.from_game(game)
    for move in game.moves:
        assert move in state.legal_moves()
        state.apply(move)


# ------------------------------------------------------------------ mutations


class Situation:
    """The table before one move, tracked independently of GameState."""

    def __init__(self, turn: int, move: Move, expeditions: List[Dict[str, List[int]]],
                 piles: Dict[str, List[Card]], deck: Optional[List[Card]]) -> None:
        self.turn = turn
        self.move = move
        self.player = turn % 2
        self.expeditions = [{c: list(r) for c, r in side.items()} for side in expeditions]
        self.piles = {c: list(p) for c, p in piles.items()}
        self.deck = None if deck is None else list(deck)


def situations(game: Game) -> List[Situation]:
    colors = game.header("Colors", "RGWBY")
    expeditions: List[Dict[str, List[int]]] = [{c: [] for c in colors} for _ in range(2)]
    piles: Dict[str, List[Card]] = {c: [] for c in colors}
    deck = list(parse_cards(game.header("Deck"))) if game.header("Deck") else None
    found = []
    for turn, move in enumerate(game.moves):
        found.append(Situation(turn, move, expeditions, piles, deck))
        card = move.card
        if move.placement.discard:
            piles[card.color].append(card)
        else:
            expeditions[turn % 2][card.color].append(card.rank)
        if move.draw.color is not None:
            piles[move.draw.color].pop()
        elif deck is not None:
            deck.pop(0)
    return found


def mutated(game: Game, turn: int, move: Move) -> Game:
    moves = list(game.moves)
    if turn == len(moves):
        moves.append(move)
    else:
        moves[turn] = move
    headers = tuple(h for h in game.headers if h.name != "Result")
    return parse_game(format_game(Game(headers, tuple(moves))))


def assert_reported_at(report: CheckReport, game: Game, turn: int, code: str) -> None:
    problems = [d for d in report.diagnostics if d.severity is not Severity.INFO]
    assert problems, f"{code} expected at turn {turn}"
    first = problems[0]
    assert first.turn == turn, problems[:3]
    assert code in {d.code for d in problems if d.turn == turn}, problems[:3]
    header_lines = len(game.headers) + 1 if game.headers else 0
    assert first.line == header_lines + 1 + turn
    assert first.column == len(f"{turn + 1}. ") + 1


def play(card: Card, discard: bool, draw: Draw) -> Move:
    return Move(Placement(card, discard), draw)


@SETTINGS
@given(games(), st.data())
def test_lower_card_is_reported_at_the_move(game: Game, data: st.DataObject) -> None:
    spots = [s for s in situations(game) if not s.move.placement.discard
             and (s.expeditions[s.player][s.move.card.color] or [0])[-1] >= 3]
    assume(spots)
    spot = data.draw(st.sampled_from(spots))
    color = spot.move.card.color
    rank = data.draw(st.integers(2, spot.expeditions[spot.player][color][-1]))
    bad = mutated(game, spot.turn, play(Card(color, rank), False, spot.move.draw))
    assert_reported_at(check(bad), bad, spot.turn, "R101")


@SETTINGS
@given(games(), st.data())
def test_handshake_after_a_number_is_reported(game: Game, data: st.DataObject) -> None:
    spots = [s for s in situations(game) if not s.move.placement.discard
             and (s.expeditions[s.player][s.move.card.color] or [0])[-1] >= 2]
    assume(spots)
    spot = data.draw(st.sampled_from(spots))
    card = Card(spot.move.card.color, HANDSHAKE)
    bad = mutated(game, spot.turn, play(card, False, spot.move.draw))
    assert_reported_at(check(bad), bad, spot.turn, "R102")


@SETTINGS
@given(games(), st.data())
def test_drawing_back_ones_discard_is_reported(game: Game, data: st.DataObject) -> None:
    spots = [s for s in situations(game) if s.move.placement.discard]
    assume(spots)
    spot = data.draw(st.sampled_from(spots))
    bad = mutated(game, spot.turn, play(spot.move.card, True, Draw(spot.move.card.color)))
    assert_reported_at(check(bad), bad, spot.turn, "R108")


@SETTINGS
@given(games(), st.data())
def test_draw_from_an_empty_pile_is_reported(game: Game, data: st.DataObject) -> None:
    choices = [(s, c) for s in situations(game) for c, pile in s.piles.items()
               if not pile and not (s.move.placement.discard and s.move.card.color == c)]
    assume(choices)
    spot, color = data.draw(st.sampled_from(choices))
    move = spot.move
    bad = mutated(game, spot.turn, play(move.card, move.placement.discard, Draw(color)))
    assert_reported_at(check(bad), bad, spot.turn, "R107")


@SETTINGS
@given(games(), st.data())
def test_move_after_the_end_is_reported(game: Game, data: st.DataObject) -> None:
    extra = data.draw(st.sampled_from(game.moves))
    bad = mutated(game, len(game.moves), extra)
    assert_reported_at(check(bad), bad, len(game.moves), "R109")


@SETTINGS
@given(games(deal=True), st.data())
def test_card_not_in_hand_is_reported_with_the_deal(game: Game, data: st.DataObject) -> None:
    choices = [(s, k) for s in situations(game) for k in s.deck if not k.is_handshake]
    assume(choices)
    spot, card = data.draw(st.sampled_from(choices))
    bad = mutated(game, spot.turn, play(Card(card.color, card.rank), True, spot.move.draw))
    assert_reported_at(check(bad), bad, spot.turn, "R105")


@SETTINGS
@given(games(), st.data())
def test_duplicated_card_is_reported(game: Game, data: st.DataObject) -> None:
    choices = [(s, Card(c, r)) for s in situations(game) for side in s.expeditions
               for c, ranks in side.items() for r in ranks if r != HANDSHAKE]
    assume(choices)
    spot, card = data.draw(st.sampled_from(choices))
    bad = mutated(game, spot.turn, play(card, True, spot.move.draw))
    assert_reported_at(check(bad), bad, spot.turn, "R103")


# ------------------------------------------------------------------ any record

WORDS = st.sampled_from([
    "R3-D", "R4-D", "R3D-R", "BH-D", "BHD-B", "G10-R", "K5-D", "P2-K", "W7D-W", "Y2-Y",
    "rh-d", "Q9-D", "R11-D", "B-D", "GH", "??", "1.", "{note}", ";line\n", "\n",
])
HEADER_VALUES = {
    "Colors": st.sampled_from(["RGWBY", "RGWBYK", "rgwbyp", "RG", "RGWBYD", "", "R R"]),
    "Hand1": st.sampled_from(["R2 R3 R4 R5 R6 R7 R8 R9", "R2 R2", "K3 X", "", "RH RH RH RH"]),
    "Hand2": st.sampled_from(["G2 G3 G4 G5 G6 G7 G8 G9", "R2 R3 R4 R5 R6 R7 R8 R9", "G2"]),
    "Deck": st.sampled_from(["R10 G10", "", "B2 B3"]),
    "Result": st.sampled_from(["0-0", "*", "12--40", "x"]),
    "Player1": st.sampled_from(["North", "", "Ann \\\"A\\\""]),
}


@st.composite
def records(draw) -> str:
    names = draw(st.lists(st.sampled_from(sorted(HEADER_VALUES)), unique=True))
    headers = "".join(f'[{n} "{draw(HEADER_VALUES[n])}"]\n' for n in names)
    return headers + " ".join(draw(st.lists(WORDS, max_size=40)))


@settings(max_examples=150, deadline=None)
@given(records())
def test_any_record_is_checked_without_raising(text: str) -> None:
    report = check(parse_game(text))
    starts = [d.span.start for d in report.diagnostics]
    assert starts == sorted(starts)
    for d in report.diagnostics:
        assert d.code[0] in "NR" and d.message
        if d.code.startswith("R"):
            assert d.severity is RULE_CODES[d.code][0]
    assert report.score.totals == report.state.scores().totals


def observable(state: GameState) -> tuple:
    """Everything a state tells about the round."""
    return (state.turn, state.draw_pile_range, state.certain, state.is_over,
            state.scores(), state.draw_pile(),
            [state.expedition(p, c) for p in (0, 1) for c in state.colors],
            [state.discard_pile(c) for c in state.colors],
            [(state.known_cards(p), state.unknown_count(p)) for p in (0, 1)])


@settings(max_examples=150, deadline=None)
@given(st.one_of(records(), games().map(format_game)), st.data())
def test_playing_a_game_at_once_is_applying_its_moves_one_by_one(text: str,
                                                                   data: st.DataObject) -> None:
    game = parse_game(text)
    moves = list(game.moves)
    if moves:  # sometimes moves after the end, or a turn skipped
        extra = data.draw(st.lists(st.sampled_from(moves), max_size=3))
        moves += [m._replace(turn=None) for m in extra]
    by_game, by_move = GameState.from_game(game), GameState.from_game(game)
    at_once = by_game.play(moves)
    one_by_one = []
    for i, move in enumerate(moves):
        found = by_move.apply(move)
        one_by_one += found
        if found and found[0].code == "R109":
            rest = len(moves) - i - 1
            if rest:
                assert at_once[-1].message.endswith(
                    f"({rest} more move{' follows' if rest == 1 else 's follow'})")
                one_by_one[-1] = at_once[-1]
            break
    assert at_once == one_by_one
    assert observable(by_game) == observable(by_move)
