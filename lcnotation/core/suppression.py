"""Suppression comments, for every notation: ``lcn: ignore`` and ``lcn: ignore[CODES]``.

A comment holding ``lcn: ignore`` silences every finding of its line;
``lcn: ignore[R101, S1]`` silences those codes or code prefixes.  Not
``lcn: ignored``, nor ``xlcn: ignore``.  Each notation says where its comments
are (their text and the file offset where that text starts); this module
reads the suppressions in them, with the place of each code, and applies
them to findings: a suppression that silences nothing is itself a finding,
of the code the notation names for it (S100 for Lost Cities).

>>> s = find_suppression("late ; lcn: ignore[R101, s1]", 100, 3)
>>> s.codes, [(c.start, c.end) for c in s.named], s.close
(('R101', 'S1'), [(119, 123), (125, 127)], 127)
>>> find_suppression("lcn: ignored", 0, 1) is None
True
"""

from __future__ import annotations

import re
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from .codes import Family
from .diagnostics import Diagnostic, Severity
from .findings import Finding
from .span import Span

__all__ = ["MARK", "PATTERN", "Suppression", "Named", "find_suppression", "apply_suppressions",
           "suppression_comment"]

#: What a text must hold to be able to suppress anything (a quick test).
MARK = "lcn:"

#: A suppression in a comment's text (group 1: the codes in its brackets).
PATTERN = re.compile(r"(?<![\w-])lcn:[ \t]*ignore(?![\w-])(?:[ \t]*\[([^\]]*)\])?")


class Named(NamedTuple):
    """A code named by a suppression, as written (upper-cased), and where it is
    written (file offsets)."""

    code: str
    start: int
    end: int


class Suppression(NamedTuple):
    """The suppression of one comment.

    ``named`` is None for a bare ``lcn: ignore`` (every code of the line), else
    the codes in its brackets (possibly none); ``close`` is the file offset of
    the closing ``]`` (where a code can be added), None without brackets.
    ``span`` is the comment's, where a useless suppression is reported.
    """

    line: int
    named: Optional[Tuple[Named, ...]]
    close: Optional[int]
    span: Span

    @property
    def codes(self) -> Optional[Tuple[str, ...]]:
        return None if self.named is None else tuple(n.code for n in self.named)


def find_suppression(text: str, at: int, line: int,
                     span: Optional[Span] = None) -> Optional[Suppression]:
    """The suppression in a comment whose text ``text`` starts at file offset
    ``at`` on line ``line``, or None.  ``span`` is the whole comment's, where a
    useless suppression is reported; without it, ``text`` is a whole line and
    the suppression's own text is the place."""
    m = PATTERN.search(text) if MARK in text else None
    if m is None:
        return None
    where = span if span is not None else Span(line, m.start() + 1, line, m.end() + 1,
                                               at + m.start(), at + m.end())
    if m.group(1) is None:
        return Suppression(line, None, None, where)
    named: List[Named] = []
    offset = at + m.start(1)
    for piece in m.group(1).split(","):
        word = piece.strip()
        if word:
            begin = offset + piece.index(word)
            named.append(Named(word.upper(), begin, begin + len(word)))
        offset += len(piece) + 1
    return Suppression(line, tuple(named), at + m.end() - 1, where)


def suppression_comment(code: str) -> str:
    """The text of a suppression of ``code`` (the notation adds its comment mark)."""
    return f"lcn: ignore[{code}]"


def apply_suppressions(findings: List[Finding], suppressions: Iterable[Suppression],
                       unused: Callable[[str, Span], Diagnostic],
                       families: Sequence[Family] = ()) -> List[Finding]:
    """``findings`` (sorted by position) without those their line's suppressions
    silence, plus a finding ``unused(message, span)`` for each suppression, or
    code of one, that silences nothing; sorted by position again.  A code
    that no code of ``families`` (the notation's) starts with is said to be
    no such code (with no families, every code is taken as one)."""
    rules: Dict[int, List[Suppression]] = {}
    for s in suppressions:
        rules.setdefault(s.line, []).append(s)
    if not rules:
        return findings
    used: Dict[Tuple[int, str], bool] = {}
    kept: List[Finding] = []
    # Each suppression's codes, once ("*": every code).
    named = {id(s): (s.codes if s.codes is not None else ("*",))
             for line_rules in rules.values() for s in line_rules}
    for f in findings:
        silenced = False
        for s in rules.get(f.diagnostic.line, ()):
            for code in named[id(s)]:
                if code == "*" or f.diagnostic.code.startswith(code):
                    used[(id(s), code)] = True
                    silenced = True
        if not silenced:
            kept.append(f)
    for line_rules in rules.values():
        for s in line_rules:
            if s.codes == ():
                kept.append(Finding(unused(
                    "this suppression names no code: write lcn: ignore[CODE] "
                    "(or lcn: ignore for every code)", s.span)))
            for code in named[id(s)]:
                if used.get((id(s), code)):
                    continue
                if code != "*" and families and not _is_code(code, families):
                    message = (f"this suppression names {code}, no such code: no code "
                               f"of these records starts with {code!r}")
                else:
                    what = "anything" if code == "*" else code
                    message = (f"this suppression does not suppress {what}: nothing on "
                               f"line {s.line} reports it")
                kept.append(Finding(unused(message, s.span)))
    kept.sort(key=lambda f: (f.diagnostic.span.start, f.diagnostic.code))
    return kept


def _is_code(prefix: str, families: Sequence[Family]) -> bool:
    """Whether some code of ``families`` starts with ``prefix``."""
    return any(code.startswith(prefix) for family in families if family.prefix[:1] == prefix[:1]
               for code in family.codes)


def warning(code: str) -> Callable[[str, Span], Diagnostic]:
    """An ``unused`` for :func:`apply_suppressions`: a warning of ``code``."""
    def unused(message: str, span: Span) -> Diagnostic:
        return Diagnostic(code, message, span, Severity.WARNING)

    return unused
