"""The replay page: one self-contained HTML file that replays the games of a record.

Python replays each game with the checker's :class:`~lcnotation.lostcities.game.state.GameState`
and describes every position as a :class:`~lcnotation.svg.Picture`; the page
holds, per game, the first picture and for each move only the parts that
changed (so the file grows with the moves, not with moves times positions),
and two :class:`~lcnotation.svg.Layout` per colour set (either player at
the bottom).  Its script
(``page.js``, beside this module) puts the parts together as
:func:`lcnotation.svg.fill` does, so the page draws the very picture that
:func:`lcnotation.svg.board_svg` makes for the same position (the browser
tests hold the two equal).  Nothing is loaded from the network.

>>> from lcnotation import parse_games
>>> html = view_html(list(parse_games("R7-D BHD-D R4-B")), title="demo")
>>> html.startswith("<!DOCTYPE html>"), "<script src" in html
(True, False)
"""

from __future__ import annotations

import bisect
import json
import re
from importlib import resources
from typing import Dict, List, Optional, Sequence, Tuple

from ..lostcities.game.checker import check
from ..lostcities.game.setup import read_setup
from ..lostcities.game.state import GameState
from ..svg import Layout, Picture, layout, markup_text, move_words, picture
from ..lostcities.text.ast import Game
from ..lostcities.text.formatter import format_move
from ..lostcities.text.headers import DEFAULT_COLORS

__all__ = ["view_html", "game_data"]


def _asset(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


def game_data(game: Game, layout_index: int, *, path: Optional[str] = None,
              default_colors: Tuple[str, ...] = DEFAULT_COLORS) -> Dict[str, object]:
    """What the page needs of one game: its title, first picture, each move
    (numbered notation, words, the changed slots and texts, the marks) and the
    diagnostics with the position they belong to (0 is the start, ``k`` the
    position after the ``k``-th move).  ``path`` and ``default_colors`` are
    :func:`~lcnotation.lostcities.game.checker.check`'s."""
    report = check(game, path=path, default_colors=default_colors)
    state = GameState.from_setup(read_setup(game, default_colors))
    first = before = picture(state)
    moves: List[List[object]] = []
    for k, move in enumerate(game.moves, 1):
        words = move_words(state, move)
        state.apply(move)
        after = picture(state, last_move=move)
        # Numbered as the record counts turns (unreadable moves too).
        number = k if move.turn is None else move.turn + 1
        moves.append([f"{number}. {format_move(move)}", markup_text(words),
                      _changed_slots(before, after), _changed_texts(before, after),
                      [list(m) for m in after.marks]])
        before = after
    starts = [m.span.start for m in game.moves]
    diagnostics: List[List[object]] = []
    for d in report.diagnostics:
        # A diagnostic without a position (line 0) belongs to the start.
        at = bisect.bisect_right(starts, d.span.start) if d.span.line else 0
        diagnostics.append([at, d.severity.name.lower(), markup_text(str(d))])
    return {"title": markup_text(_title(game)), "layout": layout_index,
            "start": {"slots": {k: " ".join(v) for k, v in first.slots.items()},
                      "texts": first.texts, "marks": []},
            "moves": moves, "diagnostics": diagnostics}


def _changed_slots(before: Picture, after: Picture) -> Dict[str, str]:
    return {name: " ".join(cards) for name, cards in after.slots.items()
            if before.slots.get(name) != cards}


def _changed_texts(before: Picture, after: Picture) -> Dict[str, str]:
    return {name: value for name, value in after.texts.items()
            if before.texts.get(name) != value}


def _title(game: Game) -> str:
    players = f"{game.header('Player1', 'Player 1')} vs {game.header('Player2', 'Player 2')}"
    event = game.header("Event")
    rnd = game.header("Round")
    return ", ".join(part for part in (event, f"round {rnd}" if rnd else None, players)
                     if part)


def view_html(games: Sequence[Game], *, title: str, path: Optional[str] = None,
              default_colors: Tuple[str, ...] = DEFAULT_COLORS) -> str:
    """The replay page of ``games`` (``title`` heads it; ``path`` names the file
    in the diagnostics; ``default_colors`` are the colours of a game without a
    Colors header)."""
    layouts: List[Tuple[Layout, Layout]] = []  # per colour set: Player1, Player2 at the bottom
    index: Dict[Tuple[str, ...], int] = {}
    data: List[Dict[str, object]] = []
    for game in games:
        colors = read_setup(game, default_colors).colors
        if colors not in index:
            index[colors] = len(layouts)
            layouts.append((layout(colors), layout(colors, perspective=1)))
        data.append(game_data(game, index[colors], path=path, default_colors=default_colors))
    payload = json.dumps({"layouts": [[lay.to_json() for lay in pair] for pair in layouts],
                          "games": data},
                         ensure_ascii=False, separators=(",", ":"))
    # Nothing in the data may close the script element or open a comment.
    payload = payload.replace("<", "\\u003c")
    parts = {"title": markup_text(title), "style": _asset("page.css"), "data": payload,
             "script": _asset("page.js")}
    # One pass, so that nothing put in is read again as a placeholder.
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], _asset("page.html"))
