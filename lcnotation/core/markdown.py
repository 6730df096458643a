"""Markdown that carries values from a record, made safe to render.

A hover is Markdown, and an editor renders it: a player name such as
``![t](http://host/x.png)`` would make the editor fetch that address, and
``[c](command:...)`` would be a link that runs a command.  Every value that
comes from a record goes into Markdown through :func:`escape`, which makes
it plain text: each ASCII punctuation character gets a backslash (CommonMark
lets every one be escaped so, and shows it as itself), and a line end
becomes a space.

>>> print(escape("![t](http://host/x.png) <img src=x> *Ann*"))
\\!\\[t\\]\\(http\\:\\/\\/host\\/x\\.png\\) \\<img src\\=x\\> \\*Ann\\*
>>> escape("Ann Smith"), escape("Zoë")
('Ann Smith', 'Zoë')
"""

from __future__ import annotations

import re

__all__ = ["escape"]

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_LINE_END = re.compile(r"\r\n|[\r\n\u2028\u2029\x85]")


def escape(value: str) -> str:
    """``value`` as Markdown that renders as exactly that text, on one line."""
    return _PUNCTUATION.sub(r"\\\1", _LINE_END.sub(" ", value))
