"""``lcn convert``: a record in another dialect, or in the JSON form."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
from typing import IO, List, Optional, Tuple

from ..lostcities.text.dialects import ConversionError
from ..core.diagnostics import NotationError
from ..lostcities.convert import JSON, convert_file, dialect_names
from ..core.files import atomic_writer
from ..core.terminal import printable
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, add_command, colliding, err,
                     make_folder, names_folder, output_path, process_count, usage_error,
                     written_over)

_CONVERT_EXAMPLES = """\
examples:
  lcn convert match.lcn --to x-discard       print match.lcn with X discards
  lcn convert match.lcn --to json -o m.json  the JSON interchange form
  lcn convert m.json --from json --to v1     back to .lcn
  lcn convert old.lcn --to v1 --in-place     rewrite the file itself
  lcn convert *.lcn --to json -o out/        one JSON file per record, in out/

Only the moves are rewritten: comments, headers, layout, line ends and BOM
are kept. A conversion that would lose information is refused: every problem
is listed (path:line:col: CODE message), nothing is written, exit status 1.
"""

def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    convert = add_command(sub, "convert", "convert a record to another dialect",
                          _CONVERT_EXAMPLES + f"Dialects: {', '.join(dialect_names())}.\n")
    convert.add_argument("paths", nargs="+", metavar="PATH",
                         help="files, or - for standard input; several files need -o DIR "
                         "or --in-place")
    convert.add_argument("--to", required=True, metavar="DIALECT", choices=dialect_names(),
                         help="target dialect")
    convert.add_argument("--from", dest="source", metavar="DIALECT", choices=dialect_names(),
                         help="source dialect (default: detected)")
    target = convert.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", type=output_path, metavar="FILE|DIR",
                        help="write here instead of standard output; with several files "
                        "(or an existing folder), the folder to write each one into")
    target.add_argument("--in-place", action="store_true", help="rewrite each PATH itself")
    convert.add_argument("-j", "--jobs", type=process_count, default=1, metavar="N",
                         help="convert a large file in N processes, cut at game boundaries "
                         "(0: one per core); the output is that of one process")
    convert.set_defaults(handler=run)

def run(args: argparse.Namespace) -> int:
    if args.in_place and "-" in args.paths:
        err("--in-place needs a file, not standard input")
        return EXIT_USAGE
    output: Optional[str] = args.output
    folder = output if output is not None and (len(args.paths) > 1 or names_folder(output)) \
        else None
    if len(args.paths) > 1 and not (folder or args.in_place):
        return usage_error("convert", "several files need -o DIR (a folder to write them "
                           "into) or --in-place")
    targets = [(path, os.path.join(folder, _output_name(path, args.to)) if folder is not None
                else output) for path in args.paths]
    if _writes_over(targets):
        return EXIT_USAGE
    if folder is not None and not make_folder(folder):
        return EXIT_USAGE
    status = EXIT_OK
    for path, target in targets:
        one = argparse.Namespace(**vars(args))
        one.path, one.output = path, target
        status = max(status, _run_one(one))
    return status


def _writes_over(targets: List[Tuple[str, Optional[str]]]) -> bool:
    """Whether a file would be written over one of the inputs, or two over
    each other (said on stderr), before anything is written."""
    paths = [path for path, _ in targets]
    return (any(written_over(target, paths, "convert") for _, target in targets)
            or colliding([(p, t) for p, t in targets if t is not None], "convert"))


def _output_name(path: str, dialect: str) -> str:
    """The name of the converted ``path`` in the output folder: the same,
    with the suffix of the target form (``.json`` or ``.lcn``)."""
    stem, suffix = os.path.splitext(os.path.basename(path) if path != "-" else "stdin.lcn")
    if dialect == JSON:
        return stem + ".json"
    return stem + (".lcn" if suffix == ".json" else suffix)


def _run_one(args: argparse.Namespace) -> int:
    target = args.path if args.in_place else args.output
    if target is None:
        # Nothing reaches standard output unless the whole conversion succeeds.
        with tempfile.SpooledTemporaryFile(max_size=1 << 22) as buffer:
            try:
                status = _convert_to(args, _Output(buffer))
            except _WriteError as exc:
                err(f"cannot convert: {exc.__cause__}")
                return EXIT_USAGE
            if status == EXIT_OK:
                buffer.seek(0)
                sys.stdout.flush()
                shutil.copyfileobj(buffer, sys.stdout.buffer)
                sys.stdout.buffer.flush()
            return status
    try:
        with atomic_writer(target) as handle:
            status = _convert_to(args, _Output(handle))
            if status != EXIT_OK:
                raise _Refused(status)
        return status
    except _Refused as refused:
        return refused.status
    except (OSError, _WriteError) as exc:
        cause = exc.__cause__ if isinstance(exc, _WriteError) else exc
        err(f"{target}: cannot write: {getattr(cause, 'strerror', None) or cause}")
        return EXIT_USAGE


class _Refused(Exception):
    """Leaves an output file as it was when a conversion fails."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _WriteError(Exception):
    """Writing the converted text failed (not reading the input)."""


class _Output:
    """Where converted text goes, as UTF-8; failures raise :class:`_WriteError`."""

    def __init__(self, handle: IO[bytes]) -> None:
        self.handle = handle

    def write(self, data: bytes) -> None:
        try:
            self.handle.write(data)
        except OSError as exc:
            raise _WriteError() from exc


def _convert_to(args: argparse.Namespace, out: _Output) -> int:
    """Convert ``args.path`` into ``out``; the exit status (messages on stderr).

    :func:`~lcnotation.lostcities.convert.convert_file` decides how the file is
    read (as a stream, or whole) and what becomes of a byte-order mark.
    """
    path = args.path
    with contextlib.ExitStack() as stack:
        try:
            data = sys.stdin.buffer if path == "-" else stack.enter_context(open(path, "rb"))
        except OSError as exc:
            err(f"{path}: cannot read: {exc.strerror or exc}")
            return EXIT_USAGE
        try:
            jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
            for piece in convert_file(data, args.to, source=args.source, path=path, jobs=jobs):
                out.write(piece)
            return EXIT_OK
        except OSError as exc:
            err(f"{path}: cannot read: {exc.strerror or exc}")
            return EXIT_USAGE
        except ConversionError as exc:
            for e in exc.errors:
                print(printable(f"{path}:{e.line}:{e.column}: {e.code} {e.message}"),
                      file=sys.stderr)
            err(f"{path}: not converted: {len(exc.errors)} problem"
                f"{'s' if len(exc.errors) != 1 else ''}")
            return EXIT_FINDINGS
        except NotationError as problem:
            err(f"{path}:{problem.line}:{problem.column}: cannot read: {problem.message}")
            return EXIT_USAGE
