"""The tables of a Parquet export, as Arrow schemas, and their version.

This module is the one definition of the columns: ``spec/parquet.md``
describes each of them (``tests/test_parquet.py`` holds the two to
agreement), and the writer and the reader take their names and types from
here.  A change that a reader of an older export would trip over (a column
removed, renamed or retyped) raises :data:`SCHEMA_VERSION`; a column added
at the end does not.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

import pyarrow as pa  # type: ignore[import-not-found, import-untyped, unused-ignore]

__all__ = ["SCHEMA_VERSION", "FORMAT_NAME", "MANIFEST", "GAMES", "PLIES", "games_schema",
           "plies_schema", "header_column", "PARTITIONABLE", "schema_of", "type_text"]

#: The version of the tables' layout, written in the manifest and in each
#: file's metadata.
SCHEMA_VERSION = 1
#: What the manifest says it is.
FORMAT_NAME = "lcnotation-parquet"
#: The manifest's file name, in the export's folder (written last).
MANIFEST = "lcnotation.json"
#: The tables' folders in the export.
GAMES, PLIES = "games", "plies"

_DIAGNOSTIC = pa.struct([("code", pa.string()), ("severity", pa.string()),
                         ("line", pa.int32()), ("column", pa.int32()),
                         ("message", pa.string())])
_EXPEDITION = pa.struct([("player", pa.int8()), ("color", pa.string()),
                         ("cards", pa.int8()), ("wagers", pa.int8()),
                         ("score", pa.int32())])
_HEADER = pa.struct([("name", pa.string()), ("value", pa.string())])

#: The games table: (name, type, nullable).
_GAMES: Tuple[Tuple[str, Any, bool], ...] = (
    ("source", pa.string(), False),
    ("byte_offset", pa.int64(), False),
    ("byte_length", pa.int64(), False),
    ("line", pa.int32(), False),
    ("game", pa.int32(), False),
    ("digest", pa.string(), True),
    ("readable", pa.bool_(), False),
    ("event", pa.string(), True),
    ("site", pa.string(), True),
    ("date", pa.date32(), True),
    ("year", pa.int32(), True),
    ("round", pa.int32(), True),
    ("player1", pa.string(), True),
    ("player2", pa.string(), True),
    ("colors", pa.string(), True),
    ("hand1", pa.list_(pa.string()), True),
    ("hand2", pa.list_(pa.string()), True),
    ("deck", pa.list_(pa.string()), True),
    ("result", pa.string(), True),
    ("result1", pa.int32(), True),
    ("result2", pa.int32(), True),
    ("headers", pa.list_(_HEADER), False),
    ("score1", pa.int32(), True),
    ("score2", pa.int32(), True),
    ("winner", pa.int8(), True),
    ("complete", pa.bool_(), True),
    ("move_count", pa.int32(), False),
    ("moves", pa.list_(pa.string()), True),
    ("expeditions", pa.list_(_EXPEDITION), True),
    ("errors", pa.int32(), False),
    ("diagnostics", pa.list_(_DIAGNOSTIC), False),
    ("record", pa.binary(), False),
)

#: The plies table: one row per move of each readable game.
_PLIES: Tuple[Tuple[str, Any, bool], ...] = (
    ("source", pa.string(), False),
    ("byte_offset", pa.int64(), False),
    ("game", pa.int32(), False),
    ("digest", pa.string(), True),
    ("ply", pa.int32(), False),
    ("player", pa.int8(), False),
    ("card", pa.string(), False),
    ("color", pa.string(), False),
    ("rank", pa.int8(), False),
    ("discard", pa.bool_(), False),
    ("draw", pa.string(), False),
    ("score_after", pa.int32(), False),
    ("opponent_score_after", pa.int32(), False),
    ("move_line", pa.int32(), False),
    ("move_column", pa.int32(), False),
)

#: The games table's columns a table may be partitioned by: one short value
#: per game (and the ``header_*`` columns).
PARTITIONABLE = ("source", "readable", "event", "site", "date", "year", "round", "player1",
                 "player2", "colors", "winner", "complete")


def header_column(name: str) -> str:
    """The column that ``--header-column NAME`` adds to the games table."""
    return f"header_{name}"


def _fields(columns: Sequence[Tuple[str, Any, bool]]) -> List[Any]:
    return [pa.field(name, kind, nullable=nullable) for name, kind, nullable in columns]


def _metadata(table: str) -> Dict[bytes, bytes]:
    return {b"lcnotation.format": FORMAT_NAME.encode(), b"lcnotation.table": table.encode(),
            b"lcnotation.schema_version": str(SCHEMA_VERSION).encode()}


def games_schema(header_columns: Sequence[str] = (), without: Sequence[str] = ()) -> Any:
    """The games table's schema: the columns above, then a string column for
    each header named in ``header_columns``, less the columns ``without``
    (those a partitioned export writes in folder names)."""
    fields = _fields(_GAMES) + [pa.field(header_column(h), pa.string())
                                for h in header_columns]
    return pa.schema([f for f in fields if f.name not in without], metadata=_metadata(GAMES))


def plies_schema(without: Sequence[str] = ()) -> Any:
    """The plies table's schema, less the columns ``without``."""
    return pa.schema([f for f in _fields(_PLIES) if f.name not in without],
                     metadata=_metadata(PLIES))


def schema_of(table: str) -> Any:
    """The full schema of ``table`` (``games`` or ``plies``)."""
    return games_schema() if table == GAMES else plies_schema()


def type_text(kind: Any) -> str:
    """A column type as ``spec/parquet.md`` writes it: Arrow's own text
    (``int32``, ``list<string>``), without the name of a list's item."""
    return str(kind).replace("item: ", "").replace("element: ", "")
