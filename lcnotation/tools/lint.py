"""Linting: syntax, rules and style findings for whole files, streamed game by game.

This is the engine behind ``lcn lint``; editors and other tools can call it
directly.

>>> report = lint_text("1. R3-D 2. r11-d 3. R2-D", path="demo.lcn")
>>> [(d.code, d.line, d.column) for d in report.diagnostics]
[('N103', 1, 13), ('R101', 1, 21), ('R110', 1, 25)]
"""

from __future__ import annotations

import dataclasses
import io
from dataclasses import dataclass, field
from typing import IO, Callable, Iterable, Iterator, List, Optional, Tuple

from ..lostcities.text.ast import Comment, Game
from ..lostcities.game.checker import check
from ..lostcities.text.dialects import get_dialect
from ..core.diagnostics import Diagnostic, NotationError, Severity
from ..lostcities.text.headers import DEFAULT_COLORS
from ..core.lineends import as_lf, lone_cr_as_lf, newline_style
from ..lostcities.text.reader import GameText, Piece, _decoded_lines, _parse, split_games
from ..core.files import not_regular
from ..core.findings import Finding, Fix, fix_loop
from ..core.suppression import MARK, Suppression, apply_suppressions, find_suppression, warning
from ..lostcities.style import StyleState, check_style
from ..core.walk import iter_lcn_files
from ..core.lineends import CountingReader
from ..lostcities.style import mixed_line_ends

__all__ = ["LintConfig", "FileReport", "FixResult", "lint_text", "lint_file", "lint_stream",
           "lint_lines", "lint_game", "style_state", "add_text_findings", "fix_text", "fix_stream",
           "iter_lcn_files", "all_comments", "suppressions"]


@dataclass(frozen=True)
class LintConfig:
    """Which findings to report and against what expectations.

    ``select`` and ``ignore`` hold codes or code prefixes (``"S"``,
    ``"R1"``, ``"N103"``); a finding is reported when it matches a selected
    prefix and no ignored one.  ``colors`` are the colours of a game without
    a Colors header; ``dialect`` is the spelling the style checks expect
    (None: upper case, and whichever discard marker the file uses first).

    >>> LintConfig(select=("R", "S1"), ignore=("S102",)).wants("S101")
    True
    >>> LintConfig(select=("R", "S1"), ignore=("S102",)).wants("S102")
    False
    """

    select: Tuple[str, ...] = ("N", "R", "S")
    ignore: Tuple[str, ...] = ()
    colors: Tuple[str, ...] = DEFAULT_COLORS
    dialect: Optional[str] = None

    def wants(self, code: str) -> bool:
        """Whether findings of ``code`` are reported.  Syntax errors (N) always
        are, as in ruff: a record that cannot be read is never "all clear"."""
        if code.startswith("N"):
            return True
        return (any(code.startswith(p) for p in self.select)
                and not any(code.startswith(p) for p in self.ignore))


@dataclass
class FileReport:
    """The findings for one file, in the order of the file."""

    path: str
    findings: List[Finding] = field(default_factory=list)
    games: int = 0
    moves: int = 0
    #: Set when the file could not be read at all (the CLI exits with 2).
    unreadable: Optional[str] = None

    @property
    def diagnostics(self) -> List[Diagnostic]:
        return [f.diagnostic for f in self.findings]

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.diagnostic.severity is severity)

    @property
    def fixes(self) -> List[Fix]:
        return [f.fix for f in self.findings if f.fix is not None]


def lint_text(text: str, path: str = "<string>", config: Optional[LintConfig] = None) -> FileReport:
    """Lint the text of a record (one game or more)."""
    report = lint_lines([lone_cr_as_lf(text)], path, config)
    add_text_findings(report, text, config or LintConfig())
    return report


def add_text_findings(report: FileReport, text: str, config: LintConfig) -> None:
    """Add to the report of ``text`` the findings about the text as a whole
    (S107, mixed line ends), in their place."""
    if "\r" in text:  # it may mix line ends (S107)
        counted = CountingReader(io.BytesIO(text.encode("utf-8", "surrogatepass")))
        while counted.read(1 << 20):
            pass
        _add_line_ends(report, counted, config)


def lint_file(path: str, config: Optional[LintConfig] = None,
              progress: Optional[Callable[[int], None]] = None) -> FileReport:
    """Lint a file, reading it as a stream; unreadable files are reported, not raised.

    ``progress(bytes_read)`` is called as the file is read.
    """
    refused = not_regular(path)
    if refused is not None:
        return FileReport(path, unreadable=refused)
    try:
        with open(path, "rb") as handle:
            return lint_stream(handle, path, config, progress)
    except OSError as exc:
        return FileReport(path, unreadable=exc.strerror or str(exc))


def lint_stream(handle: IO[bytes], path: str, config: Optional[LintConfig] = None,
                progress: Optional[Callable[[int], None]] = None) -> FileReport:
    """Lint a binary stream (a file, standard input) named ``path``, as a stream.

    Besides what :func:`lint_lines` finds, a file that mixes line ends gets S107.
    A file that stops being readable, or a game beyond the reader's bound,
    raises OSError; a game too large for memory makes the report
    ``unreadable``.
    """
    config = config or LintConfig()
    counted = CountingReader(handle, progress)
    try:
        report = lint_lines(_decoded_lines(counted), path, config)  # type: ignore[arg-type]
    except MemoryError:
        return FileReport(path, unreadable="out of memory")
    _add_line_ends(report, counted, config)
    return report


def _add_line_ends(report: FileReport, counted: CountingReader, config: LintConfig) -> None:
    """Add S107, in its place, when the text ``counted`` read mixes line ends."""
    mixed = mixed_line_ends(counted)
    if mixed is not None and config.wants(mixed.diagnostic.code):
        line = mixed.diagnostic.line
        at = next((i for i, f in enumerate(report.findings)
                   if (f.diagnostic.line, f.diagnostic.column) > (line, 1)),
                  len(report.findings))
        report.findings.insert(at, Finding(mixed.diagnostic.with_path(report.path), mixed.fix))


def lint_lines(lines: Iterable[Piece], path: str,
               config: Optional[LintConfig] = None) -> FileReport:
    """Lint a stream of lines (as read by the reader) of the file ``path``."""
    config = config or LintConfig()
    report = FileReport(path)
    style = style_state(config)
    for part in split_games(lines):
        game, findings = lint_game(part, style, config, path)
        report.games += 1
        report.moves += len(game.moves)
        report.findings.extend(findings)
    return report


def style_state(config: LintConfig) -> StyleState:
    """What the style checks of a file start from, under ``config``."""
    return StyleState(dialect=None if config.dialect is None else get_dialect(config.dialect),
                      default_colors=config.colors)


def lint_game(part: GameText, style: StyleState, config: LintConfig,
              path: Optional[str]) -> Tuple[Game, List[Finding]]:
    """One game of a file (a piece from ``split_games``): its tree and findings.

    ``style`` is the file's :func:`style_state`, passed to every game in turn
    (it remembers the file's first discard marker).
    """
    game = _parse(part, False, path)
    findings = [Finding(d) for d in check(game, default_colors=config.colors).diagnostics]
    findings.extend(check_style(game, part.text, part.offset, style))
    if len(findings) > 1:
        findings.sort(key=lambda f: (f.diagnostic.span.start, f.diagnostic.code))
    if MARK in part.text:  # only then can a comment suppress anything
        findings = _suppressed(findings, game, config)
    return game, list(_filtered(findings, config, path)) if findings else []


@dataclass
class FixResult:
    """What :func:`fix_stream` did: the report of the fixed text, the fixes
    applied, and the syntax errors met (a file with some is not rewritten
    unless forced)."""

    report: FileReport
    applied: int = 0
    error_count: int = 0
    first_error: Optional[NotationError] = None


def fix_stream(lines: Iterable[Piece], path: str, config: Optional[LintConfig],
               write: Callable[[str], object]) -> FixResult:
    """Apply the safe fixes of ``config``'s findings game by game, as
    :func:`fix_text` does for a whole text, writing each game's fixed text
    (LF line ends) to ``write`` as soon as it is done: memory holds one game
    and the findings left after fixing."""
    config = config or LintConfig()
    result = FixResult(FileReport(path))
    report = result.report
    style = style_state(config)
    shift = 0  # how much longer the fixed text is than the text read, so far
    for part in split_games(lines):
        part = part._replace(offset=part.offset + shift)
        start = dataclasses.replace(style)
        game, findings = lint_game(part, style, config, path)
        if game.errors:
            result.error_count += len(game.errors)
            result.first_error = result.first_error or game.errors[0]
        def relint(text: str) -> Tuple[Game, List[Finding], StyleState]:
            again = dataclasses.replace(start)
            return (*lint_game(part._replace(text=text), again, config, path), again)

        text, count, (game, findings, style) = fix_loop(
            part.text, (game, findings, style), relint,
            lambda done: [f.fix for f in done[1] if f.fix is not None], part.offset)
        result.applied += count
        shift += len(text) - len(part.text)
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
    report = report if report is not None else lint_text(text, path, config)
    text, applied, report = fix_loop(text, report, lambda t: lint_text(t, path, config),
                                     lambda r: r.fixes)
    newline = next((f.newline for f in report.fixes if f.newline is not None), None)
    if newline is not None and newline_style(text) is None:
        # S107: a text that mixes line ends gets the majority's (a file's text
        # read with LF line ends gets them when it is written back).
        text = as_lf(text)
        text = text.replace("\n", newline) if newline != "\n" else text
        applied += 1
        report = lint_text(text, path, config)
    return text, applied, report


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


def _suppressed(findings: List[Finding], game: Game, config: LintConfig) -> List[Finding]:
    """Drop findings silenced by ``lcn: ignore[CODES]`` comments on their line, and
    report (S100) suppressions that silence nothing."""
    return apply_suppressions(findings, suppressions(game), _UNUSED)
