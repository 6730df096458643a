"""Dialects: the spellings of the notation that lcnotation reads and writes.

A dialect is a small declarative record, registered by name.  Every dialect
spells the same moves; only the letters differ.  The reader accepts all of
them at once (the grammar is case-insensitive and takes both discard
markers), so dialects matter when writing.

A dialect also declares what it *cannot* express: ``colors`` limits the
colour letters it can write, and ``comments=False`` says it has no way to
write comments.  Writing something outside those limits is refused, never
approximated (:class:`ConversionError` in :mod:`lcnotation.lostcities.convert`).

>>> get_dialect("x-discard").discard
'X'
>>> list(DIALECTS)
['v1', 'x-discard', 'lower', 'v1-draft']
>>> get_dialect("v1-draft").can_write_color("P")
False

Adding a dialect takes one statement:

>>> loud = Dialect("loud", "x-discard without comments", discard="X", comments=False)
>>> loud.can_write_color("P"), loud.comments
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Sequence, Tuple, Union

from ...core.diagnostics import NotationError
# Every letter that can name a colour (upper case): any upper-case letter but
# D, H and X, as the grammar has it.
from .lexical import COLOR_LETTERS

__all__ = ["Dialect", "DIALECTS", "register_dialect", "get_dialect", "ConversionError",
           "COLOR_LETTERS", "RESERVED_NAMES"]


@dataclass(frozen=True)
class Dialect:
    """How moves are spelt (discard marker, letter case) and what can be written.

    >>> Dialect("bad", "a discard marker that clashes", discard="H")
    Traceback (most recent call last):
    ...
    ValueError: dialect 'bad': the discard marker must be D or X, not 'H'
    """

    name: str
    description: str
    #: The discard suffix: ``"D"`` (v1.0) or ``"X"``.
    discard: str = "D"
    #: Write every letter in lower case.
    lowercase: bool = False
    #: The only colour letters (upper case) this dialect can write, or None
    #: when it can write every colour letter.
    colors: Optional[str] = None
    #: False for a dialect that has no way to write comments.
    comments: bool = True

    def __post_init__(self) -> None:
        if self.discard not in ("D", "X"):
            raise ValueError(f"dialect {self.name!r}: the discard marker must be D or X, "
                             f"not {self.discard!r}")
        if self.colors is not None:
            bad = [c for c in self.colors if c not in COLOR_LETTERS]
            if bad or len(set(self.colors)) != len(self.colors) or not self.colors:
                raise ValueError(f"dialect {self.name!r}: colors must be distinct upper-case "
                                 f"colour letters (not D, H or X), not {self.colors!r}")

    def can_write_color(self, letter: str) -> bool:
        """Whether this dialect can write the colour ``letter`` (upper case)."""
        return self.colors is None or letter in self.colors


#: Every dialect, by name: ``v1``, ``x-discard``, ``lower``, ``v1-draft`` and
#: those added with :func:`register_dialect`.
DIALECTS: Dict[str, Dialect] = {}


#: Names a dialect cannot have: conversion and detection use them for other things.
RESERVED_NAMES = ("json", "mixed", "unknown")


def register_dialect(dialect: Dialect) -> Dialect:
    """Register ``dialect`` under its name (replacing one of the same name).

    >>> register_dialect(Dialect("json", "a spelling"))
    Traceback (most recent call last):
    ...
    ValueError: 'json' cannot name a dialect: it is reserved (json, mixed, unknown)
    """
    if dialect.name in RESERVED_NAMES:
        raise ValueError(f"{dialect.name!r} cannot name a dialect: it is reserved "
                         f"({', '.join(RESERVED_NAMES)})")
    DIALECTS[dialect.name] = dialect
    return dialect


def get_dialect(dialect: Union[str, Dialect]) -> Dialect:
    """The dialect called ``dialect`` (a :class:`Dialect` is returned as is)."""
    if isinstance(dialect, Dialect):
        return dialect
    try:
        return DIALECTS[dialect]
    except KeyError:
        known = ", ".join(DIALECTS)
        raise ValueError(f"unknown dialect {dialect!r}; known dialects: {known}") from None


class ConversionError(NotationError):
    """Text that cannot be converted, with every problem found.

    A conversion refuses rather than guesses: for syntax errors in its input,
    for something the target dialect cannot express, for a JSON document of
    the wrong shape.  ``errors`` lists every problem (each a
    :class:`~lcnotation.core.diagnostics.NotationError` with its position); the
    exception's own message, span and code are those of the first.

    >>> from lcnotation.lostcities.text.ast import Span
    >>> a = NotationError("first", Span(1, 1, 1, 2, 0, 1), code="N101")
    >>> b = NotationError("second", Span(2, 1, 2, 2, 5, 6), code="N103")
    >>> err = ConversionError([a, b])
    >>> str(err), err.code, len(err.errors)
    ('line 1, column 1: first (N101) (and 1 more problem)', 'N101', 2)
    """

    def __init__(self, errors: Sequence[NotationError]) -> None:
        if not errors:
            raise ValueError("ConversionError needs at least one error")
        first = errors[0]
        super().__init__(first.message, first.span, code=first.code, path=first.path)
        self.errors = tuple(errors)

    def __str__(self) -> str:
        text = str(self.errors[0])
        more = len(self.errors) - 1
        if more:
            text += f" (and {more} more problem{'s' if more > 1 else ''})"
        return text

    def __repr__(self) -> str:
        return f"ConversionError({list(self.errors)!r})"

    def __reduce__(self) -> Tuple[Callable[..., NotationError], Tuple[object, ...]]:
        return (ConversionError, (self.errors,))


V1 = register_dialect(Dialect(
    "v1", "Lost Cities Standard Notation v1.0, canonical: upper case, D marks a discard"))
X_DISCARD = register_dialect(Dialect(
    "x-discard", "v1.0 with X as the discard marker (BHX-D)", discard="X"))
LOWER = register_dialect(Dialect(
    "lower", "v1.0 in lower-case letters (bhd-d)", lowercase=True))
# The 2016 draft names six colours in a table and nothing else; tools written
# to the letter of it know only these.
V1_DRAFT = register_dialect(Dialect(
    "v1-draft", "v1.0 with only the colours of the 2016 draft's table: R G W B Y, "
    "and K for black; a custom colour such as P cannot be written", colors="RGWBYK"))
