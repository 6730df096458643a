"""Linting: syntax, rules and style findings for whole files, streamed game by game.

This is the engine behind ``lcn lint``; editors and other tools can call it
directly.

>>> report = lint_text("1. R3-D 2. r11-d 3. R2-D", path="demo.lcn")
>>> [(d.code, d.line, d.column) for d in report.diagnostics]
[('N103', 1, 13), ('R101', 1, 21), ('R110', 1, 25)]
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..text.ast import Comment, Game, Span
from ..game.checker import check
from ..text.dialects import get_dialect
from ..text.errors import Diagnostic, Severity
from ..text.headers import DEFAULT_COLORS
from ..text.reader import GameText, _decoded_lines, _lone_cr_as_lf, _parse, split_games
from .style import Finding, Fix, StyleState, apply_fixes, check_style

__all__ = ["LintConfig", "FileReport", "lint_text", "lint_file", "lint_lines", "lint_game",
           "style_state", "fix_text",
           "iter_lcn_files"]

# "lcn: ignore" alone silences every finding of its line; "lcn: ignore[R101, S1]" those
# codes or prefixes.  Not "lcn: ignored" nor "xlcn: ignore".
_SUPPRESSION = re.compile(r"(?<![\w-])lcn:[ \t]*ignore(?![\w-])(?:[ \t]*\[([^\]]*)\])?")


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
    return lint_lines([_lone_cr_as_lf(text)], path, config)


def lint_file(path: str, config: Optional[LintConfig] = None) -> FileReport:
    """Lint a file, reading it as a stream; unreadable files are reported, not raised."""
    try:
        with open(path, "rb") as handle:
            return lint_lines(_decoded_lines(handle), path, config)
    except OSError as exc:
        return FileReport(path, unreadable=exc.strerror or str(exc))


def lint_lines(lines: Iterable[object], path: str,
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
    if "lcn:" in part.text:  # only then can a comment suppress anything
        findings = _suppressed(findings, game, config)
    return game, list(_filtered(findings, config, path)) if findings else findings


#: How many times :func:`fix_text` lints and fixes again: the fixes of one
#: finding may overlap those of another (a move's case and its discard marker).
FIX_ROUNDS = 8


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
    applied = 0
    for _ in range(FIX_ROUNDS):
        fixes = report.fixes
        if not fixes:
            break
        fixed, count = apply_fixes(text, fixes)
        if fixed == text:
            break
        text, applied = fixed, applied + count
        report = lint_text(text, path, config)
    return text, applied, report


def _filtered(findings: Iterable[Finding], config: LintConfig,
              path: Optional[str]) -> Iterator[Finding]:
    for f in findings:
        if config.wants(f.diagnostic.code):
            yield Finding(f.diagnostic.with_path(path), f.fix)


def _all_comments(game: Game) -> Iterator[Comment]:
    yield from game.comments
    for h in game.headers:
        yield from h.comments
    for m in game.moves:
        yield from m.comments


def _suppressed(findings: List[Finding], game: Game, config: LintConfig) -> List[Finding]:
    """Drop findings silenced by ``lcn: ignore[CODES]`` comments on their line, and
    report (S100) suppressions that silence nothing."""
    rules: Dict[int, List[Tuple[Comment, Span, Optional[Sequence[str]]]]] = {}
    for c in _all_comments(game):
        m = _SUPPRESSION.search(c.text)
        if m is not None and c.span is not None:
            codes: Optional[Sequence[str]] = None if m.group(1) is None else [
                code.strip().upper() for code in m.group(1).split(",") if code.strip()]
            rules.setdefault(c.span.line, []).append((c, c.span, codes))
    if not rules:
        return findings
    used: Dict[Tuple[int, str], bool] = {}
    kept: List[Finding] = []
    for f in findings:
        silenced = False
        for comment, _, codes in rules.get(f.diagnostic.line, ()):
            for code in (codes if codes is not None else ["*"]):
                if code == "*" or f.diagnostic.code.startswith(code):
                    used[(id(comment), code)] = True
                    silenced = True
        if not silenced:
            kept.append(f)
    for line_rules in rules.values():
        for comment, span, codes in line_rules:
            if codes == []:
                kept.append(Finding(Diagnostic(
                    "S100", "this suppression names no code: write lcn: ignore[CODE] "
                    "(or lcn: ignore for every code)", span, Severity.WARNING)))
            for code in (codes if codes is not None else ["*"]):
                if not used.get((id(comment), code)):
                    what = "anything" if code == "*" else code
                    kept.append(Finding(Diagnostic(
                        "S100", f"this suppression does not suppress {what}: nothing on "
                        f"line {span.line} reports it", span,
                        Severity.WARNING)))
    kept.sort(key=lambda f: (f.diagnostic.span.start, f.diagnostic.code))
    return kept


def iter_lcn_files(paths: Sequence[str]) -> Iterator[str]:
    """Expand folders into the ``*.lcn`` files below them (sorted); keep files as given.

    A folder that cannot be listed is yielded itself, so that reading it
    fails and is reported rather than the folder silently skipped.
    """
    for path in paths:
        if os.path.isdir(path):
            found = []
            for root, dirs, files in os.walk(path, onerror=lambda err: found.append(
                    err.filename if err.filename is not None else path)):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found.extend(os.path.join(root, f) for f in files if f.endswith(".lcn"))
            yield from sorted(found)
        else:
            yield path


