"""Text for terminals: what a message may quote of a file, safely.

A record, a file name or a header value can hold control characters; every
message that quotes one goes through :func:`printable`, so that it stays on
one line and cannot drive the terminal.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

__all__ = ["printable", "printable_diff", "json_text"]


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


def numbers_shortened(text: str) -> str:
    """``text`` with every number of more than 20 digits shown by its first
    20 and its length: a message that echoes an argument of 5,000 digits
    stays a line.

    >>> numbers_shortened("not '" + "9" * 5000 + "'")
    "not '99999999999999999999… (5,000 digits)'"
    """
    return _LONG_NUMBER.sub(lambda m: f"{m.group()[:20]}… ({len(m.group()):,} digits)", text)


_LONG_NUMBER = re.compile(r"[0-9]{21,}")


def surrogates_escaped(text: str) -> str:
    r"""``text`` with each lone surrogate (a byte of a file name or an
    argument that is not UTF-8, as Python reads it) written as the escape the
    messages show, so that the text can be written as UTF-8.

    >>> surrogates_escaped("caf\udce9.lcn")
    'caf\\udce9.lcn'
    """
    if text.isascii():
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


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
    import difflib  # only to show changes (not for findings)

    for line in difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, path):
        yield printable(line[:-1] if line.endswith("\n") else line) + "\n"


def json_text(value: Any) -> str:
    r"""``value`` as indented JSON, characters as they are, except the lone
    surrogates of a file name that is not UTF-8 (so that the text can always
    be written as UTF-8) and the controls JSON leaves alone, DEL and the C1
    controls U+0080 to U+009F (so that the text cannot drive a terminal):
    those are escaped.

    >>> json_text({"path": "caf\udce9\x9b.lcn"})
    '{\n  "path": "caf\\udce9\\u009b.lcn"\n}'
    """
    import json  # not for text output

    text = json.dumps(value, indent=2, ensure_ascii=False)
    if _UNSAFE.search(text) is None:
        return text
    # These can only stand inside a JSON string, where their escape means the same.
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_UNSAFE = re.compile("[\x7f-\x9f\ud800-\udfff]")
