"""Where the work runs: a Dask scheduler's address, or a cluster on this machine
that lives as long as the work and no longer.

``--scheduler ADDRESS`` names a running scheduler (``tcp://10.0.0.5:8786``);
``--scheduler local`` starts a :class:`distributed.LocalCluster` of worker
processes (one per core; ``local:N`` for N), which is closed, and every
worker process ended, when the work ends: normally, on an error, on Ctrl-C
and on SIGTERM (which the ``lcn`` command turns into an exception that
unwinds through here).
"""

from __future__ import annotations

import contextlib
import logging
import os
from typing import TYPE_CHECKING, Any, Dict, Iterator, Optional, Tuple

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

__all__ = ["connect", "parse_scheduler", "SchedulerError", "CONNECT_TIMEOUT"]

#: How long to wait for a scheduler to answer, in seconds.
CONNECT_TIMEOUT = 20


class SchedulerError(ValueError):
    """The scheduler cannot be named or reached (the message says why)."""


def parse_scheduler(value: str) -> Tuple[Optional[int], Optional[str]]:
    """``local`` or ``local:N`` (workers on this machine: N, or None for one
    per core) or an address: ``(workers, None)`` or ``(None, address)``.

    >>> parse_scheduler("local:2"), parse_scheduler("tcp://10.0.0.5:8786")
    ((2, None), (None, 'tcp://10.0.0.5:8786'))
    """
    if value == "local":
        return None, None
    if value.startswith("local:"):
        count = value[len("local:"):]
        if not count.isdigit() or int(count) < 1:
            raise SchedulerError(f"--scheduler {value}: expected local:N with N workers, "
                                 "1 or more")
        return int(count), None
    if not value or value.isspace():
        raise SchedulerError("--scheduler: expected an address (tcp://host:8786) or local")
    return None, value


@contextlib.contextmanager
def connect(scheduler: str = "local") -> Iterator["Client"]:
    """A client of the scheduler ``scheduler`` (see :func:`parse_scheduler`);
    a local cluster is started for it and closed afterwards, its workers
    ended whatever happens."""
    workers, address = parse_scheduler(scheduler)
    import distributed

    if address is not None:
        try:
            client = distributed.Client(  # type: ignore[no-untyped-call]
                address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            raise SchedulerError(f"cannot reach the Dask scheduler at {address}: "
                                 f"{exc}") from None
        with client:
            yield client
        return
    count = workers if workers is not None else (os.cpu_count() or 1)
    # No dashboard (None turns it off, which the annotations do not say):
    # nothing listens but the scheduler, on a free port.
    options: Dict[str, Any] = {"n_workers": count, "threads_per_worker": 1, "processes": True,
                               "dashboard_address": None, "silence_logs": logging.ERROR,
                               "scheduler_port": 0}
    with distributed.LocalCluster(**options) as cluster:  # type: ignore[no-untyped-call]
        with distributed.Client(cluster) as client:  # type: ignore[no-untyped-call]
            yield client
