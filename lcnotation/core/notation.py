"""What a notation gives the common tools: the :class:`Notation` protocol.

lint, fmt, the report writers, the language server and the command line
work on any notation that implements this protocol: Lost Cities
(``lcnotation.lostcities.notation``) and FreeCell
(``lcnotation.freecell.notation``) do, as siblings, and a third one is added
by registering one object (:func:`lcnotation.tools.notations.register_notation`;
docs/architecture.md).  Everything the protocol speaks in is defined in
the core: spans, findings and fixes, code families, lint settings and file
reports.

A notation reads a whole text; one that can also work on a stream a piece at
a time (Lost Cities, on files of a million games) implements
:class:`Streaming` as well, and the tools use it where it is there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import (IO, Callable, Dict, FrozenSet, List, Mapping, NamedTuple, Optional, Protocol,
                    Sequence, Tuple, runtime_checkable)

from .codes import Family
from .files import SourceKind
from .findings import Edit, Finding
from .lint import FileReport, FixResult, LintConfig
from .span import Span

__all__ = ["Notation", "Streaming", "EmitsFindings", "LintsInParallel", "FormatsInParallel",
           "PARALLEL_BYTES", "Suppresses", "Symbol", "Hover", "Formatted", "FormatRefused",
           "Streamed", "Progress"]

#: The smallest file that ``-j N`` does in several processes (``lcn lint``,
#: ``fmt``, ``score``, ``convert``): smaller ones are done before the
#: processes would have started.
PARALLEL_BYTES = 2 << 20

#: Called with the number of bytes read so far.
Progress = Optional[Callable[[int], None]]


class FormatRefused(ValueError):
    """A file that cannot be formatted; the message says why, after the
    ``line:column:`` of the problem when it has one."""


@dataclass
class Formatted:
    """The formatted text and notes about parts kept as written."""

    text: str
    #: One line per part kept as written (``line:column: ...``).
    kept: List[str] = field(default_factory=list)


@dataclass
class Streamed:
    """What formatting a stream found."""

    #: Whether the canonical text differs from the file's text (LF line ends).
    changed: bool
    #: The file's line ends and byte-order mark (``newline`` None: it mixes them).
    kind: SourceKind
    #: Whether what was written is the canonical text in the file's own line
    #: ends (False when they mix: then the file is formatted whole, as S107 says).
    faithful: bool
    #: One line per game kept as written (see :class:`Formatted`).
    kept: List[str] = field(default_factory=list)


class Symbol(NamedTuple):
    """A part of a document an editor lists in its outline: a game, a section,
    a move; ``span`` is all of it, ``children`` its own parts."""

    name: str
    detail: str
    kind: str  # "game", "section", "header" or "move"
    span: Span
    children: Tuple["Symbol", ...] = ()


class Hover(NamedTuple):
    """What an editor shows over a place of a document: Markdown, and the
    offsets of the text it is about."""

    markdown: str
    start: int
    end: int


@runtime_checkable
class Notation(Protocol):
    """A notation, as every common tool uses it."""

    #: Its name on the command line and in configuration (``--notation NAME``).
    name: str
    #: Its name for people ("Lost Cities").
    title: str
    #: The file extensions that are this notation's, with the dot (``".lcn"``).
    extensions: Tuple[str, ...]
    #: The editor's language identifier (LSP ``languageId``).
    language_id: str
    #: The code families it reports.
    families: Tuple[Family, ...]
    #: The names of the formats of other programs it imports and exports
    #: (entries of :data:`lcnotation.formats.FORMATS`).
    formats: Tuple[str, ...]

    def lint_text(self, text: str, path: str, config: LintConfig) -> FileReport:
        """Every finding ``config`` selects in ``text`` (the file ``path``),
        suppressions applied, in the order of the text."""
        ...

    def lint_stream(self, handle: IO[bytes], path: str, config: LintConfig,
                    progress: Progress = None) -> FileReport:
        """As :meth:`lint_text`, for a binary stream; bytes that are not
        UTF-8 are findings, a stream that cannot be read raises OSError."""
        ...

    def fix_text(self, text: str, path: str, config: LintConfig,
                 report: Optional[FileReport] = None) -> Tuple[str, int, FileReport]:
        """The text with the safe fixes applied, how many were, and its report
        (``report``, when given, is that of ``text`` already)."""
        ...

    def format_text(self, text: str, path: str, config: LintConfig,
                    force: bool = False) -> Formatted:
        """The canonical layout of ``text``; raises :class:`FormatRefused` for a
        text it cannot format (with ``force``, parts with errors are kept)."""
        ...

    def describe(self, text: str, offset: int, config: LintConfig) -> Optional[Hover]:
        """What to show over ``offset`` of ``text`` (a move: the position
        after it), or None."""
        ...

    def symbols(self, text: str) -> List[Symbol]:
        """The outline of ``text``."""
        ...

    def ignore_edit(self, text: str, line: int, code: str) -> Optional[Edit]:
        """The edit that silences ``code`` on ``line`` (1-based) with a
        suppression comment, or None where no comment can (or ``code`` is that
        of a useless suppression)."""
        ...


@runtime_checkable
class Streaming(Protocol):
    """A notation whose files are formatted and fixed as streams, a piece at a
    time (memory holds one piece)."""

    def format_stream(self, handle: IO[bytes], path: str, config: LintConfig, force: bool,
                      write: Optional[Callable[[bytes], object]] = None) -> Streamed:
        """Format the stream, writing the canonical text to ``write``."""
        ...

    def fix_stream(self, handle: IO[bytes], path: str, config: LintConfig,
                   write: Callable[[str], object]) -> FixResult:
        """Apply the safe fixes piece by piece, writing each piece's fixed
        text (LF line ends) to ``write`` as soon as it is done."""
        ...


@runtime_checkable
class EmitsFindings(Protocol):
    """A notation that gives a stream's findings as it finds them, a piece's
    at a time, so that a file of a million findings is linted in flat memory
    (``lcn lint`` writing text, concise or GitHub lines)."""

    def lint_stream_emitting(self, handle: IO[bytes], path: str, config: LintConfig,
                             emit: Callable[[List[Finding]], object],
                             progress: Progress = None) -> FileReport:
        """As :meth:`Notation.lint_stream`, each piece's findings given to
        ``emit`` in the order of the stream, not kept in the report."""
        ...


@runtime_checkable
class LintsInParallel(Protocol):
    """A notation that can lint one large file in several processes (Lost
    Cities: cut at game boundaries), with the findings of one process."""

    def lint_stream_parallel(self, handle: IO[bytes], path: str, config: LintConfig,
                             jobs: int, emit: Callable[[List[Finding]], object],
                             progress: Progress = None) -> FileReport:
        """As :meth:`EmitsFindings.lint_stream_emitting` for a regular file, in
        ``jobs`` processes; the findings given in the order of the file."""
        ...


@runtime_checkable
class Suppresses(Protocol):
    """A notation whose findings a comment on their line can silence
    (``lcn: ignore[CODES]``, :mod:`lcnotation.core.suppression`), and which
    says where such comments go for a whole text at once (``lcn lint
    --add-noqa``).  A notation that does not implement it has no suppression
    comments: ``--add-noqa`` offers it none."""

    #: The codes no comment silences: that of a suppression that silences
    #: nothing (S100, F500), and findings about the file as a whole.
    unsuppressible: FrozenSet[str]

    def ignore_edits(self, text: str, codes: Mapping[int, Sequence[str]]) -> Dict[int, Edit]:
        """For each line (1-based) of ``codes``, the edit that silences those
        codes on it: the line's ``lcn: ignore[...]`` extended, or a new
        comment at its end.  A line where no comment can go without changing
        what the text means is left out.  No edit adds or removes a line end."""
        ...


@runtime_checkable
class FormatsInParallel(Protocol):
    """A notation that can format one large file in several processes (Lost
    Cities: cut at game boundaries), with the output of one process."""

    def format_stream_parallel(self, handle: IO[bytes], path: str, config: LintConfig,
                               force: bool, jobs: int,
                               write: Optional[Callable[[bytes], object]] = None) -> Streamed:
        """As :meth:`Streaming.format_stream` for a regular file, in ``jobs`` processes."""
        ...
