"""Writing lint findings: plain text, JSON, GitHub annotations and SARIF 2.1.0.

>>> d = Diagnostic("N103", "bad rank", Span(2, 4, 2, 6, 10, 12), path="a.lcn")
>>> print(text_line(d))
a.lcn:2:4: N103 bad rank
>>> print(github_line(d))
::error file=a.lcn,line=2,col=4,endLine=2,endColumn=6,title=N103::bad rank
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .codes import ALL_CODES, documentation_url
from ..core.span import Span  # noqa: F401 (the doctests)
from ..core.diagnostics import Diagnostic, Severity
from ..core.terminal import json_text, printable  # json_text: lcn's JSON, from here too
from .colour import Palette
from ..core.lint import FileReport
from ..core.links import home_url
from ..core.findings import Finding, Fix

__all__ = ["text_line", "source_excerpt", "github_line", "diagnostic_json",
           "json_text", "to_json", "to_sarif", "summary", "Tally", "statistics",
           "documentation_url", "fix_record"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def text_line(d: Diagnostic, fixable: bool = False, palette: Optional[Palette] = None) -> str:
    """``path:line:col: CODE message`` (``[*]`` marks a finding ``--fix`` can repair)."""
    if palette is None or not palette.enabled:
        mark = " [*]" if fixable else ""
        return printable(f"{d.path or '-'}:{d.line}:{d.column}: {d.code}{mark} {d.message}")
    mark = " " + palette.fixable("[*]") if fixable else ""
    return (palette.path(printable(f"{d.path or '-'}")) + f":{d.line}:{d.column}: "
            + palette.code(d.code, d.severity) + mark + " " + printable(d.message))


def source_excerpt(d: Diagnostic, line: str, palette: Optional[Palette] = None) -> str:
    """The source ``line`` of ``d`` with a caret under its span, as ruff shows it.

    >>> d = Diagnostic("S102", "case", Span(3, 4, 3, 8, 20, 24))
    >>> print(source_excerpt(d, "3. r4-d  ; late"))
      |
    3 | 3. r4-d  ; late
      |    ^^^^
    """
    palette = palette if palette is not None else Palette(False)
    number = str(d.line)
    gutter = " " * len(number)
    shown = printable(line)
    start = min(max(d.column - 1, 0), len(line))
    end = d.end_column - 1 if d.end_line == d.line else len(line)
    width = max(1, min(end, len(line)) - start)
    # Keep the line's tabs under it, so the caret stands where the text does.
    lead = "".join(c if c == "\t" else " " for c in printable(line[:start]))
    return (f"{gutter} {palette.dim('|')}\n{number} {palette.dim('|')} {shown}\n"
            f"{gutter} {palette.dim('|')} {lead}{palette.caret('^' * width, d.severity)}")


def _escape_data(s: str) -> str:
    return printable(s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def github_line(d: Diagnostic) -> str:
    """A GitHub Actions workflow command that annotates the finding; one of
    standard input without a name (``-``) names no file, and so no place.

    >>> print(github_line(Diagnostic("S102", "case", Span(1, 1, 1, 3, 0, 2), path="-")))
    ::error title=S102::case
    """
    title = f"title={_escape_property(d.code)}"
    props = title if d.path in (None, "-") else (
        f"file={_escape_property(d.path or '-')},line={d.line},col={d.column},"
        f"endLine={d.end_line},endColumn={d.end_column},{title}")
    return f"::{_GITHUB_LEVEL[d.severity]} {props}::{_escape_data(d.message)}"


def fix_record(d: Diagnostic, fix: Optional[Fix]) -> Optional[Dict[str, Any]]:
    """The fix of a finding for JSON: what it does and its edits, each with
    its place (line and column as the finding's, and offsets in the text
    with LF line ends) and the text that replaces it."""
    if fix is None:
        return None
    edits = []
    for e in fix.edits:
        column = d.column + (e.start - d.span.start)
        edits.append({"line": d.line, "column": column, "end_line": d.line,
                      "end_column": column + (e.end - e.start),
                      "start": e.start, "end": e.end, "content": e.replacement})
    record: Dict[str, Any] = {"message": fix.description, "applicability": "safe",
                              "edits": edits}
    if fix.newline is not None:
        record["newline"] = fix.newline
    return record


def diagnostic_json(d: Diagnostic, fixable: bool = False,
                    fix: Optional[Fix] = None) -> Dict[str, Any]:
    """One finding as the JSON object ``--format json`` writes: its place,
    code and message, its ``fix`` (see :func:`fix_record`) and the ``url``
    of its documentation."""
    fixable = fixable or fix is not None
    return {
        "path": d.path, "line": d.line, "column": d.column,
        "end_line": d.end_line, "end_column": d.end_column,
        "code": d.code, "severity": d.severity.value, "message": d.message,
        "turn": d.turn, "fixable": fixable, "fix": fix_record(d, fix),
        "url": documentation_url(d.code),
    }


def to_json(reports: Sequence[FileReport]) -> str:
    """All findings as a JSON array, one object per finding."""
    items = [diagnostic_json(f.diagnostic, fix=f.fix) for r in reports for f in r.findings]
    return json_text(items)


#: The base of relative artifact URIs: the folder lcn ran in.
SRCROOT = "SRCROOT"


def _location(path: str) -> Dict[str, str]:
    """A SARIF artifactLocation: relative paths against SRCROOT, absolute ones
    as file URIs, standard input as "stdin".

    >>> _location("games/a b.lcn")
    {'uri': 'games/a%20b.lcn', 'uriBaseId': 'SRCROOT'}
    >>> _location("c:d.lcn")["uri"]
    'c%3Ad.lcn'
    """
    from pathlib import Path  # these two, for SARIF only
    from urllib.parse import quote

    if path == "-":
        return {"uri": "stdin"}
    if os.path.isabs(path):
        try:
            return {"uri": Path(path).as_uri()}
        except UnicodeEncodeError:  # a POSIX file name that is not UTF-8
            return {"uri": "file://" + quote(os.fsencode(path), safe="/")}
    # The file name's own bytes, percent-encoded: a name that is not UTF-8 too.
    return {"uri": quote(os.fsencode(path.replace(os.sep, "/")), safe="/"),
            "uriBaseId": SRCROOT}


def to_sarif(reports: Sequence[FileReport], version: str,
             unreadable: Sequence[Tuple[str, str]] = ()) -> str:
    """A SARIF 2.1.0 log of one run, for code-scanning tools: each rule
    described (its summary, and the ``lcn explain`` text as its help, plain
    and Markdown), the findings, and the invocation: successful unless a file
    could not be read (``unreadable``: each file's path and why), each such
    file then a notification."""
    from pathlib import Path

    from .explain import explain, explain_markdown  # the spec's examples, for SARIF only

    rules: List[Dict[str, Any]] = []
    index: Dict[str, int] = {}
    for code, (severity, summary_text) in sorted(ALL_CODES.items()):
        index[code] = len(rules)
        rules.append({
            "id": code,
            "shortDescription": {"text": summary_text},
            "fullDescription": {"text": f"{summary_text} ({ALL_CODES.name(code)}, "
                                        f"{severity.value})"},
            "help": {"text": explain(code), "markdown": explain_markdown(code)},
            "helpUri": documentation_url(code),
            "defaultConfiguration": {"level": _SARIF_LEVEL[severity]},
        })
    driver: Dict[str, Any] = {"name": "lcn", "version": version}
    home = home_url()
    if home is not None:
        driver["informationUri"] = home
    driver["rules"] = rules
    results = []
    for report in reports:
        for f in report.findings:
            d = f.diagnostic
            result: Dict[str, Any] = {
                "ruleId": d.code,
                "level": _SARIF_LEVEL[d.severity],
                "message": {"text": d.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": _location(d.path or report.path),
                    "region": {"startLine": d.line, "startColumn": d.column,
                               "endLine": d.end_line, "endColumn": d.end_column},
                }}],
            }
            if d.code in index:
                result["ruleIndex"] = index[d.code]
            results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "invocations": [_invocation(unreadable)],
            # Our columns count code points; SARIF's default is UTF-16 code units.
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
            "results": results,
        }],
    }
    return json_text(log)


def _invocation(unreadable: Sequence[Tuple[str, str]]) -> Dict[str, Any]:
    """The run's invocation: it failed when a file could not be read, and
    says which, as ``lcn lint`` says it on standard error."""
    if not unreadable:
        return {"executionSuccessful": True}
    return {"executionSuccessful": False, "toolExecutionNotifications": [
        {"level": "error", "message": {"text": printable(f"{path}: cannot read: {why}")},
         "locations": [{"physicalLocation": {"artifactLocation": _location(path)}}]}
        for path, why in unreadable]}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class Tally:
    """What the summary line counts, added up report by report, so that a run
    need not keep its findings once they are written."""

    def __init__(self) -> None:
        self.files = self.games = self.moves = self.fixable = 0
        self.severities: Dict[Severity, int] = {s: 0 for s in Severity}

    def add(self, report: FileReport) -> None:
        self.files += 1
        self.games += report.games
        self.moves += report.moves
        self.add_findings(report.findings)

    def add_findings(self, findings: "Iterable[Finding]") -> None:
        """Count findings written before their file's report (which then holds none)."""
        for f in findings:
            self.severities[f.diagnostic.severity] += 1
            self.fixable += f.fix is not None


def summary(reports: "Sequence[FileReport] | Tally", unreadable: int = 0) -> str:
    """One line: what was found, in how many files, games and moves, and how
    many files could not be read (then nothing is "all clear")."""
    if isinstance(reports, Tally):
        tally = reports
    else:
        tally = Tally()
        for r in reports:
            tally.add(r)
    files, games, moves, fixable = tally.files, tally.games, tally.moves, tally.fixable
    errors, warnings, infos = (tally.severities[s] for s in
                               (Severity.ERROR, Severity.WARNING, Severity.INFO))
    scope = f"{_plural(files, 'file')}, {_plural(games, 'game')}, {_plural(moves, 'move')}"
    unread = f"{_plural(unreadable, 'file')} could not be read." if unreadable else ""
    if not files and unread:
        return f"Nothing linted: {unread}"
    if not (errors or warnings or infos):
        return f"No findings in {scope}; {unread}" if unread else f"All clear: {scope}."
    parts = [_plural(errors, "error"), _plural(warnings, "warning"), f"{infos} info"]
    line = f"Found {', '.join(parts)} in {scope}."
    if fixable:
        line += f" {fixable} fixable with --fix."
    return f"{line} {unread}" if unread else line


def statistics(counts: Dict[str, List[int]]) -> str:
    """``--statistics``: one line per code, most frequent first, with how many
    findings it had, ``[*]`` when some are fixable, and its summary.

    ``counts`` maps a code to [findings, fixable findings].

    >>> print(statistics({"S102": [3, 3], "R101": [1, 0]}))
    3  S102  [*] letters not in the case of the dialect (upper case, or lower case for lower)
    1  R101      a number card not higher than the last card of its expedition
    """
    rows = sorted(counts.items(), key=lambda kv: (-kv[1][0], kv[0]))
    width = max((len(str(n)) for n, _ in counts.values()), default=1)
    return "\n".join(
        f"{n:>{width}}  {code}  {'[*]' if fixable else '   '} {ALL_CODES.get(code, (None, ''))[1]}"
        for code, (n, fixable) in rows)
