"""Colour on a terminal: ANSI escapes, on only where they are wanted.

``--color auto`` (the default) colours when the output is a terminal, unless
the environment says otherwise: ``FORCE_COLOR`` (set and not empty) turns
colour on even through a pipe, ``NO_COLOR`` (set and not empty, see
https://no-color.org) turns it off; ``FORCE_COLOR`` wins when both are set.
``always`` and ``never`` ignore all that.  Plain escapes, no library: the
start-up of ``lcn`` stays that of Python and Lark.

>>> Palette(True).code("S102"), Palette(False).code("S102")
('\\x1b[1;31mS102\\x1b[0m', 'S102')
>>> wants_colour("auto", {"NO_COLOR": "1"}, True), wants_colour("auto", {"FORCE_COLOR": "1"}, False)
(False, True)
"""

from __future__ import annotations

from typing import Mapping

from ..core.diagnostics import Severity

__all__ = ["CHOICES", "wants_colour", "Palette"]

CHOICES = ("auto", "always", "never")

_RESET = "\x1b[0m"
_SEVERITY = {Severity.ERROR: "1;31", Severity.WARNING: "1;33", Severity.INFO: "1;36"}


def wants_colour(choice: str, environ: Mapping[str, str], terminal: bool) -> bool:
    """Whether to colour, for ``--color choice`` with this environment and output."""
    if choice != "auto":
        return choice == "always"
    if environ.get("FORCE_COLOR"):
        return True
    if environ.get("NO_COLOR"):
        return False
    return terminal


class Palette:
    """What each part of a finding looks like; everything is plain text when off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def _paint(self, sgr: str, text: str) -> str:
        return f"\x1b[{sgr}m{text}{_RESET}" if self.enabled else text

    def path(self, text: str) -> str:
        return self._paint("1", text)

    def code(self, text: str, severity: Severity = Severity.ERROR) -> str:
        return self._paint(_SEVERITY[severity], text)

    def fixable(self, text: str) -> str:
        return self._paint("36", text)

    def caret(self, text: str, severity: Severity = Severity.ERROR) -> str:
        return self._paint(_SEVERITY[severity], text)

    def dim(self, text: str) -> str:
        return self._paint("2", text)

    def severity(self, text: str, severity: Severity) -> str:
        return self._paint(_SEVERITY[severity], text)
