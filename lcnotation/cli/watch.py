"""``lcn lint --watch`` (and ``lcn fmt --check --watch``): lint, then lint
again each time a record file or a configuration file changes, until Ctrl-C
(exit 130) or SIGTERM (143).

Changes are found by looking at the files' modification times and sizes
every half second (no dependency, and it works the same on every system and
file system, network shares included): the record files the run would lint
(a folder is walked again each time, so a new file counts), the
``pyproject.toml`` of each and the ``.gitignore`` files of the folders
named.  Each run starts with a header; on a terminal the screen is cleared
first.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import datetime
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..tools.config import ConfigError
from .common import Settings, err, usage_error

__all__ = ["watch", "watch_fmt", "snapshot", "INTERVAL"]

#: How often the files are looked at, in seconds.
INTERVAL = 0.5

#: What a file looks like: its modification time (ns) and size; None once gone.
Seen = Dict[str, Optional[Tuple[int, int]]]


def snapshot(args: argparse.Namespace, paths: Sequence[str]) -> Seen:
    """The state of every file a run over ``paths`` depends on."""
    seen: Seen = {}
    try:
        settings = Settings(args)
        files = [f for f in settings.expand(paths) if f != "-"]
        configs = {settings.project(f).path for f in files}
    except (ConfigError, OSError) as exc:
        # A configuration being edited: the next change will tell.
        seen[f"<{exc}>"] = None
        files, configs = [], set()
    for path in files + [c for c in configs if c is not None] + [
            os.path.join(p, ".gitignore") for p in paths if os.path.isdir(p)]:
        try:
            st = os.stat(path)
            seen[path] = (st.st_mtime_ns, st.st_size)
        except OSError:
            seen[path] = None
    return seen


def watch_fmt(args: argparse.Namespace, run: Callable[[argparse.Namespace], int]) -> int:
    """``lcn fmt --check --watch`` (or ``--diff``): ``run`` (one ``lcn fmt``)
    again after every change.  Without --check or --diff, fmt would rewrite
    the files it watches."""
    if not (args.check or args.diff):
        return usage_error("fmt", "--watch checks: use it with --check or --diff")
    paths = args.paths or (["-"] if args.stdin_filename else ["."])
    return watch(args, paths, lambda: run(argparse.Namespace(**{**vars(args), "watch": False})),
                 command="fmt")


def watch(args: argparse.Namespace, paths: List[str], once: Callable[[], int],
          interval: float = INTERVAL, command: str = "lint") -> int:
    """Run ``once`` (one ``lcn lint``, or ``command``), then again after every
    change; never returns by itself (Ctrl-C and SIGTERM end the command, as
    any run)."""
    if "-" in paths:
        return usage_error(command, "--watch reads files: standard input cannot change")
    clear = sys.stdout.isatty()
    runs = 0
    while True:
        seen = snapshot(args, paths)
        runs += 1
        if clear:
            sys.stdout.write("\x1b[2J\x1b[H")
        sys.stdout.write(f"lcn {command} --watch: run {runs} at {datetime.now():%H:%M:%S} "
                         f"(Ctrl-C stops)\n")
        sys.stdout.flush()
        try:
            status = once()
        except ConfigError as exc:  # say it, and wait for the fix
            err(str(exc))
            status = 2
        sys.stdout.write(f"lcn {command} --watch: exit status {status}; watching for "
                         "changes\n")
        sys.stdout.flush()
        while snapshot(args, paths) == seen:
            time.sleep(interval)
