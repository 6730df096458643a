"""What the server says on hover: a move in words and the state it leads to,
and a diagnostic code's explanation.  Plain functions of the tree and the
game state (Markdown out), so they are tested without a client.

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

from typing import List, Optional, Tuple

from ..lostcities.game.scoring import GameScore
from ..lostcities.game.setup import read_setup
from ..lostcities.game.state import GameState
from ..lostcities.game.violations import card_name, color_name
from ..lostcities.text.ast import HANDSHAKE, Card, Game, Move
from ..lostcities.text.formatter import format_move
from ..lostcities.text.headers import DEFAULT_COLORS
from ..tools.codes import ALL_CODES

__all__ = ["describe_move", "describe_code", "code_href"]


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
    state.play(moves[:index])
    move = moves[index]
    mover = setup.players[(move.turn if move.turn is not None else state.turn) & 1]
    number = f"{move.number}. " if move.number is not None else ""
    pile = state.discard_pile(move.draw.color) if move.draw.color in state.colors else ()
    top = pile[-1] if pile else None
    head = f"**{number}{format_move(move)}**: {_sentence(move, mover, top)}"
    state.play(moves[index:index + 1])
    lines = [head, "", f"After it (turn {state.turn + 1}, "
             f"{setup.players[state.to_move]} to move):", ""]
    lines += _state_lines(state)
    if not state.certain:
        lines += ["", "_Turns before this one could not be read: the state shows only "
                  "what the record still proves._"]
    return "\n".join(lines)


def _state_lines(state: GameState) -> List[str]:
    score: GameScore = state.scores()
    out = []
    for p in (0, 1):
        played = [f"{color_name(c)} {_cards(state.expedition(p, c))}"
                  for c in state.colors if state.expedition(p, c)]
        hand = state.hand(p)
        held = "" if hand is None else f"; hand: {_cards_by_color(hand)}"
        out.append(f"- {state.players[p]}: {' · '.join(played) or 'nothing played'} "
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


def code_href(code: str, base: Optional[str]) -> Optional[str]:
    """The address of ``code``'s section in the specification under ``base``
    (a folder's URI ending in ``/``), None without a base.

    >>> code_href("N103", "file:///x/spec/"), code_href("R101", "https://e.org/spec/")
    ('file:///x/spec/diagnostics.md#n103', 'https://e.org/spec/rules.md#r101')
    """
    if base is None:
        return None
    return f"{base}{ALL_CODES.page(code)}#{code.lower()}"


def describe_code(code: str, base: Optional[str] = None) -> Optional[str]:
    """Markdown explaining ``code``; None for a code lcnotation does not have.

    >>> print(describe_code("S102"))
    **S102** (style, warning): letters not in the case of the dialect (upper case, or lower case for lower)
    """
    known = ALL_CODES.get(code)
    if known is None:
        return None
    severity, summary = known
    family = ALL_CODES.name(code).split(" ")[0]
    text = f"**{code}** ({family}, {severity}): {summary}"
    href = code_href(code, base)
    return text if href is None else f"{text}\n\n[{code} in the specification]({href})"
