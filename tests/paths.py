"""The parser's two paths, for tests that compare them."""

from __future__ import annotations

import contextlib
from typing import Iterator

from lcnotation.text.parser import parser


@contextlib.contextmanager
def fast_path(on: bool) -> Iterator[None]:
    """Read with the fast path on or off (off: every game through Lark)."""
    p = parser()
    p.use_fast_path = on
    try:
        yield
    finally:
        p.use_fast_path = True


def lark_only() -> "contextlib.AbstractContextManager[None]":
    """Read every game through Lark."""
    return fast_path(False)
