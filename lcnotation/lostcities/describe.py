"""A Lost Cities move in words, and the state it leads to: what an editor shows
over a move (Markdown).  A plain function of the tree and the game state, so
it is tested without a client.

>>> from lcnotation.lostcities.text.reader import parse_game
>>> game = parse_game('[Player1 "Ann"]\\n[Player2 "Bob"]\\n1. R3-D 2. BHD-D 3. G4-B')
>>> print(describe_move(game, 2))
**3. G4-B**: Ann plays Green 4 on their Green expedition, and takes the Blue handshake from the Blue discard pile.
<BLANKLINE>
After it (turn 4, Bob to move):
<BLANKLINE>
- Ann: Red 3 · Green 4 (score -33)
- Bob: nothing played (score 0)
- Discard piles: none
- Draw pile: 42 cards
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

from ..core.markdown import escape
from .game.scoring import GameScore
from .game.setup import read_setup
from .game.state import GameState
from .game.violations import card_name, color_name
from .text.ast import HANDSHAKE, Card, Game, Move
from .text.formatter import format_move
from .text.headers import DEFAULT_COLORS

if TYPE_CHECKING:  # pragma: no cover
    from .game.violations import Violation

__all__ = ["describe_move"]


def _sentence(move: Move, mover: str, top: Optional[Card]) -> str:
    card = move.placement.card
    name = card_name(card.color, card.rank)
    if move.placement.discard:
        first = f"{mover} discards {_article(card)}{name} onto the {color_name(card.color)} discard pile"
    else:
        first = f"{mover} plays {_article(card)}{name} on their {color_name(card.color)} expedition"
    draw = move.draw
    if draw.from_draw_pile:
        second = "draws from the draw pile"
    else:
        pile = f"the {color_name(draw.color or '')} discard pile"
        second = (f"takes the top card of {pile}" if top is None else
                  f"takes {_article(top)}{card_name(top.color, top.rank)} from {pile}")
    return f"{first}, and {second}."


def _article(card: Card) -> str:
    return "the " if card.rank == HANDSHAKE else ""


def _cards(cards: Tuple[Card, ...]) -> str:
    return " ".join("H" if c.rank == HANDSHAKE else str(c.rank) for c in cards)


def describe_move(game: Game, index: int,
                  default_colors: Tuple[str, ...] = DEFAULT_COLORS) -> str:
    """Markdown for the ``index``-th move of ``game``: its meaning, and the
    state of the round after it (as the checker replays it)."""
    setup = read_setup(game, default_colors)
    state = GameState.from_setup(setup)
    moves = game.moves
    earlier = state.play(moves[:index])
    move = moves[index]
    # Player names are the record's own text: escaped, to show as written
    # (a name may be Markdown that an editor would render, even an image).
    players = tuple(escape(p) for p in setup.players)
    mover = players[(move.turn if move.turn is not None else state.turn) & 1]
    number = f"{move.number}. " if move.number is not None else ""
    pile = state.discard_pile(move.draw.color) if move.draw.color in state.colors else ()
    top = pile[-1] if pile else None
    head = f"**{number}{format_move(move)}**: {_sentence(move, mover, top)}"
    broken = state.play(moves[index:index + 1])
    lines = [head, "", f"After it (turn {state.turn + 1}, "
             f"{players[state.to_move]} to move):", ""]
    lines += _state_lines(state, players)
    notes = _why_uncertain(moves[:index + 1], earlier, broken)
    if not state.certain:
        notes.append("The state shown is the best-effort one: it holds only what the "
                     "record still proves.")
    if notes:
        lines += ["", "_" + " ".join(notes) + "_"]
    return "\n".join(lines)


def _why_uncertain(moves: Sequence[Move], earlier: Sequence["Violation"],
                   broken: Sequence["Violation"]) -> List[str]:
    """What makes the state after the last of ``moves`` less than certain:
    the rules the move breaks, those earlier moves broke, and the turns
    before it that could not be read (each as it is: the parser numbers
    turns with the unreadable ones)."""
    notes = [f"This move breaks rule {v.code}: {v.message}." for v in broken]
    if earlier:
        said = [f"move {v.turn + 1} broke rule {v.code}" if v.turn is not None
                else f"the headers break rule {v.code}" for v in earlier[:_LISTED]]
        more = len(earlier) - _LISTED
        if more > 0:
            said.append(f"{more} more rule{'s' if more != 1 else ''} broken")
        notes.append(_capitalised("; ".join(said)) + ".")
    last = moves[-1].turn if moves else None
    if last is not None:
        read = {m.turn for m in moves}
        missing = [t + 1 for t in range(last) if t not in read]
        if missing:
            named = ", ".join(str(t) for t in missing[:_LISTED])
            if len(missing) > _LISTED:
                named += f" and {len(missing) - _LISTED} more"
            notes.append(f"Move{'s' if len(missing) > 1 else ''} {named} could not be read.")
    return notes


#: How many earlier problems a note names (the rest are counted).
_LISTED = 3


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _state_lines(state: GameState, players: Tuple[str, ...]) -> List[str]:
    score: GameScore = state.scores()
    out = []
    for p in (0, 1):
        played = [f"{color_name(c)} {_cards(state.expedition(p, c))}"
                  for c in state.colors if state.expedition(p, c)]
        hand = state.hand(p)
        held = "" if hand is None else f"; hand: {_cards_by_color(hand)}"
        out.append(f"- {players[p]}: {' · '.join(played) or 'nothing played'} "
                   f"(score {score.totals[p]}){held}")
    tops = [card_name(c, pile[-1].rank) for c in state.colors
            for pile in (state.discard_pile(c),) if pile]
    out.append(f"- Discard piles: {', '.join(tops) + ' on top' if tops else 'none'}")
    low, high = state.draw_pile_range
    size = f"{high}" if low == high else f"{low} to {high}"
    out.append(f"- Draw pile: {size} card{'s' if high != 1 else ''}")
    return out


def _cards_by_color(cards: Tuple[Card, ...]) -> str:
    return ", ".join(card_name(c.color, c.rank) for c in cards) or "empty"
