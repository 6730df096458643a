"""Linting Lost Cities records: syntax, rules and style findings, streamed game by game.

This is what ``lcn lint`` runs on a Lost Cities file (through
:mod:`lcnotation.tools.lint`, which picks the notation); the language server
lints a game at a time with :func:`lint_game`.

>>> report = lint_text("1. R3-D 2. r11-d 3. R2-D", path="demo.lcn")
>>> [(d.code, d.line, d.column) for d in report.diagnostics]
[('N103', 1, 13), ('R101', 1, 21), ('R110', 1, 25)]
"""

from __future__ import annotations

import dataclasses
import io
import os
import stat
from itertools import chain
from typing import IO, Callable, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

from . import accel
from ..core.files import BOM
from ..core.findings import Finding, fix_loop
from ..core.lineends import CountingReader, ProgressReader, as_lf, lone_cr_as_lf, newline_style
from ..core.lint import FileReport, FixResult, LintConfig
from ..core.suppression import MARK, Suppression, apply_suppressions, find_suppression, warning
from .fused import clean_moves, may_be_clean, moved_on
from .game.checker import check
from .game.codes import RULES
from .style import STYLE, StyleState, check_style, mixed_line_ends
from .text.ast import Comment, Game
from .text.dialects import get_dialect
from .text.headers import DEFAULT_COLORS
from .text.messages import SYNTAX
from .text.reader import (GameText, Piece, chars_read, decoded_blocks, holds_moves_in,
                          line_blocks, parse_part, split_games)

__all__ = ["FAMILIES", "FixResult", "lint_text", "lint_stream", "lint_stream_emitting", "lint_piece",
           "lint_blocks", "scanned_parts", "CleanRun", "fix_blocks", "line_end_finding", "line_end_finding_ahead", "Placing",
           "lint_lines", "lint_game", "style_state", "add_text_findings", "fix_text", "fix_stream",
           "all_comments", "suppressions", "colors_of", "add_line_ends"]


def lint_text(text: str, path: str = "<string>", config: Optional[LintConfig] = None, *,
              fused: bool = True) -> FileReport:
    """Lint the text of a record (one game or more); ``fused`` as for :func:`lint_lines`."""
    report = lint_lines([lone_cr_as_lf(text)], path, config, fused=fused)
    add_text_findings(report, text, config or LintConfig())
    return report


def add_text_findings(report: FileReport, text: str, config: LintConfig) -> None:
    """Add to the report of ``text`` the findings about the text as a whole
    (S107, mixed line ends), in their place."""
    if "\r" in text:  # it may mix line ends (S107)
        counted = CountingReader(io.BytesIO(text.encode("utf-8", "surrogatepass")))
        while counted.read(1 << 20):
            pass
        add_line_ends(report, counted, config)


def lint_stream(handle: IO[bytes], path: str, config: Optional[LintConfig] = None,
                progress: Optional[Callable[[int], None]] = None) -> FileReport:
    """Lint a binary stream (a file, standard input) named ``path``, as a stream.

    Besides what :func:`lint_lines` finds, a file that mixes line ends gets S107.
    A file that stops being readable, or a game beyond the reader's bound,
    raises OSError; a game too large for memory makes the report
    ``unreadable``.
    """
    config = config or LintConfig()
    count = accel.line_end_counter()
    counted = CountingReader(handle, progress, count)
    report = FileReport(path)
    try:
        lint_blocks(line_blocks(counted, line_ends=count), path, config,  # type: ignore[arg-type]
                    report, report.findings.extend)
    except MemoryError:
        return FileReport(path, unreadable="out of memory")
    add_line_ends(report, counted, config)
    return report


def add_line_ends(report: FileReport, counted: CountingReader, config: LintConfig) -> None:
    """Add S107, in its place, when the text ``counted`` read mixes line ends."""
    mixed = mixed_line_ends(counted)
    if mixed is not None and config.wants(mixed.diagnostic.code):
        line = mixed.diagnostic.line
        at = next((i for i, f in enumerate(report.findings)
                   if (f.diagnostic.line, f.diagnostic.column) > (line, 1)),
                  len(report.findings))
        report.findings.insert(at, Finding(mixed.diagnostic.with_path(report.path), mixed.fix))


def lint_lines(lines: Iterable[Piece], path: str,
               config: Optional[LintConfig] = None, *, fused: bool = True) -> FileReport:
    """Lint a stream of lines (as read by the reader) of the file ``path``.

    A game with nothing to report is checked straight from its text, without
    a tree (:func:`lcnotation.lostcities.fused.clean_moves`); ``fused=False``
    builds every game's tree (the report is the same, only slower: tests
    compare the two).
    """
    report = FileReport(path)
    _lint_parts(split_games(lines), path, config or LintConfig(), report,
                report.findings.extend, fused)
    return report


def _lint_parts(parts: Iterable[Union[GameText, CleanRun]], path: str, config: LintConfig,
                report: FileReport, emit: Callable[[List[Finding]], object],
                fused: bool = True, style: Optional[StyleState] = None) -> StyleState:
    """Lint ``parts``, adding their games and moves to ``report`` and giving
    each game's findings (when it has any) to ``emit``; the style state it
    ends with (``style``: the one it starts from, else the file's first)."""
    style = style if style is not None else style_state(config)
    colors = colors_of(config)
    for part in parts:
        if isinstance(part, CleanRun):  # checked by the accelerator's scan
            report.games += part.games
            report.moves += part.moves
            continue
        report.games += 1
        # A clean game is checked straight from the scan (no tree); one with
        # anything to report goes the tree path, which says what.
        moves = clean_moves(part, style, colors) if fused else None
        if moves is not None:
            report.moves += moves
            continue
        game, findings = lint_game(part, style, config, path)
        report.moves += len(game.moves)
        if findings:
            emit(findings)
    return style


def lint_piece(raw: bytes, at: Tuple[int, int, int], path: str, config: LintConfig,
               marker: Optional[str] = None) -> Tuple[FileReport, Optional[str]]:
    """Lint a piece of a file, its bytes ``raw`` (whole lines), that starts at
    a game boundary ``at`` (as for :func:`lint_blocks`), as if the games
    before it had left the file's first discard marker ``marker``: its report
    (findings kept) and the marker it leaves."""
    report = FileReport(path)
    style = style_state(config)
    if style.marker is None:
        style.marker = marker
    style = lint_blocks((raw,), path, config, report, report.findings.extend, style, at)
    return report, style.marker


#: A game's text longer than this, in bytes, still unfinished, sends the rest
#: of the file the Python way (its games are read as the reader reads them;
#: the compiled scan would read the game again with each block).
_LONGEST_SCANNED = 1 << 20


def lint_blocks(blocks: Iterable[bytes], path: str, config: LintConfig, report: FileReport,
                emit: Callable[[List[Finding]], object], style: Optional[StyleState] = None,
                at: Tuple[int, int, int] = (0, 1, 0)) -> StyleState:
    """Lint a file read as blocks of whole lines (as
    :func:`~lcnotation.lostcities.text.reader.line_blocks` reads them) from a
    game's start ``at`` (see :func:`scanned_parts`), as :func:`lint_lines`
    lints the decoded text (``report`` and ``emit`` as for
    :func:`_lint_parts`); the style state it ends with."""
    style = style if style is not None else style_state(config)
    return _lint_parts(scanned_parts(blocks, config, style, at), path, config, report, emit,
                       True, style)


class CleanRun(NamedTuple):
    """Games of a file that the accelerator's scan called clean, one after
    another: how many, their moves, and their bytes (whole lines,
    ``data[start:end]``)."""

    games: int
    moves: int
    data: bytes
    start: int
    end: int

    def text(self) -> str:
        """The games' text as the reader gives it (LF line ends)."""
        return as_lf(self.data[self.start:self.end].decode("utf-8"))


def scanned_parts(blocks: Iterable[bytes], config: LintConfig, style: StyleState,
                  at: Tuple[int, int, int] = (0, 1, 0)) -> Iterator[Union[GameText, CleanRun]]:
    """The games of a file read as blocks of whole lines, from a game's start
    ``at``: its byte, and its line and character as the reader counts them
    (``(0, 1, 0)``: the start of the file, whose byte-order mark is skipped);
    as :func:`~lcnotation.lostcities.text.reader.split_games` gives them from
    the decoded text, but with runs of clean games as :class:`CleanRun`.

    Where the C accelerator is built (:func:`~lcnotation.lostcities.accel.scanner`),
    its scan splits the bytes into games and checks them as long as they are
    clean, without Python touching their lines; ``style`` (the file's style
    state, which the caller moves on with each game it is given) is moved on
    past each run.  The first game the scan does not call clean is decoded
    here and given as a :class:`GameText`, as is every game where no game can
    be called clean (:func:`~lcnotation.lostcities.fused.may_be_clean`), and
    every game after one longer than :data:`_LONGEST_SCANNED` bytes.
    """
    offset, line, chars = at
    scan = accel.scanner()
    blocks = iter(blocks)
    if scan is None or not may_be_clean(style):
        yield from split_games(decoded_blocks(blocks, offset, chars, line), line, chars)
        return
    colors = colors_of(config)
    count = accel.line_end_counter()
    tail = b""  # an unfinished game, from byte offset
    final = False
    while not final:
        block = next(blocks, None)
        final = block is None
        if block is None:
            data = tail
        else:
            if not offset and not tail and block.startswith(BOM):
                block, offset = block[len(BOM):], len(BOM)
            data = tail + block if tail else block
        pos = 0
        while pos < len(data):
            if not may_be_clean(style):  # the file's discards turned out to be marked X
                rest = decoded_blocks(chain((data[pos:],), blocks), offset + pos, chars, line)
                yield from split_games(rest, line, chars)
                return
            end, games, moves, discarded, lines, read, after = scan(data, pos, final, colors,
                                                                    holds_moves_in)
            if games:
                moved_on(style, discarded)
                yield CleanRun(games, moves, data, pos, end)
                line += lines
                chars += read
                pos = end
            if after <= pos:
                break  # done, or the game at pos goes on past the data
            # A game the scan does not call clean: the Python way says what.
            raw = data[pos:after]
            yield from split_games(decoded_blocks((raw,), offset + pos, chars, line), line, chars)
            line += sum(count(raw))
            chars += chars_read(raw)
            pos = after
        tail = data[pos:]
        offset += pos
        if len(tail) > _LONGEST_SCANNED:
            rest = decoded_blocks(chain((tail,), blocks), offset, chars, line)
            yield from split_games(rest, line, chars)
            return


def lint_stream_emitting(handle: IO[bytes], path: str, config: Optional[LintConfig],
                         emit: Callable[[List[Finding]], object],
                         progress: Optional[Callable[[int], None]] = None) -> FileReport:
    """As :func:`lint_stream`, but each game's findings go to ``emit`` as they
    are found, in the order of the file, instead of into the report (which
    keeps the counts of games and moves): memory holds one game's findings.

    S107 (a file that mixes line ends) is known only once every line end is
    counted: a regular file is first read for its line ends alone, so that
    S107 is given in its place; another stream (a pipe, standard input)
    keeps its findings and gives them at its end.
    """
    config = config or LintConfig()
    try:  # a regular file: a device such as /dev/zero may seek, but never ends
        regular = stat.S_ISREG(os.fstat(handle.fileno()).st_mode) and handle.seekable()
    except (OSError, AttributeError, io.UnsupportedOperation):
        regular = False
    if not regular:
        report = lint_stream(handle, path, config, progress)
        if report.findings:
            emit(report.findings)
        report.findings = []
        return report
    place = Placing(line_end_finding_ahead(handle, config, path), emit)
    report = FileReport(path)
    try:
        lint_blocks(line_blocks(ProgressReader(handle, progress),  # type: ignore[arg-type]
                                line_ends=accel.line_end_counter()),
                    path, config, report, place)
    except MemoryError:
        return FileReport(path, unreadable="out of memory")
    place.finish()
    return report


def line_end_finding(counted: CountingReader, config: LintConfig,
                     path: Optional[str]) -> Optional[Finding]:
    """S107 for the text ``counted`` read (named ``path``), when it mixes line
    ends and ``config`` selects it; else None."""
    found = mixed_line_ends(counted)
    if found is None or not config.wants(found.diagnostic.code):
        return None
    return Finding(found.diagnostic.with_path(path), found.fix)


def line_end_finding_ahead(handle: IO[bytes], config: LintConfig,
                           path: Optional[str]) -> Optional[Finding]:
    """:func:`line_end_finding` of the regular file ``handle`` from where it
    stands, read for its line ends alone; the file is then where it was."""
    start = handle.tell()
    counted = CountingReader(handle, line_ends=accel.line_end_counter())
    while counted.read(1 << 20):
        pass
    handle.seek(start)
    return line_end_finding(counted, config, path)


class Placing:
    """Gives findings to ``emit``, with ``mixed`` (S107, or None) in its place:
    before the first finding after the start of its line, as
    :func:`_add_line_ends` places it in a report."""

    def __init__(self, mixed: Optional[Finding], emit: Callable[[List[Finding]], object]
                 ) -> None:
        self.mixed, self.emit = mixed, emit

    def __call__(self, findings: List[Finding]) -> None:
        mixed = self.mixed
        if mixed is not None:
            where = (mixed.diagnostic.line, 1)
            at = next((i for i, f in enumerate(findings)
                       if (f.diagnostic.line, f.diagnostic.column) > where), None)
            if at is not None:
                findings = findings[:at] + [mixed] + findings[at:]
                self.mixed = None
        self.emit(findings)

    def finish(self) -> None:
        if self.mixed is not None:
            self.emit([self.mixed])
            self.mixed = None


def colors_of(config: LintConfig) -> Tuple[str, ...]:
    """The colours of a game without a Colors header, under ``config``."""
    return config.colors if config.colors is not None else DEFAULT_COLORS


def style_state(config: LintConfig) -> StyleState:
    """What the style checks of a file start from, under ``config``."""
    return StyleState(dialect=None if config.dialect is None else get_dialect(config.dialect),
                      default_colors=colors_of(config))


def lint_game(part: GameText, style: StyleState, config: LintConfig,
              path: Optional[str]) -> Tuple[Game, List[Finding]]:
    """One game of a file (a piece from ``split_games``): its tree and findings.

    ``style`` is the file's :func:`style_state`, passed to every game in turn
    (it remembers the file's first discard marker).
    """
    game = parse_part(part, False, path)
    findings = [Finding(d) for d in check(game, default_colors=colors_of(config)).diagnostics]
    findings.extend(check_style(game, part.text, part.offset, style))
    if len(findings) > 1:
        findings.sort(key=lambda f: (f.diagnostic.span.start, f.diagnostic.code))
    if MARK in part.text:  # only then can a comment suppress anything
        findings = _suppressed(findings, game, config)
    return game, list(_filtered(findings, config, path)) if findings else []


def fix_stream(lines: Iterable[Piece], path: str, config: Optional[LintConfig],
               write: Callable[[str], object]) -> FixResult:
    """Apply the safe fixes of ``config``'s findings game by game, as
    :func:`fix_text` does for a whole text, writing each game's fixed text
    (LF line ends) to ``write`` as soon as it is done: memory holds one game
    and the findings left after fixing."""
    config = config or LintConfig()
    return _fix_parts(split_games(lines), path, config, write, style_state(config))


def fix_blocks(blocks: Iterable[bytes], path: str, config: Optional[LintConfig],
               write: Callable[[str], object]) -> FixResult:
    """:func:`fix_stream` of a file read as blocks of whole lines (as
    :func:`lint_blocks` reads them): runs of clean games are written as they
    are, checked by the accelerator's scan where it is built."""
    config = config or LintConfig()
    style = style_state(config)
    return _fix_parts(scanned_parts(blocks, config, style), path, config, write, style)


def _fix_parts(parts: Iterable[Union[GameText, CleanRun]], path: str, config: LintConfig,
               write: Callable[[str], object], style: StyleState) -> FixResult:
    """Fix ``parts``, each game's text to ``write``; ``style`` is moved on
    (in place) as the games go."""
    result = FixResult(FileReport(path))
    report = result.report
    shift = 0  # how much longer the fixed text is than the text read, so far
    colors = colors_of(config)
    for part in parts:
        if isinstance(part, CleanRun):  # checked by the accelerator's scan
            write(part.text())
            report.games += part.games
            report.moves += part.moves
            continue
        game_text = part._replace(offset=part.offset + shift)
        moves = clean_moves(game_text, style, colors)
        if moves is not None:  # nothing to fix, nothing to report
            write(game_text.text)
            report.games += 1
            report.moves += moves
            continue
        start = dataclasses.replace(style)
        game, findings = lint_game(game_text, style, config, path)
        if game.errors:
            result.error_count += len(game.errors)
            result.first_error = result.first_error or game.errors[0]
        def relint(text: str) -> Tuple[Game, List[Finding], StyleState]:
            again = dataclasses.replace(start)
            return (*lint_game(game_text._replace(text=text), again, config, path), again)

        text, count, (game, findings, fixed) = fix_loop(
            game_text.text, (game, findings, style), relint,
            lambda done: [f.fix for f in done[1] if f.fix is not None], game_text.offset)
        if fixed is not style:  # the style state of the fixed text, in place
            for field in dataclasses.fields(style):
                setattr(style, field.name, getattr(fixed, field.name))
        result.applied += count
        shift += len(text) - len(game_text.text)
        write(text)
        report.games += 1
        report.moves += len(game.moves)
        report.findings.extend(findings)
    return result


def fix_text(text: str, path: str = "<string>", config: Optional[LintConfig] = None,
             report: Optional[FileReport] = None) -> Tuple[str, int, FileReport]:
    """Apply the safe fixes of the findings ``config`` selects, as ``lcn lint --fix`` does.

    Returns the fixed text, how many fixes were applied and the report of
    the fixed text.  ``report``, when given, is that of ``text`` already.

    >>> fixed, applied, report = fix_text("1. r3-d 3. b4x-d 4. G5D-D")
    >>> fixed, applied, [d.code for d in report.diagnostics]
    ('1. R3-D 2. B4X-D 3. G5X-D', 5, ['R110'])
    """
    first = report if report is not None else lint_text(text, path, config)
    text, applied, fixed = fix_loop(text, first, lambda t: lint_text(t, path, config),
                                     lambda r: r.fixes)
    newline = next((f.newline for f in fixed.fixes if f.newline is not None), None)
    if newline is not None and newline_style(text) is None:
        # S107: a text that mixes line ends gets the majority's (a file's text
        # read with LF line ends gets them when it is written back).
        text = as_lf(text)
        text = text.replace("\n", newline) if newline != "\n" else text
        applied += 1
        fixed = lint_text(text, path, config)
    return text, applied, fixed


def _filtered(findings: Iterable[Finding], config: LintConfig,
              path: Optional[str]) -> Iterator[Finding]:
    for f in findings:
        if config.wants(f.diagnostic.code):
            yield Finding(f.diagnostic.with_path(path), f.fix)


def all_comments(game: Game) -> Iterator[Comment]:
    """Every comment of ``game``: its own, its headers', its moves'."""
    yield from game.comments
    for h in game.headers:
        yield from h.comments
    for m in game.moves:
        yield from m.comments


def suppressions(game: Game) -> Iterator[Suppression]:
    """The ``lcn: ignore`` comments of ``game`` (a comment's text starts one
    character after the comment: after its ``;`` or ``{``)."""
    for c in all_comments(game):
        if c.span.known:
            found = find_suppression(c.text, c.span.start + 1, c.span.line, c.span)
            if found is not None:
                yield found


_UNUSED = warning("S100")
#: The families of the codes that linting a Lost Cities record reports (those
#: a suppression may name).
FAMILIES = (SYNTAX, RULES, STYLE)


def _suppressed(findings: List[Finding], game: Game, config: LintConfig) -> List[Finding]:
    """Drop findings silenced by ``lcn: ignore[CODES]`` comments on their line, and
    report (S100) suppressions that silence nothing."""
    return apply_suppressions(findings, suppressions(game), _UNUSED, FAMILIES)
