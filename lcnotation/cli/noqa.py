"""``lcn lint --add-noqa``: write ``lcn: ignore[CODE]`` for today's findings
(:mod:`lcnotation.tools.noqa`), file by file, and say what was left."""

from __future__ import annotations

import argparse
import sys
from typing import List

from ..core.terminal import printable
from ..tools.noqa import add_noqa_bytes
from .common import (EXIT_OK, EXIT_USAGE, Settings, err, read_bytes, usage_error,
                     write_file)

__all__ = ["run_add_noqa", "refused"]


def refused(args: argparse.Namespace, paths: List[str]) -> "str | None":
    """Why ``--add-noqa`` cannot run with these options, or None."""
    if "-" in paths:
        return "--add-noqa cannot rewrite standard input"
    others = [name for name, given in (("--fix", args.fix), ("--diff", args.diff),
                                       ("--from", args.from_format is not None),
                                       ("--scheduler", args.scheduler is not None),
                                       ("--watch", getattr(args, "watch", False)),
                                       ("--show-settings", getattr(args, "show_settings",
                                                                   False)))
              if given]
    if others:
        return f"--add-noqa cannot be used with {others[0]}"
    return None


def run_add_noqa(args: argparse.Namespace, settings: Settings, paths: List[str]) -> int:
    """Add the suppressions to every file of ``paths``; the exit status (0,
    or 2 when a file could not be read or written)."""
    problem = refused(args, paths)
    if problem is not None:
        return usage_error("lint", problem)
    added = files = seen = 0
    failed = False
    for path in settings.expand(paths):
        seen += 1
        data = read_bytes(path)
        if data is None:
            failed = True
            continue
        config = settings.lint(path)
        done = add_noqa_bytes(data, path, config)
        if done.report is not None and done.report.unreadable is not None:
            err(f"{path}: cannot read: {done.report.unreadable}")
            failed = True
            continue
        for left in done.left:
            d = left.finding.diagnostic
            sys.stdout.write(printable(f"{path}:{d.line}:{d.column}: {d.code} not suppressed: "
                                       f"{left.reason}") + "\n")
        if done.added:
            if not write_file(path, done.data):
                failed = True
                continue
            added += done.added
            files += 1
            if args.verbose:
                err(f"{path}: added {_suppressions(done.added)} ({done.codes} "
                    f"code{'s' if done.codes != 1 else ''})")
    if not seen:
        err("warning: no record files found in " + ", ".join(paths))
    if not args.quiet:
        err(f"added {_suppressions(added)} in {files} file{'s' if files != 1 else ''}")
    return EXIT_USAGE if failed else EXIT_OK


def _suppressions(n: int) -> str:
    return f"{n} suppression{'s' if n != 1 else ''}"
