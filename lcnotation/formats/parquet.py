"""Parquet: record files as a ``games`` table and a ``plies`` table, and the
records back from them byte for byte (``spec/parquet.md``).

A format of whole collections: ``lcn export --to parquet PATH... -o DIR``
writes the folder, ``lcn import --from parquet DIR -o FILE`` gives the
records back.  The work is done by :mod:`lcnotation.arrow` (and, on a
cluster, :mod:`lcnotation.dask`), imported only when a collection is written
or read: pyarrow comes with the extra ``arrow``.
"""

from __future__ import annotations

import importlib.util
from typing import Callable, Sequence

from .base import (ExportOptions, ExportSummary, Format, FormatUnavailable, ImportOptions,
                   ImportSummary)

__all__ = ["FORMAT"]


def _needs(extra: str, package: str) -> FormatUnavailable:
    return FormatUnavailable(f"the Parquet format needs {package}, which is not installed: "
                             f"pip install 'lcnotation[{extra}]'")


def export_files(paths: Sequence[str], out: str, options: ExportOptions) -> ExportSummary:
    """Export the record files ``paths`` to the new folder ``out``."""
    if importlib.util.find_spec("pyarrow") is None:
        raise _needs("arrow", "pyarrow")
    if options.scheduler is not None:
        if importlib.util.find_spec("distributed") is None:
            raise _needs("dask", "dask and distributed")
        from ..dask import export_parquet as on_cluster

        report = on_cluster(paths, out, scheduler=options.scheduler,
                            partition_by=options.partition_by,
                            header_columns=options.header_columns, colors=options.colors,
                            refused=options.refused)
    else:
        from ..arrow.writer import export_parquet

        report = export_parquet(paths, out, partition_by=options.partition_by,
                                header_columns=options.header_columns, colors=options.colors,
                                refused=options.refused)
    return ExportSummary(report.games, report.refused,
                         f"{report.games:,} games and {report.plies:,} plies")


def import_records(path: str, write: Callable[[bytes], object],
                   options: ImportOptions) -> ImportSummary:
    """Write the records of the export (or table of games) at ``path``."""
    try:
        from ..arrow.reader import import_parquet
    except ImportError:
        raise _needs("arrow", "pyarrow") from None
    report = import_parquet(path, write, sources=options.sources)
    notes = tuple(f"a line end was written after the last game of {source}, which ends "
                  "without one" for source in report.joined)
    return ImportSummary(tuple(report.sources), report.records, tuple(report.problems), notes)


FORMAT = Format(
    name="parquet",
    description="Parquet tables of games and plies, to query with DuckDB, Polars or pandas "
                "(a folder; needs pyarrow)",
    export_files=export_files,
    import_records=import_records,
)
