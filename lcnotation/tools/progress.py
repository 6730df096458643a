"""A small progress bar for the terminal (stderr), shown only to people.

It draws nothing unless its stream is a terminal, so piped and CI output
stays clean.  It redraws at most ten times a second.

>>> import io
>>> class Terminal(io.StringIO):
...     def isatty(self):
...         return True
>>> screen = Terminal()
>>> with Progress(2, stream=screen) as bar:
...     bar.advance()
>>> screen.getvalue().split("\\r")[1]
'linting [###############---------------] 1/2'
>>> piped = io.StringIO()
>>> with Progress(2, stream=piped) as bar:
...     bar.advance(2)
>>> piped.getvalue()
''
"""

from __future__ import annotations

import sys
import time
from typing import IO, Optional

__all__ = ["Progress"]


class Progress:
    """``with Progress(total) as bar: ... bar.advance()``

    ``enabled`` forces the bar on or off; by default it is on when ``stream``
    (stderr) is a terminal.  Call :meth:`clear` before writing other text to
    the same terminal; the bar comes back at the next :meth:`advance`.
    """

    WIDTH = 30

    def __init__(self, total: int, label: str = "linting", stream: Optional[IO[str]] = None,
                 enabled: Optional[bool] = None, unit: str = "") -> None:
        self.total = total
        #: "" counts things (files); "MB" shows bytes as megabytes.
        self.unit = unit
        self.done = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty()) if callable(isatty) else False
        self.enabled = enabled
        self._last = float("-inf")
        self._shown = 0  # length of the bar on the screen, 0 when none
        #: Shown after the count (``lcn match``: the score so far).
        self.note = ""

    def __enter__(self) -> "Progress":
        return self

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last >= 0.1 or self.done >= self.total:
            self._last = now
            self._draw()

    def update(self, done: int) -> None:
        """Set how much is done (for a count that is known, not added up)."""
        self.advance(done - self.done)

    def _draw(self) -> None:
        filled = self.WIDTH * min(self.done, self.total) // max(self.total, 1)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        if self.unit == "MB":
            amount = f"{self.done / 1e6:.1f}/{self.total / 1e6:.1f} MB"
        else:
            amount = f"{self.done}/{self.total}"
        line = f"{self.label} [{bar}] {amount}" + (f"  {self.note}" if self.note else "")
        self.stream.write("\r" + line.ljust(self._shown))
        self.stream.flush()
        self._shown = len(line)

    def clear(self) -> None:
        """Erase the bar from the screen (if it is there)."""
        if self._shown:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
            self._shown = 0
            self._last = float("-inf")

    def __exit__(self, *exc: object) -> None:
        self.clear()
