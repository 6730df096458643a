"""The positions of a record, as the replay page and ``lcn render`` show them.

A record counts its moves by turns, unreadable ones included: ``4. R11-D``
is the fourth move even though it cannot be played.  :func:`entries` lists
every move the record has, each as the file spells it (from ``source``, the
text the game was read from, when given), the unreadable ones marked;
:func:`positions` replays the game once and gives the picture of the deal
and of the position after each entry (an unreadable move leaves the
position as it was, without the marks of a last move).

>>> from lcnotation import parse_game
>>> text = "R7-D G3X-D R11-D B5-D"
>>> game = parse_game(text)
>>> [(e.number, e.written, e.readable) for e in entries(game, text)]
[(1, 'R7-D', True), (2, 'G3X-D', True), (3, 'R11-D', False), (4, 'B5-D', True)]
"""

from __future__ import annotations

import re
from typing import Any, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple

from ..lostcities.game.setup import Setup, read_setup
from ..lostcities.game.state import GameState
from ..svg import Picture, Replay, captioned, fill, layout
from ..lostcities.text.ast import Game, Move
from ..lostcities.text.formatter import format_move
from ..lostcities.text.headers import DEFAULT_COLORS

__all__ = ["Entry", "Position", "entries", "positions", "game_title", "caption_lines",
           "position_svgs", "position_svg"]


class Entry(NamedTuple):
    """One move of a record: its ``number`` as the record counts turns (from
    1), the move as ``written`` in the file (or in the v1 spelling when the
    text is not known; ``?`` for an unreadable move whose text is not
    known), whether it is ``readable`` (then ``move`` is the move read),
    and ``start``, the offset of its text (-1: not known)."""

    number: int
    written: str
    readable: bool
    move: Optional[Move]
    start: int


class Position(NamedTuple):
    """A position of the replay: the ``entry`` that led to it (None: the
    deal), its ``words`` (plain text), the ``picture`` (the replay's own,
    valid until the next position is read) and the names of the slots and
    texts that changed since the position before (all of them at the deal)."""

    entry: Optional[Entry]
    words: str
    picture: Picture
    slots: Set[str]
    texts: Set[str]


_NUMBER = re.compile(r"\d+\.+")
_LETTER = re.compile(r"[^\W\d_]")


def _word(source: str, start: int) -> Tuple[str, int]:
    """The word of ``source`` around offset ``start`` (without a move number
    glued to it), and where it starts."""
    begin = start
    while begin > 0 and not source[begin - 1].isspace():
        begin -= 1
    end = start
    while end < len(source) and not source[end].isspace():
        end += 1
    number = _NUMBER.match(source, begin, end)
    if number is not None and number.end() < end:
        begin = number.end()
    return source[begin:end], begin


def _unreadable_words(game: Game, source: str) -> List[Tuple[int, str, int]]:
    """The words with syntax errors that could be moves (they hold a letter
    and are not a header, a comment or a stray brace), in the order of the
    text: where the error is, the word and where it starts."""
    found: List[Tuple[int, str, int]] = []
    seen: Set[int] = set()
    for error in game.errors:
        span = error.span
        if not span.known or not source:
            continue
        word, begin = _word(source, min(span.start, len(source) - 1))
        if begin in seen or not word or word[0] in "[{};" or not _LETTER.search(word):
            continue
        seen.add(begin)
        found.append((span.start, word, begin))
    found.sort()
    return found


def entries(game: Game, source: Optional[str] = None) -> List[Entry]:
    """Every move of ``game``, unreadable ones included (see the module).

    ``source`` is the text ``game`` was read from (its spans are offsets
    into it): with it, moves are spelt as written and an unreadable move
    shows its text; unreadable moves after the last readable one are only
    known from it."""
    out: List[Entry] = []
    words = _unreadable_words(game, source) if source is not None and game.errors else []
    next_word = 0  # the first word not yet looked at
    expected = 0
    after = game.span.start if game.span.known else 0

    def missing(count: Optional[int], before: Optional[int]) -> None:
        """Entries for ``count`` unreadable turns before offset ``before``
        (None: as many as there are unreadable words after the last move)."""
        nonlocal next_word
        while next_word < len(words) and words[next_word][0] < after:
            next_word += 1  # an error inside a move read, or between moves
        first = next_word
        while next_word < len(words) and (before is None or words[next_word][0] < before):
            next_word += 1
        gap = words[first:next_word]
        if count is None:
            count = len(gap)
        for k in range(count):
            if k < len(gap):
                _, word, begin = gap[k]
                if k == count - 1 and len(gap) > count:  # the rest go with the last
                    word = " ".join(w for _, w, _ in gap[k:])
            else:
                word, begin = "?", -1
            out.append(Entry(expected + k + 1, word, False, None, begin))

    for move in game.moves:
        turn = move.turn if move.turn is not None and move.turn >= expected else expected
        span = move.span
        known = span.known
        if turn > expected:
            missing(turn - expected, span.start if known else None)
        written = source[span.start:span.end] if source is not None and known else (
            format_move(move))
        out.append(Entry(turn + 1, written, True, move, span.start if known else -1))
        expected = turn + 1
        if known:
            after = span.end
    missing(None, None)
    return out


def positions(game: Game, *, default_colors: Tuple[str, ...] = DEFAULT_COLORS,
              source: Optional[str] = None, listed: Optional[Sequence[Entry]] = None,
              setup: Optional[Setup] = None) -> Iterator[Position]:
    """The deal and the position after each entry of ``game``, replayed once
    as the checker replays it (``default_colors`` are the colours of a game
    without a Colors header; ``listed`` are its :func:`entries` and
    ``setup`` what :func:`~lcnotation.lostcities.game.setup.read_setup`
    reads of it, if already made)."""
    if setup is None:
        setup = read_setup(game, default_colors)
    state = GameState.from_setup(setup)
    replay = Replay(state)
    yield Position(None, "the deal", replay.picture, set(replay.picture.slots),
                   set(replay.picture.texts))
    for entry in (entries(game, source) if listed is None else listed):
        if entry.move is None:
            replay.unreadable()
            yield Position(entry, f"move {entry.number} could not be read", replay.picture,
                           set(), set())
            continue
        step = replay.play(entry.move)
        yield Position(entry, step.words, replay.picture, step.slots, step.texts)


def game_title(game: Game) -> str:
    """What names a game: its event and round, and its players (plain text)."""
    players = f"{game.header('Player1', 'Player 1')} vs {game.header('Player2', 'Player 2')}"
    event = game.header("Event")
    rnd = game.header("Round")
    return ", ".join(part for part in (event, f"round {rnd}" if rnd else None, players)
                     if part)


def caption_lines(game: Game, position: Position, total: int) -> Tuple[str, str]:
    """The caption of a position: the game, and the move (number, notation,
    words) out of ``total`` moves (plain text)."""
    entry = position.entry
    if entry is None:
        return game_title(game), f"The deal ({total} moves follow)"
    return (f"{game_title(game)} \u00b7 move {entry.number} of {total}",
            f"{entry.written}: {position.words}")



def position_svgs(game: Game, *, perspective: int = 0, size: Optional[int] = None,
                  caption: bool = True, default_colors: Tuple[str, ...] = DEFAULT_COLORS,
                  source: Optional[str] = None, upto: Optional[int] = None,
                  start: int = 0) -> Iterator[str]:
    """The SVG of each position of ``game`` from ``start`` to ``upto`` (by
    default the last), as :func:`~lcnotation.svg.board_svg` draws it with
    ``perspective`` and ``size``, and with a caption unless ``caption`` is
    False: position ``k`` is the one after the record's ``k``-th move (an
    unreadable move's is the position before it)."""
    listed = entries(game, source)
    colors = read_setup(game, default_colors).colors
    frame = layout(colors, perspective=perspective, size=size, caption=caption)
    last = len(listed) if upto is None else upto
    for k, position in enumerate(positions(game, default_colors=default_colors,
                                           listed=listed)):
        if k > last:
            break
        if k < start:
            continue
        pic = position.picture
        if caption:
            pic = captioned(pic, frame, *caption_lines(game, position, len(listed)))
        yield fill(frame, pic)


def position_svg(game: Game, move: Optional[int] = None, **options: Any) -> str:
    """The SVG of the position after the record's ``move``-th move (0: the
    deal; None: the end), with the options of :func:`position_svgs`.

    >>> from lcnotation import parse_game
    >>> svg = position_svg(parse_game('[Event "Club"]\\nR7-D B4-D'), 1)
    >>> "Club, Player 1 vs Player 2 \\u00b7 move 1 of 2" in svg, "R7-D: Player 1 plays" in svg
    (True, True)
    """
    count = len(entries(game, options.get("source")))
    at = count if move is None else move
    if not 0 <= at <= count:
        raise ValueError(f"no move {at}: the game has {count}")
    return next(iter(position_svgs(game, upto=at, start=at, **options)))
