"""The replay page: one self-contained HTML file that replays the games of a record.

Python checks each game (one replay); the page holds, per game, its first
picture (a :class:`~lcnotation.svg.Picture`, as what differs from the deal
of its colours) and its moves, and, per colour set, two
:class:`~lcnotation.svg.Layout` (either player at the bottom) and the
tables its script replays games with.  A game whose moves all follow the
rules is sent as its moves alone, a number and a score or two each, and the
page's script (``page.js``, beside this module) replays it as
:class:`~lcnotation.svg.Replay` does; any other game (a rule broken, a move
unreadable) is replayed a second time here
(:func:`lcnotation.view.positions.positions`), and the page holds for each
move of the record (unreadable ones included, marked) only the parts of the
picture that changed.  Either way the file grows with the moves, not with
moves times positions.  The script puts the parts together as
:func:`lcnotation.svg.fill` does, so the page draws the very picture that
:func:`lcnotation.svg.board_svg` makes for the same position (the browser
tests hold the two equal, and the script's replay to Replay's).  Nothing is
loaded from the network, and every style of the page is scoped to its root
element.

>>> from lcnotation import parse_games
>>> html = view_html(list(parse_games("R7-D BHD-D R4-B")), title="demo")
>>> html.startswith("<!DOCTYPE html>"), "<script src" in html
(True, False)
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import itertools
import json
import re
import zlib
from importlib import resources
from typing import Dict, Iterable, Iterator, List, Optional, Tuple, Union

from ..lostcities.game.checker import check_played
from ..lostcities.game.scoring import score_ranks
from ..lostcities.game.setup import Setup, read_setup
from ..lostcities.game.state import GameState
from ..svg import (Layout, Picture, card_code, hand_order, layout, markup_text, picture,
                   replay_tables, turn_texts)
from ..lostcities.text.ast import Card, Draw, Game, Move, Placement
from ..lostcities.text.formatter import format_move
from ..lostcities.text.reader import GameText, parse_part
from ..lostcities.text.headers import DEFAULT_COLORS
from .positions import Entry, entries, game_title, positions

__all__ = ["view_html", "view_html_of_texts", "game_data"]


def _asset(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


def game_data(game: Game, layout_index: int, *, path: Optional[str] = None,
              default_colors: Tuple[str, ...] = DEFAULT_COLORS,
              source: Optional[str] = None) -> Dict[str, object]:
    """What the page needs of one game: its title, the index of its layout,
    its first picture (``start``), its moves and the diagnostics with the
    position they belong to (0 is the start, ``k`` the position after the
    ``k``-th move).  ``path`` and ``default_colors`` are
    :func:`~lcnotation.lostcities.game.checker.check`'s; ``source`` is the
    text the game was read from (see :func:`~lcnotation.view.positions.entries`).

    The start is what differs from the picture of the deal in the page's
    tables of the game's colours (``slots``, ``texts``, and ``marks`` when
    they differ).  A game whose moves all follow the rules, each read and
    played at its turn, has its moves as ``play``, which the page's script
    replays itself: ``moves``, a number for each move, ``(card * 2 +
    discard) * (colours + 1) + source`` (``card`` the index of its card in
    the tables' ``cards``, ``source`` 0 for the draw pile, else 1 + the
    index of its colour); ``written``, by their index, the moves the file
    spells otherwise than the tables' ``spelt`` (``format_move``'s); ``scores``,
    the score of the expedition after each card played to one; ``deck``,
    the draw pile top first when the deal is known (else None);
    ``players``, the players' names; ``turns``, the texts of whose turn it
    is (Player1's, Player2's, and the end's).  Any other game has
    ``moves``: for each move of the record, as written, its words, the
    changed slots and texts, the marks, and a sixth item, 1, when it could
    not be read."""
    _, title, start, moves, diagnostics = _game_parts(game, path, default_colors, source)
    return {"title": title, "layout": layout_index, "start": start,
            ("play" if isinstance(moves, dict) else "moves"): moves,
            "diagnostics": diagnostics}


def _game_parts(game: Game, path: Optional[str], default_colors: Tuple[str, ...],
                source: Optional[str]
                ) -> Tuple[Tuple[str, ...], str, Dict[str, object],
                           Union[Dict[str, object], List[List[object]]], List[List[object]]]:
    """:func:`game_data` but its layout: the colours, the title, the start,
    the moves (``play`` or ``moves``) and the diagnostics.  The game is
    replayed once, by the check, when its moves follow the rules; else the
    positions are read as a second replay runs
    (:func:`~lcnotation.view.positions.positions`)."""
    setup = read_setup(game, default_colors)
    state = GameState.from_setup(setup)
    first = picture(state)
    report, regular = check_played(game, setup, state, path=path)
    moves: Union[Dict[str, object], List[List[object]]]
    if regular and not game.errors:  # each move read, at its turn: the entries are the moves
        written, starts = _spelt(game, source)
        moves = _played(game, setup, written, report.state)
    else:
        listed = entries(game, source)
        starts = [entry.start for entry in listed]
        if regular and all(entry.readable for entry in listed):
            moves = _played(game, setup, [entry.written for entry in listed], report.state)
        else:
            moves = _rows(game, setup, listed)
    # What differs from the deal of the colours' tables.
    deal = _deal(setup.colors)
    start: Dict[str, object] = {
        "slots": {k: " ".join(v) for k, v in first.slots.items() if v != deal.slots[k]},
        "texts": {k: v for k, v in first.texts.items() if v != deal.texts[k]}}
    if first.marks != deal.marks:
        start["marks"] = first.marks
    # A diagnostic belongs to the move whose text holds it (one without a
    # position, line 0, to the start; a move whose text is not known starts
    # where the one before it does).
    for k, at in enumerate(starts):
        if at < 0:
            starts[k] = starts[k - 1] if k else 0
    diagnostics: List[List[object]] = []
    for d in report.diagnostics:
        at = bisect.bisect_right(starts, d.span.start) if d.span.line else 0
        diagnostics.append([at, d.severity.name.lower(), markup_text(str(d))])
    return setup.colors, markup_text(game_title(game)), start, moves, diagnostics


def _spelt(game: Game, source: Optional[str]) -> Tuple[List[str], List[int]]:
    """Each move of ``game`` as written and where it starts (-1: not known), as
    its :func:`~lcnotation.view.positions.entries` say when each move was
    read and is at its turn."""
    written: List[str] = []
    starts: List[int] = []
    for move in game.moves:
        span = move.span
        if source is not None and span.line > 0:
            written.append(source[span.start:span.end])
            starts.append(span.start)
        else:
            written.append(format_move(move))
            starts.append(span.start if span.line > 0 else -1)
    return written, starts


def _rows(game: Game, setup: Setup, listed: List[Entry]) -> List[List[object]]:
    """The ``moves`` of :func:`game_data`: what each entry changed, read as
    a replay runs."""
    moves: List[List[object]] = []
    for position in positions(game, listed=listed, setup=setup):
        entry = position.entry
        if entry is None:
            continue
        pic = position.picture
        row: List[object] = [
            markup_text(f"{entry.number}. {entry.written}"), markup_text(position.words),
            {name: " ".join(pic.slots[name]) for name in sorted(position.slots)},
            {name: pic.texts[name] for name in sorted(position.texts)}, pic.marks]
        if not entry.readable:
            row.append(1)
        moves.append(row)
    return moves


#: What :func:`_played` needs of a move: its number in ``play``
#: (:func:`_move_number`), whether the tables spell it so, whether its card
#: is discarded, and the card's colour and rank.
_Known = Tuple[int, bool, bool, str, int]
#: Per set of colours, :data:`_Known` of each move by its spelling (the text
#: of a move says what it is).
_MOVES_SPELT: Dict[Tuple[str, ...], Dict[str, _Known]] = {}


def _move_number(colors: Tuple[str, ...], move: Move) -> int:
    """The number of a move in ``play``: ``(card * 2 + discard) * (colours + 1)
    + source``, ``card`` the index of its card in the tables' ``cards``,
    ``source`` 0 for the draw pile, else 1 + the index of its colour."""
    placement, source = move.placement, move.draw.color
    card = hand_order(colors).index(placement.card)
    return ((card * 2 + placement.discard) * (len(colors) + 1)
            + (0 if source is None else 1 + colors.index(source)))


def _known(colors: Tuple[str, ...], move: Move, written: str) -> _Known:
    number = _move_number(colors, move)
    placement = move.placement
    return (number, written == _spellings(colors)[number], placement.discard,
            placement.card.color, placement.card.rank)


@functools.lru_cache(maxsize=64)
def _spellings(colors: Tuple[str, ...]) -> Tuple[str, ...]:
    """Every move of ``colors`` as :func:`~lcnotation.lostcities.text.formatter.format_move`
    spells it, by its number (:func:`_move_number`)."""
    return tuple(format_move(Move(Placement(card, discard), Draw(source)))
                 for card in hand_order(colors) for discard in (False, True)
                 for source in (None, *colors))


@functools.lru_cache(maxsize=64)
def _codes(colors: Tuple[str, ...]) -> Dict[Tuple[str, int], str]:
    """The code of each card of ``colors``, by its colour and rank."""
    return {(card.color, card.rank): card_code(card) for card in hand_order(colors)}


@functools.lru_cache(maxsize=64)
def _deal(colors: Tuple[str, ...]) -> Picture:
    """The picture of the deal of a game in ``colors`` (its deal not known), from
    which the start of each game is sent as what differs."""
    return picture(GameState(colors))


def _tables(colors: Tuple[str, ...]) -> Dict[str, object]:
    """What the page's script looks up for the games in ``colors``: the
    :func:`~lcnotation.svg.replay_tables`, ``spelt``, each move as
    :func:`_spellings` spells it (``play`` sends only the moves written
    otherwise) and ``deal``, the picture of :func:`_deal` (as the start of a
    game is sent)."""
    deal = _deal(colors)
    return {**replay_tables(colors), "spelt": _spellings(colors),
            "deal": {"slots": {k: " ".join(v) for k, v in deal.slots.items()},
                     "texts": deal.texts, "marks": deal.marks}}


@functools.lru_cache(maxsize=1 << 14)
def _expedition_score(ranks: Tuple[int, ...]) -> int:
    return score_ranks(ranks)


def _played(game: Game, setup: Setup, written: List[str], end: GameState) -> Dict[str, object]:
    """The ``play`` of :func:`game_data` (which says what it holds), for a
    game whose moves all follow the rules, spelt ``written``; ``end`` is
    the state after its moves.  The page's script (``page.js``) replays them
    as :class:`~lcnotation.svg.Replay` does."""
    colors = setup.colors
    spelt = _MOVES_SPELT.setdefault(colors, {})
    otherwise: Dict[int, str] = {}
    expeditions: Tuple[Dict[str, List[int]], Dict[str, List[int]]] = (
        {c: [] for c in colors}, {c: [] for c in colors})
    played: List[int] = []
    scores: List[int] = []
    p = 0
    for i, text in enumerate(written):
        known = spelt.get(text)
        if known is None:
            known = spelt[text] = _known(colors, game.moves[i], text)
        number, canonical, discard, color, rank = known
        played.append(number)
        if not canonical:
            otherwise[i] = markup_text(text)
        if not discard:
            ranks = expeditions[p][color]
            ranks.append(rank)
            scores.append(_expedition_score(tuple(ranks)))
        p = 1 - p
    return {"moves": played, "written": otherwise, "scores": scores,
            # The draw pile the setup deals (top first), as the state starts with it.
            "deck": None if setup.deck is None else " ".join(map(_codes(colors).__getitem__,
                                                                 setup.deck)),
            "players": [markup_text(name) for name in setup.players],
            "turns": turn_texts(end)}


#: Games given to a worker at a time, and how many a page must have before
#: worker processes are worth starting (a small record is built here).
_CHUNK = 16
_PARALLEL_FROM = 2 * _CHUNK

#: One game of the page: the game and the text it was read from, or (None
#: and) the text of a game in a file, which the one who builds it reads.
_Job = Union[Tuple[Game, Optional[str]], Tuple[None, GameText]]

#: A game of the page, encoded: its colours, then its data as
#: :func:`_encoded` writes it, cut where the index of its layout goes.
_Encoded = Tuple[Tuple[str, ...], str, str]


def _encoded(value: object) -> str:
    """``value`` as the page's data writes it (the same bytes wherever it is made)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _games_json(jobs: List[_Job], path: Optional[str],
                default_colors: Tuple[str, ...]) -> List[Optional[_Encoded]]:
    """Each game of ``jobs`` encoded (None: a text with nothing to show)."""
    done: List[Optional[_Encoded]] = []
    for game, text in jobs:
        if game is None:
            assert isinstance(text, GameText)
            game = parse_part(text, False, path)
            text = text.text
            if not game.shown:
                done.append(None)
                continue
        assert not isinstance(text, GameText)
        colors, title, start, moves, diagnostics = _game_parts(game, path, default_colors,
                                                               text)
        # As _encoded(game_data(...)) writes it, the layout's index left out.
        done.append((colors, '{"title":' + _encoded(title) + ',"layout":',
                     ',"start":' + _encoded(start)
                     + (',"play":' if isinstance(moves, dict) else ',"moves":')
                     + _encoded(moves) + ',"diagnostics":' + _encoded(diagnostics) + "}"))
    return done


def _chunk_json(job: Tuple[List[_Job], Tuple[Optional[str], Tuple[str, ...]]]
                ) -> List[Optional[_Encoded]]:
    """A worker's share: :func:`_games_json` of one chunk."""
    return _games_json(job[0], *job[1])


def _chunks(first: List[_Job], jobs: Iterator[_Job]) -> Iterator[List[_Job]]:
    """``first``, then the rest of ``jobs`` a chunk at a time."""
    chunk = first
    while chunk:
        yield chunk
        chunk = list(itertools.islice(jobs, _CHUNK))


def _built(jobs: Iterator[_Job], workers: int, path: Optional[str],
           default_colors: Tuple[str, ...]) -> Iterator[Optional[_Encoded]]:
    """Each game of ``jobs`` encoded, in order: here, or in ``workers``
    processes once the record has enough games to pay for them (the one
    pool of ``-j``, :func:`~lcnotation.lostcities.parallel.mapped`: a few
    chunks in flight, the workers ended with the command)."""
    chunk = list(itertools.islice(jobs, _PARALLEL_FROM))
    if workers <= 1 or len(chunk) < _PARALLEL_FROM:
        yield from _games_json(chunk, path, default_colors)
        for job in jobs:
            yield from _games_json([job], path, default_colors)
        return
    from ..lostcities.parallel import mapped  # only with workers

    done = mapped(_chunks(chunk, jobs), workers, _chunk_json, (path, default_colors))
    with contextlib.closing(done):
        for _, encoded in done:
            yield from encoded


def view_html(games: Iterable[Game], *, title: str, path: Optional[str] = None,
              default_colors: Tuple[str, ...] = DEFAULT_COLORS,
              source: Optional[str] = None,
              sources: Optional[Iterable[Optional[str]]] = None,
              jobs: int = 1) -> str:
    """The replay page of ``games`` (read once, in order; ``title`` heads it;
    ``path`` names the file in the diagnostics; ``default_colors`` are the
    colours of a game without a Colors header; ``source``, the text the games
    were read from, spells the moves as written and shows what unreadable
    moves say; or ``sources``, one text for each game, when each was read
    from its own).  With ``jobs`` above 1 and ``sources``, a record of many
    games is replayed in that many worker processes (the page is the same,
    byte for byte)."""
    texts: Iterable[Optional[str]] = sources if sources is not None else itertools.repeat(source)
    # Workers only when each game has its own text (a shared one would be
    # sent whole with every game).
    return _page(zip(games, texts), title, path, default_colors,
                 jobs if sources is not None else 1)


def view_html_of_texts(texts: Iterable[GameText], *, title: str, path: Optional[str] = None,
                       default_colors: Tuple[str, ...] = DEFAULT_COLORS,
                       jobs: int = 1) -> str:
    """The replay page of the games of a file, given as their texts (placed
    at their lines in the file, their offsets from 0, as
    :func:`~lcnotation.lostcities.text.reader.split_games` cuts them), the
    options as for :func:`view_html`: each game is read where it is
    replayed, in the workers with ``jobs`` above 1, and a text with nothing
    to show (no move, header or error) is left out."""
    return _page(((None, text) for text in texts), title, path, default_colors, jobs)


def _page(jobs: Iterator[_Job], title: str, path: Optional[str],
          default_colors: Tuple[str, ...], workers: int) -> str:
    layouts: List[Tuple[Layout, Layout]] = []  # per colour set: Player1, Player2 at the bottom
    index: Dict[Tuple[str, ...], int] = {}
    data: List[str] = []
    for done in _built(jobs, workers, path, default_colors):
        if done is None:
            continue
        colors, head, tail = done
        if colors not in index:
            index[colors] = len(layouts)
            layouts.append((layout(colors), layout(colors, perspective=1)))
        data.append(head + str(index[colors]) + tail)
    payload = ('{"layouts":' + _encoded([[lay.to_json() for lay in pair] for pair in layouts])
               + ',"tables":' + _encoded([_tables(colors) for colors in index])
               + ',"games":[' + ",".join(data) + "]}")
    # Nothing in the data may close the script element or open a comment.
    payload = payload.replace("<", "\\u003c")
    root = f"lcnv-{zlib.crc32(payload.encode('utf-8')):08x}"
    parts = {"title": markup_text(title), "root": root,
             "style": _asset("page.css").replace("#ROOT", "#" + root), "data": payload,
             "script": _asset("page.js")}
    # One pass, so that nothing put in is read again as a placeholder.
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], _asset("page.html"))
