"""The digest of a game's meaning (spec/digest.md): its examples, and that it
holds under every re-spelling the package can make and tells apart games that
differ in meaning."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import List

from hypothesis import given, strategies as st

from lcnotation import convert_text, format_game, generate_game, parse_game, read_games
from lcnotation.archive import deal_digest, game_digest, play_key
from lcnotation.lostcities.game.digest import canonical_meaning
from lcnotation.lostcities.text.ast import Comment, Game, Header, Move

from strategies import examples

SPEC = Path(__file__).resolve().parent.parent / "spec" / "digest.md"
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


def _examples() -> List[tuple[str, str]]:
    blocks = [(m.group(1).strip(), m.group(2)) for m in _FENCE.finditer(SPEC.read_text("utf-8"))]
    pairs = [(text, blocks[i + 1][1]) for i, (info, text) in enumerate(blocks)
             if info == "lcn" and i + 1 < len(blocks) and blocks[i + 1][0] == "digest"]
    assert len(pairs) == sum(1 for info, _ in blocks if info == "lcn"), \
        "every lcn block of spec/digest.md is followed by its digest block"
    return pairs


def test_the_spec_examples_give_their_canonical_meanings_and_digests() -> None:
    pairs = _examples()
    assert len(pairs) >= 3
    for text, expected in pairs:
        got = []
        for game in read_games(io.BytesIO(text.encode("utf-8"))):
            got += [canonical_meaning(game), game_digest(game)]
        assert "\n".join(got) + "\n" == expected


# ---------------------------------------------------------------- properties


_DIALECTS = ["v1", "x-discard", "lower"]
seeds = st.integers(0, 10_000)


def _generated(seed: int) -> Game:
    return generate_game(seed=seed, deal=seed % 2 == 0)


def _read(text: str) -> Game:
    (game,) = read_games(io.BytesIO(text.encode("utf-8")))
    assert not game.errors
    return game


@given(seeds, st.sampled_from(_DIALECTS), st.sampled_from(["\n", "\r\n", "  ", "\n\n"]),
       st.randoms(use_true_random=False))
@examples(150)
def test_the_digest_holds_under_every_respelling(seed: int, dialect: str, gap: str,
                                                 rnd) -> None:
    game = _generated(seed)
    digest = game_digest(game)
    text = format_game(game)
    # Another dialect, by the converter (layout kept) and by the formatter.
    assert game_digest(_read(convert_text(text, to=dialect))) == digest
    assert game_digest(_read(format_game(game, dialect))) == digest
    # Another layout: the moves on one line, or spread out, without numbers.
    moves = " ".join(m.split(". ", 1)[1] for m in text.split("\n") if ". " in m)
    head = "\n".join(line for line in text.split("\n") if line.startswith("["))
    assert game_digest(_read(head + "\n" + moves.replace(" ", gap) + "\n")) == digest
    # Headers in another order, typed values in another case, other comments.
    lines = head.split("\n")
    rnd.shuffle(lines)
    respelt = [re.sub(r'^\[(Colors|Hand1|Hand2|Deck) "(.*)"\]$',
                      lambda m: f'[{m.group(1)} "{m.group(2).lower()}"]', line)
               for line in lines]
    commented = "\n".join(f"{line} {{note {i}}}" for i, line in enumerate(respelt))
    assert game_digest(_read(f"; a record\n{commented}\n{moves} ; the end\n")) == digest
    # A hand in another order is the same hand.
    if game.header("Hand1"):
        cards = game.header("Hand1").split()
        rnd.shuffle(cards)
        shuffled = game._replace(headers=tuple(
            h._replace(value=" ".join(cards)) if h.name == "Hand1" else h
            for h in game.headers))
        assert game_digest(shuffled) == digest


@given(seeds, st.integers(0, 10_000), st.sampled_from(["move", "drop", "add", "header",
                                                       "value", "deck"]))
@examples(150)
def test_the_digest_tells_apart_games_that_say_different_things(seed: int, at: int,
                                                                 change: str) -> None:
    game = _generated(seed)
    moves = list(game.moves)
    k = at % len(moves)
    headers = list(game.headers)
    if change == "move":
        m = moves[k]
        moves[k] = m._replace(placement=m.placement._replace(discard=not m.placement.discard))
    elif change == "drop":
        del moves[k]
    elif change == "add":
        moves.append(moves[k])
    elif change == "header":
        headers.append(Header("Annotator", "someone"))
    elif change == "value":
        h = headers[k % len(headers)]
        headers[k % len(headers)] = h._replace(value=h.value + "1")
    elif game.header("Deck"):
        i = next(i for i, h in enumerate(headers) if h.name == "Deck")
        cards = headers[i].value.split()
        if len(set(cards[:2])) == 2:
            cards[0], cards[1] = cards[1], cards[0]
            headers[i] = headers[i]._replace(value=" ".join(cards))
        else:
            headers[i] = headers[i]._replace(value=" ".join(cards[1:]))
    else:
        headers.append(Header("Deck", "R3"))
    other = Game(tuple(headers), tuple(moves))
    assert game_digest(other) != game_digest(game)
    assert game_digest(_read(format_game(other))) == game_digest(other)


def test_the_deal_and_the_play() -> None:
    a = generate_game(seed=3, deal=True)
    b = a._replace(headers=tuple(h._replace(value="Other") if h.name == "Event" else h
                                 for h in a.headers), moves=a.moves[:7])
    assert deal_digest(a) == deal_digest(b) is not None
    assert game_digest(a) != game_digest(b)
    setup_a, plays_a = play_key(a)
    setup_b, plays_b = play_key(b)
    assert setup_a == setup_b and plays_b[-1] == plays_a[7] and len(plays_a) == len(a.moves) + 1
    assert deal_digest(generate_game(seed=3)) is None
    assert play_key(generate_game(seed=4, deal=True))[0] != setup_a


def test_a_comment_is_never_part_of_the_digest() -> None:
    game = parse_game('[Event "x"]\nR3-D {one} B4-D')
    other = game._replace(moves=tuple(m._replace(comments=(Comment("two"),))
                                      for m in game.moves), comments=(Comment("lead", "line"),))
    assert game_digest(other) == game_digest(game)
    assert isinstance(Move, type)
