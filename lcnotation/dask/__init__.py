"""Archives on a Dask cluster: lint, stats and the Parquet export of many and
large files, with exactly the results of one process
(``pip install 'lcnotation[dask]'``, which brings dask and distributed).

A large file is cut into byte ranges at game boundaries without being read
first, and each range is a task; the files must be where the workers can
read them (the same paths: a shared file system).

>>> import lcnotation.dask as lcd                                   # doctest: +SKIP
>>> with lcd.connect("tcp://10.0.0.5:8786") as client:              # doctest: +SKIP
...     total, unusable, unreadable = lcd.stats(["big.lcn"], client=client)
>>> total.summary()["games"]                                       # doctest: +SKIP
1000000

``connect("local")`` starts a cluster on this machine for the time of the
``with`` block (``local:N``: N worker processes).  :func:`games` gives the
games of the files as a Dask bag, for work of your own.
"""

from .api import FileRange, Plan, export_parquet, games, lint, plan, stats
from .cluster import SchedulerError, connect, parse_scheduler
from .ranges import RANGE_SIZE, split_ranges

__all__ = ["connect", "parse_scheduler", "SchedulerError", "games", "lint", "stats",
           "export_parquet", "plan", "Plan", "FileRange", "RANGE_SIZE", "split_ranges"]
