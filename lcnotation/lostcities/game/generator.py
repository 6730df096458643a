"""Random legal games, for tests, benchmarks and examples.

:func:`generate_game` deals a shuffled deck and lets two simple players play
a whole round (to the last card of the draw pile, unless ``turns`` stops it
earlier).  Everything is drawn from ``random.Random(seed)``: the same seed
and options always give the same game.

>>> from lcnotation.lostcities.text.formatter import format_game
>>> game = generate_game(seed=7, colors="RGWBY", players=("North", "South"))
>>> for line in format_game(game).splitlines()[:8]:
...     print(line)
[Event "Generated game 7"]
[Round "1"]
[Player1 "North"]
[Player2 "South"]
[Result "-23--2"]
<BLANKLINE>
1. GH-D
2. R10D-D
>>> from lcnotation.lostcities.game.checker import check
>>> check(game).ok
True
"""

from __future__ import annotations

import random
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from ..text.ast import HANDSHAKE, Card, Draw, Game, Header, Move, Placement
from ..text.formatter import format_card
from ..text.headers import DEFAULT_COLORS, parse_colors
from .scoring import score_expedition
from .setup import COLOR_DECK, HAND_SIZE

__all__ = ["generate_game", "generate_games", "generate_match", "COLOR_SETS", "NAMES"]

#: The colour sets a game is played with when ``colors`` is not given, and
#: how often each is chosen.
COLOR_SETS: Tuple[Tuple[str, int], ...] = (("RGWBY", 6), ("RGWBYK", 2), ("RGWBYP", 2))
#: Player names used when ``players`` is not given.
NAMES = ("Ada", "Bram", "Cleo", "Dana", "Emil", "Fenna", "Gus", "Hana", "Ivo", "Juno",
         "North", "South")

#: What may seed a game: what ``random.Random`` takes.
Seed = Union[int, float, str, bytes, bytearray, None]

_FROM_DRAW_PILE = Draw(None)


def generate_game(
    seed: Seed = 0,
    *,
    colors: Optional[Iterable[str]] = None,
    deal: bool = False,
    players: Optional[Sequence[str]] = None,
    headers: bool = True,
    take: float = 0.2,
    build: float = 0.75,
    turns: Optional[int] = None,
) -> Game:
    """A random legal game.

    ``colors``: the colour set (a string or letters); by default the seed
    picks one of :data:`COLOR_SETS`.  ``deal`` adds the ``Hand1``, ``Hand2``
    and ``Deck`` headers.  ``players``: the two names (default: two of
    :data:`NAMES`).  ``headers=False`` leaves out the Event, Round, player
    and Result headers (a Colors header is always written for a colour set
    other than RGWBY).  ``take`` (0 to below 1) is the chance that a player
    draws from a discard pile when one is open to them rather than from the
    draw pile; ``build`` (0 to 1) the chance that a player adds a card to an
    expedition when one fits rather than discarding, so higher values make
    longer expeditions.  ``turns`` stops the game after that many turns (an
    incomplete record, with Result ``*``).  The moves depend only on ``seed``,
    ``colors``, ``take``, ``build`` and ``turns``.

    >>> game = generate_game(seed=1, colors="RGWBYK", deal=True, headers=False)
    >>> [h.name for h in game.headers], len(game.header("Deck").split())
    (['Colors', 'Hand1', 'Hand2', 'Deck'], 56)
    """
    if not 0.0 <= take < 1.0:
        raise ValueError(f"take={take!r}: expected a chance from 0 to below 1 (at 1 a "
                         "round could last forever)")
    if not 0.0 <= build <= 1.0:
        raise ValueError(f"build={build!r}: expected a chance from 0 to 1")
    rng = random.Random(seed)
    if colors is None:
        sets, weights = zip(*COLOR_SETS)
        palette = tuple(rng.choices(sets, weights)[0])
    else:
        palette = parse_colors("".join(colors))
    if len(palette) * len(COLOR_DECK) < 2 * HAND_SIZE + 1:
        raise ValueError(f"colours {''.join(palette)!r}: too few cards for a deal")
    deck = [Card(c, r) for c in palette for r in COLOR_DECK]
    rng.shuffle(deck)
    hands = [deck[:HAND_SIZE], deck[HAND_SIZE:2 * HAND_SIZE]]
    draw_pile = deck[:2 * HAND_SIZE - 1:-1]  # top card last, to draw with pop()
    moves = _play(rng, palette, hands, draw_pile, take, build, turns)
    # Drawn after the play, so that the names never change the moves.
    if players is None:
        names = tuple(rng.sample(NAMES, 2))
    else:
        names = (str(players[0]), str(players[1]))

    tags: List[Tuple[str, str]] = []
    if headers:
        tags += [("Event", "Generated game " + str(seed)), ("Round", "1"),
                 ("Player1", names[0]), ("Player2", names[1])]
    if palette != DEFAULT_COLORS:
        tags.append(("Colors", "".join(palette)))
    if deal:
        tags += [("Hand1", _cards(deck[:HAND_SIZE])),
                 ("Hand2", _cards(deck[HAND_SIZE:2 * HAND_SIZE])),
                 ("Deck", _cards(deck[2 * HAND_SIZE:]))]
    if headers:
        tags.append(("Result", _result(moves, palette) if not draw_pile else "*"))
    return Game(tuple(Header(name, value) for name, value in tags), tuple(moves))


def _play(rng: random.Random, palette: Tuple[str, ...], hands: List[List[Card]],
          draw_pile: List[Card], take: float, build: float,
          turns: Optional[int]) -> List[Move]:
    """Play the round: fill ``moves``; ``hands`` and ``draw_pile`` are used up."""
    random_ = rng.random
    choice = rng.choice
    randrange = rng.randrange
    lasts: List[Dict[str, int]] = [dict.fromkeys(palette, -1), dict.fromkeys(palette, -1)]
    piles: Dict[str, List[Card]] = {c: [] for c in palette}
    draws = {c: Draw(c) for c in palette}
    moves: List[Move] = []
    turn = 0
    limit = -1 if turns is None else turns
    while draw_pile and turn != limit:
        p = turn & 1
        hand = hands[p]
        last = lasts[p]
        # The cards that fit their expedition, as (how far they jump ahead,
        # index in hand), and the indices of those that do not.
        fits = []
        dead = []
        for i, card in enumerate(hand):
            top = last[card.color]
            rank = card.rank
            if top < 0 or (rank > top if rank else top == HANDSHAKE):
                fits.append((rank - (top if top > 1 else 1) if rank else 0, i))
            else:
                dead.append(i)
        if fits and random_() < build:
            i = min(fits)[1] if random_() < 0.7 else choice(fits)[1]
            card = hand[i]
            discard = False
            last[card.color] = card.rank
        else:
            i = choice(dead) if dead else randrange(len(hand))
            card = hand[i]
            discard = True
            piles[card.color].append(card)
        hand[i] = hand[-1]
        hand.pop()
        draw = _FROM_DRAW_PILE
        if random_() < take:
            open_piles = [c for c, pile in piles.items()
                          if pile and not (discard and c == card.color)]
            if open_piles:
                wanted = [c for c in open_piles if _fits(last, piles[c][-1])]
                draw = draws[choice(wanted or open_piles)]
        hand.append(draw_pile.pop() if draw.color is None else piles[draw.color].pop())
        moves.append(Move(Placement(card, discard), draw, (), turn + 1, turn))
        turn += 1
    return moves


def _fits(last: Dict[str, int], card: Card) -> bool:
    top = last[card.color]
    rank = card.rank
    return top < 0 or (rank > top if rank else top == HANDSHAKE)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(format_card(k) for k in cards)


def _result(moves: Sequence[Move], palette: Tuple[str, ...]) -> str:
    expeditions: Tuple[Dict[str, List[int]], ...] = ({c: [] for c in palette},
                                                     {c: [] for c in palette})
    for turn, move in enumerate(moves):  # the moves of a whole round, from turn 0
        if not move.placement.discard:
            expeditions[turn & 1][move.card.color].append(move.card.rank)
    a, b = (sum(score_expedition(e) for e in side.values()) for side in expeditions)
    return f"{a}-{b}"


def generate_games(count: int, seed: Seed = 0, **options: object) -> Iterator[Game]:
    """``count`` games from one seed, each with its own seed drawn from it.

    ``options`` are those of :func:`generate_game`.

    >>> [g.header("Event") for g in generate_games(2, seed=3)] == \\
    ...     [g.header("Event") for g in generate_games(2, seed=3)]
    True
    """
    master = random.Random(seed)
    for _ in range(count):
        yield generate_game(master.getrandbits(48), **options)  # type: ignore[arg-type]


def generate_match(seed: Seed = 0, *, rounds: int = 3,
                   players: Optional[Sequence[str]] = None, **options: object) -> List[Game]:
    """The rounds of a match: the players swap seats every round.

    >>> games = generate_match(5, players=("Ann", "Bob"))
    >>> [(g.header("Round"), g.header("Player1")) for g in games]
    [('1', 'Ann'), ('2', 'Bob'), ('3', 'Ann')]
    """
    master = random.Random(seed)
    names = tuple(players) if players is not None else tuple(master.sample(NAMES, 2))
    games = []
    for n in range(1, rounds + 1):
        seats = names if n % 2 else names[::-1]
        game = generate_game(master.getrandbits(48), players=seats, **options)  # type: ignore[arg-type]
        headers = tuple(h._replace(value=str(n)) if h.name == "Round" else h
                        for h in game.headers)
        games.append(game._replace(headers=headers))
    return games
