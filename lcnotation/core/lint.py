"""What a lint run is asked (:class:`LintConfig`) and what it finds in a file
(:class:`FileReport`), for every notation.

>>> LintConfig(select=("R", "S1"), ignore=("S102",)).wants("S101")
True
>>> LintConfig(select=("R", "S1"), ignore=("S102",)).wants("S102")
False
>>> LintConfig().wants("F304"), LintConfig(ignore=("F3",)).wants("F304")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from .diagnostics import Diagnostic, NotationError, Severity
from .findings import Finding, Fix

__all__ = ["LintConfig", "FileReport", "FixResult", "always_reported"]


def always_reported(code: str) -> bool:
    """Whether findings of ``code`` are reported whatever ``select`` and
    ``ignore`` say: Lost Cities' syntax errors (N), as in ruff: a record that
    cannot be read is never "all clear".  ``lcn lint --add-noqa`` leaves them
    to be fixed.

    >>> always_reported("N104"), always_reported("R101")
    (True, False)
    """
    return code.startswith("N")


@dataclass(frozen=True)
class LintConfig:
    """Which findings to report and against what expectations.

    ``select`` and ``ignore`` hold codes or code prefixes (``"S"``,
    ``"R1"``, ``"N103"``); a finding is reported when it matches a selected
    prefix (every code, when ``select`` is None) and no ignored one.  The rest
    is for the notation: for Lost Cities, ``colors`` are the colours of a game
    without a Colors header (None: the default five), and ``dialect`` the
    spelling the style checks expect (None: upper case, and whichever discard
    marker the file uses first); ``notation`` names the notation the file is
    read in (None: by its extension).
    """

    select: Optional[Tuple[str, ...]] = None
    ignore: Tuple[str, ...] = ()
    colors: Optional[Tuple[str, ...]] = None
    dialect: Optional[str] = None
    notation: Optional[str] = None

    def wants(self, code: str) -> bool:
        """Whether findings of ``code`` are reported (those of
        :func:`always_reported` always are)."""
        if always_reported(code):
            return True
        return ((self.select is None or any(code.startswith(p) for p in self.select))
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


@dataclass
class FixResult:
    """What fixing a stream did: the report of the fixed text, the fixes
    applied, and the syntax errors met (a file with some is not rewritten
    unless forced)."""

    report: FileReport
    applied: int = 0
    error_count: int = 0
    first_error: Optional[NotationError] = None
