"""``lcn lint --add-noqa``: a suppression comment for each finding of today.

For every finding of a record that a comment can silence, a
``lcn: ignore[CODE]`` is written on the line where it is reported: the
line's suppression is extended when it has one, else the notation writes a
comment at the line's end (:class:`~lcnotation.core.notation.Suppresses`);
the codes of one line go into one comment.  Nothing else of the record
changes: its moves and layout read as before, its line ends and byte-order
mark are kept.  What no comment silences is left, with the reason: syntax
errors (always reported: fix them), a suppression that silences nothing, a
finding about the file as a whole, a line where no comment can go, every
finding of a notation without suppression comments, and every finding of a
file that is not UTF-8 (never rewritten).

Before the new text is given, it is linted again: it must report exactly
the findings that were left (by code and line).  When it does not, the text
is given back unchanged and every finding is left.

>>> from lcnotation.core.lint import LintConfig
>>> done = add_noqa_bytes(b"1. R3-D 2. r4-d\\n", "a.lcn", LintConfig())
>>> done.data.decode(), done.added, done.left
('1. R3-D 2. r4-d ; lcn: ignore[R110, S102]\\n', 1, [])
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ..core.diagnostics import NotationError
from ..core.files import BOM, decode_text
from ..core.findings import Edit, Finding
from ..core.lineends import as_lf
from ..core.lint import FileReport, LintConfig, always_reported
from ..core.notation import Suppresses
from .lint import lint_stream
from .notations import notation_for

__all__ = ["Left", "Noqa", "add_noqa_bytes", "SYNTAX", "UNSUPPRESSIBLE", "NO_PLACE",
           "NO_COMMENTS", "CHANGED", "NOT_UTF8"]

#: Why a finding is left (the ``reason`` of :class:`Left`).
SYNTAX = "syntax errors are always reported: fix them"
UNSUPPRESSIBLE = "no comment silences this code"
NO_PLACE = "no comment can go on its line without changing the record"
NO_COMMENTS = "this notation has no suppression comments"
CHANGED = "the suppressions would change what the record reports: nothing was added"
NOT_UTF8 = "the file is not UTF-8 text: it is not rewritten"


class Left(Tuple[Finding, str]):
    """A finding left as it was, and why (one of the reasons above)."""

    __slots__ = ()

    def __new__(cls, finding: Finding, reason: str) -> "Left":
        return super().__new__(cls, (finding, reason))

    @property
    def finding(self) -> Finding:
        return self[0]

    @property
    def reason(self) -> str:
        return self[1]


@dataclass
class Noqa:
    """What adding suppressions to one file's bytes did."""

    #: The new bytes (the same bytes when nothing was added).
    data: bytes
    #: How many lines got a suppression (a new comment, or codes added to one).
    added: int = 0
    #: How many codes were written in all.
    codes: int = 0
    #: The findings left, and why.
    left: List[Left] = field(default_factory=list)
    #: The report of the file as it was.
    report: Optional[FileReport] = None


_LINE_END = re.compile(r"(\r\n|\r|\n)")


def add_noqa_bytes(data: bytes, path: str, config: LintConfig) -> Noqa:
    """Suppress the findings of the record ``data`` (the file ``path``) that
    ``config`` selects and a comment can silence (see the module).  Bytes that
    are not UTF-8 are not rewritten: every finding is left."""
    report = _lint(data, path, config)
    done = Noqa(data, report=report)
    try:
        raw, bom = decode_text(data)
    except NotationError:  # bytes that are not UTF-8 are never rewritten
        done.left = [Left(f, SYNTAX if always_reported(f.diagnostic.code) else NOT_UTF8)
                     for f in report.findings]
        return done
    chosen = notation_for(path, config.notation)
    notation = chosen if isinstance(chosen, Suppresses) else None
    codes: Dict[int, List[str]] = {}
    wanted: List[Finding] = []
    for f in report.findings:
        code = f.diagnostic.code
        if always_reported(code):
            done.left.append(Left(f, SYNTAX))
        elif notation is None:
            done.left.append(Left(f, NO_COMMENTS))
        elif code in notation.unsuppressible:
            done.left.append(Left(f, UNSUPPRESSIBLE))
        else:
            wanted.append(f)
            line = codes.setdefault(f.diagnostic.line, [])
            if code not in line:
                line.append(code)
    if not wanted or notation is None:
        return done
    text = as_lf(raw)
    edits = {line: edit for line, edit in
             notation.ignore_edits(text, {n: sorted(cs) for n, cs in codes.items()}).items()
             if line in codes and _within_line(text, edit)}
    # The new text must report exactly the findings left, line by line; the
    # lines where it does not (a finding reported on a line of the next game,
    # which a comment there does not silence) lose their edit, and it is tried
    # again.
    for _ in range(_TRIES):
        if not edits:
            break
        left = done.left + [Left(f, NO_PLACE) for f in wanted
                            if f.diagnostic.line not in edits]
        new = _applied(text, sorted(edits.values(), key=lambda e: e.start))
        new_data = (BOM if bom else b"") + _with_line_ends(new, raw).encode("utf-8")
        after = _lint(new_data, path, config)
        if after.unreadable is not None:
            break
        expected = _by_line([x.finding for x in left])
        found = _by_line(after.findings)
        wrong = {line for _, line in (found - expected) + (expected - found)}
        if not wrong:
            done.data, done.left = new_data, left
            done.added = len(edits)
            done.codes = sum(len(codes[line]) for line in edits)
            break
        if not wrong & set(edits):
            break  # the edits changed findings elsewhere: give up
        edits = {line: edit for line, edit in edits.items() if line not in wrong}
    if done.data is data:  # nothing is added
        done.left += [Left(f, CHANGED if edits else NO_PLACE) for f in wanted]
    done.left.sort(key=lambda x: (x.finding.diagnostic.line, x.finding.diagnostic.column))
    return done


#: How many times the edits are tried, fewer each time.
_TRIES = 4


def _lint(data: bytes, path: str, config: LintConfig) -> FileReport:
    """The report ``lcn lint`` gives of the bytes ``data``."""
    return lint_stream(io.BytesIO(data), path, config)


def _by_line(findings: List[Finding]) -> Counter[Tuple[str, int]]:
    return Counter((f.diagnostic.code, f.diagnostic.line) for f in findings)


def _within_line(text: str, edit: Edit) -> bool:
    """Whether ``edit`` stays inside one line of ``text`` (adds or removes no
    line end): the line ends of the file are put back line by line."""
    return ("\n" not in text[edit.start:edit.end] and "\n" not in edit.replacement
            and "\r" not in edit.replacement)


def _applied(text: str, edits: List[Edit]) -> str:
    """``text`` with ``edits`` (sorted, not overlapping) made."""
    pieces: List[str] = []
    at = 0
    for e in edits:
        pieces.append(text[at:e.start])
        pieces.append(e.replacement)
        at = e.end
    pieces.append(text[at:])
    return "".join(pieces)


def _with_line_ends(new: str, raw: str) -> str:
    """``new`` (LF line ends, as many lines as ``raw``) with the line end of
    each line of ``raw`` put back: a file that mixes them keeps them mixed."""
    if "\r" not in raw:
        return new
    ends = _LINE_END.split(raw)[1::2]
    lines = new.split("\n")
    assert len(lines) == len(ends) + 1
    return "".join(line + end for line, end in zip(lines, ends)) + lines[-1]
