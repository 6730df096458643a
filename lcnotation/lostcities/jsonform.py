"""The JSON form of a record file: a lossless interchange form for other tools.

A document holds every game of a file: headers in order with their
comments, the comments before the first header or move, and every move both
as canonical text and as structured fields, with its comments.  Reading a
document back gives games equal to those written, so ``.lcn -> JSON ->
.lcn`` loses nothing.  ``spec/json-form.md`` describes the form field by
field and ``spec/lcnotation-json.schema.json`` is its JSON Schema.

>>> from lcnotation.lostcities.text.reader import parse_games
>>> games = list(parse_games('[Event "Club"]\\nRH-D {a wager} BHD-R'))
>>> text = to_json(games)
>>> print(text, end="")
{
  "format": "lcnotation",
  "version": 1,
  "games": [
    {
      "digest": "004fff03fb611bc6642f37277752bec2",
      "comments": [],
      "headers": [
        {"name": "Event", "value": "Club", "comments": []}
      ],
      "moves": [
        {"text": "RH-D", "color": "R", "rank": 0, "discard": false, "draw": null, "comments": [{"kind": "brace", "text": "a wager"}]},
        {"text": "BHD-R", "color": "B", "rank": 0, "discard": true, "draw": "R", "comments": []}
      ]
    }
  ]
}
>>> from_json(text) == games
True

A document that is not of this form is refused with every problem, each
naming its JSON path and its line and column in the document:

>>> from_json('{"format": "lcnotation", "version": 1, "games": [{"headers": [], "moves": [7]}]}')
Traceback (most recent call last):
...
lcnotation.lostcities.text.dialects.ConversionError: line 1, column 76: $.games[0].moves[0]: expected a move object, found a number (J102)
"""

from __future__ import annotations

import json
import re
from typing import (Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple,
                    Union)

from .game.digest import game_digest
from .text.ast import Card, Comment, Draw, Game, Header, Move, Placement, Span
from .text.dialects import COLOR_LETTERS, V1, ConversionError
from ..core.codes import Family
from ..core.diagnostics import NotationError, Severity
from .text.formatter import format_move
from .text.lexical import LEXICON, RANK_OF
from ..core.lineends import has_line_break
from ..core.numbers import read_decimal, too_long
from ..core.positions import LineIndex
from .text.reader import parse_move

__all__ = ["FORMAT", "VERSION", "JSONFormError", "to_json", "iter_json", "framed_json", "game_json",
           "from_json",
           "decode", "from_data", "locate", "JSON_CODES", "JSON_FORM"]

#: Every code of a problem with a JSON form document (family J), with what it
#: reports; each is an error.
JSON_CODES: Dict[str, str] = {
    "J101": "not JSON, or nested too deeply to read",
    "J102": "the wrong shape: a missing, unknown or repeated key, or a value of the "
            "wrong type or range",
    "J103": "a move text that is not a move, or not in the canonical spelling",
    "J104": "a move whose fields do not say what its text says",
    "J105": "a value the .lcn format cannot hold (a header name that is not a name, a "
            "line break in a header value or a line comment, '}' in a brace comment)",
    "J106": "games in an order a file cannot hold",
    "J107": "a game whose digest is not that of its headers and moves",
}

#: The family J: the JSON form, documented in ``spec/diagnostics.md``.
JSON_FORM = Family("J", "JSON form", "diagnostics.md",
                   {code: (Severity.ERROR, summary) for code, summary in JSON_CODES.items()})

#: The value of the document's ``"format"`` field.
FORMAT = "lcnotation"
#: The version of the form this module writes and reads.
VERSION = 1

#: A path into a JSON document: object keys and array indices.
JSONPath = Tuple[Union[str, int], ...]

# A move as the canonical dialect writes it (the "text" of a move).
_MOVE = LEXICON.canonical_move(V1.discard)
_RANK_OF = {written: rank for written, rank in RANK_OF.items() if written == written.upper()}
_HEADER_NAME = LEXICON.header_name_only
_SURROGATE = re.compile("[\ud800-\udfff]")
_RANKS = frozenset(_RANK_OF.values())


class JSONFormError(NotationError):
    """One problem in a JSON document.  Its message starts with the JSON path
    of the value at fault (``$.games[0].moves[3].text``), also kept as
    ``json_path``; ``span`` is where that value stands in the document."""

    def __init__(self, message: str, span: Span, *, code: str, json_path: str,
                 path: Optional[str] = None) -> None:
        super().__init__(f"{json_path}: {message}", span, code=code, path=path)
        self.json_path = json_path

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuild, (self.message, self.span, self.code, self.json_path, self.path))


def _rebuild(message: str, span: Span, code: str, json_path: str,
             path: Optional[str]) -> JSONFormError:
    err = JSONFormError.__new__(JSONFormError)
    NotationError.__init__(err, message, span, code=code, path=path)
    err.json_path = json_path
    return err


# ---------------------------------------------------------------- writing


def _s(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _comments_json(comments: Sequence[Comment]) -> str:
    if not comments:
        return "[]"
    return "[" + ", ".join('{"kind": %s, "text": %s}' % (_s(c.kind), _s(c.text))
                           for c in comments) + "]"


# The part of a move's object before its comments depends only on the card,
# discard and draw: worth remembering, as a file repeats the same few hundred.
_move_prefix_cache: Dict[Tuple[Placement, Draw], str] = {}


def _move_json(move: Move) -> str:
    key = (move.placement, move.draw)
    prefix = _move_prefix_cache.get(key)
    if prefix is None:
        card = move.placement.card
        draw = move.draw.color
        prefix = '{"text": %s, "color": %s, "rank": %d, "discard": %s, "draw": %s, ' % (
            _s(format_move(move)), _s(card.color), card.rank,
            "true" if move.placement.discard else "false",
            "null" if draw is None else _s(draw))
        if len(_move_prefix_cache) < 4096:
            _move_prefix_cache[key] = prefix
    return prefix + '"comments": ' + _comments_json(move.comments) + "}"


def game_json(game: Game) -> str:
    """The text of ``game``'s object in the document (as :func:`iter_json` lays it out)."""
    if game.errors:
        raise ConversionError(game.errors)
    out = ['    {\n      "digest": "', game_digest(game), '",\n      "comments": ',
           _comments_json(game.comments), ",\n"]
    if game.headers:
        out.append('      "headers": [\n')
        out.append(",\n".join(
            '        {"name": %s, "value": %s, "comments": %s}'
            % (_s(h.name), _s(h.value), _comments_json(h.comments)) for h in game.headers))
        out.append("\n      ],\n")
    else:
        out.append('      "headers": [],\n')
    if game.moves:
        out.append('      "moves": [\n')
        out.append(",\n".join("        " + _move_json(m) for m in game.moves))
        out.append("\n      ]\n    }")
    else:
        out.append('      "moves": []\n    }')
    return "".join(out)


def iter_json(games: Iterable[Game]) -> Iterator[str]:
    """The JSON document of ``games`` in pieces, one game at a time.

    A game read with syntax errors is refused (:class:`ConversionError`
    with its errors): the text that could not be read would be lost.
    """
    return framed_json(game_json(game) for game in games)


def framed_json(texts: Iterable[str]) -> Iterator[str]:
    """The JSON document around the objects ``texts`` of its games (each made
    by :func:`game_json`), in pieces."""
    yield '{\n  "format": "%s",\n  "version": %d,\n  "games": [' % (FORMAT, VERSION)
    separator = "\n"
    for text in texts:
        yield separator + text
        separator = ",\n"
    yield ("\n  ]" if separator == ",\n" else "]") + "\n}\n"


def to_json(games: Iterable[Game]) -> str:
    """The JSON document of ``games`` (see the module docstring).

    >>> print(to_json([]), end="")
    {
      "format": "lcnotation",
      "version": 1,
      "games": []
    }
    """
    return "".join(iter_json(games))


# ---------------------------------------------------------------- reading


def _path_text(path: JSONPath) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


class _LongNumber(float):
    """A JSON number too long to read: a number no field accepts (infinity),
    which remembers its digits for the message."""

    digits = ""


def _int(text: str) -> Union[int, float]:
    value = read_decimal(text)
    if value is not None:
        return value
    number = _LongNumber("-inf" if text.startswith("-") else "inf")
    number.digits = text
    return number


def _shown(value: Any) -> str:
    """A value of the document, as JSON (a number too long to read is described)."""
    if isinstance(value, _LongNumber):
        return too_long(value.digits)
    return json.dumps(value, ensure_ascii=False)


def _kind(value: Any) -> str:
    if isinstance(value, _LongNumber):
        return too_long(value.digits)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


class _Pairs(Dict[str, Any]):
    """A decoded JSON object that remembers the keys it had more than once."""

    __slots__ = ("repeated",)
    repeated: List[str]


def _object(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        # A repeated key would silently lose a value: keep the evidence.
        repeated = _Pairs(pairs)
        seen: Set[str] = set()
        repeated.repeated = []
        for k, _ in pairs:
            if k in seen:
                repeated.repeated.append(k)
            seen.add(k)
        return repeated
    return d


def decode(text: str, *, path: Optional[str] = None) -> Any:
    """Decode JSON ``text``, refusing what is not JSON with its position.

    A leading byte-order mark is skipped.  Objects with a repeated key are
    reported later, by :func:`from_data`, with their path.

    >>> decode('{"a": [1, 2')
    Traceback (most recent call last):
    ...
    lcnotation.lostcities.text.dialects.ConversionError: line 1, column 12: not JSON: Expecting ',' delimiter (J101)
    """
    if text.startswith("\ufeff"):
        text = " " + text[1:]  # same length, so positions stay those of the file
    try:
        return json.loads(text, object_pairs_hook=_object, parse_int=_int)
    except json.JSONDecodeError as exc:
        span = _span_at(LineIndex(text), exc.pos, min(exc.pos + 1, len(text)))
        raise ConversionError([NotationError(f"not JSON: {exc.msg}", span, code="J101",
                                             path=path)]) from None
    except RecursionError:
        raise ConversionError([NotationError("not JSON this form can hold: nested too "
                                             "deeply", _span_at(LineIndex(text), 0, 0), code="J101",
                                             path=path)]) from None


def from_json(text: str, *, path: Optional[str] = None) -> List[Game]:
    """Read the games of a JSON document written by :func:`to_json` (or by hand).

    Raises :class:`ConversionError` listing every problem, each a
    :class:`JSONFormError` with its JSON path, line and column.
    """
    return from_data(decode(text, path=path), text, path=path)


class _Reader:
    """Checks a decoded document against the form and builds its games."""

    def __init__(self) -> None:
        self.problems: List[Tuple[JSONPath, str, str]] = []

    def fail(self, where: JSONPath, code: str, message: str) -> None:
        self.problems.append((where, code, message))

    def fields(self, value: Any, where: JSONPath, what: str, required: Sequence[str],
               optional: Sequence[str] = ()) -> Optional[Dict[str, Any]]:
        """``value`` if it is an object with the required keys and no unknown ones."""
        if not isinstance(value, dict):
            self.fail(where, "J102", f"expected {what}, found {_kind(value)}")
            return None
        ok = True
        for key in getattr(value, "repeated", ()):
            self.fail(where + (key,), "J102", f"the key {key!r} is given more than once")
            ok = False
        for key in value:
            if key not in required and key not in optional:
                known = ", ".join(repr(k) for k in (*required, *optional))
                self.fail(where + (key,), "J102", f"unknown key {key!r} in {what} "
                          f"(its keys are {known})")
                ok = False
        for key in required:
            if key not in value:
                self.fail(where, "J102", f"{what} has no {key!r}")
                ok = False
        return value if ok else None

    def array(self, value: Any, where: JSONPath, what: str) -> Sequence[Any]:
        if not isinstance(value, list):
            self.fail(where, "J102", f"expected an array of {what}, found {_kind(value)}")
            return ()
        return value

    def string(self, value: Any, where: JSONPath, what: str) -> Optional[str]:
        if not isinstance(value, str):
            self.fail(where, "J102", f"expected {what} (a string), found {_kind(value)}")
            return None
        lone = _SURROGATE.search(value)
        if lone is not None:
            # JSON can escape half of a UTF-16 pair ("\ud800"); no UTF-8 file can hold it.
            self.fail(where, "J105", f"{what} holds \\u{ord(lone.group()):04x}, half of a "
                      "UTF-16 surrogate pair, which is not a character")
            return None
        return value

    def comments(self, obj: Dict[str, Any], where: JSONPath) -> Tuple[Comment, ...]:
        result: List[Comment] = []
        items = self.array(obj.get("comments", []), where + ("comments",), "comments")
        for i, item in enumerate(items):
            at = where + ("comments", i)
            c = self.fields(item, at, "a comment object", ("kind", "text"))
            if c is None:
                continue
            kind, text = c["kind"], self.string(c["text"], at + ("text",), "the comment text")
            if kind not in ("brace", "line"):
                self.fail(at + ("kind",), "J102",
                          f"a comment's kind is \"brace\" or \"line\", not {_shown(kind)}")
                continue
            if text is None:
                continue
            if kind == "brace" and "}" in text:
                self.fail(at + ("text",), "J105", "a brace comment cannot contain '}'")
            elif kind == "line" and has_line_break(text):
                self.fail(at + ("text",), "J105", "a line comment cannot contain a line break")
            else:
                result.append(Comment(text, kind))
        return tuple(result)

    def header(self, item: Any, at: JSONPath) -> Optional[Header]:
        h = self.fields(item, at, "a header object", ("name", "value"), ("comments",))
        if h is None:
            return None
        name = self.string(h["name"], at + ("name",), "the header name")
        value = self.string(h["value"], at + ("value",), "the header value")
        comments = self.comments(h, at)
        if name is not None and not _HEADER_NAME.match(name):
            self.fail(at + ("name",), "J105", f"{json.dumps(name, ensure_ascii=False)} cannot "
                      "be a header name: a letter, then letters, digits or '_'")
            return None
        if value is not None and has_line_break(value):
            self.fail(at + ("value",), "J105", "a header value cannot contain a line break")
            return None
        if name is None or value is None:
            return None
        return Header(name, value, comments)

    def move(self, item: Any, at: JSONPath, turn: int) -> Optional[Move]:
        m = self.fields(item, at, "a move object",
                        ("text", "color", "rank", "discard", "draw"), ("comments",))
        if m is None:
            return None
        comments = self.comments(m, at)
        text = self.string(m["text"], at + ("text",), "the move text")
        parsed = _MOVE.match(text) if text is not None else None
        if text is not None and parsed is None:
            self.fail(at + ("text",), "J103", _bad_move_text(text))
        color, rank, discard, draw = m["color"], m["rank"], m["discard"], m["draw"]
        ok = True
        if not (isinstance(color, str) and color in COLOR_LETTERS):
            self.fail(at + ("color",), "J102", "expected a colour letter (upper case, not D, "
                      f"H or X), found {_shown(color)}")
            ok = False
        if isinstance(rank, bool) or not isinstance(rank, int) or rank not in _RANKS:
            self.fail(at + ("rank",), "J102", "expected a rank: 2 to 10, or 0 for a "
                      f"handshake, found {_shown(rank)}")
            ok = False
        if not isinstance(discard, bool):
            self.fail(at + ("discard",), "J102", f"expected true or false, found {_kind(discard)}")
            ok = False
        if draw is not None and not (isinstance(draw, str) and draw in COLOR_LETTERS):
            self.fail(at + ("draw",), "J102", "expected null (the draw pile) or a colour "
                      f"letter, found {_shown(draw)}")
            ok = False
        if not ok or parsed is None:
            return None
        move = Move(Placement(Card(color, rank), discard), Draw(draw), comments, None, turn)
        if (parsed.group(1), _RANK_OF[parsed.group(2)], parsed.group(3) == "D",
                None if parsed.group(4) == "D" else parsed.group(4)) != \
                (color, rank, discard, draw):
            self.fail(at, "J104", f"the fields say {format_move(move)} but the text says {text}")
            return None
        return move

    def game(self, item: Any, at: JSONPath) -> Optional[Game]:
        g = self.fields(item, at, "a game object", ("headers", "moves"), ("digest", "comments"))
        if g is None:
            return None
        comments = self.comments(g, at)
        headers = [self.header(h, at + ("headers", k))
                   for k, h in enumerate(self.array(g["headers"], at + ("headers",), "headers"))]
        moves = [self.move(m, at + ("moves", j), j)
                 for j, m in enumerate(self.array(g["moves"], at + ("moves",), "moves"))]
        read_headers = tuple(h for h in headers if h is not None)
        read_moves = tuple(m for m in moves if m is not None)
        if len(read_headers) != len(headers) or len(read_moves) != len(moves):
            return None
        game = Game(read_headers, read_moves, comments)
        if "digest" in g:
            given = self.string(g["digest"], at + ("digest",), "a digest")
            if given is not None and given != game_digest(game):
                self.fail(at + ("digest",), "J107", f"the digest {_shown(given)} is not the "
                          f"game's: its headers and moves have the digest {game_digest(game)} "
                          "(spec/digest.md)")
        return game

    def document(self, data: Any) -> List[Game]:
        top = self.fields(data, (), "a JSON form document (an object)",
                          ("format", "version", "games"))
        if top is None:
            return []
        if top["format"] != FORMAT:
            self.fail(("format",), "J102", f"expected \"{FORMAT}\", found "
                      f"{_shown(top['format'])}")
        version = top["version"]
        if isinstance(version, bool) or version != VERSION:
            self.fail(("version",), "J102", f"this is version {VERSION} of the form; "
                      f"cannot read version {_shown(version)}")
            return []
        games: List[Game] = []
        items = self.array(top["games"], ("games",), "games")
        previous: Optional[Game] = None
        for i, item in enumerate(items):
            game = self.game(item, ("games", i))
            if game is None:
                previous = None
                continue
            # The same two rules as format_games: what a file of games can hold.
            if previous is not None and not previous.moves:
                self.fail(("games", i - 1, "moves"), "J106", "only the last game can be "
                          "without moves: a header after it would read as one of its headers")
            if i > 0 and (not game.headers or game.comments):
                self.fail(("games", i), "J106", "a game after the first must start with a "
                          "header and have no comments before it: in a file it would read "
                          "as part of the game before it")
            games.append(game)
            previous = game
        return games


def _bad_move_text(text: str) -> str:
    shown = json.dumps(text, ensure_ascii=False)
    try:
        move = parse_move(text)
    except NotationError as err:
        return f"{shown} is not a move: {err.message}"
    return f"{shown} is not in the canonical spelling: write \"{format_move(move)}\""


def from_data(data: Any, text: str, *, path: Optional[str] = None) -> List[Game]:
    """Build games from a decoded document; ``text`` is the JSON it came from,
    used to give every problem its line and column."""
    reader = _Reader()
    games = reader.document(data)
    if reader.problems:
        raise ConversionError(errors_at(text, reader.problems, path=path))
    return games


def errors_at(text: str, problems: Sequence[Tuple[JSONPath, str, str]], *,
              path: Optional[str] = None) -> List[NotationError]:
    """Errors for ``(json path, code, message)`` problems, located in ``text``
    and sorted by position."""
    places = locate(text, {p for p, _, _ in problems})
    start = Span(1, 1, 1, 1, 0, 0)
    errors: List[NotationError] = [JSONFormError(message, places.get(where) or start, code=code,
                            json_path=_path_text(where), path=path)
              for where, code, message in problems]
    errors.sort(key=lambda e: e.span.start)
    return errors


# ---------------------------------------------------------------- positions

_WS = re.compile(r"[ \t\r\n]*")
# Unrolled ("plain run, then (escape, plain run)*"): a repeated alternation
# costs Python's re memory for every character of a long string.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_SCALAR = re.compile(r"[^,\]}\s]+")
_SKIP = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


def _end(pattern: "re.Pattern[str]", text: str, i: int) -> int:
    """Where ``pattern``'s match at ``i`` ends; the text is JSON that
    :func:`json.loads` has read, so the token is there."""
    m = pattern.match(text, i)
    assert m is not None, (pattern.pattern, i)
    return m.end()


def _span_at(lines: LineIndex, start: int, end: int) -> Span:
    """The span from ``start`` to ``end`` of the text of ``lines`` (built once
    per document: every problem's place is then a search, not a count of the
    line ends before it)."""
    line, end_line = lines.line_of(start), lines.line_of(end)
    return Span(line + 1, start - lines.starts[line] + 1, end_line + 1,
                end - lines.starts[end_line] + 1, start, end)


def _skip_value(text: str, i: int) -> int:
    """The end of the JSON value that starts at ``i`` (no recursion)."""
    c = text[i]
    if c == '"':
        return _end(_STRING, text, i)
    if c not in "[{":
        return _end(_SCALAR, text, i)
    depth = 0
    for m in _SKIP.finditer(text, i):
        token = m.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
            if depth == 0:
                return m.end()
    return len(text)


def locate(text: str, paths: Iterable[JSONPath]) -> Dict[JSONPath, Span]:
    """Where the values at ``paths`` stand in the JSON ``text``.

    One pass, descending only towards the paths asked for.

    >>> locate('{"a": [1, {"b": true}]}', [("a", 1, "b")])
    {('a', 1, 'b'): Span(line=1, column=17, end_line=1, end_column=21, start=16, end=20)}
    """
    wanted = set(paths)
    prefixes = {p[:k] for p in wanted for k in range(len(p) + 1)}
    found: Dict[JSONPath, Tuple[int, int]] = {}

    def walk(i: int, at: JSONPath) -> int:
        i = _end(_WS, text, i)
        start = i
        if at not in prefixes:
            return _skip_value(text, i)
        c = text[i]
        if c in "[{":
            i = _end(_WS, text, i + 1)
            index = 0
            while text[i] not in "]}":
                if c == "{":
                    end = _end(_STRING, text, i)
                    key: Union[str, int] = json.loads(text[i:end])
                    i = _end(_WS, text, end) + 1  # past the ':'
                else:
                    key = index
                    index += 1
                i = _end(_WS, text, walk(i, at + (key,)))
                if text[i] == ",":
                    i = _end(_WS, text, i + 1)
            end = i + 1
        else:
            end = _skip_value(text, i)
        if at in wanted and at not in found:
            found[at] = (start, end)
        return end

    if text.startswith("\ufeff"):
        text = " " + text[1:]
    walk(0, ())
    lines = LineIndex(text)
    return {p: _span_at(lines, s, e) for p, (s, e) in found.items()}
