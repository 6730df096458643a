"""``--scheduler``: the commands that run on a Dask cluster (``lcn lint``,
``lcn stats``; ``lcn export --to parquet`` passes it to the format).

The cluster gives what one process gives, and the commands report it the
same way; standard input (``-``) is read in this process.  Dask is imported
only when ``--scheduler`` is given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Sequence, Tuple

from .common import EXIT_OK, EXIT_USAGE, Settings, err

if TYPE_CHECKING:  # pragma: no cover
    from ..archive.stats import GameStats, StatsAccumulator
    from ..tools.lint import FileReport, LintConfig

__all__ = ["scheduler_problem", "lint_on_cluster", "stats_on_cluster"]


def scheduler_problem(scheduler: str) -> Optional[str]:
    """What is wrong with ``--scheduler scheduler`` before any work (dask not
    installed, a value that names no scheduler), or None."""
    try:
        from ..dask.cluster import parse_scheduler
    except ImportError:  # pragma: no cover - the test extra installs dask
        return ("--scheduler needs dask and distributed, which are not installed: "
                "pip install 'lcnotation[dask]'")
    try:
        parse_scheduler(scheduler)
    except ValueError as exc:
        return str(exc)
    try:
        import distributed  # noqa: F401
    except ImportError:  # pragma: no cover
        return ("--scheduler needs dask and distributed, which are not installed: "
                "pip install 'lcnotation[dask]'")
    return None


def lint_on_cluster(files: Sequence[str], settings: Settings, scheduler: str,
                    lint_stdin: "Callable[[LintConfig], FileReport]"
                    ) -> "List[Tuple[FileReport, LintConfig]]":
    """The report of every file, in the order of ``files``, linted on the
    cluster (standard input with ``lint_stdin``, here); raises ValueError for
    a scheduler that cannot be reached."""
    from ..dask import lint

    configs = {f: settings.lint(f) for f in files}
    reports = iter(lint([f for f in files if f != "-"], configs.__getitem__,
                        scheduler=scheduler))
    return [((lint_stdin(configs[f]) if f == "-" else next(reports)), configs[f])
            for f in files]


def stats_on_cluster(paths: Sequence[str], settings: Settings, scheduler: str,
                     collect: "Callable[[List[str], Settings], Tuple[StatsAccumulator, int]]",
                     unused: "Callable[[GameStats], None]"
                     ) -> "Optional[Tuple[StatsAccumulator, int]]":
    """``lcn stats --scheduler``: the figures and the exit status, each game
    that is not a result named with ``unused`` and each file that cannot be
    read said, in the order of ``paths``, as ``collect`` does in one process
    (which reads standard input); None, said, when the cluster cannot be had."""
    problem = scheduler_problem(scheduler)
    if problem is not None:
        err(problem)
        return None
    from ..dask import stats
    from ..lostcities.lint import colors_of

    try:
        total, unusable, unreadable = stats([p for p in paths if p != "-"],
                                            colors=lambda p: colors_of(settings.lint(p)),
                                            scheduler=scheduler)
    except ValueError as exc:  # a scheduler that cannot be reached
        err(str(exc))
        return None
    by_path: Dict[str, List["GameStats"]] = {}
    for record in unusable:
        by_path.setdefault(record.path or "", []).append(record)
    status = EXIT_OK
    for path in paths:
        if path == "-":
            part, done = collect([path], settings)
            total = total.combine(part)
            status = max(status, done)
        elif path in unreadable:
            err(f"{settings.named(path)}: cannot read: {unreadable[path]}")
            status = EXIT_USAGE
        else:
            for record in by_path.get(path, []):
                unused(record)
    return total, status
