"""Small writers of other programs' formats, for the importers' tests.

They are written from the engines' behaviour as ``spec/formats.md`` states
it, independently of the importers (only the letter tables are shared), so
that a property test can write a generated game in the other format, import
it and compare.
"""

from __future__ import annotations

import base64
import struct
from typing import List, Optional, Sequence, Tuple

import lcnotation as lcn
from lcnotation.formats.chikinn import engine_card
from lcnotation.lostcities.text.ast import Card, Game

DASHES = "-" * 79


def _board(names: Tuple[str, str], played: Tuple[dict, dict], piles: dict) -> List[str]:
    """The table the engine prints after each turn (seven lines), more or less:
    the importer only needs indented lines."""
    rows = ["  " + names[0].ljust(10), "  " + "Discards".ljust(10), "  " + names[1].ljust(10)]
    for suit in "bgprwy":
        cells = [" " + "".join(c[1] for c in played[0].get(suit, [])),
                 suit + "".join(c[1] for c in piles.get(suit, [])),
                 " " + "".join(c[1] for c in played[1].get(suit, []))]
        width = max(map(len, cells)) + 2
        rows = [r + c.ljust(width) for r, c in zip(rows, cells)]
    blank = " " * 12
    return [blank, rows[0][:79], blank, rows[1][:79], blank, rows[2][:79], blank]


def chikinn_round(game: Game, number: int = 0) -> str:
    """A six-colour game with its deal as the engine prints one round."""
    names = (game.header("Player1") or "Ann", game.header("Player2") or "Bob")
    width = max(map(len, names))
    padded = (names[0].ljust(width), names[1].ljust(width))
    hands = [[engine_card(c) for c in lcn.parse_cards(game.header("Hand1") or "")],
             [engine_card(c) for c in lcn.parse_cards(game.header("Hand2") or "")]]
    deck = [engine_card(c) for c in lcn.parse_cards(game.header("Deck") or "")]
    played: Tuple[dict, dict] = ({}, {})
    piles: dict = {}
    out = [f"\nROUND {number}:"]
    for turn, move in enumerate(game.moves):
        p = turn % 2
        hand = sorted(hands[p])
        out.append(f"{padded[p]}: {' '.join(hand)}")
        pad = " " * (width + 2)
        card = engine_card(move.placement.card)
        hands[p].remove(card)
        if move.placement.discard:
            out.append(f"{pad}Discards {card}")
            piles.setdefault(card[0], []).append(card)
        else:
            out.append(f"{pad}Plays {card}")
            played[p].setdefault(card[0], []).append(card)
        if move.draw.color is None:
            hands[p].append(deck.pop(0))
        else:
            drawn = piles[engine_card(Card(move.draw.color, 2))[0]].pop()
            out.append(f"{pad}Draws {drawn}")
            hands[p].append(drawn)
        out += _board(padded, played, piles)
        out.append(DASHES)
    a, b = lcn.score(game).totals
    out += [f"Player 0 scores {a}", f"Player 1 scores {b}"]
    return "\n".join(out) + "\n"


def chikinn_transcript(game: Game) -> str:
    """One round, as ``wrapper.py`` prints it (with the winner line)."""
    a, b = lcn.score(game).totals
    names = (game.header("Player1") or "Ann", game.header("Player2") or "Bob")
    width = max(map(len, names))
    return chikinn_round(game) + f"Winner: {names[0 if a >= b else 1].ljust(width)}\n"


# ---------------------------------------------------------------- replay strings

ENGINE = "RGBWYP"  # the engine's colour numbers 1 to 6


def card_byte(card: Card) -> int:
    return (ENGINE.index(card.color) + 1) << 4 | card.rank


def replay(*, first: int = 1, deck: Sequence[Card] = (), hand1: Sequence[Card] = (),
           hand2: Sequence[Card] = (), actions: Sequence[int] = (), colors: int = 5,
           winner: int = 0, disqualified: int = 0, scores: Optional[Tuple[int, int]] = None,
           version: int = 3, table: Sequence[Sequence[Card]] = ((), (), ()),
           count: Optional[int] = None, tail: bytes = b"") -> str:
    """A replay string built byte by byte (``deck`` in the engine's order:
    drawn from its end)."""
    out = bytearray((version, colors, winner, disqualified))
    if scores is not None:
        out += struct.pack("<ii", *scores)
    out.append(first)
    lists = (deck, table[0], table[1], hand1, table[2], hand2)
    for cards in lists:
        out.append(len(cards))
        out += bytes(card_byte(c) for c in cards)
    out += struct.pack("<i", len(actions) if count is None else count)
    out += bytes(actions) + tail
    return base64.b64encode(bytes(out)).decode("ascii")


def replay_of(game: Game, first: int = 1) -> str:
    """A finished game with its deal (colours R G W B Y and maybe P) as a
    replay string, the engine's seat ``first`` moving first."""
    hands = {first: list(lcn.parse_cards(game.header("Hand1") or "")),
             3 - first: list(lcn.parse_cards(game.header("Hand2") or ""))}
    start = {seat: list(cards) for seat, cards in hands.items()}
    deck = list(lcn.parse_cards(game.header("Deck") or ""))  # top first
    piles: dict = {}
    seats = (first, 3 - first)
    actions = []
    played: dict = {1: {}, 2: {}}
    for turn, move in enumerate(game.moves):
        seat = seats[turn % 2]
        card = move.placement.card
        index = hands[seat].index(card)
        hands[seat].pop(index)
        where = piles if move.placement.discard else played[seat]
        where.setdefault(card.color, []).append(card)
        draw = move.draw.color
        hands[seat].append(deck.pop(0) if draw is None else piles[draw].pop())
        actions.append(index | 8 * move.placement.discard
                       | (0 if draw is None else ENGINE.index(draw) + 1) << 4)
    totals = []
    for seat in (1, 2):  # the engine's score: no bonus for 8 cards
        total = 0
        for cards in played[seat].values():
            wagers = sum(1 for c in cards if c.rank == 0)
            total += (sum(c.rank for c in cards) - 20) * (1 + wagers)
        totals.append(total)
    winner = 0 if totals[0] == totals[1] else (1 if totals[0] > totals[1] else 2)
    engine_deck = list(lcn.parse_cards(game.header("Deck") or ""))[::-1]
    return replay(first=first, deck=engine_deck, hand1=start[1], hand2=start[2],
                  actions=actions, colors=len(lcn.game_colors(game)), winner=winner)
