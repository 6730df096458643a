"""Queries over games: the language of ``lcn filter --where`` and its JSON form.

A query is a condition on one game: its headers, its outcome, its findings
and what is on the table once its moves are replayed.  ``spec/query.md``
defines the language; in short:

>>> q = parse_query('Player1 == "Kenny" and expedition.wagers == 3')
>>> q.level is Level.REPLAY, q.fields
(True, ('Player1', 'expedition.wagers'))
>>> parse_query('Round >= 3 or not clean').level is Level.FINDINGS
True

The same query in the JSON form (operators as keys, in the manner of JSON
Logic and of scoutfish's queries):

>>> j = query_from_json({"and": [{"==": [{"field": "Player1"}, "Kenny"]},
...                               {"==": [{"field": "expedition.wagers"}, 3]}]})
>>> j.fields
('Player1', 'expedition.wagers')

A query is evaluated on a :class:`GameView`, which reads of the game only
what the query needs (its :attr:`Query.level`): a query on headers never
parses the moves.

>>> import io
>>> from lcnotation.archive.reader import scan
>>> entries = scan(io.BytesIO(b'[Player1 "Kenny"]\\nRH-D\\n[Player1 "Ann"]\\nB4-D\\n'))
>>> [e.number for e in entries if parse_query('Player1 ~ /^ken/i').matches(GameView(e))]
[1]
"""

from __future__ import annotations

import enum
import json
import re
import threading
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence,
                    Tuple, Union)

from ..lostcities.game.checker import CheckReport, check
from ..lostcities.game.digest import game_digest, move_text
from ..lostcities.text.ast import HANDSHAKE, Game
from ..lostcities.text.headers import DEFAULT_COLORS
from ..core.grammar import grammar_text
from ..lostcities.text.lexical import COLOR_LETTERS
from .reader import GameEntry

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

    from ..core.lint import LintConfig
    from ..core.findings import Finding
    from ..lostcities.style import StyleState

__all__ = ["Level", "Query", "QueryError", "GameView", "parse_query", "query_from_json",
           "compile_query", "FIELDS"]


class Level(enum.IntEnum):
    """How much of a game a query reads, from the least."""

    #: Where the game is (its number, offset, line): nothing is read.
    PLACE = 0
    #: The headers (the moves are not parsed).
    HEADERS = 1
    #: The syntax tree (the moves).
    MOVES = 2
    #: The moves replayed on the table: the state, the score.
    REPLAY = 3
    #: Every finding ``lcn lint`` reports for the game.
    FINDINGS = 4


class QueryError(ValueError):
    """A query that cannot be read: its message says where (the column in the
    text, or the JSON path) and what was expected."""

    def __init__(self, message: str, column: Optional[int] = None,
                 json_path: Optional[str] = None) -> None:
        where = (f"column {column}: " if column is not None
                 else f"{json_path}: " if json_path is not None else "")
        super().__init__(where + message)
        self.column = column
        self.json_path = json_path


# ---------------------------------------------------------------- what a game shows


class GameView:
    """One game as a query sees it: each part read when first asked for.

    ``default_colors`` are the colours of a game without a Colors header;
    ``findings``, a function that gives a game's findings (see
    :class:`FileFindings`), is needed only by queries on findings.
    """

    __slots__ = ("entry", "default_colors", "_findings_of", "_tags", "_game", "_report",
                 "_findings")

    def __init__(self, entry: GameEntry, *, default_colors: Tuple[str, ...] = DEFAULT_COLORS,
                 findings: Optional[Callable[[GameEntry], Tuple[Game, List["Finding"]]]] = None
                 ) -> None:
        self.entry = entry
        self.default_colors = default_colors
        self._findings_of = findings
        self._tags: Optional[Dict[str, str]] = None
        self._game: Optional[Game] = None
        self._report: Optional[CheckReport] = None
        self._findings: Optional[List["Finding"]] = None

    def tags(self) -> Dict[str, str]:
        if self._tags is None:
            self._tags = self._game.tags if self._game is not None else self.entry.tags()
        return self._tags

    def game(self) -> Game:
        if self._game is None:
            if self._findings_of is not None:
                self.findings()
            else:
                self._game = self.entry.game()
        assert self._game is not None
        return self._game

    def report(self) -> CheckReport:
        if self._report is None:
            self._report = check(self.game(), default_colors=self.default_colors)
        return self._report

    def findings(self) -> List["Finding"]:
        if self._findings is None:
            if self._findings_of is None:
                raise QueryError("this query reads findings: give GameView a findings function")
            self._game, self._findings = self._findings_of(self.entry)
        return self._findings


class FileFindings:
    """The findings of each game of one file, as ``lcn lint`` reports them
    (the style checks remember the file's first discard marker, so the games
    of a file must be given in order, every one of them)."""

    def __init__(self, config: Optional["LintConfig"] = None) -> None:
        from ..core.lint import LintConfig
        from ..lostcities.lint import style_state

        self.config = config or LintConfig()
        self.style: "StyleState" = style_state(self.config)

    def __call__(self, entry: GameEntry) -> Tuple[Game, List["Finding"]]:
        from ..lostcities.lint import lint_game

        return lint_game(entry.text(), self.style, self.config, entry.path)


# ---------------------------------------------------------------- fields

Value = Union[str, int, float, bool, None]
Getter = Callable[[GameView], List[Value]]


class _Selectors(NamedTuple):
    players: Optional[Tuple[Union[int, str], ...]]   # seats (0, 1) or names; None: both
    colors: Optional[Tuple[str, ...]]                # None: every colour of the game


class FieldSpec(NamedTuple):
    """A field of the language: what it reads, and how."""

    level: Level
    #: Which selectors it takes: "" none, "p" players, "c" colours, "pc" both,
    #: "h" one header name.
    selects: str
    #: Its attributes (for ``expedition.cards``), each a function of the
    #: selected values; empty: the field has none.
    attributes: Tuple[str, ...]
    summary: str


#: Every field of the language, with what it is (spec/query.md lists them).
FIELDS: Dict[str, FieldSpec] = {
    "header": FieldSpec(Level.HEADERS, "h", (), "the value of the header named in brackets"),
    "number": FieldSpec(Level.PLACE, "", (), "the game's number in its file, from 1"),
    "offset": FieldSpec(Level.PLACE, "", (), "the byte offset of the game in its file"),
    "line": FieldSpec(Level.PLACE, "", (), "the line the game begins on"),
    "player": FieldSpec(Level.HEADERS, "p", (), "the players' names, as the checker reads them"),
    "colors": FieldSpec(Level.HEADERS, "", (), "the game's colour letters, in order"),
    "moves": FieldSpec(Level.MOVES, "", (), "the number of moves"),
    "move": FieldSpec(Level.MOVES, "", (), "each move, in the canonical spelling"),
    "digest": FieldSpec(Level.MOVES, "", (), "the game's digest (spec/digest.md)"),
    "complete": FieldSpec(Level.REPLAY, "", (), "the draw pile was spent"),
    "score": FieldSpec(Level.REPLAY, "p", (), "each player's round score, as lcn score gives it"),
    "winner": FieldSpec(Level.REPLAY, "", (), "the winner's name; null for a draw or an "
                        "incomplete game"),
    "loser": FieldSpec(Level.REPLAY, "", (), "the loser's name; null for a draw or an "
                       "incomplete game"),
    "draw": FieldSpec(Level.REPLAY, "", (), "a complete game with equal scores"),
    "margin": FieldSpec(Level.REPLAY, "", (), "the difference of the two scores"),
    "draw_pile": FieldSpec(Level.REPLAY, "", (), "the cards left in the draw pile (the "
                           "fewest possible, when a turn could not be read)"),
    "expedition": FieldSpec(Level.REPLAY, "pc", ("cards", "wagers", "numbers", "score",
                                                 "opened", "bonus"),
                            "each player's expedition of each colour"),
    "color": FieldSpec(Level.REPLAY, "c", ("opened", "cards", "discards"),
                       "each colour: how many players opened it, the cards on its "
                       "expeditions, the cards on its discard pile"),
    "findings": FieldSpec(Level.FINDINGS, "", (), "the number of findings (lcn lint)"),
    "errors": FieldSpec(Level.FINDINGS, "", (), "the number of error findings"),
    "warnings": FieldSpec(Level.FINDINGS, "", (), "the number of warning findings"),
    "code": FieldSpec(Level.FINDINGS, "", (), "the code of each finding"),
    "clean": FieldSpec(Level.FINDINGS, "", (), "no finding at all"),
}


def _header_getter(name: str) -> Getter:
    def get(view: GameView) -> List[Value]:
        value = view.tags().get(name)
        return [] if value is None else [value]
    return get


def _players_of(view: GameView, players: Optional[Tuple[Union[int, str], ...]]) -> List[int]:
    """The seats (0, 1) the selectors name, for this game."""
    if players is None:
        return [0, 1]
    names = _names(view)
    seats: List[int] = []
    for p in players:
        if isinstance(p, int):
            seats.append(p)
        else:
            seats.extend(i for i in (0, 1) if names[i] == p)
    return seats


def _names(view: GameView) -> Tuple[str, str]:
    tags = view.tags()
    first, second = ((tags.get(k, "").strip() or f"Player {i}")
                     for i, k in ((1, "Player1"), (2, "Player2")))
    return first, second


def _colors_of(view: GameView, colors: Optional[Tuple[str, ...]]) -> List[str]:
    played = view.report().score.colors
    return list(played) if colors is None else [c for c in colors if c in played]


_EXPEDITION: Dict[str, Callable[[List[int], int], Value]] = {
    "cards": lambda ranks, points: len(ranks),
    "wagers": lambda ranks, points: ranks.count(HANDSHAKE),
    "numbers": lambda ranks, points: len(ranks) - ranks.count(HANDSHAKE),
    "score": lambda ranks, points: points,
    "opened": lambda ranks, points: bool(ranks),
    "bonus": lambda ranks, points: len(ranks) >= 8,
}


def _field_getter(name: str, sel: _Selectors, attribute: Optional[str]) -> Getter:
    """The function that gives a field's values in a game."""
    if name == "number":
        return lambda view: [view.entry.number]
    if name == "offset":
        return lambda view: [view.entry.offset]
    if name == "line":
        return lambda view: [view.entry.line]
    if name == "player":
        return lambda view: [_names(view)[p] for p in _players_of(view, sel.players)]
    if name == "colors":
        return lambda view: ["".join(_game_colors(view))]
    if name == "moves":
        return lambda view: [len(view.game().moves)]
    if name == "move":
        return lambda view: [move_text(m) for m in view.game().moves]
    if name == "digest":
        return lambda view: [game_digest(view.game())]
    if name == "complete":
        return lambda view: [view.report().complete]
    if name == "score":
        return lambda view: [view.report().score.totals[p]
                             for p in _players_of(view, sel.players)]
    if name in ("winner", "loser"):
        return _outcome(name == "winner")
    if name == "draw":
        def draw(view: GameView) -> List[Value]:
            r = view.report()
            a, b = r.score.totals
            return [r.complete and a == b]
        return draw
    if name == "margin":
        return lambda view: [abs(view.report().score.totals[0] - view.report().score.totals[1])]
    if name == "draw_pile":
        return lambda view: [view.report().state.draw_pile_range[0]]
    if name == "expedition":
        assert attribute is not None
        of = _EXPEDITION[attribute]

        def expedition(view: GameView) -> List[Value]:
            r = view.report()
            colors = r.score.colors
            out: List[Value] = []
            for p in _players_of(view, sel.players):
                for c in _colors_of(view, sel.colors):
                    ranks = [card.rank for card in r.state.expedition(p, c)]
                    out.append(of(ranks, r.score.expeditions[p][colors.index(c)]))
            return out
        return expedition
    if name == "color":
        assert attribute is not None

        def color(view: GameView) -> List[Value]:
            r = view.report()
            out: List[Value] = []
            for c in _colors_of(view, sel.colors):
                if attribute == "discards":
                    out.append(len(r.state.discard_pile(c)))
                else:
                    sizes = [len(r.state.expedition(p, c)) for p in (0, 1)]
                    out.append(sum(1 for n in sizes if n) if attribute == "opened"
                               else sum(sizes))
            return out
        return color
    if name == "findings":
        return lambda view: [len(view.findings())]
    if name in ("errors", "warnings"):
        severity = name[:-1]
        return lambda view: [sum(1 for f in view.findings()
                                 if f.diagnostic.severity.value == severity)]
    if name == "code":
        return lambda view: [f.diagnostic.code for f in view.findings()]
    if name == "clean":
        return lambda view: [not view.findings()]
    raise AssertionError(name)  # pragma: no cover - FIELDS lists every name


def _game_colors(view: GameView) -> Tuple[str, ...]:
    if view._game is not None or view._report is not None:
        return view.report().score.colors
    from ..lostcities.game.setup import read_setup
    from ..lostcities.text.ast import Header

    value = view.tags().get("Colors")
    headers = () if value is None else (Header("Colors", value),)
    return read_setup(Game(headers), view.default_colors).colors


def _outcome(winner: bool) -> Getter:
    def get(view: GameView) -> List[Value]:
        r = view.report()
        a, b = r.score.totals
        if not r.complete or a == b:
            return [None]
        return [r.score.players[0 if (a > b) == winner else 1]]
    return get


# ---------------------------------------------------------------- comparisons


class Regex(NamedTuple):
    """A regular expression literal (``/^Ken/i``)."""

    pattern: "re.Pattern[str]"
    text: str


Literal = Union[Value, Regex]


def _number(value: Value) -> Optional[Union[int, float]]:
    """A value as a number, when it is one (a header's text that reads as one)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return value
    text = value.strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    return number if number == number and abs(number) != float("inf") else None


_ORDER = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
          ">=": lambda a, b: a >= b}


def _compare(op: str, a: Literal, b: Literal) -> bool:
    """``a op b`` for two single values (see spec/query.md, "Comparisons")."""
    if op in ("~", "!~"):
        if isinstance(b, Regex) and isinstance(a, str):
            return (b.pattern.search(a) is not None) == (op == "~")
        if isinstance(a, Regex) and isinstance(b, str):
            return (a.pattern.search(b) is not None) == (op == "~")
        return False
    if isinstance(a, Regex) or isinstance(b, Regex):
        return False
    if a is None or b is None:
        return (a is None and b is None) == (op == "==") if op in ("==", "!=") else False
    if isinstance(a, bool) or isinstance(b, bool):
        if isinstance(a, bool) and isinstance(b, bool) and op in ("==", "!="):
            return (a == b) == (op == "==")
        return False
    if isinstance(a, str) and isinstance(b, str):
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        return bool(_ORDER[op](a, b))
    x, y = _number(a), _number(b)
    if x is None or y is None:
        return False
    if op == "==":
        return x == y
    if op == "!=":
        return x != y
    return bool(_ORDER[op](x, y))


def _truthy(value: Value) -> bool:
    return value is not None and value is not False and value != 0 and value != ""


# ---------------------------------------------------------------- the query

Test = Callable[[GameView], bool]


class Operand(NamedTuple):
    """A field (with its getter) or a literal."""

    get: Optional[Getter]
    literal: Literal
    level: Level
    name: Optional[str]

    def values(self, view: GameView) -> Sequence[Literal]:
        return self.get(view) if self.get is not None else (self.literal,)


class Query:
    """A compiled query: :meth:`matches` tells whether a game meets it.

    ``level`` says how much of a game it reads (:class:`Level`); ``fields``
    names the fields it uses, in order; ``text`` is the query as given.
    """

    def __init__(self, test: Test, level: Level, fields: Tuple[str, ...], text: str) -> None:
        self._test = test
        self.level = level
        self.fields = fields
        self.text = text

    def matches(self, view: GameView) -> bool:
        """Whether the game of ``view`` meets the query."""
        return self._test(view)

    def __repr__(self) -> str:
        return f"Query({self.text!r})"


class _Builder:
    """Builds a query from its parts, whichever form it was written in."""

    def __init__(self) -> None:
        self.level = Level.PLACE
        self.fields: List[str] = []

    def field(self, name: str, selectors: Sequence[Union[int, str]], attribute: Optional[str],
              fail: Callable[[str], QueryError]) -> Operand:
        shown = name + (f"[{', '.join(map(_shown, selectors))}]" if selectors else "") + \
            (f".{attribute}" if attribute else "")
        if name[0].isupper() and name not in FIELDS:
            if selectors or attribute:
                raise fail(f"{shown}: a header ({name}) takes no brackets nor attribute")
            return self._use(shown, Level.HEADERS, _header_getter(name))
        spec = FIELDS.get(name)
        if spec is None:
            raise fail(f"unknown field {name!r}: the fields are {', '.join(FIELDS)}, and a "
                       "header is written with its name (Player1) or as header[\"name\"]")
        if spec.attributes and attribute is None:
            raise fail(f"{name} needs an attribute: {', '.join(name + '.' + a for a in spec.attributes)}")
        if attribute is not None and attribute not in spec.attributes:
            has = (f"its attributes are {', '.join(spec.attributes)}" if spec.attributes
                   else "it has no attribute")
            raise fail(f"{name} has no attribute {attribute!r}: {has}")
        if spec.selects == "h":
            if len(selectors) != 1 or not isinstance(selectors[0], str):
                raise fail('header takes one header name in brackets: header["Event"]')
            return self._use(shown, Level.HEADERS, _header_getter(selectors[0]))
        sel = self._selectors(name, spec.selects, selectors, fail)
        return self._use(shown, spec.level, _field_getter(name, sel, attribute))

    def _selectors(self, name: str, selects: str, given: Sequence[Union[int, str]],
                   fail: Callable[[str], QueryError]) -> _Selectors:
        players: List[Union[int, str]] = []
        colors: List[str] = []
        for s in given:
            if isinstance(s, int) and "p" in selects:
                if s not in (1, 2):
                    raise fail(f"{name}[{s}]: a player is 1 or 2 (or a name in quotes)")
                players.append(s - 1)
            elif isinstance(s, str) and s.isupper() and len(s) == 1 and "c" in selects \
                    and s in COLOR_LETTERS:
                colors.append(s)
            elif isinstance(s, str) and "p" in selects and not _is_bare(s):
                players.append(s)
            else:
                what = {"p": "a player (1, 2 or a name in quotes)", "c": "a colour letter",
                        "pc": "a player (1, 2 or a name in quotes) or a colour letter",
                        "": "no selector"}[selects]
                raise fail(f"{name}[{_shown(s)}]: {name} takes {what}")
        return _Selectors(tuple(players) if players else None,
                          tuple(colors) if colors else None)

    def _use(self, shown: str, level: Level, get: Getter) -> Operand:
        self.fields.append(shown)
        self.level = max(self.level, level)
        return Operand(get, None, level, shown)

    @staticmethod
    def literal(value: Literal) -> Operand:
        return Operand(None, value, Level.PLACE, None)


class _Bare(str):
    """A selector written without quotes (a colour letter)."""


def _is_bare(s: str) -> bool:
    return isinstance(s, _Bare)


def _shown(value: object) -> str:
    if isinstance(value, _Bare):
        return str(value)
    if isinstance(value, Regex):
        return value.text
    return json.dumps(value, ensure_ascii=False)


def _truth(a: Operand) -> Test:
    if a.get is None:
        value = _truthy(a.literal) if not isinstance(a.literal, Regex) else True
        return lambda view: value
    get = a.get
    return lambda view: any(_truthy(v) for v in get(view))


def _comparison(op: str, a: Operand, b: Operand) -> Test:
    if a.get is not None and b.get is None:
        get, literal = a.get, b.literal
        if op == "==" and isinstance(literal, str):  # the usual case, made quick
            return lambda view: literal in get(view)
        return lambda view: any(_compare(op, v, literal) for v in get(view))
    return lambda view: any(_compare(op, x, y) for x in a.values(view) for y in b.values(view))


def _membership(a: Operand, items: Sequence[Literal], negated: bool) -> Test:
    def member(view: GameView) -> bool:
        found = any(_compare("~" if isinstance(item, Regex) else "==", v, item)
                    for v in a.values(view) for item in items)
        return found != negated
    return member


def _all(tests: Sequence[Test]) -> Test:
    return lambda view: all(t(view) for t in tests)


def _any(tests: Sequence[Test]) -> Test:
    return lambda view: any(t(view) for t in tests)


def _negation(test: Test) -> Test:
    return lambda view: not test(view)


# ---------------------------------------------------------------- the text form

_local = threading.local()


def _lark() -> "Lark":
    parser = getattr(_local, "lark", None)
    if parser is None:
        from lark import Lark

        parser = _local.lark = Lark(grammar_text("query.lark"), parser="lalr",
                                    maybe_placeholders=False)
    return parser


_ESCAPES = re.compile(r"\\(.)")


def _string(token: str) -> str:
    return _ESCAPES.sub(lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
                        token[1:-1])


def _regex(text: str, fail: Callable[[str], QueryError]) -> Regex:
    body, _, flags = text[1:].rpartition("/")
    value = 0
    for f in flags:
        if f == "i":
            value |= re.IGNORECASE
        else:
            raise fail(f"{text}: the only flag of a regular expression is i (ignore case)")
    try:
        return Regex(re.compile(body.replace("\\/", "/"), value), text)
    except re.error as exc:
        raise fail(f"{text}: not a regular expression: {exc}") from None


def parse_query(text: str) -> Query:
    """Compile a query written in the language of spec/query.md.

    Raises :class:`QueryError` (with the column) for a query that cannot be read.
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    try:
        tree = _lark().parse(text)
    except UnexpectedToken as exc:
        expected = ", ".join(_expected(exc.expected))
        if exc.token.type == "$END":
            raise QueryError(f"the query ends here; expected {expected}",
                             len(text.rstrip()) + 1) from None
        raise QueryError(f"unexpected {str(exc.token)!r}; expected {expected}",
                         exc.column if isinstance(exc.column, int) and exc.column > 0
                         else len(text) + 1) from None
    except UnexpectedCharacters as exc:
        at = exc.pos_in_stream if exc.pos_in_stream is not None else len(text) - 1
        raise QueryError(f"unexpected {text[at:at + 1]!r}", exc.column) from None
    except UnexpectedEOF:
        raise QueryError("the query ends too soon", len(text) + 1) from None
    builder = _Builder()
    test = _TextCompiler(builder).node(tree.children[0])
    return Query(test, builder.level, tuple(builder.fields), text)


#: How the tokens a parse expects are named in messages, in the order named.
_EXPECTED = {"_NOT": "not", "LPAR": "(", "NAME": "a field", "STRING": "a value",
             "INT": "a value", "NUMBER": "a value", "REGEX": "a value", "TRUE": "a value",
             "FALSE": "a value", "NULL": "a value",
             "COMPARE": "a comparison (== != < <= > >= ~ !~)", "_IN": "in", "_AND": "and",
             "_OR": "or", "RPAR": ")", "LSQB": "[", "RSQB": "]", "COMMA": ",", "DOT": ".",
             "$END": "the end"}


def _expected(tokens: "Iterable[str]") -> List[str]:
    names = dict.fromkeys(_EXPECTED[t] for t in sorted(tokens, key=_rank) if t in _EXPECTED)
    return list(names) or ["something else"]


def _rank(token: str) -> int:
    return list(_EXPECTED).index(token) if token in _EXPECTED else len(_EXPECTED)


class _TextCompiler:
    def __init__(self, builder: _Builder, json_path: Optional[str] = None) -> None:
        self.builder = builder
        self.json_path = json_path

    def fail_at(self, column: Optional[int]) -> Callable[[str], QueryError]:
        if self.json_path is not None:
            path = self.json_path
            return lambda message: QueryError(message, json_path=path)
        return lambda message: QueryError(message, column)

    def node(self, tree: "Union[Tree[Token], Token]") -> Test:
        from lark import Tree

        assert isinstance(tree, Tree)
        kind = tree.data
        kids = tree.children
        if kind == "either":
            return _any([self.node(k) for k in kids])
        if kind == "both":
            return _all([self.node(k) for k in kids])
        if kind == "negation":
            return _negation(self.node(kids[0]))
        if kind == "truth":
            return _truth(self.operand(kids[0]))
        if kind == "compare":
            return _comparison(str(kids[1]), self.operand(kids[0]), self.operand(kids[2]))
        if kind in ("member", "not_member"):
            items = [self.literal(k) for k in kids[1].children]  # type: ignore[union-attr]
            return _membership(self.operand(kids[0]), items, kind == "not_member")
        raise AssertionError(kind)  # pragma: no cover

    def operand(self, node: "Union[Tree[Token], Token]") -> Operand:
        from lark import Token, Tree

        if isinstance(node, Token):
            return self.builder.literal(self.literal(node))
        assert isinstance(node, Tree) and node.data == "field"
        name_token = node.children[0]
        assert isinstance(name_token, Token)
        selectors: List[Union[int, str]] = []
        attribute: Optional[str] = None
        for part in node.children[1:]:
            assert isinstance(part, Tree)
            if part.data == "selectors":
                for s in part.children:
                    assert isinstance(s, Token)
                    selectors.append(int(s) if s.type == "INT" else _string(s)
                                     if s.type == "STRING" else _Bare(s))
            else:
                attribute = str(part.children[0])
        return self.builder.field(str(name_token), selectors, attribute,
                                  self.fail_at(name_token.column))

    def literal(self, token: "Union[Tree[Token], Token]") -> Literal:
        from lark import Token

        assert isinstance(token, Token)
        kind = token.type
        if kind == "STRING":
            return _string(token)
        if kind == "INT":
            return int(token)
        if kind == "NUMBER":
            return float(token)
        if kind == "REGEX":
            return _regex(str(token), self.fail_at(token.column))
        return {"TRUE": True, "FALSE": False, "NULL": None}[kind]


# ---------------------------------------------------------------- the JSON form

_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "~", "!~")


def query_from_json(data: Any, *, text: Optional[str] = None) -> Query:
    """Compile a query in the JSON form of spec/query.md (a decoded JSON value).

    Raises :class:`QueryError` (with the JSON path) for a query of the wrong shape.
    """
    builder = _Builder()
    test = _JsonCompiler(builder).query(data, "$")
    return Query(test, builder.level, tuple(builder.fields),
                 text if text is not None else json.dumps(data, ensure_ascii=False))


class _JsonCompiler:
    def __init__(self, builder: _Builder) -> None:
        self.builder = builder

    def query(self, data: Any, at: str) -> Test:
        if isinstance(data, dict) and "field" in data:
            return _truth(self.operand(data, at))
        if not isinstance(data, dict) or len(data) != 1:
            raise QueryError("expected a query: an object of one operator (and, or, not, "
                             "==, !=, <, <=, >, >=, ~, !~, in, not in) or a field",
                             json_path=at)
        ((op, args),) = data.items()
        where = f"{at}.{op}" if op.isidentifier() else f"{at}[{json.dumps(op)}]"
        if op in ("and", "or"):
            if not isinstance(args, list) or not args:
                raise QueryError(f"{op} takes an array of queries", json_path=where)
            tests = [self.query(q, f"{where}[{i}]") for i, q in enumerate(args)]
            return _all(tests) if op == "and" else _any(tests)
        if op == "not":
            return _negation(self.query(args, where))
        if op in _COMPARISONS or op in ("in", "not in"):
            if not isinstance(args, list) or len(args) != 2:
                raise QueryError(f"{op} takes an array of two operands", json_path=where)
            left = self.operand(args[0], f"{where}[0]")
            if op in ("in", "not in"):
                if not isinstance(args[1], list):
                    raise QueryError("in takes an array of values", json_path=f"{where}[1]")
                items = [self.literal(v, f"{where}[1][{i}]") for i, v in enumerate(args[1])]
                return _membership(left, items, op == "not in")
            return _comparison(op, left, self.operand(args[1], f"{where}[1]"))
        raise QueryError(f"unknown operator {op!r}", json_path=at)

    def operand(self, data: Any, at: str) -> Operand:
        fail: Callable[[str], QueryError] = lambda m: QueryError(m, json_path=at)
        if isinstance(data, dict) and set(data) == {"header"}:
            if not isinstance(data["header"], str):
                raise fail("header is the name of a header")
            return self.builder.field("header", [data["header"]], None, fail)
        if not (isinstance(data, dict) and "field" in data):
            return self.builder.literal(self.literal(data, at))
        extra = set(data) - {"field", "player", "color", "attribute"}
        if extra:
            raise fail(f"unknown key {sorted(extra)[0]!r} in a field")
        name = data["field"]
        if not isinstance(name, str) or not name:
            raise fail("field is the name of a field or header")
        attribute = data.get("attribute")
        if attribute is not None and not isinstance(attribute, str):
            raise QueryError("attribute is a name", json_path=f"{at}.attribute")
        if any(c in name for c in "[]."):  # the text form of a field: read it so
            if set(data) != {"field"}:
                raise fail("a field written with brackets or a dot takes no player, "
                           "color or attribute key")
            try:
                test = _lark().parse(name).children[0]
            except Exception:
                raise fail(f"{name!r} is not a field") from None
            field = getattr(test, "children", [None])[0]
            if getattr(test, "data", "") != "truth" or getattr(field, "data", "") != "field":
                raise fail(f"{name!r} is not a field")
            return _TextCompiler(self.builder, at).operand(field)
        selectors: List[Union[int, str]] = []
        for key in ("player", "color"):
            if key not in data:
                continue
            values = data[key] if isinstance(data[key], list) else [data[key]]
            for v in values:
                if key == "color" and isinstance(v, str):
                    selectors.append(_Bare(v))
                elif key == "player" and isinstance(v, (int, str)) and not isinstance(v, bool):
                    selectors.append(v)
                else:
                    raise QueryError(f"a {key} is " + ("a colour letter" if key == "color"
                                                       else "1, 2 or a name"),
                                     json_path=f"{at}.{key}")
        return self.builder.field(name, selectors, attribute, fail)

    def literal(self, data: Any, at: str) -> Literal:
        if isinstance(data, dict) and set(data) <= {"regex", "flags"} and "regex" in data:
            flags = data.get("flags", "")
            if not isinstance(data["regex"], str) or not isinstance(flags, str):
                raise QueryError("regex and flags are strings", json_path=at)
            return _regex("/" + data["regex"].replace("/", "\\/") + "/" + flags,
                          lambda m: QueryError(m, json_path=at))
        if data is None or isinstance(data, (str, bool, int, float)):
            return data
        raise QueryError("expected a value: a string, a number, true, false, null or "
                         '{"regex": "..."}', json_path=at)


def compile_query(query: str) -> Query:
    """A query in either form: JSON when it starts with ``{``, else the text form."""
    if query.lstrip().startswith("{"):
        try:
            data = json.loads(query)
        except json.JSONDecodeError as exc:
            raise QueryError(f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
                             ) from None
        return query_from_json(data, text=query)
    return parse_query(query)
