"""Writing lint findings: plain text, JSON, GitHub annotations and SARIF 2.1.0.

>>> from lcnotation.text.ast import Span
>>> d = Diagnostic("N103", "bad rank", Span(2, 4, 2, 6, 10, 12), path="a.lcn")
>>> print(text_line(d))
a.lcn:2:4: N103 bad rank
>>> print(github_line(d))
::error file=a.lcn,line=2,col=4,endLine=2,endColumn=6,title=N103::bad rank
"""

from __future__ import annotations

import difflib
import json
import os
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence
from urllib.parse import quote

from .codes import ALL_CODES
from ..text.errors import Diagnostic, Severity
from .lint import FileReport

__all__ = ["printable", "printable_diff", "text_line", "github_line", "diagnostic_json",
           "json_text", "to_json",
           "to_sarif", "summary"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/lcnotation/lcnotation"
_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def printable(text: str) -> str:
    r"""``text`` with control characters written as escapes, so that a message
    quoting a hostile file (or a file name holding a line break) stays one
    line and cannot drive the terminal.

    >>> printable("a\x1b[2Jb\nc\td")
    'a\\x1b[2Jb\\nc\td'
    """
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(lambda m: _ESCAPES.get(m.group(), f"\\x{ord(m.group()):02x}"), text)


_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_ESCAPES = {"\n": "\\n", "\r": "\\r"}


def printable_diff(old: str, new: str, path: str) -> Iterator[str]:
    r"""The unified diff of two texts of the file ``path``, line by line,
    each escaped as :func:`printable` does (the file name and the record's
    text are shown, never obeyed).

    >>> print("".join(printable_diff("R3-D\n", "R4-D\n", "a\x1b.lcn")), end="")
    --- a\x1b.lcn
    +++ a\x1b.lcn
    @@ -1 +1 @@
    -R3-D
    +R4-D
    """
    for line in difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, path):
        yield printable(line[:-1] if line.endswith("\n") else line) + "\n"


def text_line(d: Diagnostic, fixable: bool = False) -> str:
    """``path:line:col: CODE message`` (``[*]`` marks a finding ``--fix`` can repair)."""
    mark = " [*]" if fixable else ""
    return printable(f"{d.path or '-'}:{d.line}:{d.column}: {d.code}{mark} {d.message}")


def _escape_data(s: str) -> str:
    return printable(s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def github_line(d: Diagnostic) -> str:
    """A GitHub Actions workflow command that annotates the finding."""
    props = (f"file={_escape_property(d.path or '-')},line={d.line},col={d.column},"
             f"endLine={d.end_line},endColumn={d.end_column},title={_escape_property(d.code)}")
    return f"::{_GITHUB_LEVEL[d.severity]} {props}::{_escape_data(d.message)}"


def diagnostic_json(d: Diagnostic, fixable: bool = False) -> Dict[str, Any]:
    """One finding as the JSON object ``--format json`` writes."""
    return {
        "path": d.path, "line": d.line, "column": d.column,
        "end_line": d.end_line, "end_column": d.end_column,
        "code": d.code, "severity": d.severity.value, "message": d.message,
        "turn": d.turn, "fixable": fixable,
    }


def json_text(value: Any, indent: Optional[int] = 2) -> str:
    r"""``value`` as JSON, characters as they are, except the lone surrogates
    of a file name that is not UTF-8 (so that the text can always be written
    as UTF-8) and the controls JSON leaves alone, DEL and the C1 controls
    U+0080 to U+009F (so that the text cannot drive a terminal): those are
    escaped.

    >>> json_text({"path": "caf\udce9\x9b.lcn"})
    '{\n  "path": "caf\\udce9\\u009b.lcn"\n}'
    """
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    if _UNSAFE.search(text) is None:
        return text
    # These can only stand inside a JSON string, where their escape means the same.
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_UNSAFE = re.compile("[\x7f-\x9f\ud800-\udfff]")


def to_json(reports: Sequence[FileReport]) -> str:
    """All findings as a JSON array, one object per finding."""
    items = [diagnostic_json(f.diagnostic, f.fix is not None) for r in reports for f in r.findings]
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


def to_sarif(reports: Sequence[FileReport], version: str) -> str:
    """A SARIF 2.1.0 log of one run, for code-scanning tools."""
    rules: List[Dict[str, Any]] = []
    index: Dict[str, int] = {}
    for code, (severity, summary_text) in sorted(ALL_CODES.items()):
        index[code] = len(rules)
        rules.append({
            "id": code,
            "shortDescription": {"text": summary_text},
            "defaultConfiguration": {"level": _SARIF_LEVEL[severity]},
        })
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
            "tool": {"driver": {"name": "lcn", "version": version,
                                "informationUri": INFORMATION_URI, "rules": rules}},
            # Our columns count code points; SARIF's default is UTF-16 code units.
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
            "results": results,
        }],
    }
    return json_text(log)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(reports: Sequence[FileReport], unreadable: int = 0) -> str:
    """One line: what was found, in how many files, games and moves, and how
    many files could not be read (then nothing is "all clear")."""
    files = len(reports)
    games = sum(r.games for r in reports)
    moves = sum(r.moves for r in reports)
    errors = sum(r.count(Severity.ERROR) for r in reports)
    warnings = sum(r.count(Severity.WARNING) for r in reports)
    infos = sum(r.count(Severity.INFO) for r in reports)
    fixable = sum(len(r.fixes) for r in reports)
    scope = f"{_plural(files, 'file')}, {_plural(games, 'game')}, {_plural(moves, 'move')}"
    unread = f"{_plural(unreadable, 'file')} could not be read." if unreadable else ""
    if not (errors or warnings or infos):
        return f"No findings in {scope}; {unread}" if unread else f"All clear: {scope}."
    parts = [_plural(errors, "error"), _plural(warnings, "warning"), _plural(infos, "note")]
    line = f"Found {', '.join(parts)} in {scope}."
    if fixable:
        line += f" {fixable} fixable with --fix."
    return f"{line} {unread}" if unread else line
