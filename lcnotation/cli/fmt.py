"""``lcn fmt``: rewrite records in the canonical layout."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Optional, Tuple

from ..lostcities.text.dialects import DIALECTS
from ..core.diagnostics import NotationError
from ..core.files import WriteFailed, atomic_writer, guarded
from ..core.terminal import printable
from ..core.lint import LintConfig
from ..core import notation as core_notation
from ..core.notation import FormatRefused, FormatsInParallel, Streamed, Streaming
from ..tools.notations import notation_for
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, Settings, add_command,
                     add_config_options, add_exclude_options, add_notation_option, cannot_read, deliver_formatted, err, read_input,
                     process_count, readable_games, streamable)

_FMT_EXAMPLES = """\
examples:
  lcn fmt                    rewrite every *.lcn file below the current folder
  lcn fmt match.lcn          rewrite in the canonical layout, in place
  lcn fmt games/ --check     exit 1 if any file would change (for CI)
  lcn fmt games/ --diff      show what would change, write nothing
  lcn fmt - < in.lcn         format standard input to standard output

The moves are spelt in the dialect lcn lint expects: the configured one
([tool.lcnotation] dialect, or --dialect), else the file's own (upper case,
and the discard marker of its first discard). Files with syntax errors are
left alone unless --force, which keeps each game with an error exactly as
written (and says so). Comments, unknown headers, line ends and BOM are
kept; a file that mixes line ends gets the one most of its lines use.
"""

def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    fmt = add_command(sub, "fmt", "rewrite records in the canonical layout", _FMT_EXAMPLES)
    fmt.add_argument("paths", nargs="*", metavar="PATH",
                     help="files, folders or - (default: the current folder)")
    fmt.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file "
                     "would change")
    fmt.add_argument("--diff", action="store_true", help="print a diff instead of writing")
    fmt.add_argument("--dialect", default=None, choices=list(DIALECTS),
                     help="spelling of the moves (default: the configuration's, else the "
                     "file's own)")
    fmt.add_argument("--force", action="store_true",
                     help="format files with syntax errors too (each game with an error "
                     "is kept as written)")
    add_config_options(fmt)
    add_exclude_options(fmt)
    add_notation_option(fmt)
    fmt.add_argument("-j", "--jobs", type=process_count, default=1, metavar="N",
                     help="format a large file in N processes, cut at game boundaries "
                     "(0: one per core); the output is that of one process")
    fmt.add_argument("-q", "--quiet", action="store_true",
                     help="say nothing but errors (no summary)")
    fmt.add_argument("--watch", action="store_true",
                     help="with --check or --diff: check again whenever a file changes "
                     "(Ctrl-C stops)")
    fmt.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.watch:
        from .watch import watch_fmt

        return watch_fmt(args, run)
    settings = Settings(args)
    status = EXIT_OK
    paths = args.paths or (["-"] if args.stdin_filename else ["."])
    changed = unchanged = 0
    seen = False
    for path in settings.expand(paths):
        seen = True
        name = settings.named(path)
        config = settings.lint(path)
        notation = notation_for(name, config.notation)
        streamed = (_format_file(path, name, notation, config, args)
                    if streamable(path) and isinstance(notation, Streaming) else None)
        if streamed is not None:
            file_status, file_changed = streamed
            status = max(status, file_status)
            changed += file_changed is True
            unchanged += file_changed is False
            continue
        source = read_input(path)
        if source is None:
            status = EXIT_USAGE
            continue
        try:
            result = notation.format_text(source.text, name, config, args.force)
        except FormatRefused as exc:
            err(f"{name}:{exc}" if str(exc)[:1].isdigit() else f"{name}: {exc}")
            status = max(status, EXIT_FINDINGS)
            continue
        for note in result.kept:
            if not args.quiet:
                err(f"{name}:{note}")
        new = result.text
        if new == source.text and source.newline is not None:
            unchanged += 1
        else:
            changed += 1
        status = max(status, deliver_formatted(path, source, new, args.check, args.diff,
                                               name, args.quiet))
    if not seen:
        err("warning: no *.lcn files found in " + ", ".join(paths))
    elif not args.quiet and changed + unchanged > 1:
        # One line for a run over many files (one file says it all above).
        verb = "would change" if args.check or args.diff else "changed"
        print(f"fmt: {_files(changed)} {verb}, {_files(unchanged)} unchanged", file=sys.stderr)
    return status


class _Unchanged(Exception):
    """Leaves the file as it was (the atomic writer removes its temporary file)."""


def _format_file(path: str, name: str, notation: Streaming, config: LintConfig,
                 args: argparse.Namespace) -> Optional[Tuple[int, Optional[bool]]]:
    """Format the regular file ``path`` as a stream (memory holds one game):
    its exit status and whether it changed (None: it was refused or could not
    be read or written), or None when it must be formatted whole: a write
    that failed (a full disk: the whole way writes only a file that changes), a file
    that mixes line ends (S107 decides its line end) and a diff to show."""
    in_place = not (args.check or args.diff)
    found: Optional[Streamed] = None
    try:
        with open(path, "rb") as handle:
            jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
            if (jobs > 1 and isinstance(notation, FormatsInParallel)
                    and os.fstat(handle.fileno()).st_size >= core_notation.PARALLEL_BYTES):
                parallel = notation

                def format_stream(write: Optional[Callable[[bytes], object]] = None
                                  ) -> Streamed:
                    return parallel.format_stream_parallel(handle, name, config, args.force,
                                                           jobs, write)
            else:
                def format_stream(write: Optional[Callable[[bytes], object]] = None
                                  ) -> Streamed:
                    return notation.format_stream(handle, name, config, args.force, write)
            if not in_place:
                found = format_stream()
            else:
                try:
                    with atomic_writer(path) as out:
                        found = format_stream(guarded(out.write))
                        if not (found.changed and found.faithful):
                            raise _Unchanged()
                except _Unchanged:
                    pass
    except FormatRefused as exc:
        if not readable_games(path):  # bytes past the refusal cannot be read: say that
            return EXIT_USAGE, None
        err(f"{name}:{exc}" if str(exc)[:1].isdigit() else f"{name}: {exc}")
        return EXIT_FINDINGS, None
    except WriteFailed:
        # A full disk, say: the whole file's way writes only a file that
        # changes, so one that does not is still fine.
        return None
    except NotationError as exc:
        cannot_read(name, exc)
        return EXIT_USAGE, None
    except OSError as exc:
        if found is None or not found.changed:
            # Reading failed, or the atomic writer could not start (a file we
            # may not write is fine while fmt has nothing to change): the
            # whole file's way says which.
            return None
        err(f"{path}: cannot write: {exc.strerror or exc}")
        return EXIT_USAGE, None
    assert found is not None
    if found.kind.newline is None or (found.changed and args.diff):
        return None
    if not args.quiet:
        for note in found.kept:
            err(f"{name}:{note}")
    if not found.changed:
        return EXIT_OK, False
    if args.check:
        print(printable(f"would reformat {name}"))
        return EXIT_FINDINGS, True
    if not args.quiet:
        print(printable(f"reformatted {name}"), file=sys.stderr)
    return EXIT_OK, True


def _files(n: int) -> str:
    return f"{n} file{'s' if n != 1 else ''}"
