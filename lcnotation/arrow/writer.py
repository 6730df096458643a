"""Writing a Parquet export: the games and plies tables of record files,
streamed (memory holds one batch of rows per table and partition, never the
file), into a folder that appears only once it is whole.

The export's folder holds ``games/`` and ``plies/`` (Parquet files, in
``name=value`` folders when partitioned) and the manifest ``lcnotation.json``
(see ``spec/parquet.md``): the schema version, the partition columns, and
for each file read, its size and, for each byte range written, the SHA-256
of its bytes, so that the import can tell that it gives the file back.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import hashlib
import json
import os
import secrets
import shutil
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple
from urllib.parse import quote

import pyarrow as pa  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pyarrow.parquet as pq  # type: ignore[import-not-found, import-untyped, unused-ignore]

from ..core.diagnostics import NotationError
from ..lostcities.text.headers import DEFAULT_COLORS
from ..archive.reader import scan
from ..lostcities.game.digest import game_digest
from .rows import Digest, game_rows
from .schema import (FORMAT_NAME, GAMES, MANIFEST, PARTITIONABLE, PLIES, SCHEMA_VERSION,
                     games_schema, header_column, plies_schema)

__all__ = ["ExportReport", "RangeReport", "SourceReport", "TableWriters", "write_range",
           "export_parquet", "building", "staging_folder", "publish", "write_manifest",
           "check_output", "check_partitions", "NULL_PARTITION", "iter_parts"]

#: The folder name of a partition whose value is null (Hive's, which DuckDB,
#: Polars and pyarrow read as null).
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
#: Rows of a table held before they are written (a row group), per
#: partition: as Python values they take about 10 kB a game with its plies,
#: so memory stays near 150 MB whatever the size of the input.
BATCH_ROWS = {GAMES: 2048, PLIES: 32768}
#: Parquet files open at once per table (partitions beyond it are closed,
#: least recently used first, and go on in a new file).
MAX_OPEN = 64
#: Rows held over all partitions of a table before the largest are written.
MAX_HELD = {GAMES: 2 * BATCH_ROWS[GAMES], PLIES: 2 * BATCH_ROWS[PLIES]}


@dataclass
class RangeReport:
    """What one byte range of a file gave: its bounds, the SHA-256 of its
    games' bytes, how many games it holds and how many of them could not be
    read; ``lead`` holds (in base64) the bytes before its first game, which no
    row holds: a byte-order mark, or a file of white space alone."""

    start: int
    end: int
    sha256: str
    games: int = 0
    refused: int = 0
    plies: int = 0
    lead: Optional[str] = None

    def to_json(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"start": self.start, "end": self.end, "sha256": self.sha256,
                                "games": self.games, "refused": self.refused}
        if self.lead is not None:
            data["lead"] = self.lead
        return data


@dataclass
class SourceReport:
    """One file of the export: its name (the ``source`` column), size and ranges."""

    path: str
    size: int
    ranges: List[RangeReport] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(r.games for r in self.ranges)

    @property
    def refused(self) -> int:
        return sum(r.refused for r in self.ranges)

    def to_json(self) -> Dict[str, Any]:
        return {"path": self.path, "size": self.size, "games": self.games,
                "refused": self.refused, "ranges": [r.to_json() for r in self.ranges]}


@dataclass
class ExportReport:
    """What an export wrote: per file, and in all."""

    sources: List[SourceReport] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Rows of the games table: every game, read or not."""
        return sum(s.games for s in self.sources)

    @property
    def refused(self) -> int:
        """Games that could not be read: kept as text, without figures or plies."""
        return sum(s.refused for s in self.sources)

    @property
    def plies(self) -> int:
        return sum(r.plies for s in self.sources for r in s.ranges)


def _folder_value(value: Any) -> str:
    if value is None:
        return NULL_PARTITION
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.date):
        return value.isoformat()
    return quote(str(value), safe="") or NULL_PARTITION


class _Table:
    """One table of the export, written as Parquet files in its folder (and in
    a folder per partition), batch by batch."""

    def __init__(self, root: str, name: str, schema: Any, dropped: Sequence[int],
                 key_names: Sequence[str], prefix: str) -> None:
        self.folder = os.path.join(root, name)
        self.name = name
        self.key_names = tuple(key_names)
        self.schema = schema             # the columns written: less the partition ones
        drop = set(dropped)  # where the partition columns stand in a row
        self.kept: Optional[Tuple[int, ...]] = None
        if drop:
            self.kept = tuple(i for i in range(len(schema) + len(drop)) if i not in drop)
        self.prefix = prefix
        self.rows: Dict[Tuple[Any, ...], List[Tuple[Any, ...]]] = {}
        self.held = 0
        self.writers: "OrderedDict[Tuple[Any, ...], Any]" = OrderedDict()
        self.files: Dict[Tuple[Any, ...], int] = {}
        self.batch = BATCH_ROWS[name]

    def add(self, key: Tuple[Any, ...], row: Tuple[Any, ...]) -> None:
        self.extend(key, (row,))

    def extend(self, key: Tuple[Any, ...], rows: Sequence[Tuple[Any, ...]]) -> None:
        held = self.rows.get(key)
        if held is None:
            held = self.rows[key] = []
        held.extend(rows)
        self.held += len(rows)
        if len(held) >= self.batch:
            self._flush(key)
        elif self.held > MAX_HELD[self.name]:
            for biggest in sorted(self.rows, key=lambda k: -len(self.rows[k]))[:8]:
                self._flush(biggest)

    def _flush(self, key: Tuple[Any, ...]) -> None:
        rows = self.rows.pop(key, None)
        if not rows:
            return
        self.held -= len(rows)
        columns = list(zip(*rows))
        if self.kept is not None:
            columns = [columns[i] for i in self.kept]
        arrays = [pa.array(col, type=f.type) for col, f in zip(columns, self.schema)]
        table = pa.Table.from_arrays(arrays, schema=self.schema)
        self._writer(key).write_table(table, row_group_size=len(rows))

    def _writer(self, key: Tuple[Any, ...]) -> Any:
        writer = self.writers.get(key)
        if writer is not None:
            self.writers.move_to_end(key)
            return writer
        if len(self.writers) >= MAX_OPEN:
            _, oldest = self.writers.popitem(last=False)
            oldest.close()
        folder = os.path.join(self.folder, *(f"{n}={_folder_value(v)}"
                                             for n, v in zip(self.key_names, key)))
        os.makedirs(folder, exist_ok=True)
        n = self.files.get(key, 0)
        self.files[key] = n + 1
        path = os.path.join(folder, f"{self.prefix}-{n:04d}.parquet")
        writer = self.writers[key] = pq.ParquetWriter(path, self.schema, compression="zstd")
        return writer

    def close(self) -> None:
        for key in list(self.rows):
            self._flush(key)
        for writer in self.writers.values():
            writer.close()
        self.writers.clear()


class TableWriters:
    """The games and plies tables of one writer (one process, or one task of
    a cluster), each file named ``PREFIX-NNNN.parquet``."""

    def __init__(self, root: str, prefix: str, partition_by: Sequence[str] = (),
                 header_columns: Sequence[str] = ()) -> None:
        check_partitions(partition_by, header_columns)
        full = games_schema(header_columns)
        names = full.names
        keys = [names.index(n) for n in partition_by]
        self.keys = tuple(keys)
        self.games = _Table(root, GAMES, games_schema(header_columns, without=partition_by),
                            keys, partition_by, prefix)
        plies_full = plies_schema()
        carried = [n for n in partition_by if n in plies_full.names]
        # The plies are partitioned as their games are: the key is the game's.
        self.plies = _Table(root, PLIES, plies_schema(without=carried),
                            [plies_full.names.index(n) for n in carried], partition_by, prefix)
        self.header_columns = tuple(header_columns)
        for folder in (self.games.folder, self.plies.folder):
            os.makedirs(folder, exist_ok=True)

    def add(self, game: Tuple[Any, ...], plies: List[Tuple[Any, ...]]) -> None:
        key = tuple(game[i] for i in self.keys)
        self.games.add(key, game)
        if plies:
            self.plies.extend(key, plies)

    def close(self) -> None:
        self.games.close()
        self.plies.close()


def check_partitions(partition_by: Sequence[str], header_columns: Sequence[str] = ()) -> None:
    """Raise ValueError unless each name is a column the tables may be
    partitioned by (``spec/parquet.md``), named once."""
    allowed = PARTITIONABLE + tuple(header_column(h) for h in header_columns)
    for name in partition_by:
        if name not in allowed:
            raise ValueError(f"cannot partition by {name!r}: choose among "
                             f"{', '.join(allowed)}")
    if len(set(partition_by)) != len(partition_by):
        raise ValueError("a partition column is named twice")


def write_range(handle: IO[bytes], source: str, start: int, end: Optional[int],
                writers: TableWriters, *, first_game: int = 1,
                colors: Tuple[str, ...] = DEFAULT_COLORS, digest: Optional[Digest] = game_digest,
                refused: Optional[Callable[[NotationError], None]] = None) -> RangeReport:
    """Write the games that begin in bytes ``start`` to ``end`` of ``handle`` (the
    file ``source``; ``end`` None: to its end); the first is the
    ``first_game``-th of its file.  ``refused(error)`` is called with the
    first syntax error of each game that cannot be read."""
    sha = hashlib.sha256()
    number = first_game
    report = RangeReport(start, start, "")
    first: Optional[int] = None
    for entry in scan(handle, path=source, start=start, end=end):
        if first is None:
            first = entry.offset
        elif entry.offset != report.end:  # pragma: no cover - scan tiles the file
            raise AssertionError(f"{source}: the games at {report.end} and {entry.offset} "
                                 "leave bytes between them")
        sha.update(entry.raw)
        report.end = entry.end
        rows = game_rows(entry, number, colors=colors, digest=digest,
                         header_columns=writers.header_columns)
        writers.add(rows.game, rows.plies)
        report.games += 1
        report.plies += len(rows.plies)
        if not rows.readable:
            report.refused += 1
            if refused is not None:
                refused(rows.parsed.errors[0])
        number += 1
    stop = end if end is not None else os.fstat(handle.fileno()).st_size
    if first is None:  # no game: the range is white space alone
        first = report.end = stop
    elif report.end != stop:  # pragma: no cover
        raise AssertionError(f"{source}: the last game ends at {report.end}, not {stop}")
    if first > start:
        handle.seek(start)
        report.lead = base64.b64encode(handle.read(first - start)).decode("ascii")
    report.sha256 = sha.hexdigest()
    return report


# ---------------------------------------------------------------- the folder


def check_output(out: str) -> None:
    """Raise ValueError unless ``out`` can become the export's folder: it must
    not exist, or be an empty folder (nothing is ever written over a file)."""
    if os.path.lexists(out):
        if not os.path.isdir(out) or os.path.islink(out):
            raise ValueError(f"{out}: exists and is not a folder; name a new folder")
        if os.listdir(out):
            raise ValueError(f"{out}: the folder is not empty; name a new or empty folder")


def staging_folder(out: str) -> str:
    """A new folder beside ``out`` where the export is written until it is whole
    (made as ``mkdir`` makes folders, so that the export gets the usual mode)."""
    full = os.path.abspath(out)
    parent, name = os.path.dirname(full), os.path.basename(full)
    while True:
        staging = os.path.join(parent, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            os.mkdir(staging)
            return staging
        except FileExistsError:
            continue


def write_manifest(folder: str, report: ExportReport, partition_by: Sequence[str],
                   header_columns: Sequence[str]) -> None:
    manifest = {"format": FORMAT_NAME, "schema_version": SCHEMA_VERSION,
                "tables": [GAMES, PLIES], "partition_by": list(partition_by),
                "header_columns": [{"header": h, "column": header_column(h)}
                                   for h in header_columns],
                "games": report.games, "refused": report.refused, "plies": report.plies,
                "sources": [s.to_json() for s in report.sources]}
    with open(os.path.join(folder, MANIFEST), "w", encoding="utf-8") as out:
        json.dump(manifest, out, indent=1, ensure_ascii=False)
        out.write("\n")


def publish(staging: str, out: str) -> None:
    """Move the whole export from ``staging`` to ``out``."""
    check_output(out)
    if os.path.isdir(out):
        os.rmdir(out)  # empty: checked above
    os.rename(staging, out)


@contextlib.contextmanager
def building(out: str, report: ExportReport, partition_by: Sequence[str] = (),
             header_columns: Sequence[str] = ()) -> Iterator[str]:
    """The folder to write the export ``out`` in, beside it: once the block has
    filled it (and ``report``), the manifest is written and the folder becomes
    ``out``; on any exception (Ctrl-C, SIGTERM included) it is removed.
    Raises ValueError first when ``out`` cannot be the export's folder, or a
    partition or header column is wrong."""
    check_output(out)
    check_partitions(partition_by, header_columns)
    if not all(header_columns) or len(set(header_columns)) != len(header_columns):
        raise ValueError("header columns must be named, each once")
    staging = staging_folder(out)
    try:
        yield staging
        write_manifest(staging, report, partition_by, header_columns)
        publish(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def export_parquet(paths: Sequence[str], out: str, *, partition_by: Sequence[str] = (),
                   header_columns: Sequence[str] = (),
                   colors: Callable[[str], Tuple[str, ...]] = lambda path: DEFAULT_COLORS,
                   digest: Optional[Digest] = game_digest,
                   refused: Optional[Callable[[NotationError], None]] = None) -> ExportReport:
    """Export the record files ``paths`` to the new folder ``out``, in this process.

    ``colors(path)`` gives the colours of a file's games without a Colors
    header.  Raises ValueError for an ``out`` that exists (and is not an empty
    folder) or a bad partition column, OSError for a file that cannot be read;
    then nothing is written.
    """
    report = ExportReport()
    with building(out, report, partition_by, header_columns) as staging:
        writers = TableWriters(staging, "part-00000", partition_by, header_columns)
        for path in paths:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                source = SourceReport(path, size)
                source.ranges.append(write_range(handle, path, 0, None, writers,
                                                 colors=colors(path), digest=digest,
                                                 refused=refused))
                source.size = max(size, source.ranges[-1].end)
            report.sources.append(source)
        writers.close()
    return report


def iter_parts(folder: str) -> Iterator[str]:
    """The Parquet files below ``folder``, sorted."""
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".parquet"):
                yield os.path.join(root, name)
