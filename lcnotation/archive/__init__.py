"""Archives: collections of games, streamed, queried, deduplicated, split and counted.

The public API of this package (stable: a change is named in the commit
that makes it):

- :func:`scan` yields each game of a file as a :class:`GameEntry`: its
  bytes exactly as written, its byte offset, line and number, with
  :meth:`GameEntry.headers` (the headers, moves not parsed) and
  :meth:`GameEntry.game` (the syntax tree, as ``read_games`` reads it);
  ``scan(path, start=a, end=b)`` the games that begin in a byte range;
  :func:`read_at` the game at a byte offset;
- :func:`visit` drives a :class:`Visitor` (python-chess style) over each
  game; ready-made: :class:`TreeBuilder`, :class:`HeadersOnly`,
  :class:`SkipGame`, :class:`WriteBack`;
- :func:`game_digest` is a game's identity by meaning (``spec/digest.md``),
  :func:`deal_digest` its deal's, :func:`play_key` its setup's and plays';
- :func:`game_stats` makes a per-game :class:`GameStats` record and
  :class:`StatsAccumulator` adds records up and combines exactly
  (``combine``), for figures computed per chunk.
"""

from ..lostcities.game.digest import DIGEST_VERSION, deal_digest, game_digest, play_key
from .reader import BOM, GameEntry, Source, position_at, read_at, scan
from .stats import (PERCENTILES, STATS_VERSION, ExpeditionStats, GameStats, StatsAccumulator,
                    entry_stats, game_stats, wilson_interval)
from .visitor import (SKIP, BaseVisitor, HeadersOnly, Skip, SkipGame, TreeBuilder, Visitor,
                      WriteBack, visit, visit_entry)

__all__ = [
    "BOM", "GameEntry", "Source", "position_at", "read_at", "scan",
    "SKIP", "Skip", "Visitor", "BaseVisitor", "visit", "visit_entry", "TreeBuilder",
    "HeadersOnly", "SkipGame", "WriteBack",
    "DIGEST_VERSION", "game_digest", "deal_digest", "play_key",
    "GameStats", "ExpeditionStats", "StatsAccumulator", "game_stats", "entry_stats",
    "wilson_interval", "PERCENTILES", "STATS_VERSION",
]
