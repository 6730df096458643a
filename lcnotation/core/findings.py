"""Findings and their fixes, for every notation.

A :class:`Finding` is a diagnostic and, when the intent is certain, a
:class:`Fix`: text edits that together make it go away.
:func:`apply_fixes` applies a set of fixes that do not overlap.

>>> fix = Fix("upper case", (Edit(0, 4, "R3-D"),))
>>> apply_fixes("r3-d B4-D", [fix])
('R3-D B4-D', 1)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Tuple, TypeVar

from .diagnostics import Diagnostic

__all__ = ["Edit", "Fix", "Finding", "apply_fixes", "moved", "fix_loop", "FIX_ROUNDS"]


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` (offsets in the file) with ``replacement``."""

    start: int
    end: int
    replacement: str


@dataclass(frozen=True)
class Fix:
    """Edits that together make a finding go away.

    ``newline``, when set, rewrites every line end of the file as that one
    (the fix of S107); the edits then are empty.
    """

    description: str
    edits: Tuple[Edit, ...]
    newline: Optional[str] = None


@dataclass(frozen=True)
class Finding:
    """A diagnostic and, when the intent is certain, its fix."""

    diagnostic: Diagnostic
    fix: Optional[Fix] = None


def apply_fixes(text: str, fixes: Sequence[Fix]) -> Tuple[str, int]:
    """Apply non-overlapping fixes to ``text``; return the new text and how
    many fixes were applied.

    Fixes are taken in the order of their first edit; a fix that overlaps one
    already taken (an edit inside another, or two edits at the same place) is
    skipped.  The time grows as n log n with the number of fixes: the edits
    taken are kept sorted, and an edit is compared only with those that
    start within the longest edit's length before it.
    """
    starts: List[int] = []
    taken: List[Tuple[int, int]] = []
    longest = 0
    edits: List[Tuple[int, int, str]] = []
    applied = 0
    for fix in sorted((f for f in fixes if f.edits), key=lambda f: min(e.start for e in f.edits)):
        if any(_overlaps(e, starts, taken, longest) for e in fix.edits):
            continue
        for e in fix.edits:
            at = bisect_right(starts, e.start)
            starts.insert(at, e.start)
            taken.insert(at, (e.start, e.end))
            longest = max(longest, e.end - e.start)
            edits.append((e.start, e.end, e.replacement))
        applied += 1
    edits.sort()
    out: List[str] = []
    pos = 0
    for start, end, replacement in edits:
        out.append(text[pos:start])
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    return "".join(out), applied


def _overlaps(e: Edit, starts: List[int], taken: List[Tuple[int, int]], longest: int) -> bool:
    """Whether ``e`` overlaps an edit in ``taken`` (sorted by start, as ``starts``)."""
    for i in range(bisect_left(starts, e.start - longest), bisect_right(starts, e.end)):
        start, end = taken[i]
        if e.start < end and start < e.end or e.start == start:
            return True
    return False


def moved(fixes: Sequence[Fix], by: int) -> List[Fix]:
    """``fixes`` with their edits moved by ``by`` characters."""
    return [Fix(f.description, tuple(Edit(e.start + by, e.end + by, e.replacement)
                                     for e in f.edits), f.newline) for f in fixes]


#: How many times :func:`fix_loop` lints and fixes again: the fixes of one
#: finding may overlap those of another (a move's case and its discard marker).
FIX_ROUNDS = 8

R = TypeVar("R")


def fix_loop(text: str, result: R, relint: Callable[[str], R],
             fixes_of: Callable[[R], Sequence[Fix]], offset: int = 0) -> Tuple[str, int, R]:
    """Apply the fixes of ``result`` (the lint of ``text``) and lint again, until
    no fix is left or applying changes nothing (at most :data:`FIX_ROUNDS`
    rounds): the fixed text, how many fixes were applied, and its lint.
    ``offset`` is where ``text`` starts in the file the fixes' edits count in.
    """
    applied = 0
    for _ in range(FIX_ROUNDS):
        fixes = [f for f in fixes_of(result) if f.edits]
        if not fixes:
            break
        fixed, count = apply_fixes(text, moved(fixes, -offset) if offset else fixes)
        if fixed == text:
            break
        text, applied = fixed, applied + count
        result = relint(text)
    return text, applied, result
