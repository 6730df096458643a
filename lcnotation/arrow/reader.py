"""Reading records back from a Parquet export, byte for byte.

The ``record`` column holds each game's bytes exactly as its file held them
(from the start of its first line to the start of the next game), so the
records of a file in the order of their ``offset`` are the file.  An export
of lcnotation (a folder with its manifest, ``lcnotation.json``) is checked
against the manifest as it is read: every byte range of every file must be
covered by its records, one after another, and give the SHA-256 the export
wrote.  A table written by another program (``COPY (SELECT ...) TO
'some.parquet'`` in DuckDB) needs the columns ``source``, ``byte_offset``
and ``record``; its records are given in the order of ``(source,
byte_offset)``.
"""

from __future__ import annotations

import base64
import hashlib
import heapq
import json
import os
from dataclasses import dataclass, field
from typing import (Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple)

import pyarrow as pa  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pyarrow.dataset as ds  # type: ignore[import-not-found, import-untyped, unused-ignore]
import pyarrow.parquet as pq  # type: ignore[import-not-found, import-untyped, unused-ignore]

from .schema import FORMAT_NAME, GAMES, MANIFEST, SCHEMA_VERSION, games_schema
from .writer import NULL_PARTITION, iter_parts

__all__ = ["ExportError", "ImportReport", "read_manifest", "records", "import_parquet"]

_COLUMNS = ("source", "byte_offset", "record")
#: Rows read at a time from all the files of a table together.
_ROWS_AT_ONCE = 1 << 13


class ExportError(ValueError):
    """The folder or file is not an export that can be read, or does not give
    back the files it was made from (the message says why)."""


@dataclass
class ImportReport:
    """What an import gave: the files, the records, and what went wrong (a
    record missing or changed, a file's bytes not those exported)."""

    sources: List[str] = field(default_factory=list)
    records: int = 0
    bytes: int = 0
    problems: List[str] = field(default_factory=list)
    #: Files after which a line end was written, so that the next one's
    #: first game does not join their last line.
    joined: List[str] = field(default_factory=list)


def read_manifest(folder: str) -> Optional[Dict[str, Any]]:
    """The manifest of the export in ``folder``; None when there is none (a
    table of another program).  Raises ExportError for one that cannot be read
    or is of a newer schema."""
    path = os.path.join(folder, MANIFEST)
    if not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            manifest = json.load(handle)
    except (OSError, ValueError) as exc:
        raise ExportError(f"{path}: cannot read the manifest: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise ExportError(f"{path}: not the manifest of an lcnotation export")
    version = manifest.get("schema_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise ExportError(f"{path}: schema version {version!r}; this lcnotation reads "
                          f"versions up to {SCHEMA_VERSION} (upgrade lcnotation)")
    return manifest


def _dataset(path: str, manifest: Optional[Dict[str, Any]]) -> Any:
    """The games table at ``path``: the Parquet files of an export's ``games``
    folder, or a file or folder of them written by another program (only
    ``*.parquet`` files are read: nothing else in a folder is taken for one)."""
    base = os.path.join(path, GAMES) if manifest is not None else path
    files = [base] if os.path.isfile(base) else list(iter_parts(base))
    schema = None
    partitioning: Any = "hive"
    if manifest is not None:
        headers = [h["header"] for h in manifest.get("header_columns", [])]
        full = games_schema(headers)
        names = list(manifest.get("partition_by", []))
        partitioning = ds.HivePartitioning(pa.schema([full.field(n) for n in names]),
                                           null_fallback=NULL_PARTITION) if names else None
        if not files:
            schema = games_schema(headers, without=names)
    elif not files:
        raise ExportError(f"{path}: no Parquet file there")
    try:
        dataset = ds.dataset(files, schema=schema, format="parquet", partitioning=partitioning,
                             partition_base_dir=base if os.path.isdir(base) else None)
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise ExportError(f"{path}: cannot read the table: {exc}") from None
    missing = [c for c in _COLUMNS if c not in dataset.schema.names]
    if missing:
        raise ExportError(f"{path}: the table has no column {', '.join(map(repr, missing))}: "
                          "a table of games needs source, byte_offset and record")
    return dataset


def _fragment_rows(fragment: Any, batch: int,
                   record: bool = True) -> Iterator[Tuple[str, int, bytes]]:
    """The rows of one file of the table, as ``(source, offset, record)`` (the
    record ``b""`` unless ``record``)."""
    keys = ds.get_partition_keys(fragment.partition_expression) or {}
    columns = [c for c in _COLUMNS if c not in keys and (record or c != "record")]
    # Row group by row group (a fragment's own scan reads ahead, holding much
    # of the file): memory holds a batch of each file being merged.
    with pq.ParquetFile(fragment.path) as parts:
        yield from _batch_rows(parts.iter_batches(batch_size=batch, columns=columns),
                               columns, keys)


def _batch_rows(batches: Iterator[Any], columns: Sequence[str],
                keys: Dict[str, Any]) -> Iterator[Tuple[str, int, bytes]]:
    for part in batches:
        values = {name: part.column(name).to_pylist() for name in columns}
        n = part.num_rows
        sources = values.get("source") or [keys.get("source")] * n
        offsets = values.get("byte_offset") or [keys.get("byte_offset")] * n
        yield from zip(sources, offsets, values.get("record") or [b""] * n)


def records(path: str, *, sources: Optional[Sequence[str]] = None,
            report: Optional[ImportReport] = None) -> Iterator[Tuple[str, int, bytes]]:
    """The records of the export (or table) at ``path`` in file order, as
    ``(source, offset, bytes)``; only those of ``sources`` when given.

    Problems found against the manifest go to ``report.problems`` (and the
    records are given all the same); the caller decides what they mean.
    """
    report = report if report is not None else ImportReport()
    manifest = read_manifest(path) if os.path.isdir(path) else None
    dataset = _dataset(path, manifest)
    order: Dict[str, int] = {}
    if manifest is not None:
        order = {s["path"]: i for i, s in enumerate(manifest["sources"])}
    fragments = list(dataset.get_fragments())
    batch = max(64, _ROWS_AT_ONCE // max(1, len(fragments)))
    wanted: Optional[Set[str]] = set(sources) if sources is not None else None

    def keyed(fragment: Any, record: bool = True
              ) -> Iterator[Tuple[Tuple[int, str, int], bytes]]:
        for source, offset, raw in _fragment_rows(fragment, batch, record):
            if wanted is None or source in wanted:
                yield (order.get(source, len(order)), source, offset), raw

    def merged(record: bool = True) -> Iterator[Tuple[Tuple[int, str, int], bytes]]:
        return heapq.merge(*(keyed(f, record) for f in fragments), key=lambda item: item[0])

    if manifest is not None:
        yield from _checked(merged(), manifest, wanted, report)
    elif _sorted(merged(record=False)):
        for (_, source, offset), raw in merged():
            yield source, offset, raw
    else:
        # A table of another program whose files hold their rows in another
        # order (which a merge of files, each in order, cannot put right):
        # sorted in memory.
        rows = sorted(merged(), key=lambda item: item[0])
        for (_, source, offset), raw in rows:
            yield source, offset, raw


def _sorted(keys: Iterator[Tuple[Tuple[int, str, int], bytes]]) -> bool:
    """Whether the merged keys come in order (a pass that reads no record)."""
    last: Optional[Tuple[int, str, int]] = None
    for key, _ in keys:
        if last is not None and key < last:
            return False
        last = key
    return True


def _checked(merged: Iterator[Tuple[Tuple[int, str, int], bytes]], manifest: Dict[str, Any],
             wanted: Optional[Set[str]],
             report: ImportReport) -> Iterator[Tuple[str, int, bytes]]:
    """The records of an export, checked range by range against its manifest;
    the bytes before a range's first game (a byte-order mark, a file of white
    space alone) are given from the manifest."""
    pending = next(merged, None)
    for entry in manifest["sources"]:
        source = entry["path"]
        if wanted is not None and source not in wanted:
            continue
        report.sources.append(source)
        for r in entry["ranges"]:
            sha = hashlib.sha256()
            at = r["start"]
            if r.get("lead") is not None:
                raw = base64.b64decode(r["lead"])
                yield source, at, raw
                at += len(raw)
            while pending is not None and pending[0][1] == source and pending[0][2] < r["end"]:
                (_, _, offset), raw = pending
                if offset != at:
                    report.problems.append(
                        f"{source}: bytes {at} to {offset} have no record"
                        if offset > at else
                        f"{source}: the record at byte {offset} overlaps the one before it")
                sha.update(raw)
                yield source, offset, raw
                at = offset + len(raw)
                pending = next(merged, None)
            if at != r["end"]:
                report.problems.append(f"{source}: bytes {at} to {r['end']} have no record")
            elif sha.hexdigest() != r["sha256"]:
                report.problems.append(f"{source}: bytes {r['start']} to {r['end']} are not "
                                       "those exported (their SHA-256 differs)")
    while pending is not None:
        (_, source, offset), _raw = pending
        if wanted is None or source in wanted:
            report.problems.append(f"{source}: the record at byte {offset} is not in the "
                                   "export's manifest")
        pending = next(merged, None)


def import_parquet(path: str, write: Callable[[bytes], object], *,
                   sources: Optional[Sequence[str]] = None) -> ImportReport:
    """Write the records of the export (or table) at ``path`` with ``write``,
    file after file; a line end is written between two files when the first
    does not end with one.  The report lists what does not match the manifest."""
    report = ImportReport()
    current: Optional[str] = None
    ended = True  # the bytes written so far end with a line end (or are none)
    for source, _offset, raw in records(path, sources=sources, report=report):
        if not raw:
            continue
        if source != current:
            if current is not None and not ended:
                write(b"\n")
                report.joined.append(current)
            current = source
            if source not in report.sources:
                report.sources.append(source)
        write(raw)
        report.records += 1
        report.bytes += len(raw)
        ended = raw.endswith((b"\n", b"\r"))
    return report
