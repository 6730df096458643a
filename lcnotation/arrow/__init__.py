"""Parquet exports of record files: a ``games`` table and a ``plies`` table,
to query with DuckDB, Polars, pandas or Spark, and the records back from them
byte for byte (``pip install 'lcnotation[arrow]'``, which brings pyarrow).

>>> from lcnotation.arrow.writer import export_parquet    # doctest: +SKIP
>>> report = export_parquet(["match.lcn"], "match.parquet")  # doctest: +SKIP
>>> report.games, report.refused           # doctest: +SKIP
(3, 0)

The tables, their columns and the manifest are described in
``spec/parquet.md``; :mod:`lcnotation.arrow.schema` defines them,
:mod:`lcnotation.arrow.writer` writes them and :mod:`lcnotation.arrow.reader`
reads the records back.
"""
