"""Writing syntax trees back as text.

The canonical form: headers first, one per line; a blank line; then one
numbered move per line (one number per turn), each followed by its comments.
Letters are upper case and ``D`` marks a discard; other dialects change only
the spelling of the moves.

>>> from lcnotation import parse_game
>>> print(format_game(parse_game('[Event "Club"] r3-d {start} bhx-d')), end="")
[Event "Club"]
<BLANKLINE>
1. R3-D {start}
2. BHD-D
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .ast import HANDSHAKE, Card, Comment, Game, Header, Move  # noqa: F401 (doctests)
from .dialects import COLOR_LETTERS, Dialect, get_dialect
from .lexical import LEXICON, RANK_TEXT
from ...core.lineends import LONE_CR, has_line_break

__all__ = ["format_card", "format_move", "format_comment", "format_header",
           "format_game", "format_games", "head_lines"]

# A CR alone reads back as a line end; a line that begins with "[" is a header.
_UNWRITABLE_IN_BRACES = re.compile(f"{LONE_CR.pattern}|{LEXICON.header_line.pattern}")

_RANK_TEXT = RANK_TEXT


def format_card(card: Card) -> str:
    """``R3``, ``BH``, ``W10``.

    >>> format_card(Card("B", HANDSHAKE))
    'BH'
    """
    if card.color not in COLOR_LETTERS:
        raise ValueError(f"cannot write card colour {card.color!r}: a colour is one "
                         "upper-case letter other than D, H and X")
    try:
        return card.color + _RANK_TEXT[card.rank]
    except KeyError:
        raise ValueError(f"cannot write rank {card.rank!r}: ranks are 2 to 10 "
                         "or HANDSHAKE (0)") from None


def format_move(move: Move, dialect: Union[str, Dialect] = "v1") -> str:
    """Write one move, e.g. ``R3-D``; ``dialect`` chooses the spelling.

    >>> from lcnotation import parse_move
    >>> format_move(parse_move("bhd-d")), format_move(parse_move("BHD-D"), "x-discard")
    ('BHD-D', 'BHX-D')

    A colour the dialect cannot write is refused:

    >>> format_move(parse_move("P3-D"), "v1-draft")
    Traceback (most recent call last):
    ...
    ValueError: dialect v1-draft cannot write the colour P (only RGWBYK)
    """
    d = get_dialect(dialect)
    draw = move.draw.color
    if draw is not None and draw not in COLOR_LETTERS:
        raise ValueError(f"cannot write draw colour {draw!r}")
    if d.colors is not None:
        for letter in (move.placement.card.color, draw):
            if letter is not None and letter not in d.colors:
                raise ValueError(f"dialect {d.name} cannot write the colour {letter} "
                                 f"(only {d.colors})")
    text = (format_card(move.placement.card)
            + (d.discard if move.placement.discard else "")
            + "-" + ("D" if draw is None else draw))
    return text.lower() if d.lowercase else text


def format_comment(comment: Comment) -> str:
    """``{text}`` or ``;text``, the text exactly as stored."""
    if comment.kind == "line":
        if has_line_break(comment.text):
            raise ValueError("a ';' comment cannot contain a line break")
        return ";" + comment.text
    if comment.kind != "brace":
        raise ValueError(f"unknown comment kind {comment.kind!r}: expected 'brace' or 'line'")
    if "}" in comment.text:
        raise ValueError("a '{' comment cannot contain '}'")
    if _UNWRITABLE_IN_BRACES.search(comment.text):
        raise ValueError("a '{' comment cannot contain a lone CR (it reads back as a line "
                         "break) nor a line that begins with '[' (it reads as a header)")
    return "{" + comment.text + "}"


def format_header(header: Header) -> str:
    """``[Name "value"]`` with ``"`` and ``\\`` escaped."""
    if not LEXICON.header_name_only.match(header.name):
        raise ValueError(f"cannot write header name {header.name!r}")
    if has_line_break(header.value):
        raise ValueError(f"header {header.name} has a line break in its value")
    value = header.value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{header.name} "{value}"]'


def _with_comments(text: str, comments: Sequence[Comment], out: List[str]) -> None:
    """Append ``text`` and its comments as lines; a ';' comment ends its line."""
    line = text
    for c in comments:
        written = format_comment(c)
        line = written if not line else line + " " + written
        if c.kind == "line":
            out.append(line)
            line = ""
    if line:
        out.append(line)


def format_game(game: Game, dialect: Union[str, Dialect] = "v1") -> str:
    """Write a game in the canonical layout (see the module docstring).

    A dialect that cannot write comments refuses a game that has some.
    """
    d = get_dialect(dialect)
    if not d.comments and _has_comments(game):
        raise ValueError(f"dialect {d.name} cannot write comments")
    out = head_lines(game)
    spelled = _SPELLED.get(d)
    if spelled is None:
        spelled = _SPELLED[d] = {}
    # Each line is appended with its line end, the move's number from a
    # table of numbered prefixes ("1. ", "2. ", ...) while there is one.
    lines = [line + "\n" for line in out]
    append, numbered = lines.append, _NUMBERED
    last = len(numbered)
    for i, move in enumerate(game.moves, 1):
        placement, draw, comments = move[0], move[1], move[2]
        card = placement[0]
        key = (card[0], card[1], placement[1], draw[0])  # hashed in C, not by the nodes
        text = spelled.get(key)
        if text is None:  # each spelling is worked out once (a few thousand at most)
            text = spelled[key] = format_move(move, d)
        if comments:
            commented: List[str] = []
            _with_comments(f"{i}. {text}", comments, commented)
            lines.extend(line + "\n" for line in commented)
        elif i < last:
            append(numbered[i] + text + "\n")
        else:
            append(f"{i}. {text}\n")
    return "".join(lines)


#: ``"N. "`` for the move numbers most games reach, made once.
_NUMBERED = tuple(f"{i}. " for i in range(256))


#: The text of a move in a dialect, by its card's colour and rank, whether it
#: is discarded and the colour drawn: what :func:`format_move` gives, kept.
_SPELLED: Dict[Dialect, Dict[Tuple[str, int, bool, Optional[str]], str]] = {}


def head_lines(game: Game) -> List[str]:
    """The lines of the canonical layout before the first move: the game's
    own comments, its headers with theirs, and the blank line after them."""
    out: List[str] = []
    _with_comments("", game.comments, out)
    for h in game.headers:
        _with_comments(format_header(h), h.comments, out)
    if game.headers and game.moves:
        out.append("")
    return out


def _has_comments(game: Game) -> bool:
    return bool(game.comments) or any(h.comments for h in game.headers) \
        or any(m.comments for m in game.moves)


def format_games(games: Iterable[Game], dialect: Union[str, Dialect] = "v1") -> str:
    """Write several games, separated by blank lines.

    A game without moves can only be the last one: a header after it would
    read as more headers of the same game.
    """
    parts: List[str] = []
    previous = None
    for i, game in enumerate(games, 1):
        if previous is not None:
            if not previous.moves:
                raise ValueError(f"game {i - 1} has no moves: only the last game of a "
                                 "file can be without moves")
            if not game.headers or game.comments:
                raise ValueError(f"game {i} needs a header first: it would read as part "
                                 "of the game before it")
        parts.append(format_game(game, dialect))
        previous = game
    return "\n".join(parts)
