"""Diagnostics and the one exception type of lcnotation.

A :class:`Diagnostic` is a finding with a stable code, a severity and a
position.  :class:`NotationError` is the exception raised for unreadable
notation; it carries the same information and converts to a diagnostic.

>>> err = NotationError("expected a rank", Span(1, 2, 1, 4, 1, 3), code="N103")
>>> str(err)
'line 1, column 2: expected a rank (N103)'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Callable, Optional, Tuple

from .span import Span

__all__ = ["Severity", "Diagnostic", "NotationError"]


class Severity(str, Enum):
    """How serious a diagnostic is.  Only errors make a lint run fail."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:
        return self.value


class _Positioned:
    """``line``, ``column``, ``end_line`` and ``end_column`` from ``self.span``."""

    __slots__ = ()
    span: Span

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column

    @property
    def end_line(self) -> int:
        return self.span.end_line

    @property
    def end_column(self) -> int:
        return self.span.end_column


@dataclass(frozen=True, slots=True)
class Diagnostic(_Positioned):
    """A finding about a record, at a position in its source.

    ``turn`` is the 0-based turn of the move concerned, when there is one.

    >>> d = Diagnostic("N103", "expected a rank", Span(3, 2, 3, 4, 20, 22))
    >>> d.line, d.column, str(d.severity)
    (3, 2, 'error')
    """

    code: str
    message: str
    span: Span
    severity: Severity = Severity.ERROR
    path: Optional[str] = None
    turn: Optional[int] = field(default=None)

    def with_path(self, path: Optional[str]) -> "Diagnostic":
        """The same diagnostic, attributed to ``path``."""
        return replace(self, path=path)

    def __str__(self) -> str:
        where = f"{self.path}:" if self.path else ""
        return f"{where}{self.line}:{self.column}: {self.code} {self.message}"


class NotationError(_Positioned, ValueError):
    """Text that is not valid Lost Cities notation.

    It names the position (``line``, ``column``, counted from 1, columns in
    characters), the file when known (``path``), a stable ``code`` and a
    message that says what was expected.
    """

    def __init__(
        self,
        message: str,
        span: Span,
        *,
        code: str = "N100",
        path: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.code = code
        self.path = path

    def to_diagnostic(self) -> Diagnostic:
        """This error as an error-severity :class:`Diagnostic`."""
        return Diagnostic(self.code, self.message, self.span, Severity.ERROR, self.path)

    def __str__(self) -> str:
        where = f"{self.path}, " if self.path else ""
        return f"{where}line {self.line}, column {self.column}: {self.message} ({self.code})"

    def __repr__(self) -> str:
        return f"NotationError({self.message!r}, line={self.line}, column={self.column}, code={self.code!r})"

    def __reduce__(self) -> Tuple[Callable[..., NotationError], Tuple[object, ...]]:
        # Keep the keyword-only fields through pickling.
        return (_rebuild_error, (self.message, self.span, self.code, self.path))


def _rebuild_error(message: str, span: Span, code: str, path: Optional[str]) -> NotationError:
    return NotationError(message, span, code=code, path=path)
