"""The parser's two paths, for tests that compare them: the path is chosen
per call (``fast_path`` of parse_game and parse_games)."""

from __future__ import annotations

from typing import List

from lcnotation import Game, parse_game, parse_games


def read_game(text: str, fast: bool = True) -> Game:
    """One game, read with the fast path first, or with Lark only."""
    return parse_game(text, fast_path=fast)


def read_games(text: str, fast: bool = True) -> List[Game]:
    """The games of a text, read with the fast path first, or with Lark only."""
    return list(parse_games(text, fast_path=fast))
