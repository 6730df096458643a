"""``lcn convert``: a record in another dialect, or in the JSON form."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
from typing import IO, Optional, Sequence

from ..text.dialects import ConversionError
from ..text.errors import NotationError
from ..tools.convert import JSON, convert_lines, convert_text, dialect_names
from ..tools.files import BOM, atomic_writer, decode_text
from ..tools.output import printable
from .common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, add_command, err, usage_error

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
    convert.add_argument("--to", required=True, metavar="DIALECT", help="target dialect")
    convert.add_argument("--from", dest="source", metavar="DIALECT",
                         help="source dialect (default: detected)")
    target = convert.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="FILE|DIR",
                        help="write here instead of standard output; with several files "
                        "(or an existing folder), the folder to write each one into")
    target.add_argument("--in-place", action="store_true", help="rewrite each PATH itself")
    convert.set_defaults(handler=run)

def run(args: argparse.Namespace) -> int:
    known = dialect_names()
    for name in (args.to, args.source):
        if name is not None and name not in known:
            err(f"unknown dialect {name!r}; known dialects: {', '.join(known)}")
            return EXIT_USAGE
    if args.in_place and "-" in args.paths:
        err("--in-place needs a file, not standard input")
        return EXIT_USAGE
    output: Optional[str] = args.output
    folder = output if output is not None and (len(args.paths) > 1 or os.path.isdir(output)) \
        else None
    if len(args.paths) > 1 and not (folder or args.in_place):
        return usage_error("convert", "several files need -o DIR (a folder to write them "
                           "into) or --in-place")
    if folder is not None:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            err(f"{args.output}: cannot make the folder: {exc.strerror or exc}")
            return EXIT_USAGE
    status = EXIT_OK
    for path in args.paths:
        one = argparse.Namespace(**vars(args))
        one.path = path
        if folder is not None:
            one.output = os.path.join(folder, _output_name(path, args.to))
        status = max(status, _run_one(one))
    return status


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

    A file of notation is converted as a stream, game by game; standard
    input, JSON documents and text that starts with '{' (a JSON document or
    a comment) are read whole first.  A byte-order mark is kept, except in
    and out of JSON.
    """
    path = args.path
    try:
        handle = (contextlib.nullcontext(sys.stdin.buffer) if path == "-"
                  else open(path, "rb"))
    except OSError as exc:
        err(f"{path}: cannot read: {exc.strerror or exc}")
        return EXIT_USAGE
    with handle as data:
        try:
            head = b"" if path == "-" else data.read(4096)
            while path != "-" and head and not head.strip(BOM + b" \t\r\n"):
                more = data.read(4096)  # only white space so far: is a '{' next?
                if not more:
                    break
                head += more
            bom = head.startswith(BOM)
            whole = (path == "-" or args.source == JSON
                     or head[len(BOM) if bom else 0:].lstrip(b" \t\r\n").startswith(b"{"))
            if whole:
                text, bom = decode_text(head + data.read())
                result = convert_text(text, args.to, source=args.source, path=path)
                if bom and args.to != JSON and not _is_json_document(text, args.source):
                    out.write(BOM)
                out.write(result.encode("utf-8"))
                return EXIT_OK
            # Not "utf-8-sig": its decoder silently drops a file that ends in
            # the first bytes of a BOM (b"\xef", b"\xef\xbb").
            data.seek(len(BOM) if bom else 0)
            lines = io.TextIOWrapper(data, encoding="utf-8", newline="")
            if bom and args.to != JSON:
                out.write(BOM)
            for piece in convert_lines(lines, args.to, source=args.source, path=path):
                out.write(piece.encode("utf-8"))
            return EXIT_OK
        except OSError as exc:
            err(f"{path}: cannot read: {exc.strerror or exc}")
            return EXIT_USAGE
        except UnicodeDecodeError:
            problem = _decode_problem(path)
        except ConversionError as exc:
            try:
                problems = exc.errors if whole else _all_problems(path, args)
            except NotationError as stopped:
                # The stream stopped at a bad game before reaching bytes that
                # are not UTF-8: the file cannot be read, as if met first.
                problem = stopped
            else:
                for e in problems:
                    print(printable(f"{path}:{e.line}:{e.column}: {e.code} {e.message}"),
                          file=sys.stderr)
                err(f"{path}: not converted: {len(problems)} problem"
                     f"{'s' if len(problems) != 1 else ''}")
                return EXIT_FINDINGS
        except NotationError as exc:
            problem = exc
        err(f"{path}:{problem.line}:{problem.column}: cannot read: {problem.message}")
        return EXIT_USAGE


def _is_json_document(text: str, source: Optional[str]) -> bool:
    """Whether ``convert_text`` read ``text`` as a JSON form document."""
    if source is not None:
        return source == JSON
    try:
        data = json.loads(text)
    except ValueError:
        return False
    return isinstance(data, dict) and "format" in data


def _decode_problem(path: str) -> NotationError:
    """The N001 error of a file found not to be UTF-8 while streaming it."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        decode_text(data)
    except NotationError as exc:
        return exc
    raise AssertionError(f"{path} decodes after all")  # pragma: no cover


def _all_problems(path: str, args: argparse.Namespace) -> Sequence[NotationError]:
    """Every problem of a file whose streamed conversion stopped at its first bad game."""
    with open(path, "rb") as handle:
        text, _ = decode_text(handle.read())
    try:
        convert_text(text, args.to, source=args.source, path=path)
    except ConversionError as exc:
        return exc.errors
    raise AssertionError(f"{path} converts after all")  # pragma: no cover
