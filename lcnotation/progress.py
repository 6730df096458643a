"""A small progress bar for the terminal (stderr), shown only to people.

It draws nothing unless its stream is a terminal, so piped and CI output
stays clean.  It redraws at most ten times a second.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Optional


class Progress:
    """``with Progress(total) as bar: ... bar.advance()``"""

    def __init__(self, total: int, label: str = "linting", stream: Optional[IO[str]] = None,
                 enabled: Optional[bool] = None) -> None:
        self.total = total
        self.done = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", lambda: False)
        self.enabled = isatty() if enabled is None else enabled
        self._last = 0.0

    def __enter__(self) -> "Progress":
        return self

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and (now - self._last >= 0.1 or self.done >= self.total):
            self._last = now
            self._draw()

    def _draw(self) -> None:
        width = 30
        filled = width * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
        self.stream.flush()

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * (len(self.label) + 50) + "\r")
            self.stream.flush()
