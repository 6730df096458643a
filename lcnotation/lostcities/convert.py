"""Converting record files between dialects without touching their layout.

Only the move tokens are rewritten, at the positions the parser recorded;
every comment, header, move number, blank line, space and line end stays
byte for byte.  Converting to a dialect and back is therefore the identity on
text that was already in the first dialect.

>>> text = '[Event "Club"]\\r\\n\\r\\n1. RH-D {a wager}  2. BHD-D ; why?\\r\\n'
>>> convert_text(text, to="x-discard")
'[Event "Club"]\\r\\n\\r\\n1. RH-D {a wager}  2. BHX-D ; why?\\r\\n'
>>> convert_text(convert_text(text, to="lower"), to="v1") == text
True

A conversion refuses rather than guesses.  Text with syntax errors is
refused with all of them, and so is anything the target dialect cannot
express, each with its position:

>>> convert_text("1. R3-D 2. P4-D", to="v1-draft")
Traceback (most recent call last):
...
lcnotation.lostcities.text.dialects.ConversionError: line 1, column 12: the move P4-D uses the colour P, which the v1-draft dialect cannot write (its colours: R G W B Y K) (C101)

The ``json`` dialect is the JSON form of :mod:`lcnotation.lostcities.jsonform`; a JSON
document is read back in the canonical layout:

>>> print(convert_text(convert_text("R3-D {go} BHD-D", to="json"), to="v1"), end="")
1. R3-D {go}
2. BHD-D

The codes of conversion are :data:`CONVERSION_CODES` (syntax errors keep
their N codes, JSON problems have J codes, see ``spec/json-form.md``).
"""

from __future__ import annotations

import contextlib
import io
import os
from typing import (IO, TYPE_CHECKING, BinaryIO, Dict, Iterable, Iterator, List, NamedTuple,
                    Optional, Sequence, Tuple, Union)

from .text.ast import Comment, Game, Header, Move, Span
from ..core.span import first_known
from .text.dialects import DIALECTS, ConversionError, Dialect, get_dialect
from ..core.codes import Family
from ..core.diagnostics import NotationError, Severity
from .text.formatter import format_card, format_games, format_move
from .text.headers import parse_cards, parse_colors
from .text.reader import parse_game, split_games
from .text.lexical import LEXICON
from ..core.lineends import lf_lines, lines_with_ends
from ..core.files import BOM, decode_text
from ..core import notation as core_notation

# The JSON form is imported by the conversions that read or write it: the
# registry of codes imports this module for its table, and `lcn lint` reads no JSON.
if TYPE_CHECKING:  # pragma: no cover
    from .jsonform import JSONPath
    from .parallel import Cut, Source

__all__ = ["JSON", "MIXED", "UNKNOWN", "ConversionError", "Detection", "dialect_names",
           "detect_dialect", "convert_text", "convert_lines", "convert_file", "convert_piece",
           "CONVERSION_CODES", "CONVERSION"]

#: Every conversion code (family C), with what it reports; each is an error.
CONVERSION_CODES: Dict[str, str] = {
    "C101": "a colour the target dialect cannot write (in a move, the Colors header or "
            "a card of Hand1, Hand2 or Deck)",
    "C102": "a comment, and the target dialect cannot write comments",
    "C103": "a move not spelt the way the declared source dialect spells it",
}

#: The family C: conversion, documented in ``spec/diagnostics.md``.
CONVERSION = Family("C", "conversion", "diagnostics.md",
                    {code: (Severity.ERROR, summary) for code, summary in CONVERSION_CODES.items()})

#: The name of the JSON form among the dialects.
JSON = "json"
#: What :func:`detect_dialect` says when the moves fit different dialects.
MIXED = "mixed"
#: What :func:`detect_dialect` says when a move is spelt as no dialect spells it.
UNKNOWN = "unknown"

DialectName = Union[str, Dialect]

_CARD_HEADERS = ("Hand1", "Hand2", "Deck")
_SPACE = LEXICON.ws


def dialect_names() -> List[str]:
    """Every name :func:`convert_text` accepts: the text dialects, then ``json``.

    >>> dialect_names()
    ['v1', 'x-discard', 'lower', 'v1-draft', 'json']
    """
    return [*DIALECTS, JSON]


#: A dialect resolved: a text dialect, or :data:`JSON`.
_Target = Union[Dialect, str]


def _resolve(dialect: DialectName) -> _Target:
    return JSON if dialect == JSON else get_dialect(dialect)


# ---------------------------------------------------------------- games of a text


class _Part(NamedTuple):
    """One game of a file: its original text, and the game parsed from it
    with spans relative to that text; ``line``/``offset`` place it in the file."""

    text: str
    game: Game
    line: int
    offset: int


def _parts(lines: Iterable[str], path: Optional[str], first_line: int = 1,
           first_offset: int = 0) -> Iterator[_Part]:
    """The games of a stream of lines, each with its exact original text
    (``first_line`` and ``first_offset`` place the first line in its file).

    A lone CR ends a line as LF does: the reader sees LF in its place (the
    same length, so every offset is still that of the original text).
    """
    pending: List[str] = []

    def for_the_reader() -> Iterator[str]:
        for raw in lines:
            for line, read in lf_lines(raw):
                pending.append(line)
                yield read

    for gt in split_games(for_the_reader(), first_line, first_offset):
        original = "".join(pending)
        n = len(gt.text)
        pending[:] = [original[n:]] if len(original) > n else []
        yield _Part(original[:n], parse_game(gt.text, path=path), gt.line, gt.offset)


def _in_file(span: Span, part: _Part) -> Span:
    d, o = part.line - 1, part.offset
    return Span(span.line + d, span.column, span.end_line + d, span.end_column,
                span.start + o, span.end + o)


def _error(part: _Part, code: str, message: str, span: Span,
           path: Optional[str]) -> NotationError:
    return NotationError(message, _in_file(span, part), code=code, path=path)


# ---------------------------------------------------------------- what cannot be written


def _colors_text(d: Dialect) -> str:
    return " ".join(d.colors or "")


def _unwritable(game: Game, d: Dialect) -> Iterator[Tuple[JSONPath, str, str, Span]]:
    """What ``d`` cannot express in ``game``: (JSON path within the game, code,
    message, span when the game was read from text)."""
    if d.colors is not None:
        yield from _unwritable_colors(game, d)
    if not d.comments:
        message = f"the {d.name} dialect cannot write comments: this one would be lost"
        for c, comment in enumerate(game.comments):
            yield ("comments", c), "C102", message, comment.span
        nodes: Iterable[Tuple[str, Sequence[Union[Header, Move]]]] = (
            ("headers", game.headers), ("moves", game.moves))
        for key, group in nodes:
            for k, node in enumerate(group):
                for c, comment in enumerate(node.comments):
                    yield (key, k, "comments", c), "C102", message, comment.span


def _unwritable_colors(game: Game, d: Dialect) -> Iterator[Tuple[JSONPath, str, str, Span]]:
    allowed = d.colors or ""
    tail = f"which the {d.name} dialect cannot write (its colours: {_colors_text(d)})"
    for k, header in enumerate(game.headers):
        where: JSONPath = ("headers", k, "value")
        try:
            if header.name == "Colors":
                for letter in parse_colors(header):
                    if letter not in allowed:
                        yield (where, "C101", f"the Colors header lists the colour {letter}, "
                               f"{tail}", _letter_span(header, letter))
            elif header.name in _CARD_HEADERS:
                for card in parse_cards(header):
                    if card.color not in allowed:
                        yield (where, "C101", f"the {header.name} header holds "
                               f"{format_card(card)}, a card of the colour {card.color}, "
                               f"{tail}", first_known(card.span, header.span))
        except NotationError:
            continue  # a malformed value is the linter's to report; it is kept as written
    for j, move in enumerate(game.moves):
        for color in (move.card.color, move.draw.color):
            if color is not None and color not in allowed:
                yield (("moves", j), "C101", f"the move {format_move(move)} uses the colour "
                       f"{color}, {tail}", move.span)
                break


def _letter_span(header: Header, letter: str) -> Span:
    span = header.value_span
    if not span.known or span.length != len(header.value):
        return header.span
    i = header.value.upper().index(letter)
    return Span(span.line, span.column + i, span.line, span.column + i + 1,
                span.start + i, span.start + i + 1)


def _letters(written: str) -> str:
    """A move as written, without the white space the reader allows inside it
    (no dialect spells that)."""
    return _SPACE.sub("", written)


def _misspelt(part: _Part, source: Dialect, path: Optional[str]) -> Iterator[NotationError]:
    for move in part.game.moves:
        written = _letters(part.text[move.span.start:move.span.end])
        try:
            expected = format_move(move, source)
        except ValueError as err:
            yield _error(part, "C103", f"'{written}' is not in the {source.name} dialect: "
                         f"{err}", move.span, path)
            continue
        if written != expected:
            yield _error(part, "C103", f"'{written}' is not spelt as the {source.name} "
                         f"dialect spells it ('{expected}')", move.span, path)


def _problems(part: _Part, source: Optional[_Target], target: _Target,
              path: Optional[str]) -> List[NotationError]:
    """Every reason not to convert this game, in file order (``source`` is a text
    dialect or None)."""
    found = [NotationError(e.message, _in_file(e.span, part), code=e.code, path=path)
             for e in part.game.errors]
    if isinstance(source, Dialect):
        found.extend(_misspelt(part, source, path))
    if isinstance(target, Dialect):
        for _, code, message, span in _unwritable(part.game, target):
            found.append(_error(part, code, message, first_known(span, part.game.span), path))
    found.sort(key=lambda e: e.span.start)
    return found


def _exact_comments(part: _Part) -> Game:
    """The game, with each comment's text as in the original text: the reader
    saw LF for every lone CR, and a '{' comment may hold one."""
    game = part.game
    if "\r" not in part.text:
        return game
    text = part.text

    def exact(comments: Tuple[Comment, ...]) -> Tuple[Comment, ...]:
        return tuple(c._replace(text=text[c.span.start + 1:c.span.end - (c.kind == "brace")])
                     for c in comments)

    return game._replace(
        comments=exact(game.comments),
        headers=tuple(h._replace(comments=exact(h.comments)) for h in game.headers),
        moves=tuple(m._replace(comments=exact(m.comments)) for m in game.moves))


def _rewrite(part: _Part, target: Dialect) -> str:
    """The game's text with each move token spelt in ``target``, nothing else changed."""
    text = part.text
    out: List[str] = []
    pos = 0
    for move in part.game.moves:
        out.append(text[pos:move.span.start])
        out.append(_respell(text[move.span.start:move.span.end], format_move(move, target)))
        pos = move.span.end
    out.append(text[pos:])
    return "".join(out)


def _respell(written: str, spelt: str) -> str:
    """``spelt`` with the white space the reader allowed inside ``written`` kept.

    Both have the same tokens with the same lengths (a rank is the same rank,
    a discard marker one letter in every dialect), so the characters that are
    not white space correspond one to one.

    >>> _respell("r3 -\\r\\nd", "R3-D")
    'R3 -\\r\\nD'
    """
    if len(written) == len(spelt):
        return spelt
    letters = iter(spelt)
    return "".join(c if _SPACE.match(c) else next(letters) for c in written)


# ---------------------------------------------------------------- converting


# What may come before the '{' of a JSON document.
_BLANKS = " \t\r\n\ufeff"


def _starts_like_json(text: str) -> bool:
    """Whether ``text`` may be a JSON document: its first character other than
    white space or a byte-order mark is '{' (a comment may start so too)."""
    return text.lstrip(_BLANKS).startswith("{")


def _json_document(text: str) -> Optional[Dict[str, object]]:
    """The decoded document when ``text`` is a JSON form document, else None.

    A record may also start with '{' (a comment), so only an object that
    decodes and has a "format" key counts as JSON.
    """
    from .jsonform import decode

    if not _starts_like_json(text):
        return None
    try:
        data = decode(text)
    except ConversionError:
        return None
    return data if isinstance(data, dict) and "format" in data else None


def convert_text(text: str, to: DialectName = "v1", *, source: Optional[DialectName] = None,
                 path: Optional[str] = None) -> str:
    """Convert a whole record file (or a JSON form document) to dialect ``to``.

    Text to text keeps the layout and rewrites only the moves.  JSON input
    is written in the canonical layout; ``to="json"`` gives the JSON form.

    ``source`` says what ``text`` is.  By default a JSON form document is
    recognised, and any other text is read as notation in whatever spelling
    (the reader takes every text dialect).  Naming a text dialect as
    ``source`` also checks that every move is spelt that way (C103).

    Raises :class:`ConversionError` with every problem found (syntax errors,
    misspelt moves, what ``to`` cannot express); nothing is converted then.
    An unknown dialect name raises ``ValueError``.

    >>> convert_text("r3-d bhd-d", to="v1", source="x-discard")
    Traceback (most recent call last):
    ...
    lcnotation.lostcities.text.dialects.ConversionError: line 1, column 1: 'r3-d' is not spelt as the x-discard dialect spells it ('R3-D') (C103) (and 1 more problem)
    """
    return _convert_whole(text, _resolve(to), None if source is None else _resolve(source),
                          path)[0]


def _convert_whole(text: str, target: _Target, reader: Optional[_Target],
                   path: Optional[str]) -> Tuple[str, bool]:
    """:func:`convert_text`, and whether ``text`` was read as a JSON form document."""
    from .jsonform import to_json

    data = _json_document(text) if reader is None else None
    if reader is JSON or data is not None:
        return _convert_json(text, data, target, path), True
    lines = lines_with_ends(text)
    errors: List[NotationError] = []
    chunks: List[str] = []
    games: List[Game] = []
    for part in _parts(lines, path):
        problems = _problems(part, reader, target, path)
        if problems:
            errors.extend(problems)
        elif not errors:
            if isinstance(target, Dialect):
                chunks.append(_rewrite(part, target))
            else:
                games.append(_exact_comments(part))
    if errors:
        raise ConversionError(errors)
    return (to_json(games) if target is JSON else "".join(chunks)), False


def _convert_json(text: str, data: object, target: _Target, path: Optional[str]) -> str:
    from .jsonform import decode, errors_at, from_data, to_json

    games = from_data(decode(text, path=path) if data is None else data, text, path=path)
    if not isinstance(target, Dialect):
        return to_json(games)
    problems = [(("games", i) + where, code, message)
                for i, game in enumerate(games)
                for where, code, message, _ in _unwritable(game, target)]
    if problems:
        raise ConversionError(errors_at(text, problems, path=path))
    return format_games(games, target)


def convert_lines(lines: Iterable[str], to: DialectName = "v1", *,
                  source: Optional[DialectName] = None,
                  path: Optional[str] = None) -> Iterator[str]:
    """Convert a file game by game, as pieces of text to write one after another.

    ``lines`` are the file's lines with their line ends, as a file opened
    with ``newline=""`` gives them, so that every line end is kept.  Memory
    stays that of one game.  The first game that cannot be converted raises
    :class:`ConversionError` with all of its problems; what was yielded
    before it is complete and correct, so write to a temporary file and keep
    it only when the iteration ends normally.

    Text is always read as notation here; for a JSON document (``source=
    "json"``) the whole of it is read first.

    >>> "".join(convert_lines(["1. R3-D\\r\\n", "2. BHD-D\\r\\n"], to="lower"))
    '1. r3-d\\r\\n2. bhd-d\\r\\n'
    """
    target = _resolve(to)
    reader = None if source is None else _resolve(source)
    if reader is JSON:
        yield convert_text("".join(lines), target, source=JSON, path=path)
        return
    yield from _convert_stream(lines, target, reader, path, read_on=False)


def _convert_stream(lines: Iterable[str], target: _Target,
                    reader: Optional[_Target], path: Optional[str],
                    read_on: bool) -> Iterator[str]:
    """:func:`convert_lines` for notation; with ``read_on``, a game that cannot be
    converted stops the output but not the reading: the ConversionError comes at
    the end, with the problems of every game."""
    from .jsonform import iter_json

    def checked() -> Iterator[_Part]:
        parts = iter(_parts(lines, path))
        for part in parts:
            problems = _problems(part, reader, target, path)
            if problems:
                if read_on:
                    for rest in parts:
                        problems += _problems(rest, reader, target, path)
                raise ConversionError(problems)
            yield part

    if isinstance(target, Dialect):
        for part in checked():
            yield _rewrite(part, target)
    else:
        yield from iter_json(_exact_comments(part) for part in checked())


def _converted(part: _Part, target: _Target) -> str:
    """The converted text of a game that can be converted (a JSON object for JSON)."""
    if isinstance(target, Dialect):
        return _rewrite(part, target)
    from .jsonform import game_json

    return game_json(_exact_comments(part))


def convert_piece(job: Tuple[Cut, Tuple[Source, DialectName, Optional[DialectName],
                                         Optional[str]]]
                  ) -> Tuple[List[str], List[NotationError]]:
    """Convert a piece of the file ``source`` (in a worker of ``lcn convert
    -j N``): the converted texts of its games up to the first that cannot be
    converted, and the problems of that game and of every one after it.
    Raises UnicodeDecodeError at bytes that are not UTF-8."""
    cut, (source, to, from_dialect, path) = job
    from .parallel import cut_bytes, without_bom

    text = without_bom(cut_bytes(source, cut), cut.start).decode("utf-8")
    target = _resolve(to)
    reader = None if from_dialect is None else _resolve(from_dialect)
    texts: List[str] = []
    problems: List[NotationError] = []
    # Line by line, as a stream is read (the reader copies the text after a
    # game's end at each game: a block's rest each time would be quadratic).
    for part in _parts(lines_with_ends(text), path, cut.line, cut.written):
        found = _problems(part, reader, target, path)
        if found:
            problems += found
        elif not problems:
            texts.append(_converted(part, target))
    return texts, problems


def _convert_parallel(data: BinaryIO, source: Source, to: DialectName,
                      from_dialect: Optional[DialectName], path: Optional[str],
                      jobs: int) -> Iterator[str]:
    """:func:`_convert_stream` (``read_on``) of a large file in ``jobs``
    processes, cut at game boundaries: the same text, the same problems."""
    from .jsonform import framed_json
    from .parallel import cuts, mapped

    problems: List[NotationError] = []

    def texts() -> Iterator[str]:
        done = mapped(cuts(data, source.size), jobs, convert_piece,
                      (source, to, from_dialect, path), forked=True)
        with contextlib.closing(done):
            for _, (converted, found) in done:
                if not problems:
                    yield from converted
                problems.extend(found)
        if problems:
            raise ConversionError(problems)

    yield from (texts() if isinstance(_resolve(to), Dialect) else framed_json(texts()))


def _whole_file(data: BinaryIO, start: int) -> Optional[Source]:
    """The file ``data`` reads (from ``start``), when it is large enough to be
    converted in several processes and they can open it (see
    :func:`~lcnotation.lostcities.parallel.source_of`); else None."""
    from .parallel import source_of

    found = source_of(data, start)
    return found if found is not None and found.size >= core_notation.PARALLEL_BYTES else None


#: How much of a file :func:`convert_file` reads before it decides how to read it.
_PEEK = 4096


def convert_file(data: BinaryIO, to: DialectName = "v1", *,
                 source: Optional[DialectName] = None,
                 path: Optional[str] = None, jobs: int = 1) -> Iterator[bytes]:
    """Convert the record file (or JSON form document) that ``data`` reads, as
    pieces of UTF-8 to write one after another.

    How to read it is decided here: a JSON form document (``source="json"``,
    or text whose first character is ``{``, which may also be a comment) and
    a file that cannot seek (a pipe) are read whole, as :func:`convert_text`
    reads them; any other file is converted as a stream, game by game, as
    :func:`convert_lines` does, in the memory of one game (with ``jobs``
    above 1, a large file in that many processes, cut at game boundaries,
    with the same output).  A byte-order mark
    is kept, except into and out of the JSON form.

    Raises :class:`ConversionError` with the problems of the whole file (a
    stream that meets a game it cannot convert reads on for the problems of
    the rest, and yields nothing more), NotationError (``N001``) for bytes
    that are not UTF-8, OSError when reading fails.  What was yielded before
    an exception is correct but incomplete: keep it only when the iteration
    ends normally.  ``data`` is left open.

    >>> import io
    >>> b"".join(convert_file(io.BytesIO(b"\\xef\\xbb\\xbf1. R3-D\\r\\n"), to="lower"))
    b'\\xef\\xbb\\xbf1. r3-d\\r\\n'
    """
    target = _resolve(to)
    reader = None if source is None else _resolve(source)
    start = data.tell() if data.seekable() else None
    head = data.read(_PEEK)
    # The head may end inside a character: only its start matters.
    while head and not head.decode("utf-8", "replace").strip(_BLANKS):
        more = data.read(_PEEK)  # only white space so far: is a '{' next?
        if not more:
            break
        head += more
    bom = head.startswith(BOM)
    if start is None or reader is JSON or _starts_like_json(head.decode("utf-8", "replace")):
        text, bom = decode_text(head + data.read())
        result, was_json = _convert_whole(text, target, reader, path)
        if bom and target is not JSON and not was_json:
            yield BOM
        yield result.encode("utf-8")
        return
    # Not "utf-8-sig": its decoder silently drops a file that ends in the first
    # bytes of a BOM (b"\\xef", b"\\xef\\xbb").
    data.seek(start + (len(BOM) if bom else 0))
    lines = io.TextIOWrapper(data, encoding="utf-8", newline="")
    try:
        if bom and target is not JSON:
            yield BOM
        whole = _whole_file(data, start) if jobs > 1 else None
        if whole is not None:
            converted = _convert_parallel(data, whole, to, source, path, jobs)
        else:
            converted = _convert_stream(lines, target, reader, path, read_on=True)
        for piece in converted:
            yield piece.encode("utf-8")
    except UnicodeDecodeError:
        # Where the bytes that are not UTF-8 stand: the one time the file is
        # read again.
        data.seek(start)
        decode_text(data.read())
        raise AssertionError("the file decodes after all") from None  # pragma: no cover
    finally:
        lines.detach()


# ---------------------------------------------------------------- detection


class Detection(NamedTuple):
    """How the moves of a text are spelt.

    ``dialect`` is the first registered dialect that spells every move as
    written (``v1`` when several do, e.g. a text without discards), ``json``
    for a JSON form document, :data:`MIXED` when every move fits some
    dialect but no one dialect fits them all, or :data:`UNKNOWN` when some
    move fits none (``Bhd-D``, ``bhx-d``).  ``conflict`` is where the text
    stops fitting one dialect: the first move that fits none, or else the
    first that fits none of the dialects of the moves before it.
    """

    dialect: str
    #: Every dialect that spells all the moves as written.
    candidates: Tuple[str, ...]
    #: For each dialect, how many moves it spells as written.
    counts: Dict[str, int]
    #: The number of moves read.
    moves: int
    conflict: Optional[Span] = None


def detect_dialect(text: str, games: Optional[Iterable[Game]] = None) -> Detection:
    """Detect the dialect of ``text`` from how its moves are spelt.

    The syntax tree does not keep spellings, so the text is needed; pass
    ``games`` when they were already read from this very text (with
    :func:`~lcnotation.lostcities.text.reader.parse_games`) to save reading it again
    (games without positions, built by hand or read from JSON, cannot say
    where their moves are written: the text is read then).  Unreadable moves
    are not counted.

    >>> detect_dialect("1. R3-D 2. BHX-D").dialect
    'x-discard'
    >>> d = detect_dialect("1. R3X-D 2. BHD-D")
    >>> d.dialect, d.counts["v1"], d.counts["x-discard"], (d.conflict.line, d.conflict.column)
    ('mixed', 1, 1, (1, 13))
    """
    if _json_document(text) is not None:
        return Detection(JSON, (), {}, 0, None)
    dialects = list(DIALECTS.values())
    counts = {d.name: 0 for d in dialects}
    candidates = [d.name for d in dialects]
    fits: Dict[str, Tuple[str, ...]] = {}
    mixed_at: Optional[Span] = None
    unknown_at: Optional[Span] = None
    n = 0
    for written, move, span in _written_moves(text, games):
        written = _letters(written)
        fit = fits.get(written)
        if fit is None:
            fit = fits[written] = tuple(d.name for d in dialects if _spells(d, move, written))
        n += 1
        for name in fit:
            counts[name] += 1
        if not fit and unknown_at is None:
            unknown_at = span
        narrowed = [c for c in candidates if c in fit]
        if candidates and not narrowed and mixed_at is None:
            mixed_at = span
        candidates = narrowed
    if unknown_at is not None:
        return Detection(UNKNOWN, (), counts, n, unknown_at)
    if not candidates:
        return Detection(MIXED, (), counts, n, mixed_at)
    return Detection(candidates[0], tuple(candidates), counts, n, None)


def _spells(d: Dialect, move: Move, written: str) -> bool:
    try:
        return format_move(move, d) == written
    except ValueError:
        return False


def _written_moves(text: str, games: Optional[Iterable[Game]]
                   ) -> Iterator[Tuple[str, Move, Span]]:
    """(move as written, move, span in the text) for every readable move."""
    if games is not None:
        games = list(games)
    if games is not None and all(m.span.known for g in games for m in g.moves):
        for game in games:
            for move in game.moves:
                yield text[move.span.start:move.span.end], move, move.span
        return
    for part in _parts(lines_with_ends(text), None):
        for move in part.game.moves:
            yield part.text[move.span.start:move.span.end], move, _in_file(move.span, part)
