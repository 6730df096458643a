"""Lost Cities as the common tools see it: the :class:`~lcnotation.core.notation.Notation`
of Lost Cities Standard Notation (files ``*.lcn``).

Its files may hold a million games, so it is also :class:`~lcnotation.core.notation.Streaming`:
lint, fix and fmt read them a game at a time.

>>> report = NOTATION.lint_text("1. R3-D 2. r4-d", "a.lcn", LintConfig())
>>> [d.code for d in report.diagnostics]
['S102', 'R110']
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import IO, Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from ..core.codes import Family
from ..core.findings import Edit, Finding
from ..core.lint import FileReport, FixResult, LintConfig
from ..core.notation import Formatted, Hover, Progress, Streamed, Symbol
from ..core.suppression import find_suppression, suppression_comment
from . import lint
from .game.codes import RULES
from .reformat import format_source, format_stream, format_stream_parallel
from .style import STYLE
from .text.ast import Comment, Game
from .text.reader import GameText, line_blocks, parse_part, split_games

__all__ = ["LostCitiesNotation", "NOTATION", "game_symbol", "ignore_edit_in"]


class LostCitiesNotation:
    """Lost Cities Standard Notation, for lint, fmt, the server and the command line."""

    name = "lostcities"
    title = "Lost Cities"
    extensions: Tuple[str, ...] = (".lcn",)
    language_id = "lcn"
    families: Tuple[Family, ...] = lint.FAMILIES
    formats: Tuple[str, ...] = ("chikinn", "metapyziks")
    #: S100 (a suppression that silences nothing) and S107 (the file mixes
    #: line ends, a finding about the whole file) are silenced by no comment.
    unsuppressible: FrozenSet[str] = frozenset({"S100", "S107"})

    def lint_text(self, text: str, path: str, config: LintConfig) -> FileReport:
        return lint.lint_text(text, path, config)

    def lint_stream(self, handle: IO[bytes], path: str, config: LintConfig,
                    progress: Progress = None) -> FileReport:
        return lint.lint_stream(handle, path, config, progress)

    def lint_stream_emitting(self, handle: IO[bytes], path: str, config: LintConfig,
                             emit: Callable[[List[Finding]], object],
                             progress: Progress = None) -> FileReport:
        return lint.lint_stream_emitting(handle, path, config, emit, progress)

    def lint_stream_parallel(self, handle: IO[bytes], path: str, config: LintConfig,
                             jobs: int, emit: Callable[[List[Finding]], object],
                             progress: Progress = None) -> FileReport:
        from .parallel import lint_stream_parallel  # only with -j

        return lint_stream_parallel(handle, path, config, jobs, emit, progress)

    def fix_text(self, text: str, path: str, config: LintConfig,
                 report: Optional[FileReport] = None) -> Tuple[str, int, FileReport]:
        return lint.fix_text(text, path, config, report)

    def format_text(self, text: str, path: str, config: LintConfig,
                    force: bool = False) -> Formatted:
        return format_source(text, path, config.dialect, force)

    def format_stream(self, handle: IO[bytes], path: str, config: LintConfig, force: bool,
                      write: Optional[Callable[[bytes], object]] = None) -> Streamed:
        return format_stream(handle, path, config.dialect, force, write)

    def format_stream_parallel(self, handle: IO[bytes], path: str, config: LintConfig,
                               force: bool, jobs: int,
                               write: Optional[Callable[[bytes], object]] = None) -> Streamed:
        return format_stream_parallel(handle, path, config.dialect, force, jobs, write)

    def fix_stream(self, handle: IO[bytes], path: str, config: LintConfig,
                   write: Callable[[str], object]) -> FixResult:
        return lint.fix_blocks(line_blocks(handle), path, config, write)

    def describe(self, text: str, offset: int, config: LintConfig) -> Optional[Hover]:
        from .describe import describe_move  # the game state, only to describe a move

        part = _part_at(text, offset)
        if part is None:
            return None
        game = parse_part(part, False, None)
        for i, move in enumerate(game.moves):
            s = move.span
            if s.start <= offset < s.end:
                return Hover(describe_move(game, i, lint.colors_of(config)), s.start, s.end)
        return None

    def symbols(self, text: str) -> List[Symbol]:
        out: List[Symbol] = []
        for part in split_games([text]):
            if part.text.strip():
                out.append(game_symbol(len(out) + 1, parse_part(part, False, None), part))
        return out

    def ignore_edit(self, text: str, line: int, code: str) -> Optional[Edit]:
        starts = _line_starts(text)
        if not 1 <= line <= len(starts) or code in self.unsuppressible:
            return None
        start = starts[line - 1]
        end = starts[line] - 1 if line < len(starts) else len(text)
        part = _part_at(text, start)
        if part is None:
            return None
        game = parse_part(part, False, None)
        return ignore_edit_in(text, part, lint.all_comments(game), line, start, end, code)

    def ignore_edits(self, text: str, codes: Mapping[int, Sequence[str]]) -> Dict[int, Edit]:
        starts = _line_starts(text)
        wanted = {line: [c for c in cs if c not in self.unsuppressible]
                  for line, cs in codes.items() if 1 <= line <= len(starts)}
        edits: Dict[int, Edit] = {}
        ordered = sorted(n for n, cs in wanted.items() if cs)
        if not ordered:
            return edits
        for part in split_games([text]):
            last = part.line + part.text.count("\n")
            lines = ordered[bisect_left(ordered, part.line):bisect_right(ordered, last)]
            if not lines:
                continue
            # Without a ';' or a '{' the game has no comment: no tree is needed.
            comments = (list(lint.all_comments(parse_part(part, False, None)))
                        if ";" in part.text or "{" in part.text else [])
            for line in lines:
                start = starts[line - 1]
                end = starts[line] - 1 if line < len(starts) else len(text)
                edit = ignore_edit_in(text, part, comments, line, start, end,
                                      ", ".join(wanted[line]))
                if edit is not None:
                    edits[line] = edit
        return edits


def _part_at(text: str, offset: int) -> Optional[GameText]:
    for part in split_games([text]):
        if part.offset <= offset < part.offset + len(part.text):
            return part
    return None


def _line_starts(text: str) -> List[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def game_symbol(number: int, game: Game, part: GameText) -> Symbol:
    """The outline entry of game ``number`` (from 1) of a file: its players,
    result or moves, and its headers."""
    p1, p2 = game.header("Player1") or "Player 1", game.header("Player2") or "Player 2"
    result = game.header("Result")
    whole = game.span._replace(start=part.offset, end=part.offset + len(part.text.rstrip()))
    return Symbol(f"Game {number}: {p1} v {p2}",
                  f"result {result}" if result else f"{len(game.moves)} moves", "game", whole,
                  tuple(Symbol(h.name, h.value, "header", h.span)
                        for h in game.headers if h.span.known))


def ignore_edit_in(text: str, part: GameText, comments: Iterable[Comment], line: int,
                   start: int, end: int, code: str) -> Optional[Edit]:
    """The edit that adds ``code`` (or several, comma-separated) to the
    ``lcn: ignore[...]`` comment of ``line`` (``text[start:end]``, in the game
    ``part``), or writes one at its end.

    None where no comment can silence the finding: a line of another game (a
    game without moves reports its end there), a blank line (a comment there
    would move the game's end, and the finding with it), or a line that ends
    inside a comment.
    """
    if not text[start:end].strip() or start < part.offset or end > part.offset + len(part.text):
        return None
    for c in comments:
        s = c.span
        if not s.known:
            continue
        if s.start < end < s.end:
            return None  # the line ends inside a comment: nothing can be added there
        if s.line == line:
            # the comment's text starts one character after the comment
            found = find_suppression(c.text, s.start + 1, s.line, s)
            if found is not None and found.close is not None:
                return Edit(found.close, found.close, (", " if found.named else "") + code)
    gap = "" if text[end - 1] in " \t" else " "
    return Edit(end, end, f"{gap}; {suppression_comment(code)}")


#: The notation object the registry holds.
NOTATION = LostCitiesNotation()
