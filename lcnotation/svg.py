"""Pictures of Lost Cities positions as SVG.

:func:`board_svg` draws a :class:`~lcnotation.lostcities.game.state.GameState` as the
table looks after any number of moves: the row of discard piles in the
middle, each player's expeditions growing away from it on their own side
(each with its score beside it), both hands on the left with each player's
name and total, the draw pile at the end of the row with the count of cards
left, whose turn it is, and the last move.  Every card shows its letter and
rank in its corner, so colour is never the only clue, and the corner of
every card stays in sight however the cards overlap.

>>> from lcnotation import GameState, parse_game
>>> game = parse_game('[Player1 "Ann"]\\n[Player2 "Bob"]\\nR7-D BHD-D')
>>> state = GameState.from_game(game)
>>> _ = state.play(game.moves)
>>> svg = board_svg(state, last_move=game.moves[-1])
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), 'data-card="R7"' in svg
(True, True)
>>> print(svg[svg.index("<desc>") + 6:svg.index("</desc>")])  # doctest: +ELLIPSIS
Lost Cities: Ann to move
Bob: total 0
  hand: ? ? ? ? ? ? ? ?
  R: -
...
discard piles (top card last):
  R: -
  G: -
  W: -
  B: BH
  Y: -
draw pile: 42 cards
Ann: total -13
  hand: ? ? ? ? ? ? ? ?
  R (-13): R7
...

The same state gives byte-identical SVG.  The picture is made in two
steps, so that the replay page (:mod:`lcnotation.view`) draws exactly the
same thing: :func:`layout` is everything that depends only on the colour
set and the options (where each pile lies, how each card looks), and
:func:`picture` is what a position puts there (card codes and texts);
:func:`fill` joins them.  The page gets one layout and, per move, the parts
of the picture that changed (:class:`Replay` reads them as the game is
replayed; for a game whose moves all follow the rules, the page's script
replays the moves itself, from :func:`replay_tables`), and its script does
what :func:`fill` does.

The picture holds no class and no id, and no style sheet unless ``style=``
gives one (which then applies to that picture alone): shown inside a
notebook or a web page, it restyles nothing around it.
"""

from __future__ import annotations

import functools
import re
import zlib
from html import escape
from typing import (Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Set,
                    Tuple, Union)

from .lostcities.game.scoring import score_ranks
from .lostcities.game.setup import CARDS_PER_COLOR, draw_pile_start
from .lostcities.game.state import GameState
from .lostcities.game.violations import card_name, color_name
from .lostcities.text.ast import Card, Game, Move
from .core.display import Kind
from .lostcities.text.lexical import RANK_TEXT
from .core.terminal import printable

__all__ = ["letter_fills", "ink", "board_svg", "board_html", "NOTEBOOK_SIZE", "layout", "picture", "fill", "Layout",
           "Picture", "Replay", "PALETTE", "card_code", "move_words", "markup_text",
           "captioned", "svg_height", "PALETTE", "THEME", "replay_tables", "hand_order",
           "turn_texts"]

#: Fill colours of the usual expedition colours: a red that reads as red, and
#: five colours that differ in lightness as well as hue; every card also shows
#: its letter, so colour is never the only clue.
PALETTE: Dict[str, str] = {
    "R": "#C8102E", "G": "#15803D", "W": "#F4F1E8", "B": "#0072B2", "Y": "#F2C318",
    "K": "#2B2B2B", "P": "#7B3FA0",
}
#: Fills for colour letters outside :data:`PALETTE`, in the order they appear.
_EXTRA_FILLS = ("#56B4E9", "#E69F00", "#999999", "#8C564B", "#CC79A7", "#B8B000")
#: The other colours of the picture (also of ``lcn stats``' chart and of the
#: canvas under animations); ``colors=`` may replace any of them.
THEME: Dict[str, str] = {"background": "#F4EFE4", "board": "#E4D9C4", "slot": "#B9AC94", "text": "#222222",
          "back": "#6B5B45", "last": "#111111", "from": "#111111", "highlight": "#CC3311",
          "edge": "#1B1B1B"}
_SAFE_COLOR = re.compile(r"[#A-Za-z0-9(),.% ]+\Z")
#: Fonts with the widths the layout is made for (Helvetica, Arial and
#: Liberation Sans share them); any sans-serif font fits the corners.
FONT = "Helvetica, Arial, 'Liberation Sans', sans-serif"

# The geometry, in the viewBox's units.
CARD_W, CARD_H = 50, 72
_MARGIN = 12
_COLUMN = 58          # distance between colour columns
STEP = 19             # how much of a card shows under the next in an expedition
HAND_STEP = 34        # the same in a hand: the widest corner ("W10") and a little
_HAND_CARDS = 8
_HAND_W = (_HAND_CARDS - 1) * HAND_STEP + CARD_W
_CAPTION = 44         # the height of the caption's band
_GAP = 26             # between the discard piles and the expeditions (their scores)
_NAME_MAX = 24        # longer names are cut to this many characters

#: A placeholder in a template that :func:`fill` replaces by ``x,y``.
AT = "@"
#: What :func:`fill` replaces by the picture's id (only a picture with a
#: style sheet has one); no text of a picture can hold it.
SCOPE = "\x01"
#: The code of a face-down card.
BACK = "?"
#: The variants of a card: ``card`` is the whole card; the others are what
#: shows of a covered card (``down``: its top edge, the next card lying
#: below; ``up``: its bottom edge; ``fan``: its left edge); a slot whose
#: covered cards do not show at all (a squared pile) names ``hide``.
VARIANTS = ("card", "down", "up", "fan")

Part = Union[str, Tuple[str, str], Tuple[str, str, str, str]]
#: ``(name, x, y, dx, dy, band, covered)``: card ``i`` of the slot lies at
#: ``(x + i*dx, y + i*dy)`` in its band; ``covered`` is the variant of all
#: but the top card.
Slot = Tuple[str, int, int, int, int, int, str]


class Layout(NamedTuple):
    """Everything about a picture that does not depend on the position.

    The picture is cut into horizontal bands, one under the other; a band
    moves down when the expeditions above it grow longer than there is room
    for (``grow``: per band after the first, the slots whose longest
    decides, the step of their cards and the room they have).  ``height``
    is the height with no band moved; ``attrs`` and ``head`` open the SVG
    (``head`` holds :data:`SCOPE` when the picture has a style sheet);
    ``desc`` is the screen-reader text as literal strings, ``("slot",
    name)``, ``("text", name)`` and ``("text", name, before, after)`` parts
    (the last only when the text is not empty); ``frames`` are drawn under
    the cards, one per band; ``slots`` are :data:`Slot` tuples; ``cards``
    maps a variant (:data:`VARIANTS`) and a card code to its SVG and
    ``marks`` a mark kind and a variant to its SVG, with :data:`AT` for the
    position; ``texts`` are ``(name, band, before, after)``, drawn only when
    the text is not empty.
    """

    width: int
    height: int
    size: Optional[int]
    attrs: str
    head: str
    desc: Tuple[Part, ...]
    background: str
    frames: Tuple[str, ...]
    slots: Tuple[Slot, ...]
    cards: Dict[str, Dict[str, str]]
    marks: Dict[str, Dict[str, str]]
    texts: Tuple[Tuple[str, int, str, str], ...]
    grow: Tuple[Tuple[Tuple[str, ...], int, int], ...]

    def to_json(self) -> Dict[str, object]:
        """The layout as JSON data for the replay page's script."""
        return {"width": self.width, "height": self.height, "size": self.size,
                "attrs": self.attrs, "head": self.head,
                "desc": [p if isinstance(p, str) else list(p) for p in self.desc],
                "background": self.background, "frames": list(self.frames),
                "slots": [list(s) for s in self.slots], "cards": self.cards,
                "marks": self.marks, "texts": [list(t) for t in self.texts],
                "grow": [[list(names), step, room] for names, step, room in self.grow]}


class Picture(NamedTuple):
    """What a position puts into a :class:`Layout`: each slot's card codes
    (bottom card first), each text (already escaped for XML; empty: not
    drawn) and the marks, ``(kind, slot, index)``."""

    slots: Dict[str, Tuple[str, ...]]
    texts: Dict[str, str]
    marks: Tuple[Tuple[str, str, int], ...]


def card_code(card: Card) -> str:
    """The code a card has in a picture: its notation (``R7``, ``BH``), from the
    notation's table of ranks (without the formatter's checks: the state's
    cards are sound)."""
    return card.color + RANK_TEXT[card.rank]


def board_svg(state: GameState, *, perspective: int = 0, last_move: Optional[Move] = None,
              highlight: Iterable[Union[Card, Tuple[str, int]]] = (),
              size: Optional[int] = None, colors: Optional[Mapping[str, str]] = None,
              style: Optional[str] = None) -> str:
    """An SVG picture of ``state``.

    ``perspective`` is the player drawn at the bottom (0, Player1, or 1);
    ``last_move`` is marked (the card placed, solid, and where the drawn card
    came from, dashed); every copy of the cards in ``highlight`` in sight is
    marked; ``size`` sets the width in pixels (the height follows), else the
    picture only has a viewBox; ``colors`` replaces fills, by colour letter
    (``{"R": "#c00"}``) or by part (``background``, ``board``, ``slot``,
    ``text``, ``back``, ``last``, ``from``, ``highlight``, ``edge``);
    ``style`` is CSS for this picture alone (each rule is scoped to it).
    """
    return fill(layout(state.colors, perspective=perspective, size=size, colors=colors,
                       style=style),
                picture(state, last_move=last_move, highlight=highlight))


def markup_text(text: str) -> str:
    r"""``text`` as the text of an SVG or HTML element: ``& < >`` escaped, and
    what no XML document may hold or what drives a terminal (control
    characters, U+FFFE and U+FFFF) shown as escapes, as the command's
    messages show them.

    >>> markup_text("Ann & <Bob>\x1b[2J\uffff")
    'Ann &amp; &lt;Bob&gt;\\x1b[2J\\uffff'
    """
    if _MARKUP.search(text) is None:  # most texts: nothing to do
        return text
    return escape(_NONCHARACTER.sub(lambda m: f"\\u{ord(m.group()):04x}", printable(text)),
                  quote=False)


_NONCHARACTER = re.compile("[\ufffe\uffff]")
#: What markup_text changes: what escape() escapes (not quotes: texts are not
#: attributes), what printable() escapes, and the two non-characters.
_MARKUP = re.compile("[&<>\x00-\x08\x0a-\x1f\x7f-\x9f\ufffe\uffff]")


#: The width in pixels of the pictures a notebook shows.
NOTEBOOK_SIZE = 640


def notebook_picture(subject: object, kind: Kind) -> str:
    """What a notebook shows of a :class:`GameState` or a :class:`Game` (the
    board after its last move, replayed as the checker does): ``kind`` is
    ``"svg"`` (:func:`board_svg` at :data:`NOTEBOOK_SIZE`) or ``"html"``
    (:func:`board_html`).  The package root installs it as the drawer of
    :mod:`lcnotation.core.display`."""
    last: Optional[Move] = None
    if isinstance(subject, Game):
        state = GameState.from_game(subject)
        state.play(subject.moves)
        last = subject.moves[-1] if subject.moves else None
    elif isinstance(subject, GameState):
        state = subject
    else:
        raise TypeError(f"no picture of a {type(subject).__name__}")
    if kind == "svg":
        return board_svg(state, last_move=last, size=NOTEBOOK_SIZE)
    return board_html(state, last_move=last)


def board_html(state: GameState, *, perspective: int = 0,
               last_move: Optional[Move] = None) -> str:
    """:func:`board_svg` in an HTML block of :data:`NOTEBOOK_SIZE` pixels at most
    (what a notebook shows), with the score under it.  Its styles are inline:
    nothing in it restyles the page around it."""
    svg = board_svg(state, perspective=perspective, last_move=last_move)
    a, b = state.players
    first, second = state.scores().totals
    return (f'<figure style="max-width:{NOTEBOOK_SIZE}px;margin:0">{svg}<figcaption>'
            f'{markup_text(a)} {first}, {markup_text(b)} {second}</figcaption></figure>')


# ------------------------------------------------------------------ layout


def layout(letters: Sequence[str], *, perspective: int = 0, size: Optional[int] = None,
           colors: Optional[Mapping[str, str]] = None, style: Optional[str] = None,
           caption: bool = False) -> Layout:
    """The :class:`Layout` of pictures of a game with the colour set ``letters``
    (the options are :func:`board_svg`'s; ``caption`` adds a band on top for
    two lines of text, the texts ``c1`` and ``c2``: see :func:`captioned`)."""
    if perspective not in (0, 1):
        raise ValueError(f"perspective must be 0 (Player1 at the bottom) or 1, "
                         f"not {perspective!r}")
    return _layout(tuple(letters), perspective, size, colors or {}, style, caption)


def _fills(letters: Sequence[str], custom: Mapping[str, str]) -> Dict[str, str]:
    """The fill of every colour letter and every part of the picture."""
    fills = dict(THEME)
    extra = iter(_EXTRA_FILLS * (1 + len(letters) // len(_EXTRA_FILLS)))
    for letter in letters:
        fills[letter] = PALETTE[letter] if letter in PALETTE else next(extra)
    for key, value in custom.items():
        if key not in fills:
            raise ValueError(f"colors: {key!r} is neither a colour of the game nor one of "
                             + ", ".join(sorted(THEME)))
        if not _SAFE_COLOR.match(value):
            raise ValueError(f"colors: {value!r} is not a colour (e.g. '#c00' or 'red')")
        fills[key] = value
    return fills


def letter_fills(letters: Sequence[str]) -> Dict[str, str]:
    """The fill of each colour letter, as the pictures draw it (other pictures,
    such as ``lcn stats``', use the same)."""
    fills = _fills(letters, {})
    return {letter: fills[letter] for letter in letters}


def ink(fill: str) -> str:
    """The colour of text written on ``fill``: dark on light fills, light on dark."""
    return _ink(fill)


def _luminance(fill: str) -> Optional[float]:
    """The relative luminance (WCAG) of a #rgb or #rrggbb colour, else None."""
    digits = fill[1:] if fill.startswith("#") else ""
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    try:
        channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    except ValueError:
        return None
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ink(fill: str) -> str:
    """Black or white, whichever contrasts more with ``fill`` (named colours
    get black)."""
    lum = _luminance(fill)
    if lum is None:
        return "#000"
    return "#000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#fff"


def _text(x: int, y: int, size: int, fill: str, *, bold: bool = False,
          anchor: str = "", extra: str = "") -> str:
    """The opening tag of a text element."""
    weight = ' font-weight="bold"' if bold else ""
    anchor = f' text-anchor="{anchor}"' if anchor else ""
    return f'<text x="{x}" y="{y}" font-size="{size}"{weight}{anchor} fill="{fill}"{extra}>'


def _corner(code: str, ink: str, y: int) -> str:
    """A card's corner: its letter and rank, on one line."""
    return f'{_text(4, y, 12, ink, bold=True)}{code}</text>'


def _wager_dot(ink: str, fill: str, x: float, y: float) -> str:
    """The small coin that tells a handshake by its edge."""
    return (f'<circle cx="{x}" cy="{y}" r="4.5" fill="{ink}"/>'
            f'<path d="M{x - 2},{y - 2}L{x + 2},{y + 2}M{x + 2},{y - 2}L{x - 2},{y + 2}" '
            f'stroke="{fill}" stroke-width="1.4"/>')


def _card_svg(code: str, fill: str, edge: str) -> str:
    """One whole card at :data:`AT`: its corner, and its rank big in the middle
    (a handshake: a coin with a times sign, for the wager multiplies)."""
    ink = _ink(fill)
    head = (f'<g data-card="{code}" transform="translate({AT})">'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="{fill}" stroke="{edge}"/>'
            + _corner(code, ink, 15))
    if code[1:] == RANK_TEXT[0]:
        cx, cy = CARD_W // 2, 46
        return (head + f'<circle cx="{cx}" cy="{cy}" r="15" fill="{ink}"/>'
                f'<path d="M{cx - 7},{cy - 7}L{cx + 7},{cy + 7}M{cx + 7},{cy - 7}'
                f'L{cx - 7},{cy + 7}" stroke="{fill}" stroke-width="4" '
                'stroke-linecap="round"/></g>')
    return (head + _text(CARD_W // 2, 57, 30, ink, bold=True, anchor="middle")
            + f'{code[1:]}</text></g>')


def _edge_svg(code: str, fill: str, edge: str, variant: str) -> str:
    """What shows of a covered card: the edge with its corner, nothing more (so
    that no piece of its middle peeks out from under the next card)."""
    ink = _ink(fill)
    wager = code[1:] == RANK_TEXT[0]
    if variant == "down":
        shape = f'<rect width="{CARD_W}" height="{STEP + 8}" rx="5"'
        corner, dot = _corner(code, ink, 15), (CARD_W - 10, 10.5)
    elif variant == "up":
        shape = f'<rect y="{CARD_H - STEP - 8}" width="{CARD_W}" height="{STEP + 8}" rx="5"'
        corner, dot = _corner(code, ink, CARD_H - 5), (CARD_W - 10, CARD_H - 9.5)
    else:  # fan
        shape = f'<rect width="{HAND_STEP + 8}" height="{CARD_H}" rx="5"'
        corner, dot = _corner(code, ink, 15), (11, 26.0)
    return (f'<g data-card="{code}" transform="translate({AT})">{shape} fill="{fill}" '
            f'stroke="{edge}"/>{corner}{_wager_dot(ink, fill, *dot) if wager else ""}</g>')


def _back_svg(fill: str, edge: str) -> str:
    return (f'<g data-card="{BACK}" transform="translate({AT})">'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="{fill}" stroke="{edge}"/>'
            f'<rect x="5" y="5" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="3" '
            'fill="none" stroke="#fff" stroke-opacity=".5"/></g>')


def _frame_svg(kind: str, stroke: str, dash: str, width: float, x: float, y: float,
               w: float, h: float) -> str:
    return (f'<rect data-mark="{kind}" transform="translate({AT})" x="{x}" y="{y}" '
            f'width="{w}" height="{h}" rx="6" fill="none" stroke="{stroke}" '
            f'stroke-width="{width}"{dash}/>')


def _marks(fills: Mapping[str, str]) -> Dict[str, Dict[str, str]]:
    """The marks: the last move (the card placed, where the card drawn came
    from), highlighted cards (around what shows of them), whose turn it is."""
    whole = (-3, -3, CARD_W + 6, CARD_H + 6)
    last = {"card": _frame_svg("last", fills["last"], "", 3, *whole)}
    drawn = {"card": _frame_svg("from", fills["from"], ' stroke-dasharray="6 4"', 3, *whole)}
    dots = ' stroke-dasharray="2 2"'
    color = fills["highlight"]
    highlight = {
        "card": _frame_svg("highlight", color, dots, 3, *whole),
        "down": _frame_svg("highlight", color, dots, 3, -2, -2, CARD_W + 4, STEP + 2),
        "up": _frame_svg("highlight", color, dots, 3, -2, CARD_H - STEP, CARD_W + 4, STEP + 2),
        "fan": _frame_svg("highlight", color, dots, 3, -2, -2, HAND_STEP + 1, CARD_H + 4),
        "hide": ""}
    turn = {"card": (f'<path data-mark="turn" transform="translate({AT})" '
                     f'd="M0,-22L10,-16.5L0,-11Z" fill="{fills["highlight"]}"/>')}
    return {"last": last, "from": drawn, "highlight": highlight, "turn": turn}


def _layout(colors: Sequence[str], perspective: int, size: Optional[int],
            custom: Mapping[str, str], style: Optional[str], caption: bool) -> Layout:
    letters = tuple(colors)
    fills = _fills(letters, custom)
    ink = fills["text"]
    n = len(letters)
    top, bottom = 1 - perspective, perspective
    cap = _CAPTION if caption else 0
    # Left, the hands with the draw pile between them; right, the columns.
    board_x = _MARGIN + _HAND_W + 24
    width = board_x + (n - 1) * _COLUMN + CARD_W + _MARGIN
    # Three bands: the top player's name and hand (band 0); the expeditions,
    # the discard piles and the draw pile (band 1), which moves down as the
    # top player's expeditions grow; the bottom player's (band 2), which
    # moves down as either player's grow.
    top_name = cap + _MARGIN + 14
    top_hand = cap + _MARGIN + 22
    piles = cap + 130
    top_exp = piles - _GAP - CARD_H          # the top player's first card
    bottom_exp = piles + CARD_H + _GAP
    bottom_name = piles + CARD_H + 30
    bottom_hand = piles + CARD_H + 38
    height = bottom_hand + CARD_H + _MARGIN
    room_top = top_exp - (cap + _MARGIN)
    room_bottom = height - _MARGIN - (bottom_exp + CARD_H)

    def column(k: int) -> int:
        return board_x + k * _COLUMN

    frames: List[List[str]] = [[], [], []]
    slots: List[Slot] = []
    texts: List[Tuple[str, int, str, str]] = []

    def outline(x: int, y: int, label: str) -> None:
        frames[1].append(
            f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="none" '
            f'stroke="{fills["slot"]}" stroke-dasharray="4 3"/>'
            + _text(x + CARD_W // 2, y + CARD_H // 2 + 4, 11, ink, anchor="middle")
            + f'{label}</text>')

    if caption:
        texts.append(("c1", 0, _text(_MARGIN, _MARGIN + 14, 15, ink, bold=True,
                                     extra=' data-text="c1"'), "</text>"))
        texts.append(("c2", 0, _text(_MARGIN, _MARGIN + 33, 13, ink,
                                     extra=' data-text="c2"'), "</text>"))
    # The board: a band under the discard piles and the draw pile.
    draw_x = board_x - 24 - CARD_W
    frames[1].append(f'<rect x="{draw_x - 6}" y="{piles - 7}" '
                     f'width="{width - _MARGIN + 12 - draw_x}" '
                     f'height="{CARD_H + 14}" rx="8" fill="{fills["board"]}"/>')
    for p, band, name_y, hand_y, exp_y, exp_dy, score_y, covered in (
            (top, 0, top_name, top_hand, top_exp, -STEP, piles - 9, "up"),
            (bottom, 2, bottom_name, bottom_hand, bottom_exp, STEP, piles + CARD_H + 21,
             "down")):
        # The name, its total at the end of the hand, the hand under them.
        texts.append((f"n{p}", band, _text(_MARGIN + 15, name_y, 15, ink, bold=True,
                                           extra=f' data-text="n{p}"'), "</text>"))
        total_x = _MARGIN + _HAND_W - 36
        frames[band].append(_text(total_x - 5, name_y, 13, ink, anchor="end") + "total</text>")
        texts.append((f"t{p}", band, _text(total_x, name_y, 15, ink, bold=True,
                                           extra=f' data-text="t{p}"'), "</text>"))
        slots.append((f"h{p}", _MARGIN, hand_y, HAND_STEP, 0, band, "fan"))
        for k, c in enumerate(letters):
            x = column(k)
            outline(x, exp_y, c)
            slots.append((f"e{p}{c}", x, exp_y, 0, exp_dy, 1, covered))
            texts.append((f"s{p}{c}", 1, _text(x + CARD_W // 2, score_y, 14, ink, bold=True,
                                               anchor="middle", extra=f' data-text="s{p}{c}"'),
                          "</text>"))
    for k, c in enumerate(letters):
        x = column(k)
        label = color_name(c)
        outline(x, piles, label if len(label) <= 6 else c)
        slots.append((f"d{c}", x, piles, 0, 0, 1, "hide"))
        # The depth of the pile, in a badge on its lower edge.
        texts.append((f"d{c}", 1, f'<rect x="{x + CARD_W - 22}" y="{piles + CARD_H - 9}" '
                      f'width="26" height="16" rx="8" fill="{ink}"/>'
                      + _text(x + CARD_W - 9, piles + CARD_H + 3, 11, "#fff", bold=True,
                              anchor="middle", extra=f' data-text="d{c}"'), "</text>"))
    outline(draw_x, piles, "")
    slots.append(("draw", draw_x, piles, 0, 0, 1, "hide"))
    right = draw_x - 12
    frames[1].append(_text(right, piles + 18, 12, ink, anchor="end") + "draw pile</text>")
    texts.append(("draw", 1, _text(right, piles + 40, 16, ink, bold=True, anchor="end",
                                   extra=' data-text="draw"'), "</text>"))
    texts.append(("turn", 1, _text(right, piles + 64, 13, ink, anchor="end",
                                   extra=' data-text="turn"'), "</text>"))

    edge = fills["edge"]
    cards: Dict[str, Dict[str, str]] = {v: {} for v in VARIANTS}
    for c in letters:
        for rank in RANK_TEXT.values():
            code = c + rank
            cards["card"][code] = _card_svg(code, fills[c], edge)
            for variant in VARIANTS[1:]:
                cards[variant][code] = _edge_svg(code, fills[c], edge, variant)
    back = _back_svg(fills["back"], edge)
    for variant in VARIANTS:
        cards[variant][BACK] = back
    head = "<title>Lost Cities position</title>"
    if style:
        head += f"<style>{escape(_scoped_css(style, '#' + SCOPE), quote=False)}</style>"
    attrs = f' role="img" font-family="{FONT}"'
    grow = ((tuple(f"e{top}{c}" for c in letters), STEP, room_top),
            (tuple(f"e{bottom}{c}" for c in letters), STEP, room_bottom))
    return Layout(width, height, size, attrs, head, _desc(letters, top, bottom, caption),
                  fills["background"], tuple("".join(f) for f in frames), tuple(slots),
                  cards, _marks(fills), tuple(texts), grow)


def _desc(letters: Sequence[str], top: int, bottom: int, caption: bool) -> Tuple[Part, ...]:
    """The screen-reader picture: the players from top to bottom, with the
    discard piles and the draw pile between them."""
    parts: List[Part] = []
    if caption:
        parts += [("text", "c1"), "\n", ("text", "c2"), "\n"]
    parts += ["Lost Cities: ", ("text", "turn"), "\n"]

    def player(p: int) -> None:
        parts.extend([("text", f"n{p}"), ": total ", ("text", f"t{p}"), "\n  hand: ",
                      ("slot", f"h{p}"), "\n"])
        for c in letters:
            parts.extend([f"  {c}", ("text", f"s{p}{c}", " (", ")"), ": ",
                          ("slot", f"e{p}{c}"), "\n"])

    player(top)
    parts.append("discard piles (top card last):\n")
    for c in letters:
        parts.extend([f"  {c}: ", ("slot", f"d{c}"), "\n"])
    parts.extend(["draw pile: ", ("text", "draw"), "\n"])
    player(bottom)
    merged: List[Part] = []
    for part in parts:  # adjacent literals as one
        if merged and isinstance(part, str) and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    if isinstance(merged[-1], str):
        merged[-1] = merged[-1].rstrip("\n")
    return tuple(merged)


_CSS_TOKEN = re.compile(r'/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\])*"?|\'(?:\\.|[^\'\\])*\'?|[{};]',
                        re.S)
_GROUPING = re.compile(r"@(media|supports|container|layer|document)\b", re.I)
_ROOT = re.compile(r"(?:svg|:root)(?![\w-])", re.I)
_LEAD = re.compile(r"(?:\s|/\*.*?(?:\*/|\Z))*", re.S)  # blanks and comments


def _scoped_css(css: str, scope: str) -> str:
    """``css`` with every rule's selectors scoped to ``scope`` (``svg`` and
    ``:root`` are the picture itself); the blocks of conditional rules
    (``@media`` and its kin) are scoped in turn, other at-rules are kept as
    they are.

    >>> _scoped_css("text, svg > rect:is(a, b) { fill: red } @media print { g{x:1} }", "#p")
    '#p text, #p > rect:is(a, b) { fill: red } @media print { #p g{x:1} }'
    """
    if any(ord(c) < 32 and c not in "\t\n\r" for c in css):
        raise ValueError("style: control characters are not CSS")
    out: List[str] = []
    pending = ""          # text since the last token that matters
    depth = 0             # inside a declaration block (or an at-rule kept whole)
    groups: List[int] = []  # depths of the conditional rules we are in
    pos = 0
    for m in _CSS_TOKEN.finditer(css):
        token = m.group()
        pending += css[pos:m.start()]
        pos = m.end()
        if token not in ("{", "}", ";"):  # a comment or a string: part of what surrounds it
            pending += token
            continue
        if token == "{":
            head = pending
            if depth == 0 or (groups and depth == groups[-1]):
                stripped = head[_lead(head):]
                if stripped.startswith("@"):
                    if _GROUPING.match(stripped):
                        groups.append(depth + 1)
                    out.append(head + "{")
                else:
                    out.append(_scope_selectors(head, scope) + "{")
            else:
                out.append(head + "{")
            depth += 1
        elif token == "}":
            out.append(pending + "}")
            depth = max(0, depth - 1)
            if groups and groups[-1] > depth:
                groups.pop()
        else:
            out.append(pending + ";")
        pending = ""
    out.append(pending + css[pos:])
    return "".join(out)


def _lead(text: str) -> int:
    """How many characters of blanks and comments ``text`` starts with."""
    found = _LEAD.match(text)
    return found.end() if found else 0


def _scope_selectors(selectors: str, scope: str) -> str:
    """Each selector of a comma-separated list, scoped (commas inside
    parentheses, as in ``:is(a, b)``, do not separate)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(selectors):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            parts.append(selectors[start:i])
            start = i + 1
    parts.append(selectors[start:])
    scoped = []
    for part in parts:
        lead = part[:_lead(part)]
        body = part[len(lead):].rstrip()
        if not body:
            scoped.append(part)
            continue
        trail = part[len(lead) + len(body):]
        root = _ROOT.match(body)
        body = scope + body[root.end():] if root else f"{scope} {body}"
        scoped.append(lead + body + trail)
    return ",".join(scoped)


# ------------------------------------------------------------------ picture


def _name(name: str) -> str:
    return markup_text(name if len(name) <= _NAME_MAX else name[:_NAME_MAX - 1] + "\u2026")


def _hand(state: GameState, p: int) -> Tuple[str, ...]:
    return tuple(map(card_code, state.known_cards(p))) + (BACK,) * state.unknown_count(p)


def _score(ranks: Sequence[int]) -> str:
    """An expedition's score as drawn beside it: nothing for one not started."""
    return str(score_ranks(ranks)) if ranks else ""


def _depth(pile: Sequence[object]) -> str:
    """A discard pile's depth, as its badge shows it: from two cards on."""
    return str(len(pile)) if len(pile) > 1 else ""


@functools.lru_cache(maxsize=256)
def _draw_text(low: int, high: int) -> str:
    """The draw pile's count; a range, in words, when unreadable moves make
    it uncertain."""
    if low != high:
        return f"{low} to {high} cards"
    return "empty" if not high else f"{high} card{'s' if high != 1 else ''}"


def _turn_text(state: GameState, totals: Tuple[int, int]) -> str:
    if state.is_over:
        a, b = totals
        if a == b:
            return "round over: a draw"
        return "round over: " + _name(state.players[0 if a > b else 1]) + " wins"
    return _to_move(state.players[state.to_move])


def _to_move(name: str) -> str:
    return _name(name) + " to move"


def picture(state: GameState, *, last_move: Optional[Move] = None,
            highlight: Iterable[Union[Card, Tuple[str, int]]] = ()) -> Picture:
    """What ``state`` puts into a :class:`Layout` (see :func:`board_svg`)."""
    colors = state.colors
    slots: Dict[str, Tuple[str, ...]] = {}
    texts: Dict[str, str] = {}
    totals = state.scores().totals
    for p in (0, 1):
        texts[f"n{p}"] = _name(state.players[p])
        slots[f"h{p}"] = _hand(state, p)
        for c in colors:
            cards = state.expedition(p, c)
            slots[f"e{p}{c}"] = tuple(map(card_code, cards))
            texts[f"s{p}{c}"] = _score([card.rank for card in cards])
        texts[f"t{p}"] = str(totals[p])
    for c in colors:
        pile = slots[f"d{c}"] = tuple(map(card_code, state.discard_pile(c)))
        texts[f"d{c}"] = _depth(pile)
    low, high = state.draw_pile_range
    slots["draw"] = (BACK,) if high else ()
    texts["draw"] = _draw_text(low, high)
    texts["turn"] = _turn_text(state, totals)
    marks = _move_marks(slots, state, last_move)
    wanted = {card_code(Card(*card[:2])) for card in highlight}
    if wanted:
        for name, shown in slots.items():
            marks += [("highlight", name, i) for i, code in enumerate(shown) if code in wanted]
    return Picture(slots, texts, tuple(marks))


def _move_marks(slots: Mapping[str, Tuple[str, ...]], state: GameState,
                last_move: Optional[Move]) -> List[Tuple[str, str, int]]:
    """The marks of whose turn it is and of the last move."""
    marks: List[Tuple[str, str, int]] = []
    if not state.is_over:
        marks.append(("turn", f"h{state.to_move}", 0))
    if last_move is not None:
        mover = 1 - state.to_move
        placement = last_move.placement
        c = placement.card.color
        target = f"d{c}" if placement.discard else f"e{mover}{c}"
        cards = slots.get(target, ())
        code = card_code(placement.card)
        if code in cards:
            marks.append(("last", target, len(cards) - 1 - cards[::-1].index(code)))
        source = last_move.draw.color
        if source is None:
            marks.append(("from", "draw", 0))
        elif f"d{source}" in slots:
            marks.append(("from", f"d{source}", len(slots[f"d{source}"])))
    return marks


def captioned(picture: Picture, layout: Layout, title: str, line: str) -> Picture:
    """``picture`` with a caption of two lines, ``title`` and ``line``, for a
    ``layout`` made with ``caption=True``; each line is cut (with an
    ellipsis) to what the picture's width holds."""
    texts = dict(picture.texts)
    texts["c1"] = markup_text(_fit(title, layout.width - 2 * _MARGIN, 15 * 0.6))
    texts["c2"] = markup_text(_fit(line, layout.width - 2 * _MARGIN, 13 * 0.5))
    return Picture(picture.slots, texts, picture.marks)


def _fit(text: str, width: float, per_char: float) -> str:
    """``text`` cut to about ``width`` units, at ``per_char`` units a character
    (a generous guess at the font's widths)."""
    most = max(1, int(width / per_char))
    return text if len(text) <= most else text[:most - 1].rstrip() + "\u2026"


# ------------------------------------------------------------------ fill


def _offsets(layout: Layout, slots: Mapping[str, Sequence[str]]) -> List[int]:
    """How far down each band lies: the longest expedition above it decides."""
    offsets = [0]
    for names, step, room in layout.grow:
        longest = max((len(slots[name]) for name in names), default=0)
        offsets.append(offsets[-1] + max(0, (longest - 1) * step - room))
    return offsets


def svg_height(layout: Layout, picture: Picture) -> int:
    """The height (in the viewBox's units) of ``picture`` drawn in ``layout``."""
    return layout.height + _offsets(layout, picture.slots)[-1]


def fill(layout: Layout, picture: Picture) -> str:
    """The SVG of ``picture`` drawn in ``layout`` (the replay page's script does
    the same, step by step)."""
    slots, texts = picture.slots, picture.texts
    offsets = _offsets(layout, slots)
    width = layout.width
    height = layout.height + offsets[-1]
    dims = ("" if layout.size is None else
            f' width="{layout.size}" height="{(2 * layout.size * height + width) // (2 * width)}"')
    scoped = SCOPE in layout.head
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"{dims}'
           f'{layout.attrs}' + (f' id="{SCOPE}"' if scoped else "") + ">",
           layout.head, "<desc>"]
    for part in layout.desc:
        if isinstance(part, str):
            out.append(part)
        elif part[0] == "slot":
            out.append(" ".join(slots[part[1]]) or "-")
        elif len(part) == 4:
            value = texts[part[1]]
            if value:
                out += [part[2], value, part[3]]
        else:
            out.append(texts[part[1]])
    out += ["</desc>", f'<rect width="{width}" height="{height}" fill="{layout.background}"/>']
    for band, frame in enumerate(layout.frames):
        if frame:
            out += [f'<g transform="translate(0,{offsets[band]})">', frame, "</g>"]
    where: Dict[str, Tuple[int, int, int, int, str]] = {}
    for name, x, y, dx, dy, band, covered in layout.slots:
        where[name] = (x, y + offsets[band], dx, dy, covered)
    # The marks lie under the cards: a frame round a card never hides a corner
    # of the cards beside it.
    for kind, name, i in picture.marks:
        x, y, dx, dy, covered = where[name]
        variants = layout.marks[kind]
        variant = "card" if i >= len(slots[name]) - 1 else covered
        template = variants.get(variant, variants["card"])
        if template:
            out.append(template.replace(AT, f"{x + i * dx},{y + i * dy}"))
    cards = layout.cards
    for name, (x, y, dx, dy, covered) in where.items():
        out.append(f'<g data-slot="{name}">')
        codes = slots[name]
        top = len(codes) - 1
        for i, code in enumerate(codes):
            if i < top and covered == "hide":
                continue
            template = cards["card" if i == top else covered][code]
            out.append(template.replace(AT, f"{x + i * dx},{y + i * dy}"))
        out.append("</g>")
    for band in range(len(layout.frames)):
        drawn = [before + texts[name] + after for name, b, before, after in layout.texts
                 if b == band and texts[name]]
        if drawn:
            out += [f'<g transform="translate(0,{offsets[band]})">', *drawn, "</g>"]
    out.append("</svg>")
    svg = "".join(out)
    if scoped:  # the id: a checksum of the picture, so that each picture has its own
        svg = svg.replace(SCOPE, f"lcn{zlib.crc32(svg.encode('utf-8')):08x}")
    return svg


# ------------------------------------------------------------------ replay


_RANK_OF_CODE = {text: rank for rank, text in RANK_TEXT.items()}


@functools.lru_cache(maxsize=1 << 16)
def _played_score(played: Tuple[str, ...]) -> str:
    """:func:`_score` of an expedition given by its cards' codes (the same
    expeditions come again and again in an archive)."""
    return _score([_RANK_OF_CODE[code[1:]] for code in played])


def _card_of(code: str) -> Card:
    return Card(code[0], _RANK_OF_CODE[code[1:]])


@functools.lru_cache(maxsize=64)
def _replay_tables(colors: Tuple[str, ...]) -> Tuple[Dict[str, int], Dict[Tuple[int, str],
                                                                        Tuple[str, str]]]:
    """What a :class:`Replay` of a game in ``colors`` looks up, made once a
    set of colours: each card's place in the order of a hand (by colour, then
    rank; its rank in the low four bits), and the names of each player's
    expedition and score of each colour.  Neither is ever changed."""
    key = {c + text: k * 16 + rank for k, c in enumerate(colors)
           for rank, text in RANK_TEXT.items()}
    names = {(p, c): (f"e{p}{c}", f"s{p}{c}") for p in (0, 1) for c in colors}
    return key, names


class Replay:
    """The pictures of a game's positions, read as its moves are played.

    ``Replay(state)`` starts from ``state`` (which it then plays on);
    :meth:`play` plays one move and says what changed, and :attr:`picture`
    is always the picture of the position reached, as :func:`picture` would
    give it (``last_move`` the move played).  The game state plays every
    move and judges it; a move that follows the rules changes what a move
    changes on the table (the card leaves the mover's hand for an expedition
    or a pile, the card drawn joins the hand), and only that is redrawn,
    without asking the state for the rest; after a move that breaks a rule,
    or one after unreadable turns, the whole position is read again.

    >>> from lcnotation import parse_move
    >>> replay = Replay(GameState(players=("Ann", "Bob")))
    >>> step = replay.play(parse_move("R7-D"))
    >>> step.words, sorted(step.slots)
    ('Ann plays Red 7 on the Red expedition and draws from the draw pile', ['e0R'])
    >>> replay.picture.texts["s0R"], replay.picture.texts["draw"]
    ('-13', '43 cards')
    """

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.picture = picture(state)
        self._deck = state.draw_pile()  # top first, while the deal makes it known
        self._start = draw_pile_start(len(state.colors))
        self._key, self._names = _replay_tables(state.colors)
        self._to_move = tuple(map(_to_move, state.players))
        self._totals = [int(self.picture.texts[f"t{p}"]) for p in (0, 1)]

    def _deck_top(self) -> Optional[Card]:
        deck = self._deck
        if deck is None:
            return None
        drawn = self._start - self.state.draw_pile_size
        return deck[drawn] if drawn < len(deck) else None

    def play(self, move: Move) -> "Step":
        """Play ``move``; the words that say it and the slots and texts that changed."""
        state = self.state
        slots, texts = self.picture.slots, self.picture.texts
        now = state.turn
        turn = now if move.turn is None or move.turn < now else move.turn
        p = turn & 1
        card = move.placement.card
        c = card.color
        code = card_code(card)
        discard = move.placement.discard
        source = move.draw.color
        taken: Optional[str] = None  # the codes of the card taken, or drawn when known
        drawn: Optional[str] = None
        if source is None:
            top = self._deck_top()
            if top is not None:
                drawn = card_code(top)
        elif discard and source == c:
            taken = code
        else:
            pile = slots.get("d" + source)
            if pile:
                taken = pile[-1]
        words = state.players[p] + " " + _deed(code, discard, source, taken, drawn)
        # Unreadable turns before this one, or a rule broken: the state then
        # guesses, and the whole position is read again.
        regular = not state.play((move,)) and turn == now
        changed_slots: Set[str] = set()
        changed_texts: Set[str] = set()
        marks = (self._moved(p, code, discard, source, taken, drawn, changed_slots,
                             changed_texts) if regular else None)
        if marks is None:
            self._read_all(changed_slots, changed_texts)
            if self._deck is not None and state.draw_pile() is None:
                self._deck = None
            marks = tuple(_move_marks(slots, state, move))
        turn_text = (_turn_text(state, (self._totals[0], self._totals[1])) if state.is_over
                     else self._to_move[state.to_move])
        if texts["turn"] != turn_text:
            texts["turn"] = turn_text
            changed_texts.add("turn")
        self.picture = Picture(slots, texts, marks)
        return Step(words, changed_slots, changed_texts)

    def unreadable(self) -> None:
        """A turn that could not be read: the position stays as it is, without
        the marks of the last move (the next move read says what it changed)."""
        self.picture = Picture(self.picture.slots, self.picture.texts,
                               tuple(_move_marks(self.picture.slots, self.state, None)))

    def _set_slot(self, name: str, value: Tuple[str, ...], changed: Set[str]) -> None:
        slots = self.picture.slots
        if slots[name] != value:
            slots[name] = value
            changed.add(name)

    def _set_text(self, name: str, value: str, changed: Set[str]) -> None:
        texts = self.picture.texts
        if texts[name] != value:
            texts[name] = value
            changed.add(name)

    def _moved(self, p: int, code: str, discard: bool, source: Optional[str],
               taken: Optional[str], drawn: Optional[str], slots: Set[str],
               texts: Set[str]) -> Optional[Tuple[Tuple[str, str, int], ...]]:
        """Redraw what a move that follows the rules changed: the card
        ``code`` from player ``p``'s hand to an expedition or its pile, then a
        card from ``source`` (None: the draw pile; ``taken`` the code of the
        top of the pile, ``drawn`` of the top of the draw pile when the deal
        makes it known);
        the marks of the position reached (as :func:`_move_marks` makes
        them).  None when the hand drawn does not hold the card (then nothing
        is redrawn)."""
        shown, written = self.picture.slots, self.picture.texts
        hand_name = "h0" if p == 0 else "h1"
        hand = list(shown[hand_name])
        if code in hand:  # a known card of the hand ...
            hand.remove(code)
        elif BACK in hand:  # ... or one of its unknown ones
            hand.remove(BACK)
        else:
            return None
        if source is None:
            if self._deck is not None and drawn is None:
                return None
            new = BACK if drawn is None else drawn
        else:
            new = BACK if taken is None else taken
        if new == BACK:
            hand.append(BACK)
        else:  # in the order of the hand
            keys = self._key
            key = keys[new]
            at = 0
            while at < len(hand) and hand[at] != BACK and keys[hand[at]] <= key:
                at += 1
            hand.insert(at, new)
        held = tuple(hand)
        if shown[hand_name] != held:
            shown[hand_name] = held
            slots.add(hand_name)
        c = code[0]
        # The card placed always changes its pile or expedition; the texts
        # (depth, score, total) may stay as they were.
        if discard:
            name = "d" + c
            pile = shown[name] + (code,)
            shown[name] = pile
            slots.add(name)
            self._set_text(name, _depth(pile), texts)
            placed = ("last", name, len(pile) - 1)
        else:
            name, score_name = self._names[p, c]
            played = shown[name] + (code,)
            shown[name] = played
            slots.add(name)
            placed = ("last", name, len(played) - 1)
            old = written[score_name]
            score = _played_score(played)
            if score != old:
                written[score_name] = score
                texts.add(score_name)
                self._totals[p] += int(score) - int(old or 0)
                self._set_text("t0" if p == 0 else "t1", str(self._totals[p]), texts)
        low, high = self.state.draw_pile_range
        if source is None:
            if not high:
                self._set_slot("draw", (), slots)
            self._set_text("draw", _draw_text(low, high), texts)
            came = ("from", "draw", 0)
        else:
            name = "d" + source
            if taken is not None:
                shown[name] = shown[name][:-1]
                slots.add(name)
                self._set_text(name, _depth(shown[name]), texts)
            came = ("from", name, len(shown[name]))
        if not high:  # the round is over
            return (placed, came)
        return (("turn", "h1" if p == 0 else "h0", 0), placed, came)

    def _read_all(self, slots: Set[str], texts: Set[str]) -> None:
        """Read the whole position again (after a move out of the ordinary)."""
        now = picture(self.state)
        for name, value in now.slots.items():
            self._set_slot(name, value, slots)
        for name, text in now.texts.items():
            if name != "turn":
                self._set_text(name, text, texts)
        self._totals = [int(now.texts[f"t{p}"]) for p in (0, 1)]


@functools.lru_cache(maxsize=64)
def hand_order(colors: Tuple[str, ...]) -> Tuple[Card, ...]:
    """Every card of ``colors``, once, in the order of a hand (by colour, then
    rank)."""
    key, _ = _replay_tables(colors)
    return tuple(map(_card_of, sorted(key, key=key.__getitem__)))


def turn_texts(state: GameState) -> Tuple[str, str, str]:
    """The texts of whose turn it is in the pictures of ``state``'s game:
    Player1 to move, Player2 to move, and the end of the round as ``state``
    ends it (empty while it goes on)."""
    first, second = map(_to_move, state.players)
    return first, second, (_turn_text(state, state.scores().totals) if state.is_over else "")


@functools.lru_cache(maxsize=64)
def replay_tables(colors: Tuple[str, ...]) -> Dict[str, object]:
    """What the replay page's script looks up to replay, as :class:`Replay`
    does, a game in ``colors`` whose moves follow the rules (see
    :mod:`lcnotation.view`), as JSON data: ``colors``, the colour letters (a
    move names the discard pile it draws from by its colour's index there,
    plus 1); ``cards``, the code of every card in the order of a hand
    (:func:`hand_order`: a move names its card by its index there);
    ``plays`` and ``discards``, by that index, what the words of a move say
    of the card placed; ``draws`` and ``takes``, by the code of the card
    drawn (:data:`BACK`: not known) or taken, what they say of it;
    ``counts``, by the cards left, the draw pile's text; ``depths``, by the
    cards in it, a discard pile's badge; ``back``, the code of a face-down
    card (texts already escaped as :func:`markup_text` escapes them)."""
    cards = [card_code(card) for card in hand_order(colors)]
    return {"colors": list(colors), "cards": cards,
            "plays": [markup_text(_placed(code, False)) for code in cards],
            "discards": [markup_text(_placed(code, True)) for code in cards],
            "draws": {**{code: markup_text(_got(None, None, code)) for code in cards},
                      BACK: markup_text(_got(None, None, None))},
            "takes": {code: markup_text(_got(code[0], code, None)) for code in cards},
            "counts": [_draw_text(k, k) for k in range(draw_pile_start(len(colors)) + 1)],
            "depths": [_depth(range(k)) for k in range(CARDS_PER_COLOR + 1)],
            "back": BACK}


class Step(NamedTuple):
    """What :meth:`Replay.play` says of a move: its words, and the names of
    the slots and texts it changed."""

    words: str
    slots: Set[str]
    texts: Set[str]


def move_words(state: GameState, move: Move) -> str:
    """``move`` in words, as played on ``state`` (the position before it).

    >>> from lcnotation import parse_move
    >>> state = GameState(players=("Ann", "Bob"))
    >>> move_words(state, parse_move("R7-D"))
    'Ann plays Red 7 on the Red expedition and draws from the draw pile'
    >>> _ = state.apply(parse_move("R7-D"))
    >>> move_words(state, parse_move("BHD-R"))
    'Bob discards Blue handshake and takes from the empty Red discard pile'
    """
    turn = state.turn if move.turn is None or move.turn < state.turn else move.turn
    card = move.placement.card
    source = move.draw.color
    taken: Optional[Card] = None
    drawn: Optional[Card] = None
    if source is None:
        deck = state.draw_pile()  # known with the deal: then so is the card drawn
        drawn = deck[0] if deck else None
    else:
        pile = (state.discard_pile(source) if source in state.colors else ())
        if move.placement.discard and card.color == source:
            pile += (card,)
        taken = pile[-1] if pile else None
    return _words(state.players[turn & 1], move, taken, drawn)


def _words(player: str, move: Move, taken: Optional[Card], drawn: Optional[Card]) -> str:
    """``move`` in words: ``player`` moves; ``taken`` is the top card of the
    pile drawn from, ``drawn`` the card drawn from the draw pile (when known)."""
    return player + " " + _deed(card_code(move.placement.card), move.placement.discard,
                                move.draw.color, None if taken is None else card_code(taken),
                                None if drawn is None else card_code(drawn))


@functools.lru_cache(maxsize=1 << 16)
def _deed(code: str, discard: bool, source: Optional[str], taken: Optional[str],
          drawn: Optional[str]) -> str:
    """What :func:`_words` says after the player, from the codes of the card
    placed, of the card taken (the top of the pile drawn from) and of the
    card drawn (when known): the same few thousand moves come again and
    again in an archive, so each is said once."""
    return _placed(code, discard) + " " + _got(source, taken, drawn)


def _placed(code: str, discard: bool) -> str:
    """What the words of a move say of the card placed."""
    return (f"discards {_named(code)}" if discard else
            f"plays {_named(code)} on the {color_name(code[0])} expedition")


def _got(source: Optional[str], taken: Optional[str], drawn: Optional[str]) -> str:
    """What the words of a move say of the card drawn (see :func:`_deed`)."""
    if source is None:
        known = f"{_named(drawn)} " if drawn else ""
        return f"and draws {known}from the draw pile"
    top = f"{_named(taken)} " if taken else ""
    the = "the" if taken else "the empty"
    return f"and takes {top}from {the} {color_name(source)} discard pile"


def _named(code: str) -> str:
    card = _card_of(code)
    return card_name(card.color, card.rank)
