"""FreeCell as the common tools see it: the :class:`~lcnotation.core.notation.Notation`
of Standard FreeCell Notation (files ``*.sfn``).

Linting a record reports what the reader and the checker find (layout
errors, the first illegal move, a solution that does not win) at their
place, and a layout that is not the canonical one (F501), with the fix that
rewrites those lines as ``lcn fmt`` would; ``lcn: ignore[CODE]`` on a line
silences that code there (F500 when it silences nothing).

>>> report = NOTATION.lint_text("Game #1\\n  -  -  -  +\\n", "a.sfn", LintConfig())
>>> [d.code for d in report.diagnostics]
['F105']
"""

from __future__ import annotations

import difflib
from typing import IO, Dict, FrozenSet, Iterator, List, Mapping, Optional, Sequence, Tuple

from ..core.markdown import escape
from ..core.codes import Family
from ..core.diagnostics import Diagnostic, NotationError, Severity
from ..core.files import decode_source
from ..core.findings import Edit, Finding, Fix, fix_loop
from ..core.lint import FileReport, LintConfig
from ..core.notation import FormatRefused, Formatted, Hover, Progress, Symbol
from ..core.span import Span
from ..core.suppression import (MARK, Suppression, apply_suppressions, find_suppression,
                                suppression_comment, warning)
from .ast import BodyLine, Move, Record, SolutionLine
from .checker import check
from .codes import FREECELL
from .formatter import format, layout_text
from .parser import parse
from .rules import FREECELL_NAMES, HOME

__all__ = ["FreeCellNotation", "NOTATION"]

#: The most a FreeCell file may hold: records are a few kilobytes.
MAX_BYTES = 1 << 24

_UNUSED = warning("F500")


class FreeCellNotation:
    """Standard FreeCell Notation, for lint, fmt, the server and the command line."""

    name = "freecell"
    title = "FreeCell"
    extensions: Tuple[str, ...] = (".sfn",)
    language_id = "sfn"
    families: Tuple[Family, ...] = (FREECELL,)
    formats: Tuple[str, ...] = ("fc-solve",)
    #: F500 (a suppression that silences nothing) is silenced by no comment.
    unsuppressible: FrozenSet[str] = frozenset({"F500"})

    def lint_text(self, text: str, path: str, config: LintConfig) -> FileReport:
        record = _parse(text, path)
        result = check(record, path)
        findings = [Finding(d) for d in result.diagnostics]
        if not any(d.severity is Severity.ERROR for d in record.errors):
            findings += _layout_findings(text, record)
        findings.sort(key=lambda f: (f.diagnostic.span.start, f.diagnostic.code))
        if MARK in text:
            findings = apply_suppressions(findings, _suppressions(text), _UNUSED,
                                          self.families)
        kept = [Finding(f.diagnostic.with_path(path), f.fix) for f in findings
                if config.wants(f.diagnostic.code)]
        return FileReport(path, kept, 1, result.moves)

    def lint_stream(self, handle: IO[bytes], path: str, config: LintConfig,
                    progress: Progress = None) -> FileReport:
        data = handle.read(MAX_BYTES + 1)
        if progress is not None:
            progress(len(data))
        if len(data) > MAX_BYTES:
            return FileReport(path, unreadable=f"more than {MAX_BYTES:,} bytes, the most a "
                              "FreeCell record may hold")
        try:
            source = decode_source(data)
        except NotationError as exc:
            return FileReport(path, unreadable=f"line {exc.line}, column {exc.column}: "
                              f"{exc.message}")
        return self.lint_text(source.text, path, config)

    def fix_text(self, text: str, path: str, config: LintConfig,
                 report: Optional[FileReport] = None) -> Tuple[str, int, FileReport]:
        first = report if report is not None else self.lint_text(text, path, config)
        return fix_loop(text, first, lambda t: self.lint_text(t, path, config),
                        lambda r: r.fixes)

    def format_text(self, text: str, path: str, config: LintConfig,
                    force: bool = False) -> Formatted:
        record = _parse(text, path)
        errors = [d for d in record.errors if d.severity is Severity.ERROR]
        if errors:
            # A record with reading errors is never rewritten, forced or not:
            # the formatter cannot know what the unread lines meant.
            first = errors[0]
            raise FormatRefused(f"{first.line}:{first.column}: not formatted: {len(errors)} "
                                f"reading error{'s' if len(errors) != 1 else ''} (first: "
                                f"{first.code} {first.message})")
        return Formatted(format(record))

    def describe(self, text: str, offset: int, config: LintConfig) -> Optional[Hover]:
        record = _parse(text, None)
        moves = record.moves
        for index, move in enumerate(moves):
            if move.span.start <= offset < move.span.end:
                return Hover(_describe_move(record, index), move.span.start, move.span.end)
        return None

    def symbols(self, text: str) -> List[Symbol]:
        record = _parse(text, None)
        out: List[Symbol] = []
        if record.game is not None:
            out.append(Symbol(record.game.text.strip() or "Game", record.game.described,
                              "header", record.game.span))
        placed = [c.span for column in record.columns for c in column]
        if placed:
            first = record.home.span or placed[0]
            last = max(placed, key=lambda s: s.end)
            out.append(Symbol("Layout", f"{sum(len(c) for c in record.columns)} cards in the "
                              "columns", "section", _joined(first, last)))
        lines = [line for line in record.body if isinstance(line, SolutionLine)]
        if lines:
            moves = record.moves
            out.append(Symbol("Solution", f"{len(moves)} moves", "section",
                              _joined(lines[0].span, lines[-1].span),
                              tuple(Symbol(f"{i + 1}. {m}", "", "move", m.span)
                                    for i, m in enumerate(moves))))
        return out

    def ignore_edit(self, text: str, line: int, code: str) -> Optional[Edit]:
        if code in self.unsuppressible:  # a useless suppression is not silenced by another
            return None
        return self.ignore_edits(text, {line: [code]}).get(line)

    def ignore_edits(self, text: str, codes: Mapping[int, Sequence[str]]) -> Dict[int, Edit]:
        edits: Dict[int, Edit] = {}
        # A comment can end a solution line only: anywhere else it would be read
        # as part of the layout.  A suppression is extended on a line after
        # the columns only: on the Game# line its text may name the layout.
        body = {b.span.line: isinstance(b, SolutionLine) for b in _parse(text, None).body}
        for line, wanted in codes.items():
            code = ", ".join(c for c in wanted if c not in self.unsuppressible)
            start, end = _line_bounds(text, line)
            if start < 0 or not code or line not in body:
                continue
            current = text[start:end]
            found = find_suppression(current, start, line) if MARK in current else None
            if found is not None:
                if found.close is not None:  # a bare "lcn: ignore" silences every code
                    edits[line] = Edit(found.close, found.close,
                                       (", " if found.named else "") + code)
            elif body[line]:
                edits[line] = Edit(end, end, f"  {suppression_comment(code)}")
        return edits


def _parse(text: str, path: Optional[str]) -> Record:
    return parse(text, path=path)


def _joined(first: Span, last: Span) -> Span:
    return Span(first.line, first.column, last.end_line, last.end_column, first.start,
                last.end)


def _line_bounds(text: str, line: int) -> Tuple[int, int]:
    """The offsets of line ``line`` (1-based) of ``text`` (LF line ends), its
    line end excluded; (-1, -1) past the end."""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return -1, -1
    end = text.find("\n", start)
    return start, len(text) if end < 0 else end


def _suppressions(text: str) -> Iterator[Suppression]:
    """Every ``lcn: ignore`` of ``text``: a FreeCell comment is the rest of its
    line (or the whole line), so each line is looked at as a whole."""
    start = 0
    for number, line in enumerate(text.split("\n"), 1):
        if MARK in line:
            found = find_suppression(line, start, number)
            if found is not None:
                yield found
        start += len(line) + 1


def _layout_findings(text: str, record: Record) -> List[Finding]:
    """F501 for each run of lines that the canonical layout writes otherwise,
    with the fix that writes them so."""
    canonical = format(record)
    if canonical == text:
        return []
    old = text.splitlines(keepends=True)
    new = canonical.splitlines(keepends=True)
    starts = [0]
    for old_line in old:
        starts.append(starts[-1] + len(old_line))
    found: List[Finding] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        line = min(i1, len(old) - 1) + 1 if old else 1
        at = starts[i1]
        first = old[i1].rstrip("\n") if i1 < len(old) else ""
        span = Span(line, 1, line, len(first) + 1, at, at + len(first))
        wanted = "".join(new[j1:j2])
        if tag == "delete":
            what = f"{_lines(line, i2 - i1)} would go"
        elif tag == "insert":
            what = f"{_count(j2 - j1)} would come before line {line}"
        elif i2 - i1 == 1 and j2 - j1 == 1:
            what = f"line {line} would read {new[j1].rstrip(chr(10))!r}"
        else:
            what = f"{_lines(line, i2 - i1)} would be written as {_count(j2 - j1)}"
        message = f"not in the canonical layout: {what} (lcn fmt writes it so)"
        found.append(Finding(Diagnostic("F501", message, span, Severity.WARNING),
                             Fix("write the canonical layout",
                                 (Edit(at, starts[i2], wanted),))))
    return found


def _lines(first: int, count: int) -> str:
    return f"line {first}" if count == 1 else f"lines {first} to {first + count - 1}"


def _count(n: int) -> str:
    return f"{n} line{'s' if n != 1 else ''}"


def _describe_move(record: Record, index: int) -> str:
    """Markdown: move ``index`` (0-based) and the position after it, with its
    automoves (or why it cannot be made)."""
    move = record.moves[index]
    title = f"**{index + 1}. {escape(str(move))}**: {_place(move.source)} to " \
        f"{_place(move.target)}"
    if move.single:
        title += " (one card)"
    result = check(_up_to(record, index + 1))
    bad = result.first_bad_move
    if result.position is None:
        return title + "\n\nThe layout cannot be replayed (lcn lint says why)."
    if bad is not None and bad <= index and result.verdict == "illegal":
        return (title + f"\n\nMove {bad + 1} is illegal, so the position after this one is "
                "not known. The position before that move:\n\n```\n"
                + layout_text(result.position) + "```")
    return title + "\n\nAfter it and its automoves:\n\n```\n" + layout_text(result.position) \
        + "```"


def _place(name: str) -> str:
    if name == HOME:
        return "home"
    if name in FREECELL_NAMES:
        return f"freecell {name}"
    return f"column {name}"


def _up_to(record: Record, count: int) -> Record:
    """``record`` with only its first ``count`` moves."""
    from dataclasses import replace

    body: List[BodyLine] = []
    left = count
    for line in record.body:
        if not isinstance(line, SolutionLine):
            body.append(line)
            continue
        steps = []
        for step in line.steps:
            if isinstance(step, Move):
                if left == 0:
                    break
                left -= 1
            steps.append(step)
        body.append(replace(line, steps=tuple(steps)))
    return replace(record, body=tuple(body))


#: The notation object the registry holds.
NOTATION = FreeCellNotation()
