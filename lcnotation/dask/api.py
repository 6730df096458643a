"""Lint, stats and the Parquet export of many and large files on a Dask cluster.

Each file is cut into byte ranges at game boundaries (:func:`plan`; the file
is not read first, only around each cut), and each range is one task.  A
first round of tasks counts what the ranges before each range hold (games,
to number the games; line ends and the first discard marker, for the checks
that look at the whole file); the second does the work.  Put together in the
order of the files, the results are exactly those of one process.
"""

from __future__ import annotations

import contextlib
import io
import os
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterator, List, NamedTuple, Optional,
                    Sequence, Tuple, cast)

from ..archive.stats import GameStats, StatsAccumulator
from ..core.diagnostics import NotationError
from ..lostcities.text.headers import DEFAULT_COLORS
from ..core.files import not_regular
from ..core.lint import FileReport, LintConfig
from ..lostcities.lint import add_line_ends
from ..core.lineends import CountingReader
from . import tasks
from .cluster import connect
from .ranges import RANGE_SIZE, split_ranges

if TYPE_CHECKING:  # pragma: no cover
    from dask.bag import Bag
    from distributed import Client

    from ..arrow.writer import ExportReport

__all__ = ["FileRange", "Plan", "plan", "games", "lint", "stats", "export_parquet"]


class FileRange(NamedTuple):
    """One task's share of a file: bytes ``start`` to ``end`` of ``path``, the
    ``number``-th range of all (from 0)."""

    path: str
    start: int
    end: int
    number: int


class Plan(NamedTuple):
    """The ranges of the files that can be read, and why the others cannot."""

    ranges: List[FileRange]
    unreadable: Dict[str, str]

    def of(self, path: str) -> List[FileRange]:
        return [r for r in self.ranges if r.path == path]


def plan(paths: Sequence[str], blocksize: int = RANGE_SIZE) -> Plan:
    """Cut each file into ranges of about ``blocksize`` bytes that begin at game
    boundaries (reading only around each cut)."""
    ranges: List[FileRange] = []
    unreadable: Dict[str, str] = {}
    for path in paths:
        refused = not_regular(path)  # a FIFO found in a folder: reading it could wait forever
        if refused is not None:
            unreadable[path] = refused
            continue
        try:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                cuts = split_ranges(handle, size, blocksize)
        except OSError as exc:
            unreadable[path] = exc.strerror or str(exc)
            continue
        ranges += [FileRange(path, r.start, r.end, len(ranges) + i) for i, r in enumerate(cuts)]
    return Plan(ranges, unreadable)


@contextlib.contextmanager
def _client(client: "Optional[Client]", scheduler: Optional[str]) -> "Iterator[Client]":
    if client is not None:
        yield client
        return
    with connect(scheduler or "local") as made:
        yield made


def _run(client: "Client", function: Callable[..., Any], *columns: Sequence[Any]) -> List[Any]:
    """``function`` over the rows of ``columns``, one task each, in order."""
    if not columns or not columns[0]:
        return []
    futures = client.map(function, *columns, pure=False)
    try:
        return list(client.gather(futures))  # type: ignore[no-untyped-call]
    finally:
        client.cancel(futures)  # type: ignore[no-untyped-call]


def games(paths: Sequence[str], blocksize: int = RANGE_SIZE) -> "Bag":
    """The games of the files as a Dask bag, one partition per range: syntax
    trees with the positions of their files (``game.errors`` for what could
    not be read), as ``read_games`` reads them.

    >>> import lcnotation.dask as lcd                      # doctest: +SKIP
    >>> lcd.games(["big.lcn"]).map(lambda g: len(g.moves)).sum().compute()  # doctest: +SKIP
    """
    import dask.bag
    from dask.delayed import delayed

    parts = [delayed(tasks.games_of)(r.path, r.start, r.end)
             for r in plan(paths, blocksize).ranges]
    return cast("Bag", dask.bag.from_delayed(parts))  # type: ignore[no-untyped-call]


def _first_games(counts: Sequence[tasks.Measured], ranges: Sequence[FileRange]) -> List[int]:
    """The number (from 1) of each range's first game in its file."""
    firsts = []
    seen: Dict[str, int] = {}
    for r, measured in zip(ranges, counts):
        firsts.append(seen.get(r.path, 0) + 1)
        seen[r.path] = seen.get(r.path, 0) + measured.counts.games
    return firsts


def lint(paths: Sequence[str], configs: Callable[[str], LintConfig], *,
         client: "Optional[Client]" = None, scheduler: Optional[str] = None,
         blocksize: int = RANGE_SIZE) -> Iterator[FileReport]:
    """The report of each file, in order, as :func:`lcnotation.tools.lint.lint_file`
    makes it, linted on the cluster (``client``, or one of ``scheduler``:
    see :func:`~lcnotation.dask.cluster.connect`; a local one by default).
    ``configs(path)`` is each file's configuration.  Lost Cities records are
    cut into ranges; a file of another notation is linted here, whole."""
    from ..tools.lint import lint_file
    from ..tools.notations import notation_for

    settings = {path: configs(path) for path in paths}
    here = {path for path in paths
            if notation_for(path, settings[path].notation).name != "lostcities"}
    found = plan([path for path in paths if path not in here], blocksize)
    with _client(client, scheduler) as c:
        ranges = found.ranges
        measured = _run(c, tasks.measure, [r.path for r in ranges], [r.start for r in ranges],
                        [r.end for r in ranges], [settings[r.path] for r in ranges])
        markers: List[Optional[str]] = []
        marker: Optional[str] = None
        for i, r in enumerate(ranges):
            if r.start == 0:
                marker = None
            markers.append(marker)
            marker = marker or measured[i].marker
        parts = _run(c, tasks.lint_range, [r.path for r in ranges], [r.start for r in ranges],
                     [r.end for r in ranges], [settings[r.path] for r in ranges], markers)
    by_path: Dict[str, List[Tuple[FileRange, tasks.Measured, tasks.LintPart]]] = {}
    for r, m, part in zip(ranges, measured, parts):
        by_path.setdefault(r.path, []).append((r, m, part))
    for path in paths:
        if path in here:
            yield lint_file(path, settings[path])
            continue
        if path in found.unreadable:
            yield FileReport(path, unreadable=found.unreadable[path])
            continue
        report = FileReport(path)
        counted = CountingReader(io.BytesIO())
        lines = 0
        for r, m, part in by_path.get(path, []):
            report.findings.extend(part.findings)
            report.games += part.games
            report.moves += part.moves
            crlf, cr, lf = m.counts.line_ends
            counted.crlf += crlf
            counted.cr += cr
            counted.lf += lf
            for kind, line in m.counts.first:
                counted.first.setdefault(kind, lines + line)
            lines += m.counts.lines
        add_line_ends(report, counted, settings[path])
        yield report


def stats(paths: Sequence[str], *, colors: Callable[[str], Tuple[str, ...]] = lambda p:
          DEFAULT_COLORS, client: "Optional[Client]" = None, scheduler: Optional[str] = None,
          blocksize: int = RANGE_SIZE) -> Tuple[StatsAccumulator, List[GameStats],
                                                Dict[str, str]]:
    """The figures of the files' games, as ``lcn stats`` counts them in one
    process; the record of each game that is not a result (its ``error``
    says why), in file order; and the files that cannot be read, with why."""
    found = plan(paths, blocksize)
    ranges = found.ranges
    with _client(client, scheduler) as c:
        measured = _run(c, tasks.measure, [r.path for r in ranges], [r.start for r in ranges],
                        [r.end for r in ranges])
        parts = _run(c, tasks.stats_range, [r.path for r in ranges], [r.start for r in ranges],
                     [r.end for r in ranges], [colors(r.path) for r in ranges],
                     _first_games(measured, ranges))
    total = StatsAccumulator()
    unusable: List[GameStats] = []
    for part in parts:
        total = total.combine(part.total)
        unusable += part.unusable
    return total, unusable, found.unreadable


def export_parquet(paths: Sequence[str], out: str, *, client: "Optional[Client]" = None,
                   scheduler: Optional[str] = None, partition_by: Sequence[str] = (),
                   header_columns: Sequence[str] = (),
                   colors: Callable[[str], Tuple[str, ...]] = lambda p: DEFAULT_COLORS,
                   refused: Optional[Callable[[NotationError], None]] = None,
                   blocksize: int = RANGE_SIZE) -> "ExportReport":
    """:func:`lcnotation.arrow.writer.export_parquet` on the cluster: each range
    is written by one task, into the folder being made beside ``out`` (the
    workers must see it: a shared file system).  The tables hold the same
    rows as an export made in one process, in other files."""
    from ..arrow.writer import ExportReport, SourceReport, building, check_output

    check_output(out)
    found = plan(paths, blocksize)
    if found.unreadable:
        path, why = next(iter(found.unreadable.items()))
        raise OSError(0, why, path)
    ranges = found.ranges
    report = ExportReport()
    with building(out, report, partition_by, header_columns) as staging:
        with _client(client, scheduler) as c:
            measured = _run(c, tasks.measure, [r.path for r in ranges],
                            [r.start for r in ranges], [r.end for r in ranges])
            n = len(ranges)
            parts = _run(c, tasks.export_range, [r.path for r in ranges],
                         [r.start for r in ranges], [r.end for r in ranges], [staging] * n,
                         [f"part-{r.number:05d}" for r in ranges],
                         _first_games(measured, ranges), [colors(r.path) for r in ranges],
                         [tuple(partition_by)] * n, [tuple(header_columns)] * n)
        sources: Dict[str, SourceReport] = {}
        for path in paths:
            sources[path] = SourceReport(path, os.path.getsize(path))
            report.sources.append(sources[path])
        for r, (range_report, refusals) in zip(ranges, parts):
            sources[r.path].ranges.append(range_report)
            for error in refusals:
                if refused is not None:
                    refused(error)
    return report
