"""The digest of a game's meaning (spec/digest.md): its examples, and that it
holds under every re-spelling the package can make and tells apart games that
differ in meaning."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import List

from hypothesis import given, settings, strategies as st

from lcnotation import format_games, generate_game, read_games
from lcnotation.archive import deal_digest, game_digest, play_key
from lcnotation.game.digest import canonical_meaning
from lcnotation.text.ast import Game

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
