"""What every format module shares: the :class:`Format` record, the error
codes of importers and exporters, and positions in the source text.

A format module defines ``FORMAT``, a :class:`Format`: its name, a sentence
saying what it is, and the functions that read, write and recognise it.  A
format of whole collections (Parquet: a folder of tables, not a text per
game) gives ``export_files`` and ``import_records`` instead, which
``lcn export --to`` and ``lcn import --from`` call with the files and the
folder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import accumulate
from operator import add
from typing import Callable, List, Mapping, Optional, Sequence, Tuple

from ..lostcities.text.ast import Game, Move, Span
from ..core.diagnostics import NotationError
from ..lostcities.text.headers import DEFAULT_COLORS
from ..tools.codes import FORMAT_CODES

__all__ = ["Format", "FORMAT_CODES", "Reader", "Writer", "Detector", "Translator", "TextLines",
           "UnknownFormatError", "ExportOptions", "ExportSummary", "ImportOptions",
           "ImportSummary", "FilesWriter", "RecordsReader", "FormatUnavailable"]

#: ``read(text, path)``: the games of ``text`` (line ends already LF); raises
#: NotationError for malformed input.
Reader = Callable[[str, Optional[str]], List[Game]]
#: ``write(game)``: the game in the format; raises NotationError when the game
#: cannot be written in it.
Writer = Callable[[Game], str]
#: ``detect(text)``: True when ``text`` is surely in the format.
Detector = Callable[[str], bool]
#: ``translate(text, options)``: the record of another notation that ``text``
#: (line ends LF) holds, in that notation's text; ``options`` are the import's
#: (``deal``: a deal number); raises NotationError for malformed input.
Translator = Callable[[str, Mapping[str, object]], str]


def moves_fit_compiled_readers() -> bool:
    """Whether a ``Move`` and a ``Span`` still have the fields, in the order,
    that the compiled readers (``_chikinn.c``, ``_metapyziks.c``) fill in by
    position; when not, their ``tables()`` say None and Python reads."""
    return Move._fields == ("placement", "draw", "comments", "number", "turn", "span") \
        and Span._fields == ("line", "column", "end_line", "end_column", "start", "end")


def _default_colors(path: str) -> Tuple[str, ...]:
    return DEFAULT_COLORS


@dataclass(frozen=True)
class ExportOptions:
    """How a collection format writes record files.

    ``partition_by`` names the columns whose values split the tables into
    folders; ``header_columns`` the headers that get a column of their own;
    ``scheduler`` runs the export on a Dask cluster (an address, or
    ``"local"`` for one on this machine; None: in this process);
    ``colors(path)`` gives the colours of a file's games without a Colors
    header; ``refused(error)`` hears of each game that cannot be read (its
    first syntax error, with file, line and column).
    """

    partition_by: Tuple[str, ...] = ()
    header_columns: Tuple[str, ...] = ()
    scheduler: Optional[str] = None
    colors: Callable[[str], Tuple[str, ...]] = _default_colors
    refused: Optional[Callable[[NotationError], None]] = None


@dataclass(frozen=True)
class ExportSummary:
    """What an export wrote: games (every game, read or not), how many of
    them could not be read (kept as their text only), and a line of details."""

    games: int
    refused: int
    details: str = ""


@dataclass(frozen=True)
class ImportOptions:
    """Which of the collection's files to give back (None: all)."""

    sources: Optional[Sequence[str]] = None


@dataclass(frozen=True)
class ImportSummary:
    """What an import gave: the files and records written, the problems that
    make it not the files exported, and notes (what was added between files)."""

    sources: Tuple[str, ...]
    records: int
    problems: Tuple[str, ...] = ()
    notes: Tuple[str, ...] = field(default=())


#: ``export_files(paths, out, options)``: write the record files ``paths``
#: into ``out``; raises ValueError (a bad option, an ``out`` that exists) or
#: OSError (a file that cannot be read), and then writes nothing.
FilesWriter = Callable[[Sequence[str], str, ExportOptions], ExportSummary]
#: ``import_records(path, write, options)``: write the records of the
#: collection at ``path``, in their files' order, with ``write``; raises
#: ValueError for something that is not such a collection.
RecordsReader = Callable[[str, Callable[[bytes], object], ImportOptions], ImportSummary]


class FormatUnavailable(ValueError):
    """The format needs a package that is not installed (the message says which)."""



@dataclass(frozen=True)
class Format:
    """A record format of another program, registered by name.

    ``read`` imports, ``write`` exports (either may be None when the format
    is one-way), and ``detect`` recognises the format when none is named.
    A format of records of another notation than Lost Cities names it
    (``notation``) and gives ``translate`` instead of ``read``.
    """

    name: str
    description: str
    read: Optional[Reader] = None
    write: Optional[Writer] = None
    detect: Optional[Detector] = None
    notation: str = "lostcities"
    translate: Optional[Translator] = None
    export_files: Optional[FilesWriter] = None
    import_records: Optional[RecordsReader] = None

    def __post_init__(self) -> None:
        if not self.name or not all(c.isalnum() or c in "-_" for c in self.name):
            raise ValueError(f"format name {self.name!r}: expected letters, digits, "
                             "'-' or '_'")
        if self.read is None and self.write is None and self.translate is None \
                and self.export_files is None and self.import_records is None:
            raise ValueError(f"format {self.name!r} can neither read nor write")

    @property
    def collection(self) -> bool:
        """True for a format of whole collections (a folder, not a text)."""
        return self.export_files is not None or self.import_records is not None


class UnknownFormatError(NotationError):
    """The input's format cannot be told for sure (code ``I100``, at its start)."""

    def __init__(self, message: str, path: Optional[str] = None) -> None:
        super().__init__(message, Span(1, 1, 1, 1, 0, 0), code="I100", path=path)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (UnknownFormatError, (self.message, self.path))


class TextLines:
    """The lines of a text (LF line ends) with where each starts, to build
    spans and errors from a line number (from 1) and a column (from 1)."""

    __slots__ = ("lines", "starts", "path")

    def __init__(self, text: str, path: Optional[str] = None) -> None:
        self.lines = text.split("\n")
        # Line i starts after the lengths of the lines before it and their i
        # line ends (sums and additions in C: a file holds 100,000s of lines).
        self.starts = list(map(add, accumulate(map(len, self.lines[:-1]), initial=0),
                               range(len(self.lines))))
        self.path = path

    def span(self, line: int, column: int, length: int = 1,
             end_line: Optional[int] = None, end_column: Optional[int] = None) -> Span:
        """From ``column`` of ``line``, ``length`` characters on (or up to
        ``end_line``/``end_column``, just past the end)."""
        if end_line is None:
            end_line, end_column = line, column + length
        assert end_column is not None
        start = self.starts[line - 1] + column - 1
        end = self.starts[end_line - 1] + end_column - 1
        return Span(line, column, end_line, end_column, start, end)

    def error(self, message: str, code: str, line: int, column: int = 1,
              length: int = 1) -> NotationError:
        """A NotationError at ``column`` of ``line`` (a line past the end is the end)."""
        if line > len(self.lines):
            line = len(self.lines)
            column = len(self.lines[-1]) + 1
            length = 0
        return NotationError(message, self.span(line, column, length), code=code,
                             path=self.path)
