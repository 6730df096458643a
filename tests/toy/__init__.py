"""A third notation, made outside the package: a tally of steps, one per line
(``+3``, ``-2``), ``#`` comments.  Its rules: the total never goes below zero
(T201).  Its style: a step is written without blanks (T301, fixable).  It
implements :class:`lcnotation.core.notation.Notation` and touches no file of
the package: registering the object is all it takes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import IO, List, Optional, Tuple

from lark import Lark, UnexpectedInput

from lcnotation.core.codes import Family
from lcnotation.core.diagnostics import Diagnostic, Severity
from lcnotation.core.findings import Edit, Finding, Fix, fix_loop
from lcnotation.core.lint import FileReport, LintConfig
from lcnotation.core.notation import FormatRefused, Formatted, Hover, Progress, Symbol
from lcnotation.core.span import Span
from lcnotation.core.suppression import apply_suppressions, find_suppression, warning

TOY = Family("T", "toy tally", "toy.md", {
    "T101": (Severity.ERROR, "a line that is not a step"),
    "T201": (Severity.ERROR, "a step that takes the total below zero"),
    "T301": (Severity.WARNING, "a step written with blanks"),
    "T900": (Severity.WARNING, "a suppression that suppresses nothing"),
})
_PARSER = Lark((Path(__file__).parent / "toy.lark").read_text(), parser="lalr")
_STEP = re.compile(r"[ \t]*([+-])[ \t]*([0-9]+)[ \t]*")


class ToyNotation:
    name = "toy"
    title = "Toy tally"
    extensions: Tuple[str, ...] = (".toy",)
    language_id = "toy"
    families: Tuple[Family, ...] = (TOY,)
    formats: Tuple[str, ...] = ()

    def _findings(self, text: str) -> List[Finding]:
        found: List[Finding] = []
        total = 0
        offset = 0
        for number, line in enumerate(text.split("\n"), 1):
            step_text = line.split("#", 1)[0]
            span = Span(number, 1, number, len(step_text) + 1, offset, offset + len(step_text))
            m = _STEP.fullmatch(step_text) if step_text.strip() else None
            if step_text.strip() and m is None:
                found.append(Finding(Diagnostic("T101", f"{step_text.strip()!r} is not a step",
                                                span)))
            elif m is not None:
                total += int(m.group(2)) * (1 if m.group(1) == "+" else -1)
                if total < 0:
                    found.append(Finding(Diagnostic("T201", f"the total goes to {total}", span)))
                canonical = m.group(1) + m.group(2)
                if step_text != canonical:
                    found.append(Finding(
                        Diagnostic("T301", f"write {canonical!r}", span, Severity.WARNING),
                        Fix("write the step without blanks",
                            (Edit(offset, offset + len(step_text), canonical),))))
            offset += len(line) + 1
        return found

    def lint_text(self, text: str, path: str, config: LintConfig) -> FileReport:
        try:
            _PARSER.parse(text)
        except UnexpectedInput:
            pass  # the line-by-line reading says where
        findings = self._findings(text)
        marks = []
        offset = 0
        for number, line in enumerate(text.split("\n"), 1):
            if "#" in line:
                at = line.index("#") + 1
                s = find_suppression(line[at:], offset + at, number)
                if s is not None:
                    marks.append(s)
            offset += len(line) + 1
        findings = apply_suppressions(findings, marks, warning("T900"))
        kept = [Finding(f.diagnostic.with_path(path), f.fix) for f in findings
                if config.wants(f.diagnostic.code)]
        return FileReport(path, kept, 1, sum(1 for l in text.split("\n") if l.strip()))

    def lint_stream(self, handle: IO[bytes], path: str, config: LintConfig,
                    progress: Progress = None) -> FileReport:
        return self.lint_text(handle.read().decode("utf-8").replace("\r\n", "\n"), path, config)

    def fix_text(self, text: str, path: str, config: LintConfig,
                 report: Optional[FileReport] = None) -> Tuple[str, int, FileReport]:
        first = report or self.lint_text(text, path, config)
        return fix_loop(text, first, lambda t: self.lint_text(t, path, config),
                        lambda r: r.fixes)

    def format_text(self, text: str, path: str, config: LintConfig,
                    force: bool = False) -> Formatted:
        if any(f.diagnostic.code == "T101" for f in self._findings(text)):
            raise FormatRefused("not formatted: a line is not a step")
        return Formatted(self.fix_text(text, path, LintConfig(select=("T3",)))[0])

    def describe(self, text: str, offset: int, config: LintConfig) -> Optional[Hover]:
        return None

    def symbols(self, text: str) -> List[Symbol]:
        return []

    def ignore_edit(self, text: str, line: int, code: str) -> Optional[Edit]:
        return None


NOTATION = ToyNotation()
