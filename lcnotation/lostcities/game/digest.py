"""Digests of what a game means: the same for every spelling of the same record.

:func:`game_digest` is the identity of a record by meaning: 32 hexadecimal
digits that do not change when the record is converted to another dialect,
written in other letter case, laid out otherwise (line breaks, spaces, move
numbers, the order of its headers), or given other comments, and that do
change with anything the record says (a header's value, a move, the deal).
``spec/digest.md`` defines it byte by byte, so that a second implementation
gives the same digests; ``lcn dedupe`` compares them, and the JSON form
carries one per game.

:func:`deal_digest` is the identity of a deal alone, and :func:`play_key`
that of a game's setup and the moves played from it, prefix by prefix (for
finding a record that is a prefix of another).

>>> from lcnotation.lostcities.text.reader import parse_game
>>> a = parse_game('[Player1 "Ann"] [Player2 "Bob"]\\n1. R3-D {opening} 2. BHD-D')
>>> b = parse_game('[Player2 "Bob"]\\n[Player1 "Ann"]\\nr3-d bhx-d ; other words')
>>> game_digest(a) == game_digest(b), len(game_digest(a))
(True, 32)
>>> game_digest(a) == game_digest(parse_game('[Player1 "Ann"] [Player2 "Bob"] R3-D BH-D'))
False
"""

from __future__ import annotations

import hashlib
import json
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ..text.ast import Game, Header, Move
from ...core.diagnostics import NotationError
from ..text.headers import parse_cards, parse_colors, parse_result
from ..text.lexical import LEXICON

__all__ = ["DIGEST_VERSION", "game_digest", "deal_digest", "play_key", "canonical_meaning",
           "move_text"]

#: The version of the digest's definition (``spec/digest.md``).  A change to
#: what a digest covers is a new version, never a silent change.
DIGEST_VERSION = 1

_RANK_TEXT = LEXICON.rank_text
_PLAYERS = ("Player1", "Player2")
_DEAL = ("Hand1", "Hand2", "Deck")


def move_text(move: Move) -> str:
    """A move in the canonical v1 spelling (``R3-D``, ``BHD-D``, ``W10-B``).

    >>> from lcnotation.lostcities.text.reader import parse_move
    >>> move_text(parse_move("bhx-r"))
    'BHD-R'
    """
    card = move.placement.card
    return (f"{card.color}{_RANK_TEXT[card.rank]}{'D' if move.placement.discard else ''}"
            f"-{move.draw.color or 'D'}")


def _card_texts(header: Header, sort: bool) -> Optional[List[str]]:
    try:
        cards = parse_cards(header)
    except NotationError:
        return None
    if sort:
        cards = tuple(sorted(cards))
    return [f"{c.color}{_RANK_TEXT[c.rank]}" for c in cards]


def _value(header: Header) -> object:
    """A header's value by meaning (see spec/digest.md, "Headers")."""
    name = header.name
    try:
        if name == "Colors":
            return "".join(sorted(parse_colors(header)))
        if name == "Result":
            scores = parse_result(header)
            return "*" if scores is None else f"{scores[0]}-{scores[1]}"
    except NotationError:
        return ["unread", header.value]
    if name in _DEAL:
        cards = _card_texts(header, sort=name != "Deck")
        return ["unread", header.value] if cards is None else " ".join(cards)
    if name in _PLAYERS:
        return header.value.strip()
    return header.value


def canonical_meaning(game: Game) -> str:
    """The text whose SHA-256 is the game's digest: a JSON array written as
    RFC 8785 (JCS) writes it, ``["lcnotation-game", 1, headers, moves]``.

    >>> from lcnotation.lostcities.text.reader import parse_game
    >>> canonical_meaning(parse_game('[Colors "pbgwry"] [Event " Club "] r3-d'))
    '["lcnotation-game",1,[["Colors","BGPRWY"],["Event"," Club "]],["R3-D"]]'
    """
    # sorted() is stable: repeated names keep the order they were written in.
    headers = [[h.name, _value(h)] for h in sorted(game.headers, key=_name)]
    moves = [move_text(m) for m in game.moves]
    return _jcs(["lcnotation-game", DIGEST_VERSION, headers, moves])


def _name(header: Header) -> str:
    return header.name


def _jcs(value: object) -> str:
    # For arrays of strings and small integers, Python's compact JSON without
    # ASCII escapes is exactly RFC 8785's serialisation.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def game_digest(game: Game) -> str:
    """The digest of what ``game`` says: 32 lower-case hexadecimal digits, the
    first 128 bits of the SHA-256 of :func:`canonical_meaning` (UTF-8).

    Covered: every header (name and value; Colors, Hand1, Hand2, Deck,
    Result, Player1 and Player2 by meaning) and every move.  Not covered:
    comments, layout, move numbers, letter case and the discard marker of
    moves, the order of headers of different names.  A game read with syntax
    errors gets the digest of what could be read.
    """
    return _hex(canonical_meaning(game))


def _setup(game: Game) -> List[object]:
    """What a game is played from: colours, players and deal (spec/digest.md)."""
    found: Dict[str, Header] = {}
    for h in game.headers:
        found.setdefault(h.name, h)
    return [[name, _value(found[name]) if name in found else None]
            for name in ("Colors", *_PLAYERS, *_DEAL)]


def deal_digest(game: Game) -> Optional[str]:
    """The digest of the deal of ``game`` (its colours and its Hand1, Hand2
    and Deck headers), or None when the record does not give a whole deal
    that can be read.

    >>> from lcnotation.lostcities.text.reader import parse_game
    >>> deal_digest(parse_game("R3-D")) is None
    True
    """
    found: Dict[str, Header] = {}
    for h in game.headers:
        found.setdefault(h.name, h)
    if any(name not in found for name in _DEAL):
        return None
    parts: List[object] = []
    for name in _DEAL:
        cards = _card_texts(found[name], sort=name != "Deck")
        if cards is None:
            return None
        parts.append(cards)
    colors = found.get("Colors")
    parts.insert(0, None if colors is None else _value(colors))
    return _hex(_jcs(["lcnotation-deal", DIGEST_VERSION, parts]))


def play_key(game: Game) -> Tuple[str, Sequence[str]]:
    """The digest of what ``game`` is played from (colours, players, deal) and
    the digests of its plays: element ``k`` stands for the setup and the
    first ``k`` moves (so the last is that of the whole game).  A record
    whose last play digest is among another's is a prefix of it.

    >>> from lcnotation.lostcities.text.reader import parse_game
    >>> _, short = play_key(parse_game("R3-D B4-D"))
    >>> _, long = play_key(parse_game("[Result \\"*\\"] r3-d b4-d G5-D"))
    >>> short[-1] in long, len(long)
    (True, 4)
    """
    setup = _jcs(["lcnotation-play", DIGEST_VERSION, _setup(game)])
    return _hex(setup), list(_prefixes(setup, game.moves))


def _prefixes(setup: str, moves: Sequence[Move]) -> Iterator[str]:
    h = hashlib.sha256(setup.encode("utf-8"))
    yield h.copy().hexdigest()[:32]
    for move in moves:
        h.update(b"," + move_text(move).encode("ascii"))
        yield h.copy().hexdigest()[:32]
