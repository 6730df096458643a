"""Linting: syntax, rules and style findings for files of any notation.

This is the engine behind ``lcn lint``; editors and other tools can call it
directly.  Each file is read in its notation (:func:`~lcnotation.tools.notations.notation_for`:
by its extension, or as its settings say), which finds what is wrong with it;
a file that cannot be opened is reported, not raised.

>>> report = lint_text("1. R3-D 2. r11-d 3. R2-D", path="demo.lcn")
>>> [(d.code, d.line, d.column) for d in report.diagnostics]
[('N103', 1, 13), ('R101', 1, 21), ('R110', 1, 25)]
>>> [d.code for d in lint_text("Game #1\\n", path="deal.sfn").diagnostics]
['F105']
"""

from __future__ import annotations

import os
import stat
from typing import IO, Callable, List, Optional, Sequence, Tuple, TYPE_CHECKING

from ..core.files import not_regular
from ..core.findings import Finding
from ..core.lint import FileReport, LintConfig
from ..core import notation as core_notation
from ..core.notation import EmitsFindings, LintsInParallel
from .notations import notation_for

if TYPE_CHECKING:  # pragma: no cover
    from ..lostcities.text.ast import Game

__all__ = ["LintConfig", "FileReport", "lint_text", "lint_file", "lint_file_emitting",
           "lint_stream", "fix_text",
           "lint_games"]


def lint_text(text: str, path: str = "<string>", config: Optional[LintConfig] = None
              ) -> FileReport:
    """Lint the text of a record (one game or more) of the file ``path``."""
    config = config or LintConfig()
    return notation_for(path, config.notation).lint_text(text, path, config)


def lint_file(path: str, config: Optional[LintConfig] = None,
              progress: Optional[Callable[[int], None]] = None) -> FileReport:
    """Lint a file, reading it as a stream; unreadable files are reported, not raised.

    ``progress(bytes_read)`` is called as the file is read.
    """
    refused = not_regular(path)
    if refused is not None:
        return FileReport(path, unreadable=refused)
    try:
        with open(path, "rb") as handle:
            return lint_stream(handle, path, config, progress)
    except OSError as exc:
        return FileReport(path, unreadable=exc.strerror or str(exc))


def lint_stream(handle: IO[bytes], path: str, config: Optional[LintConfig] = None,
                progress: Optional[Callable[[int], None]] = None) -> FileReport:
    """Lint a binary stream (a file, standard input) named ``path``.

    A stream that stops being readable, or a piece beyond the reader's bound,
    raises OSError; a piece too large for memory makes the report ``unreadable``.
    """
    config = config or LintConfig()
    try:
        return notation_for(path, config.notation).lint_stream(handle, path, config, progress)
    except MemoryError:
        return FileReport(path, unreadable="out of memory")


def lint_file_emitting(path: str, config: Optional[LintConfig],
                       emit: Callable[[List[Finding]], object],
                       progress: Optional[Callable[[int], None]] = None,
                       jobs: int = 1) -> FileReport:
    """As :func:`lint_file`, but the findings go to ``emit`` as they are found
    (a list at a time, in the order of the file) instead of into the report,
    which keeps the counts: memory holds one game's findings in a notation that
    gives them as it finds them (:class:`~lcnotation.core.notation.EmitsFindings`),
    and a file's in another.  Nothing is emitted for a file that cannot be read.
    With ``jobs`` above 1, a large file of a notation that can
    (:class:`~lcnotation.core.notation.LintsInParallel`) is linted in that
    many processes, with the same findings in the same order.
    """
    config = config or LintConfig()
    refused = not_regular(path)
    if refused is not None:
        return FileReport(path, unreadable=refused)
    notation = notation_for(path, config.notation)

    def emitting(findings: List[Finding]) -> None:
        try:
            emit(findings)
        except OSError as exc:  # writing them failed, not reading the file
            raise _EmitFailed() from exc

    try:
        with open(path, "rb") as handle:
            if (jobs > 1 and isinstance(notation, LintsInParallel)
                    and os.fstat(handle.fileno()).st_size >= core_notation.PARALLEL_BYTES
                    and stat.S_ISREG(os.fstat(handle.fileno()).st_mode)):
                try:
                    return notation.lint_stream_parallel(handle, path, config, jobs, emitting,
                                                         progress)
                except MemoryError:
                    return FileReport(path, unreadable="out of memory")
            if isinstance(notation, EmitsFindings):
                try:
                    return notation.lint_stream_emitting(handle, path, config, emitting,
                                                         progress)
                except MemoryError:
                    return FileReport(path, unreadable="out of memory")
            report = lint_stream(handle, path, config, progress)
    except OSError as exc:
        return FileReport(path, unreadable=exc.strerror or str(exc))
    except _EmitFailed as failed:
        raise failed.__cause__ from None  # type: ignore[misc]
    if report.findings and not report.unreadable:
        emit(report.findings)
        report.findings = []
    return report


class _EmitFailed(Exception):
    """What takes the findings failed (its OSError is the cause)."""


def fix_text(text: str, path: str = "<string>", config: Optional[LintConfig] = None,
             report: Optional[FileReport] = None) -> Tuple[str, int, FileReport]:
    """Apply the safe fixes of the findings ``config`` selects, as ``lcn lint --fix`` does.

    Returns the fixed text, how many fixes were applied and the report of
    the fixed text.  ``report``, when given, is that of ``text`` already.

    >>> fixed, applied, report = fix_text("1. r3-d 3. b4x-d 4. G5D-D")
    >>> fixed, applied, [d.code for d in report.diagnostics]
    ('1. R3-D 2. B4X-D 3. G5X-D', 5, ['R110'])
    """
    config = config or LintConfig()
    return notation_for(path, config.notation).fix_text(text, path, config, report)


def lint_games(games: Sequence["Game"], path: str, config: Optional[LintConfig] = None
               ) -> FileReport:
    """The rules findings ``config`` selects in Lost Cities games read from
    another program's records (``lcn lint --from``): they have no text of their
    own to hold style findings or suppressions."""
    from ..core.findings import Finding
    from ..lostcities.game.checker import check
    from ..lostcities.lint import colors_of

    config = config or LintConfig()
    report = FileReport(path, games=len(games), moves=sum(len(g.moves) for g in games))
    for game in games:
        report.findings += [Finding(d) for d in check(game, path=path,
                                                      default_colors=colors_of(config)
                                                      ).diagnostics if config.wants(d.code)]
    return report
