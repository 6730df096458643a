"""Pictures of Lost Cities positions as SVG.

:func:`board_svg` draws a :class:`~lcnotation.lostcities.game.state.GameState` as it
stands after any number of moves: both players' expeditions (in play order,
each card carrying its letter and rank, so that colour is never the only
clue), the discard piles with their depth, the draw pile with the count of
cards left, the score of every expedition and the totals, both hands (the
known cards face up, the unknown ones face down) and the last move.

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
  R (0): -
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
:func:`picture` is what a position puts there (card codes and numbers);
:func:`fill` joins them.  The page gets one layout and, per move, the parts
of the picture that changed, and its script does what :func:`fill` does.
"""

from __future__ import annotations

import re
from html import escape
from typing import (Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple,
                    Union)

from .lostcities.game.setup import CARDS_PER_COLOR
from .lostcities.game.state import GameState
from .lostcities.game.violations import card_name, color_name
from .lostcities.text.ast import Card, Game, Move
from .core.display import Kind
from .lostcities.text.lexical import RANK_TEXT
from .core.terminal import printable

__all__ = ["letter_fills", "ink", "board_svg", "board_html", "NOTEBOOK_SIZE", "layout", "picture", "fill", "Layout", "Picture", "PALETTE",
           "card_code", "move_words", "markup_text"]

#: Fill colours of the usual expedition colours, from the Okabe-Ito palette
#: (told apart by most colour-blind viewers); every card also shows its letter.
PALETTE: Dict[str, str] = {
    "R": "#D55E00", "G": "#009E73", "W": "#EEEEEE", "B": "#0072B2", "Y": "#F0E442",
    "K": "#333333", "P": "#CC79A7",
}
#: Fills for colour letters outside :data:`PALETTE`, in the order they appear.
_EXTRA_FILLS = ("#56B4E9", "#E69F00", "#999999", "#8C564B", "#7F3C8D", "#B8B000")
#: The other colours of the picture; ``colors=`` may replace any of them.
_THEME = {"background": "#F4EFE4", "slot": "#D8CFBD", "text": "#222222",
          "back": "#6B5B45", "last": "#111111", "from": "#111111", "highlight": "#CC3311"}
_SAFE_COLOR = re.compile(r"[#A-Za-z0-9(),.% ]+\Z")

# The geometry, in the viewBox's units.
CARD_W, CARD_H = 44, 62
_COLUMN = 54          # distance between colour columns
_MARGIN = 12
_STEP = 17            # how much of a card shows under the next in an expedition
_HAND_STEP = 24       # the same in a hand
_PILE_STEP = 3        # the same in a discard pile: its depth shows
_MOST_CARDS = CARDS_PER_COLOR  # an expedition holds at most this many cards
_PANEL = 104          # width of the right-hand panel (draw pile, totals)

#: A placeholder in a template that :func:`fill` replaces by ``x,y``.
AT = "@"
#: The code of a face-down card.
BACK = "?"

Part = Union[str, Tuple[str, str]]


class Layout(NamedTuple):
    """Everything about a picture that does not depend on the position.

    ``head`` opens the SVG, ``desc`` is the screen-reader text as literal
    strings and ``("slot", name)`` or ``("text", name)`` parts, ``frame`` is
    drawn under the cards, ``slots`` are ``(name, x, y, dx, dy)``: card ``i``
    of a slot lies at ``(x + i*dx, y + i*dy)``; ``cards`` and ``marks`` map a
    card code or a mark kind to its SVG with :data:`AT` for the position;
    ``texts`` are ``(name, before, after)``; ``tail`` closes the SVG.
    """

    head: str
    desc: Tuple[Part, ...]
    frame: str
    slots: Tuple[Tuple[str, int, int, int, int], ...]
    cards: Dict[str, str]
    marks: Dict[str, str]
    texts: Tuple[Tuple[str, str, str], ...]
    tail: str

    def to_json(self) -> Dict[str, object]:
        """The layout as JSON data for the replay page's script."""
        return {"head": self.head, "desc": [p if isinstance(p, str) else list(p)
                                            for p in self.desc],
                "frame": self.frame, "slots": [list(s) for s in self.slots],
                "cards": self.cards, "marks": self.marks,
                "texts": [list(t) for t in self.texts], "tail": self.tail}


class Picture(NamedTuple):
    """What a position puts into a :class:`Layout`: each slot's card codes
    (bottom card first), each text (already escaped for XML) and the marks,
    ``(kind, slot, index)``."""

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
    (``{"R": "#c00"}``) or by part (``background``, ``slot``, ``text``,
    ``back``, ``last``, ``from``, ``highlight``); ``style`` is CSS added to
    the picture's own.
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
    return escape(_NONCHARACTER.sub(lambda m: f"\\u{ord(m.group()):04x}", printable(text)),
                  quote=False)


_NONCHARACTER = re.compile("[\ufffe\uffff]")


#: The width in pixels of the pictures a notebook shows.
NOTEBOOK_SIZE = 400


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
    (what a notebook shows), with the score under it."""
    svg = board_svg(state, perspective=perspective, last_move=last_move)
    a, b = state.players
    first, second = state.scores().totals
    return (f'<figure style="max-width:{NOTEBOOK_SIZE}px;margin:0">{svg}<figcaption>'
            f'{markup_text(a)} {first}, {markup_text(b)} {second}</figcaption></figure>')


# ------------------------------------------------------------------ layout


def layout(letters: Sequence[str], *, perspective: int = 0, size: Optional[int] = None,
           colors: Optional[Mapping[str, str]] = None, style: Optional[str] = None) -> Layout:
    """The :class:`Layout` of pictures of a game with the colour set ``letters``
    (the options are :func:`board_svg`'s)."""
    return _layout(tuple(letters), perspective, size, colors or {}, style)


def _fills(letters: Sequence[str], custom: Mapping[str, str]) -> Dict[str, str]:
    """The fill of every colour letter and every part of the picture."""
    fills = dict(_THEME)
    extra = iter(_EXTRA_FILLS * (1 + len(letters) // len(_EXTRA_FILLS)))
    for letter in letters:
        fills[letter] = PALETTE[letter] if letter in PALETTE else next(extra)
    for key, value in custom.items():
        if key not in fills:
            raise ValueError(f"colors: {key!r} is neither a colour of the game nor one of "
                             + ", ".join(sorted(_THEME)))
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


def _ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (a #rgb or #rrggbb
    colour; named colours get black)."""
    digits = fill[1:] if fill.startswith("#") else ""
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    try:
        r, g, b = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return "#000"
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _card_svg(code: str, fill: str) -> str:
    """One card at :data:`AT`: its letter and rank in two corners (one of
    them shows whichever way the cards overlap) and big in the middle."""
    ink = _ink(fill)
    rank = code[1:]
    return (f'<g data-card="{code}" transform="translate({AT})">'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="4" fill="{fill}" stroke="#222"/>'
            f'<text x="4" y="13" class="k" fill="{ink}">{code}</text>'
            f'<text x="{CARD_W - 4}" y="{CARD_H - 5}" class="k e" fill="{ink}">{code}</text>'
            f'<text x="{CARD_W // 2}" y="{CARD_H // 2 + 8}" class="r" fill="{ink}">{rank}'
            '</text></g>')


def _back_svg(fill: str) -> str:
    return (f'<g data-card="{BACK}" transform="translate({AT})">'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="4" fill="{fill}" stroke="#222"/>'
            f'<rect x="5" y="5" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="2" '
            'fill="none" stroke="#fff" stroke-opacity=".5"/></g>')


def _mark_svg(kind: str, stroke: str, dash: str, width: int) -> str:
    return (f'<rect class="mark {kind}" transform="translate({AT})" x="-3" y="-3" '
            f'width="{CARD_W + 6}" height="{CARD_H + 6}" rx="6" fill="none" '
            f'stroke="{stroke}" stroke-width="{width}"{dash}/>')


def _layout(colors: Sequence[str], perspective: int, size: Optional[int],
            custom: Mapping[str, str], style: Optional[str]) -> Layout:
    if perspective not in (0, 1):
        raise ValueError(f"perspective must be 0 (Player1 at the bottom) or 1, "
                         f"not {perspective!r}")
    letters = tuple(colors)
    fills = _fills(letters, custom)
    n = len(letters)
    width = _MARGIN * 2 + n * _COLUMN + _PANEL
    # From the top: name row, hand, scores, expedition (growing up), discard
    # piles, expedition (growing down), scores, hand, name row.
    expedition = (_MOST_CARDS - 1) * _STEP + CARD_H
    top_hand = _MARGIN + 20
    top_scores = top_hand + CARD_H + 16
    top_exp = top_scores + 8           # the top of the top expedition's area
    piles = top_exp + expedition + 10
    depth = piles + (_MOST_CARDS - 1) * _PILE_STEP + CARD_H + 14
    bottom_exp = depth + 16
    bottom_scores = bottom_exp + expedition + 16
    bottom_hand = bottom_scores + 8
    bottom_name = bottom_hand + CARD_H + 20
    height = bottom_name + _MARGIN
    panel = _MARGIN + n * _COLUMN + 8

    def column(k: int) -> int:
        return _MARGIN + k * _COLUMN + (_COLUMN - CARD_W) // 2

    top, bottom = 1 - perspective, perspective
    slots: List[Tuple[str, int, int, int, int]] = []
    texts: List[Tuple[str, str, str]] = []
    frame: List[str] = [f'<rect width="{width}" height="{height}" fill="{fills["background"]}"/>']

    def text(name: str, x: int, y: int, cls: str) -> None:
        texts.append((name, f'<text x="{x}" y="{y}" class="{cls}" data-text="{name}">',
                      "</text>"))

    def outline(x: int, y: int, label: str) -> None:
        frame.append(f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" '
                     f'fill="none" stroke="{fills["slot"]}" stroke-dasharray="4 3"/>'
                     f'<text x="{x + CARD_W // 2}" y="{y + CARD_H // 2 + 5}" class="q">'
                     f'{label}</text>')

    for p, hand_y, name_y, exp_y, exp_dy, score_y in (
            (top, top_hand, _MARGIN + 14, top_exp + expedition - CARD_H, -_STEP, top_scores),
            (bottom, bottom_hand, bottom_name, bottom_exp, _STEP, bottom_scores)):
        text(f"n{p}", _MARGIN, name_y, "n")
        slots.append((f"h{p}", _MARGIN, hand_y, _HAND_STEP, 0))
        for k, c in enumerate(letters):
            x = column(k)
            outline(x, exp_y, c)
            slots.append((f"e{p}{c}", x, exp_y, 0, exp_dy))
            text(f"s{p}{c}", x + CARD_W // 2, score_y, "s")
        total_y = exp_y + CARD_H // 2
        frame.append(f'<text x="{panel + _PANEL // 2}" y="{total_y - 12}" class="q">total'
                     '</text>')
        text(f"t{p}", panel + _PANEL // 2, total_y + 14, "t")
    for k, c in enumerate(letters):
        x = column(k)
        outline(x, piles, color_name(c) if len(color_name(c)) <= 6 else c)
        slots.append((f"d{c}", x, piles, 0, _PILE_STEP))
        text(f"d{c}", x + CARD_W // 2, depth, "q")
    draw_x = panel + (_PANEL - CARD_W) // 2
    draw_y = piles + 12
    frame.append(f'<text x="{panel + _PANEL // 2}" y="{piles}" class="q">draw pile</text>')
    outline(draw_x, draw_y, "")
    slots.append(("draw", draw_x, draw_y, 0, 0))
    text("draw", panel + _PANEL // 2, draw_y + CARD_H + 22, "t")
    text("turn", panel + _PANEL // 2, draw_y + CARD_H + 42, "q")

    cards = {card_code(Card(c, r)): _card_svg(card_code(Card(c, r)), fills[c])
             for c in letters for r in RANK_TEXT}
    cards[BACK] = _back_svg(fills["back"])
    marks = {"last": _mark_svg("last", fills["last"], "", 3),
             "from": _mark_svg("from", fills["from"], ' stroke-dasharray="6 4"', 3),
             "highlight": _mark_svg("highlight", fills["highlight"],
                                    ' stroke-dasharray="2 2"', 4)}
    # Card labels take their ink from their own fill attribute, which a CSS
    # fill would override: the board's texts get theirs by class.
    css = (f'text{{font-family:sans-serif}}.n,.s,.q,.t{{fill:{fills["text"]}}}'
           '.k{font-size:12px;font-weight:bold}.e{text-anchor:end}'
           '.r{font-size:22px;font-weight:bold;text-anchor:middle}'
           '.n{font-size:15px;font-weight:bold}.s,.q,.t{text-anchor:middle}'
           '.s{font-size:12px}.q{font-size:11px}.t{font-size:16px;font-weight:bold}')
    if style:
        css += escape(style, quote=False)
    dims = "" if size is None else f' width="{size}" height="{round(size * height / width)}"'
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"{dims} '
            f'role="img"><title>Lost Cities position</title><style>{css}</style>')
    return Layout(head, _desc(letters, top, bottom), "".join(frame), tuple(slots), cards,
                  marks, tuple(texts), "</svg>")


def _desc(letters: Sequence[str], top: int, bottom: int) -> Tuple[Part, ...]:
    """The screen-reader picture: the players from top to bottom, with the
    discard piles and the draw pile between them."""
    parts: List[Part] = ["Lost Cities: ", ("text", "turn"), "\n"]

    def player(p: int) -> None:
        parts.extend([("text", f"n{p}"), ": total ", ("text", f"t{p}"), "\n  hand: ",
                      ("slot", f"h{p}"), "\n"])
        for c in letters:
            parts.extend([f"  {c} (", ("text", f"s{p}{c}"), "): ", ("slot", f"e{p}{c}"),
                          "\n"])

    player(top)
    parts.append("discard piles (top card last):\n")
    for c in letters:
        parts.extend([f"  {c}: ", ("slot", f"d{c}"), "\n"])
    parts.extend(["draw pile: ", ("text", "draw"), " cards\n"])
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


# ------------------------------------------------------------------ picture


def picture(state: GameState, *, last_move: Optional[Move] = None,
            highlight: Iterable[Union[Card, Tuple[str, int]]] = ()) -> Picture:
    """What ``state`` puts into a :class:`Layout` (see :func:`board_svg`)."""
    colors = state.colors
    slots: Dict[str, Tuple[str, ...]] = {}
    texts: Dict[str, str] = {}
    score = state.scores()
    for p in (0, 1):
        texts[f"n{p}"] = markup_text(state.players[p])
        slots[f"h{p}"] = (tuple(map(card_code, state.known_cards(p)))
                          + (BACK,) * state.unknown_count(p))
        for k, c in enumerate(colors):
            slots[f"e{p}{c}"] = tuple(map(card_code, state.expedition(p, c)))
            texts[f"s{p}{c}"] = str(score.expeditions[p][k])
        texts[f"t{p}"] = str(score.totals[p])
    for c in colors:
        pile = slots[f"d{c}"] = tuple(map(card_code, state.discard_pile(c)))
        texts[f"d{c}"] = f"{len(pile)} card{'s' if len(pile) != 1 else ''}" if pile else ""
    low, high = state.draw_pile_range
    slots["draw"] = (BACK,) if high else ()
    texts["draw"] = str(high) if low == high else f"{low}-{high}"
    texts["turn"] = ("round over" if state.is_over
                     else markup_text(f"{state.players[state.to_move]} to move"))
    marks: List[Tuple[str, str, int]] = []
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
    wanted = {card_code(Card(*card[:2])) for card in highlight}
    if wanted:
        for name, cards in slots.items():
            marks += [("highlight", name, i) for i, code in enumerate(cards) if code in wanted]
    return Picture(slots, texts, tuple(marks))


def fill(layout: Layout, picture: Picture) -> str:
    """The SVG of ``picture`` drawn in ``layout`` (the replay page's script does
    the same, step by step)."""
    slots, texts = picture.slots, picture.texts
    out = [layout.head, "<desc>"]
    for part in layout.desc:
        if isinstance(part, str):
            out.append(part)
        elif part[0] == "slot":
            out.append(" ".join(slots[part[1]]) or "-")
        else:
            out.append(texts[part[1]])
    out += ["</desc>", layout.frame]
    where: Dict[str, Tuple[int, int, int, int]] = {}
    cards = layout.cards
    for name, x, y, dx, dy in layout.slots:
        where[name] = (x, y, dx, dy)
        out.append(f'<g data-slot="{name}">')
        out += [cards[code].replace(AT, f"{x + i * dx},{y + i * dy}")
                for i, code in enumerate(slots[name])]
        out.append("</g>")
    out += [before + texts[name] + after for name, before, after in layout.texts]
    for kind, name, i in picture.marks:
        x, y, dx, dy = where[name]
        out.append(layout.marks[kind].replace(AT, f"{x + i * dx},{y + i * dy}"))
    out.append(layout.tail)
    return "".join(out)


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
    words = [state.players[turn & 1],
             f"discards {card_name(card.color, card.rank)}" if move.placement.discard else
             f"plays {card_name(card.color, card.rank)} on the {color_name(card.color)} "
             "expedition"]
    source = move.draw.color
    if source is None:
        deck = state.draw_pile()  # known with the deal: then so is the card drawn
        drawn = f"{card_name(deck[0].color, deck[0].rank)} " if deck else ""
        words.append(f"and draws {drawn}from the draw pile")
    else:
        pile = (state.discard_pile(source) if source in state.colors else ())
        if move.placement.discard and card.color == source:
            pile += (card,)
        top = f"{card_name(pile[-1].color, pile[-1].rank)} " if pile else ""
        the = "the" if pile else "the empty"
        words.append(f"and takes {top}from {the} {color_name(source)} discard pile")
    return " ".join(words)
