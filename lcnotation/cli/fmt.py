"""``lcn fmt``: rewrite records in the canonical layout.

Files are formatted as a stream, a game at a time, straight into the
temporary file that replaces them (see :mod:`lcnotation.tools.formatting`);
``--diff`` alone holds the file's text and the new text whole.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from typing import IO, Callable, Optional

from ..text.dialects import get_dialect
from ..text.errors import NotationError
from ..tools.files import WriteFailed, atomic_writer, guarded, not_regular
from ..tools.formatting import FormatResult, as_file_writes, format_stream
from ..tools.output import printable, printable_diff
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, add_command, err,
                     expand_paths)

_FMT_EXAMPLES = """\
examples:
  lcn fmt match.lcn          rewrite in the canonical layout, in place
  lcn fmt games/ --check     exit 1 if any file would change (for CI)
  lcn fmt games/ --diff      show what would change, write nothing
  lcn fmt - < in.lcn         format standard input to standard output

Files with syntax errors are left alone unless --force (which drops the
unreadable parts). Comments, unknown headers, line ends and BOM are kept.
"""

def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    fmt = add_command(sub, "fmt", "rewrite records in the canonical layout", _FMT_EXAMPLES)
    fmt.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or -")
    fmt.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file "
                     "would change")
    fmt.add_argument("--diff", action="store_true", help="print a diff instead of writing")
    fmt.add_argument("--dialect", default="v1", help="spelling of the moves (default: v1)")
    fmt.add_argument("--force", action="store_true",
                     help="format files with syntax errors too (their unreadable parts "
                     "are dropped)")
    fmt.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        get_dialect(args.dialect)
    except ValueError as exc:
        err(str(exc))
        return EXIT_USAGE
    status = EXIT_OK
    for path in expand_paths(args.paths):
        status = max(status, _format_path(path, args))
    return status


class _Refused(Exception):
    """Leaves the file as it was (the atomic writer removes its temporary file)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _ReadError(Exception):
    """Reading the file failed (not writing the new one)."""


#: The most ``lcn fmt -`` holds (in a temporary file) before it writes: endless
#: input must not fill the disk.
MAX_HELD = 1 << 32


def _capped(write: Callable[[bytes], object]) -> Callable[[bytes], object]:
    held = 0

    def capped(data: bytes) -> object:
        nonlocal held
        held += len(data)
        if held > MAX_HELD:
            raise _ReadError() from OSError(
                0, f"more than {MAX_HELD:,} bytes of output held back; format a file "
                "instead of standard input")
        return write(data)
    return capped


def _format_path(path: str, args: argparse.Namespace) -> int:
    """Format one file (or standard input); its exit status."""
    refused = not_regular(path)
    if refused is not None:
        err(f"{path}: cannot read: {refused}")
        return EXIT_USAGE
    to_stdout = path == "-" and not (args.check or args.diff)
    copying = False
    in_place = path != "-" and not (args.check or args.diff)
    try:
        with contextlib.ExitStack() as stack:
            try:
                handle = (sys.stdin.buffer if path == "-"
                          else stack.enter_context(open(path, "rb")))
            except OSError as exc:
                raise _ReadError() from exc
            out: Optional[IO[bytes]] = None
            if in_place:
                out = stack.enter_context(atomic_writer(path))
            elif to_stdout:  # nothing is written unless the whole input is formatted
                out = stack.enter_context(tempfile.SpooledTemporaryFile(1 << 22))
            try:
                write = None if out is None else guarded(out.write)
                if to_stdout and write is not None:
                    write = _capped(write)
                result = format_stream(handle, path, args.dialect, write,
                                       force=args.force, keep=args.diff,
                                       as_read=not to_stdout)
            except (OSError, NotationError) as exc:  # N002: a game beyond the bound
                raise _ReadError() from exc
            status = _refusal(result, path, args)
            if status is not None:
                raise _Refused(status)
            if out is not None and to_stdout:
                copying = True  # a failure now is standard output's (see cli.main)
                out.seek(0)
                sys.stdout.flush()
                as_file_writes(out, result.kind, sys.stdout.buffer.write)
                sys.stdout.buffer.flush()
    except _Refused as refusal:
        return refusal.status
    except _ReadError as exc:
        cause = exc.__cause__
        if isinstance(cause, NotationError):  # a game beyond the reader's bound
            err(f"{path}:{cause.line}:{cause.column}: cannot read: {cause.message}")
        else:
            err(f"{path}: cannot read: {getattr(cause, 'strerror', None) or cause}")
        return EXIT_USAGE
    except WriteFailed as exc:
        cause = exc.__cause__
        err(f"{path}: cannot write: {getattr(cause, 'strerror', None) or cause}")
        return EXIT_USAGE
    except OSError as exc:  # the atomic writer could not start or finish
        if copying:
            raise
        err(f"{path}: cannot write: {exc.strerror or exc}")
        return EXIT_USAGE
    except MemoryError:
        err(f"{path}: cannot read: out of memory")
        return EXIT_USAGE
    if not result.changed or to_stdout:
        return EXIT_OK
    if args.diff:
        sys.stdout.writelines(printable_diff("".join(result.old_text),
                                             "".join(result.new_text), path))
    if args.check:
        print(printable(f"would reformat {path}"))
    if args.check or args.diff:
        return EXIT_FINDINGS
    print(printable(f"reformatted {path}"), file=sys.stderr)
    return EXIT_OK


def _refusal(result: FormatResult, path: str, args: argparse.Namespace) -> Optional[int]:
    """The exit status when the file is not to be (re)written, said on stderr."""
    problem = result.unreadable
    if problem is not None:
        err(f"{path}:{problem.line}:{problem.column}: cannot read: {problem.message}")
        return EXIT_USAGE
    first = result.first_error
    if first is not None and not args.force:
        n = result.error_count
        err(f"{path}:{first.line}:{first.column}: not formatted: {n} syntax "
            f"error{'s' if n != 1 else ''} (first: {first.message}); fix them or use --force")
        return EXIT_FINDINGS
    if result.empty_game is not None:
        err(f"{path}: not formatted: game {result.empty_game} has no moves and is followed "
            "by another game")
        return EXIT_FINDINGS
    if path != "-" and not (args.check or args.diff) and result.changed \
            and not result.complete:
        err(f"{path}: not formatted: the file mixes line ends")
        return EXIT_FINDINGS
    return None
