"""Semantic tokens: what each piece of a record is, from the parsed tree.

The reader's tree says where every move, header and comment is; a move's
parts follow from its own position (:attr:`Move.card_span` and friends).
Move numbers are found in the text between them.

>>> from lcnotation.lsp.analysis import Linter
>>> from lcnotation.core.positions import LineIndex
>>> text = '[Event "x"]\\n1. R3-D {ok}\\n2. bhx-g\\n'
>>> doc = Linter().lint(text)
>>> [(TOKEN_TYPES[t], [m for i, m in enumerate(TOKEN_MODIFIERS) if mods >> i & 1],
...   text[s:e]) for s, e, t, mods in game_tokens(doc.games[0], text)][:9]
... # doctest: +NORMALIZE_WHITESPACE
[('lcnTag', [], 'Event'), ('string', [], 'x'), ('lcnMoveNumber', [], '1.'),
 ('lcnColor', ['red'], 'R'), ('lcnRank', [], '3'), ('lcnDrawPile', [], 'D'),
 ('comment', [], '{ok}'), ('lcnMoveNumber', [], '2.'), ('lcnColor', ['blue'], 'b')]
"""

from __future__ import annotations

import re
from typing import Iterable, List, Optional, Tuple

from ..lostcities.game.violations import color_name
from ..lostcities.text.ast import HANDSHAKE, Game, Span
from ..lostcities.lint import all_comments
from .analysis import GamePart
from ..core.positions import LineIndex

__all__ = ["TOKEN_TYPES", "TOKEN_MODIFIERS", "game_tokens", "encode"]

#: The token types the server reports (the legend), in order.
TOKEN_TYPES = ("lcnColor", "lcnRank", "lcnWager", "lcnDiscard", "lcnDrawPile",
               "lcnMoveNumber", "comment", "lcnTag", "string")
#: Modifiers: a colour letter's colour ("other" for a colour without a name).
TOKEN_MODIFIERS = ("red", "green", "white", "blue", "yellow", "black", "purple", "other")

_TYPE = {name: i for i, name in enumerate(TOKEN_TYPES)}
_MOD = {name: 1 << i for i, name in enumerate(TOKEN_MODIFIERS)}
_MOVE_NUMBER = re.compile(r"[0-9]+\.")
_TAG = re.compile(r"\[[ \t]*([A-Za-z][A-Za-z0-9_]*)")

#: (start, end, type, modifiers), offsets in the document.
Token = Tuple[int, int, int, int]


def _color(letter: str) -> int:
    return _MOD.get(color_name(letter.upper()).lower(), _MOD["other"])


def game_tokens(part: GamePart, text: str) -> List[Token]:
    """The tokens of one game of the document ``text``, in order."""
    game = part.game
    tokens: List[Token] = []
    for h in game.headers:
        if h.span is None:
            continue
        m = _TAG.match(text, h.span.start)
        if m is not None:
            tokens.append((m.start(1), m.end(1), _TYPE["lcnTag"], 0))
        if h.value_span is not None and h.value_span.end > h.value_span.start:
            tokens.append((h.value_span.start, h.value_span.end, _TYPE["string"], 0))
    for c in all_comments(game):
        if c.span is not None:
            tokens.append((c.span.start, c.span.end, _TYPE["comment"], 0))
    for move in game.moves:
        s = move.span
        if s is None:
            continue
        card = move.placement.card
        at = s.start
        tokens.append((at, at + 1, _TYPE["lcnColor"], _color(card.color)))
        size = 2 if card.rank == 10 else 1
        tokens.append((at + 1, at + 1 + size,
                       _TYPE["lcnWager" if card.rank == HANDSHAKE else "lcnRank"], 0))
        if move.placement.discard:
            tokens.append((at + 1 + size, at + 2 + size, _TYPE["lcnDiscard"], 0))
        draw = move.draw.color
        tokens.append((s.end - 1, s.end, _TYPE["lcnDrawPile"] if draw is None
                       else _TYPE["lcnColor"], 0 if draw is None else _color(draw)))
    tokens.sort()
    numbers: List[Token] = []
    gap = part.offset
    for start, end, _, _ in tokens + [(part.end, part.end, 0, 0)]:
        if start > gap:
            numbers += [(m.start(), m.end(), _TYPE["lcnMoveNumber"], 0)
                        for m in _MOVE_NUMBER.finditer(text, gap, start)
                        if _in_movetext(game, m.start())]
        gap = max(gap, end)
    if numbers:
        tokens = sorted(tokens + numbers)
    return tokens


def _in_movetext(game: Game, offset: int) -> bool:
    """Whether ``offset`` lies after the headers (a number in a header line is no move number)."""
    last: Optional[Span] = game.headers[-1].span if game.headers else None
    return last is None or offset >= last.end


def encode(tokens: Iterable[Token], index: LineIndex) -> List[int]:
    """Tokens in the LSP's relative form (a token across lines is cut at each line end)."""
    data: List[int] = []
    prev_line = prev_col = 0
    for start, end, kind, mods in tokens:
        while start < end:
            line = index.line_of(start)
            stop = min(end, index.ends[line])
            if stop > start:
                _, col = index.position(start)
                length = index.position(stop)[1] - col
                data += [line - prev_line, col - prev_col if line == prev_line else col,
                         length, kind, mods]
                prev_line, prev_col = line, col
            if line + 1 >= index.line_count:
                break
            start = max(stop, index.starts[line + 1])
    return data
