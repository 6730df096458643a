"""Whole numbers written in the input, read without ever raising.

Python refuses to turn more than 4,300 decimal digits into an ``int``
(``ValueError``: the conversion takes time quadratic in the length).  A record
or a JSON document may hold such a number; every reader of a number in the
input goes through :func:`read_decimal`, which says "too long" instead.

>>> read_decimal("0042"), read_decimal("-7"), read_decimal("9" * 4301)
(42, -7, None)
"""

from __future__ import annotations

import sys
from typing import Optional

__all__ = ["MAX_DIGITS", "read_decimal", "too_long"]

#: The most significant digits (leading zeros not counted) a number may have.
MAX_DIGITS = 4300


def read_decimal(text: str) -> Optional[int]:
    """The value of ``text`` (ASCII digits, perhaps after a ``-``); None when
    it has more than :data:`MAX_DIGITS` significant digits."""
    negative = text.startswith("-")
    digits = text[negative:].lstrip("0") or "0"
    if len(digits) > MAX_DIGITS:
        return None
    value = _int(digits)
    return None if value is None else (-value if negative else value)


def _int(digits: str) -> Optional[int]:
    try:
        return int(digits)
    except ValueError:  # pragma: no cover - the host set a lower limit than ours
        limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
        if limit and len(digits) > limit:
            return None
        raise


def too_long(text: str) -> str:
    """What to say about a number :func:`read_decimal` would not read.

    >>> too_long("9" * 5000)
    'a number of 5,000 digits is too long to read (at most 4,300)'
    """
    digits = text.lstrip("-").lstrip("0")
    return f"a number of {len(digits):,} digits is too long to read (at most {MAX_DIGITS:,})"
