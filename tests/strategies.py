"""Hypothesis strategies for the syntax tree and for notation text.

``games()`` builds trees that format_game can write: any colour letter but
D, H and X, every rank, discards, every draw, comments whose text each kind
can hold, headers with any value on one line (quotes and backslashes
included).  ``written_games()`` writes such a game the way people do (any
case, either discard marker, numbers per turn, per round or none, any white
space, comments anywhere between moves) and gives the text with the game.
``notation_text()`` is text built from the pieces of the notation, to get
deep into the grammar (and its error paths) more often than random text does.
"""

from __future__ import annotations


import os

from typing import Sequence

from hypothesis import settings
from hypothesis import strategies as st

from lcnotation.lostcities.text.ast import HANDSHAKE, Card, Comment, Draw, Game, Header, Move, Placement
from lcnotation.lostcities.text.formatter import _UNWRITABLE_IN_BRACES
from lcnotation.lostcities.text.lexical import COLOR_LETTERS
from lcnotation.lostcities.text.lexical import RANKS as _RANKS

#: Scale every property's number of examples: LCN_PROPERTY_SCALE=50 for a long run.
SCALE = int(os.environ.get("LCN_PROPERTY_SCALE", "1"))


def examples(n: int) -> settings:
    """Settings for a property: ``n`` examples (times SCALE), no deadline."""
    return settings(max_examples=n * SCALE, deadline=None)


COLORS = "".join(sorted(COLOR_LETTERS))
RANKS = _RANKS

colors = st.sampled_from(COLORS)
cards = st.builds(Card, colors, st.sampled_from(RANKS))
placements = st.builds(Placement, cards, st.booleans())
draws = st.builds(Draw, st.none() | colors)

# What a "{" comment can hold and read back: no "}", no lone CR (a line end),
# no line that begins with "[" (a header).
brace_texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="}"),
                      max_size=12).filter(
    lambda t: not _UNWRITABLE_IN_BRACES.search(t))
line_texts = st.text(st.characters(blacklist_categories=("Cs",),
                                   blacklist_characters="\r\n"), max_size=12)
comments = st.one_of(st.builds(Comment, brace_texts, st.just("brace")),
                     st.builds(Comment, line_texts, st.just("line")))
comment_lists = st.lists(comments, max_size=2).map(tuple)

header_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True)
header_values = st.text(st.characters(blacklist_categories=("Cs",),
                                      blacklist_characters="\r\n"), max_size=20) | \
    st.text('"\\ []{};-RD3', max_size=12)
headers = st.builds(Header, header_names, header_values, comment_lists)

moves = st.builds(Move, placements, draws, comment_lists)

# Comments that suppress findings (lcn: ignore, with codes or prefixes) or not.
_SUPPRESSIONS = st.sampled_from(["lcn: ignore", "lcn: ignore[S102]", "lcn: ignore[S101]",
                                 "lcn: ignore[S103]", "lcn: ignore[S1, R]", "lcn: ignore[R110]",
                                 "lcn: ignore[S101,S102,S103]", "x"])
suppressing_comments = st.lists(st.one_of(
    st.builds(Comment, _SUPPRESSIONS.map(lambda t: " " + t + " "), st.just("brace")),
    st.builds(Comment, _SUPPRESSIONS.map(lambda t: " " + t), st.just("line"))),
    max_size=2).map(tuple)


@st.composite
def games(draw, max_moves: int = 8, need_moves: bool = False, need_headers: bool = False,
          leading_comments: bool = True, move_comments=comment_lists) -> Game:
    some_moves = moves if move_comments is comment_lists else st.builds(
        Move, placements, draws, move_comments)
    return Game(
        headers=tuple(draw(st.lists(headers, min_size=int(need_headers), max_size=3))),
        moves=tuple(draw(st.lists(some_moves, min_size=int(need_moves), max_size=max_moves))),
        comments=draw(comment_lists) if leading_comments else (),
    )


@st.composite
def game_lists(draw) -> list:
    """Games that format_games can write and read back: all but the last
    have moves, all but the first have headers and no leading comments."""
    n = draw(st.integers(1, 4))
    result = []
    for i in range(n):
        result.append(draw(games(max_moves=5, need_moves=i < n - 1, need_headers=i > 0,
                                 leading_comments=i == 0)))
    if result == [Game()]:
        result = []  # an empty game is an empty file, which holds no game at all
    return result


# ---------------------------------------------------------------- written text

_GAPS = st.sampled_from([" ", "  ", "\n", "\t", " \n ", "\n\n", "\r\n", "\u00a0", "\ufeff"])


def _case(draw, text: str) -> str:
    return "".join(c.lower() if draw(st.booleans()) else c for c in text)


def _comment_text(draw, comment: Comment) -> str:
    if comment.kind == "line":
        return ";" + comment.text + draw(st.sampled_from(["\n", "\r\n"]))
    return "{" + comment.text + "}"


@st.composite
def written_games(draw, max_moves: int = 8, move_comments=comment_lists):
    """A game and a text that spells it in any of the accepted ways.

    Comments here hold no CR (a CR in a comment reads back as it is with
    parse_game, but the test would have to guess where lines end).
    """
    game = draw(games(max_moves=max_moves, move_comments=move_comments))
    game = _without_cr(game)
    convention = draw(st.sampled_from(["turn", "round", "none"]))
    out = []

    def gap():
        out.append(draw(_GAPS))

    for c in game.comments:
        out.append(_comment_text(draw, c))
        gap()
    for h in game.headers:
        out.append("\n")  # a header begins its own line
        out.append(draw(st.sampled_from(["", " ", "\t"])))
        value = h.value.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f"[{h.name}{draw(st.sampled_from([' ', '  ', chr(9)]))}\"{value}\"]")
        for c in h.comments:
            gap()
            out.append(_comment_text(draw, c))
        out.append("\n")
    for i, m in enumerate(game.moves):
        gap()
        number = (i + 1 if convention == "turn" else
                  i // 2 + 1 if convention == "round" and i % 2 == 0 else None)
        if number is not None:
            out.append(f"{number}." + draw(st.sampled_from(["", " ", "\n"])))
        card = m.placement.card
        rank = "H" if card.rank == HANDSHAKE else str(card.rank)
        marker = draw(st.sampled_from("DX")) if m.placement.discard else ""
        out.append(_case(draw, card.color + rank + marker + "-"
                         + ("D" if m.draw.color is None else m.draw.color)))
        for c in m.comments:
            if draw(st.booleans()):
                gap()
            out.append(_comment_text(draw, c))
    return game, "".join(out)


def _without_cr(game: Game) -> Game:
    def fix(cs):
        return tuple(Comment(c.text.replace("\r", ""), c.kind) for c in cs)
    return Game(tuple(Header(h.name, h.value, fix(h.comments)) for h in game.headers),
                tuple(Move(m.placement, m.draw, fix(m.comments)) for m in game.moves),
                fix(game.comments))


# ---------------------------------------------------------------- any text

PIECES = [
    "R", "G", "W", "B", "Y", "K", "P", "D", "H", "X", "r", "d", "h", "x", "k", "é",
    "2", "3", "9", "10", "1", "0", "11", "-", ".", "1.", "12.", " ", "  ", "\n", "\r\n",
    "\r", "\t", "\ufeff", "{", "}", "{c}", ";", ";c\n", "[", "]", '"', "\\", "!", ",",
    "R3-D", "BHD-D", "r10x-b", "KH-K", "R3-", "R3", "R11-D", "D3-D", "R3-BD",
    '[Event "x"]', '\n[Round "2"]\n', '[E "a\\"b"]', "[E x]", "\n[", "Event",
]

notation_text = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


# ---------------------------------------------------------------- record files

LINE_ENDS = st.sampled_from(["\n", "\r\n", "\r", "mixed"])


@st.composite
def record_files(draw) -> bytes:
    """The bytes of a record file: games written as people write them, text
    built from pieces of the notation (syntax errors and all), header lines
    between them, any line ends, a byte-order mark or not, bytes that are not
    UTF-8 here and there."""
    parts = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            parts.append(draw(written_games(max_moves=6))[1])
        else:
            parts.append(draw(notation_text))
        parts.append(draw(st.sampled_from(['\n[Round "2"]\n', "\n\n", "\n", "", " {c}\n"])))
    return file_bytes(draw, "".join(parts), [b"\xff", b"\xc3", b"\xe2\x82"])


def file_bytes(draw, text: str, bad: Sequence[bytes], most_bad: int = 1) -> bytes:
    """``text`` (LF line ends) as the bytes of a file: its line ends all LF,
    CRLF or lone CR, or mixed line by line; up to ``most_bad`` of the bytes
    ``bad`` (not UTF-8) put in anywhere; a byte-order mark or not."""
    ends = draw(LINE_ENDS)
    if ends == "mixed":
        text = "".join(line + draw(st.sampled_from(["\n", "\r\n", "\r"]))
                       for line in text.split("\n"))
    elif ends != "\n":
        text = text.replace("\n", ends)
    data = text.encode("utf-8")
    for _ in range(draw(st.integers(0, most_bad)) if data else 0):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from(list(bad))) + data[at:]
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data
