"""Linting an open document again after each change, game by game.

The linter itself is :func:`lcnotation.tools.lint.lint_game`; this module
only remembers its results.  A document is split into its games (as the
linter splits a file); a game whose text, and whose style state on entry
(the file's first discard marker), are those of a game linted before gets
that game's findings back, moved to where the game now stands.  So after a
keystroke only the game that changed is read and checked again.

A game longer than :data:`GAME_LIMIT` characters is not read at all (its
part is in :attr:`Analysis.unread`): a real game is a few hundred
characters, and reading two megabytes of junk as one game takes two minutes,
which an editor would wait for at each keystroke.  ``lcn lint`` reads it.

>>> linter = Linter()
>>> doc = linter.lint('[Round "1"]\\n1. R3-D 2. r11-d\\n')
>>> [(f.diagnostic.code, f.diagnostic.line) for f in doc.findings]
[('R110', 2), ('N103', 2)]
>>> doc = linter.lint('[Round "0"]\\n1. G4-D\\n\\n' + doc.text)
>>> [(f.diagnostic.code, f.diagnostic.line) for f in doc.findings], linter.linted
([('R110', 2), ('R110', 5), ('N103', 5)], 2)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace
from typing import Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..lostcities.text.ast import Comment, Game, Span
from ..core.diagnostics import NotationError
from ..core.lineends import lone_cr_as_lf
from ..lostcities.text.reader import GameText, split_games
from ..core.lint import FileReport, LintConfig
from ..core.notation import Notation
from ..lostcities.game.checker import check
from ..lostcities.game.matches import Matches
from ..lostcities.game.scoring import GameScore
from ..lostcities.lint import add_text_findings, lint_game, style_state
from ..core.findings import Edit, Finding, Fix

__all__ = ["GamePart", "Analysis", "Linter", "GAME_LIMIT", "Scored", "score_labels"]

#: The longest game (in characters) the server reads; a longer one is left
#: unread, and said so.  A real game is under 1,000 characters, 10,000 with
#: long comments; reading 32 KB of the worst text (a syntax error a word)
#: takes about 3 seconds here.
GAME_LIMIT = 32_768


class GamePart:
    """One game of a document: where its text starts, its tree and findings,
    all in the document's positions (a tree linted elsewhere is moved here
    when first asked for: most games of a long document are never looked at)."""

    __slots__ = ("text", "line", "offset", "findings", "_linted", "_game")

    def __init__(self, part: GameText, linted: "_Linted") -> None:
        self.text, self.line, self.offset = part.text, part.line, part.offset
        self._linted = linted
        lines, chars = part.line - linted.line, part.offset - linted.offset
        self.findings = linted.findings if not (lines or chars) else tuple(
            _moved(f, lines, chars) for f in linted.findings)
        self._game: Optional[Game] = None if lines or chars else linted.game

    @property
    def end(self) -> int:
        return self.offset + len(self.text)

    @property
    def game(self) -> Game:
        if self._game is None:
            linted = self._linted
            self._game = _moved_game(linted.game, self.line - linted.line,
                                     self.offset - linted.offset)
        return self._game


@dataclass(frozen=True)
class Analysis:
    """A linted document: its games, and every finding in order (those of the
    games, and those about the whole text such as S107)."""

    text: str
    games: Tuple[GamePart, ...]
    findings: List[Finding]
    #: The games longer than :data:`GAME_LIMIT`, not read.
    unread: Tuple[GamePart, ...] = ()

    def game_at(self, offset: int) -> Optional[GamePart]:
        """The game whose text holds ``offset`` (the last game for the end)."""
        lo, hi = 0, len(self.games)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.games[mid].offset <= offset:
                lo = mid + 1
            else:
                hi = mid
        return self.games[lo - 1] if lo else None


class _Linted(NamedTuple):
    """A game as linted where it stood then: its tree, findings, the discard
    marker it left the file's style state with, and where it stood."""

    game: Game
    findings: Tuple[Finding, ...]
    marker: Optional[str]
    line: int
    offset: int
    #: Whether a message names a line ("first on line 3"): then the results
    #: hold only where the game stood.
    names_lines: bool


class Linter:
    """Lints the versions of one document, reusing what it linted before."""

    def __init__(self, config: Optional[LintConfig] = None) -> None:
        self.config = config or LintConfig()
        self._seen: Dict[Tuple[str, Optional[str]], _Linted] = {}
        #: How many games were read and checked (not reused) so far.
        self.linted = 0
        #: The games of the text linted last, and its length.
        self._parts: List[GameText] = []
        self._length = -1

    def lint(self, text: str, unchanged: Optional[Tuple[int, int]] = None) -> Analysis:
        """Lint ``text`` (the whole document), as ``lint_text`` would.

        ``unchanged`` says how many characters at the start and at the end of
        ``text`` are those of the text linted last (the server knows it from
        the edits): then only the games between are split out again.
        """
        style = style_state(self.config)
        seen: Dict[Tuple[str, Optional[str]], _Linted] = {}
        games: List[GamePart] = []
        unread: List[GamePart] = []
        split = self._split(text, unchanged)
        self._parts, self._length = split, len(text)
        for part in split:
            key = (part.text, style.marker)
            done = self._seen.get(key)
            if len(part.text) > GAME_LIMIT:
                done = _Linted(Game(), (), style.marker, part.line, part.offset, False)
                unread.append(GamePart(part, done))
            elif done is None or (done.names_lines and done.line != part.line):
                game, found = lint_game(part, style, self.config, None)
                done = _Linted(game, tuple(found), style.marker, part.line, part.offset,
                               any("line" in f.diagnostic.message for f in found))
                self.linted += 1
            seen[key] = done
            style.marker = done.marker
            games.append(GamePart(part, done))
        self._seen = seen
        report = FileReport("", [f for g in games for f in g.findings])
        add_text_findings(report, text, self.config)
        findings = [f if f.diagnostic.path is None else
                    Finding(f.diagnostic.with_path(None), f.fix) for f in report.findings]
        return Analysis(text, tuple(games), findings, tuple(unread))


    def _split(self, text: str, unchanged: Optional[Tuple[int, int]]) -> List[GameText]:
        """The games of ``text``: split again only from the game before the
        first changed character, up to the first game that starts where an
        old one did in the unchanged end (a game starts afresh: the rest is
        the old games, moved)."""
        old = self._parts
        if unchanged is None or not old or self._length < 0:
            return list(split_games([lone_cr_as_lf(text)]))
        prefix, suffix = unchanged
        delta = len(text) - self._length
        starts = [p.offset for p in old]
        k = max(0, bisect_right(starts, prefix) - 2)  # the game before the changed one
        out = old[:k]
        first = old[k]
        kept_from = len(text) - suffix  # where the unchanged end starts
        for part in split_games(_blocks(text, first.offset), first.line, first.offset):
            if part.offset >= kept_from and part.offset > first.offset:
                j = bisect_left(starts, part.offset - delta)
                if j < len(old) and starts[j] == part.offset - delta:
                    lines = part.line - old[j].line
                    out.extend(GameText(p.text, p.line + lines, p.offset + delta, p.problems)
                               for p in old[j:])
                    return out
            out.append(part)
        return out


def _blocks(text: str, start: int, size: int = 1 << 14) -> Iterator[str]:
    """``text`` from ``start`` in pieces that end at line ends (lone CRs as
    LF), read as far as the splitting goes."""
    end = len(text)
    while start < end:
        cut = text.find("\n", min(start + size, end))
        stop = end if cut < 0 else cut + 1
        yield lone_cr_as_lf(text[start:stop])
        start = stop


def _span(s: Span, lines: int, chars: int) -> Span:
    return Span(s.line + lines, s.column, s.end_line + lines, s.end_column,
                s.start + chars, s.end + chars)


def _moved(f: Finding, lines: int, chars: int) -> Finding:
    d = f.diagnostic
    fix = f.fix
    if fix is not None:
        fix = Fix(fix.description, tuple(Edit(e.start + chars, e.end + chars, e.replacement)
                                         for e in fix.edits))
    return Finding(replace(d, span=_span(d.span, lines, chars)), fix)


def _moved_game(game: Game, lines: int, chars: int) -> Game:
    """``game`` with every span moved down ``lines`` lines and on ``chars`` characters."""

    def sp(s: Span) -> Span:
        return _span(s, lines, chars) if s.known else s

    def comments(cs: Tuple[Comment, ...]) -> Tuple[Comment, ...]:
        return tuple(c._replace(span=sp(c.span)) for c in cs)

    return game._replace(
        headers=tuple(h._replace(span=sp(h.span), value_span=sp(h.value_span),
                                 comments=comments(h.comments)) for h in game.headers),
        moves=tuple(m._replace(span=sp(m.span), comments=comments(m.comments))
                    for m in game.moves),
        comments=comments(game.comments),
        errors=tuple(_moved_error(e, lines, chars) for e in game.errors),
        span=sp(game.span))


def _moved_error(e: NotationError, lines: int, chars: int) -> NotationError:
    return NotationError(e.message, _span(e.span, lines, chars), code=e.code, path=e.path)


#: Each game's score and how many errors it has, by its text and the default
#: colours (what the inlay hints remember of a document).
Scored = Dict[Tuple[str, Tuple[str, ...]], Tuple[GameScore, int]]


def score_labels(games: Sequence[GamePart], colors: Tuple[str, ...], cache: Scored,
                 end: int) -> Iterator[Tuple[int, str]]:
    """The score hint of each game that starts before ``end``, as (offset of
    the end of its last move, label): its score, "(so far)" for an incomplete
    game, "(not a result)" for one with errors, and once its match holds two
    results, the match's totals so far, added up by
    :class:`~lcnotation.lostcities.game.matches.Matches` as ``lcn score`` adds
    them (a match: the games of one Event; only results count).
    ``cache`` keeps each game's check from one call to the next."""
    matches = Matches()
    for part in games:
        if part.offset > end:
            break
        game = part.game
        if not game.moves:
            continue
        key = (part.text, colors)
        found = cache.get(key)
        if found is None:
            if len(cache) > 10_000:
                cache.clear()
            report = check(game, default_colors=colors)
            found = cache[key] = (report.score, len(report.errors))
        result, errors = found
        match = matches.add(game, result, errors)
        last = game.moves[-1].span
        if last is None:
            continue
        a, b = result.totals
        label = f"{result.players[0]} {a} : {b} {result.players[1]}"
        if not result.complete:
            label += " (so far)"
        if errors:
            label += " (not a result)"
        if match is not None and match.games > 1:
            label += " · match " + ", ".join(f"{n} {t}" for n, t in match.totals.items())
        yield last.end, label


def parts(text: str) -> Iterator[GameText]:
    """The games of ``text`` as the linter splits them."""
    return split_games([lone_cr_as_lf(text)])


class NotationLinter:
    """Lints a document of a notation read whole (FreeCell, and any registered
    one), through its :class:`~lcnotation.core.notation.Notation`: an analysis
    with no games, only findings (a record is a few lines long)."""

    def __init__(self, notation: Notation, config: Optional[LintConfig] = None) -> None:
        self.notation = notation
        self.config = config or LintConfig()
        self.linted = 0

    def lint(self, text: str, unchanged: Optional[Tuple[int, int]] = None) -> Analysis:
        self.linted += 1
        report = self.notation.lint_text(text, "", self.config)
        findings = [f if f.diagnostic.path is None else
                    Finding(f.diagnostic.with_path(None), f.fix) for f in report.findings]
        return Analysis(text, (), findings)
