"""Dialects: the spellings of the notation that lcnotation reads and writes.

A dialect is a small declarative record, registered by name.  Every dialect
spells the same moves; only the letters differ.  The reader accepts all of
them at once (the grammar is case-insensitive and takes both discard
markers), so dialects matter when writing.

>>> get_dialect("x-discard").discard
'X'
>>> sorted(DIALECTS)
['lower', 'v1', 'x-discard']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Union

__all__ = ["Dialect", "DIALECTS", "register_dialect", "get_dialect"]


@dataclass(frozen=True)
class Dialect:
    """How moves are spelt: the discard marker and the letter case."""

    name: str
    description: str
    #: The discard suffix: ``"D"`` (v1.0) or ``"X"``.
    discard: str = "D"
    #: Write every letter in lower case.
    lowercase: bool = False


DIALECTS: Dict[str, Dialect] = {}


def register_dialect(dialect: Dialect) -> Dialect:
    """Register ``dialect`` under its name (replacing one of the same name)."""
    if dialect.discard not in ("D", "X"):
        raise ValueError(f"discard marker must be D or X, not {dialect.discard!r}")
    DIALECTS[dialect.name] = dialect
    return dialect


def get_dialect(dialect: Union[str, Dialect]) -> Dialect:
    """The dialect called ``dialect`` (a :class:`Dialect` is returned as is)."""
    if isinstance(dialect, Dialect):
        return dialect
    try:
        return DIALECTS[dialect]
    except KeyError:
        known = ", ".join(sorted(DIALECTS))
        raise ValueError(f"unknown dialect {dialect!r}; known dialects: {known}") from None


V1 = register_dialect(Dialect(
    "v1", "Lost Cities Standard Notation v1.0, canonical: upper case, D marks a discard"))
X_DISCARD = register_dialect(Dialect(
    "x-discard", "v1.0 with X as the discard marker (BHX-D)", discard="X"))
LOWER = register_dialect(Dialect(
    "lower", "v1.0 in lower-case letters (bhd-d)", lowercase=True))
