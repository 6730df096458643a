"""The ``lcn`` command: lint, format, convert and score Lost Cities records.

Run ``lcn --help`` or ``lcn COMMAND --help`` for the options; every error
about the command line is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import os
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from typing import IO, Dict, Iterator, List, Optional, Sequence, Tuple

from . import __version__
from .ast import Game
from .config import ConfigError, find_config, load_config, parse_codes
from .convert import JSON, convert_lines, convert_text, dialect_names
from .dialects import ConversionError, get_dialect
from .errors import NotationError, Severity
from .files import (BOM, SourceFile, atomic_writer, decode_source, decode_text, read_source,
                    write_atomic)
from .formatter import format_game
from .lint import FileReport, LintConfig, fix_text, iter_lcn_files, lint_file, lint_lines
from .output import github_line, json_text, printable, summary, text_line, to_json, to_sarif
from .progress import Progress
from .reader import _decoded_lines, parse_games
from .scoring import match_totals, score

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, not a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


_MAIN_EXAMPLES = """\
examples:
  lcn lint games/                     check every *.lcn file below games/
  lcn fmt games/ --check              are the files in the canonical layout?
  lcn convert match.lcn --to json     the JSON interchange form
  lcn score match.lcn                 scores per game and match totals

Run 'lcn COMMAND --help' for a command's options and more examples.
"""

_LINT_EXAMPLES = """\
examples:
  lcn lint games/                    lint every *.lcn file below games/
  lcn lint match.lcn --format json   findings as a JSON array
  lcn lint . --format github         annotations for GitHub Actions
  lcn lint . --format sarif > lcn.sarif
  lcn lint - < match.lcn             read standard input
  lcn lint . --fix                   repair case, discard markers and numbering
  lcn lint . --select R --ignore R2  only rules findings, not R2xx

exit status: 0 no errors (warnings and notes alone pass unless --strict),
1 errors found, 2 usage error or unreadable file.
Suppress a finding with a comment on its line:  R4-B ; lcn: ignore[R101]
Configure in pyproject.toml:  [tool.lcnotation] select/ignore/colors/dialect
"""

_FMT_EXAMPLES = """\
examples:
  lcn fmt match.lcn          rewrite in the canonical layout, in place
  lcn fmt games/ --check     exit 1 if any file would change (for CI)
  lcn fmt games/ --diff      show what would change, write nothing
  lcn fmt - < in.lcn         format standard input to standard output

Files with syntax errors are left alone unless --force (which drops the
unreadable parts). Comments, unknown headers, line ends and BOM are kept.
"""

_CONVERT_EXAMPLES = """\
examples:
  lcn convert match.lcn --to x-discard       print match.lcn with X discards
  lcn convert match.lcn --to json -o m.json  the JSON interchange form
  lcn convert m.json --from json --to v1     back to .lcn
  lcn convert old.lcn --to v1 --in-place     rewrite the file itself

Only the moves are rewritten: comments, headers, layout, line ends and BOM
are kept. A conversion that would lose information is refused: every problem
is listed (path:line:col: CODE message), nothing is written, exit status 1.
"""

_SCORE_EXAMPLES = """\
examples:
  lcn score match.lcn                a table per game and the match totals
  lcn score match.lcn --format json  {"games": [...], "totals": {...}}
"""


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="lcn", description="Lint, format, convert and score Lost Cities "
                     "game records (Lost Cities Standard Notation v1.0).",
                     epilog=_MAIN_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"lcn {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def command(name: str, help_text: str, epilog: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_text, description=help_text, epilog=epilog,
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    lint = command("lint", "check records for syntax, rules and style problems",
                   _LINT_EXAMPLES)
    lint.add_argument("paths", nargs="*", metavar="PATH",
                      help="files, folders (searched for *.lcn) or - for standard input "
                      "(default: the current folder)")
    lint.add_argument("--format", choices=["text", "json", "github", "sarif"], default="text",
                      help="output format (default: text)")
    lint.add_argument("--strict", action="store_true",
                      help="fail (exit 1) on warnings and notes too")
    lint.add_argument("--fix", action="store_true",
                      help="apply the safe fixes (letter case, discard marker, numbering)")
    lint.add_argument("--force", action="store_true",
                      help="with --fix: fix files with syntax errors too (text the reader "
                      "could not make sense of, such as a comment never closed, may then "
                      "be rewritten)")
    lint.add_argument("--select", metavar="CODES",
                      help="comma-separated codes or prefixes to report (e.g. N,R,S101)")
    lint.add_argument("--ignore", metavar="CODES",
                      help="comma-separated codes or prefixes not to report")
    lint.add_argument("--config", metavar="FILE",
                      help="a pyproject.toml to read [tool.lcnotation] from "
                      "(default: the nearest one)")
    lint.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N",
                      help="lint files in N processes (0: one per core)")
    lint.add_argument("--no-progress", action="store_true", help="never draw a progress bar")
    lint.set_defaults(handler=_lint)

    fmt = command("fmt", "rewrite records in the canonical layout", _FMT_EXAMPLES)
    fmt.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or -")
    fmt.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file "
                     "would change")
    fmt.add_argument("--diff", action="store_true", help="print a diff instead of writing")
    fmt.add_argument("--dialect", default="v1", help="spelling of the moves (default: v1)")
    fmt.add_argument("--force", action="store_true",
                     help="format files with syntax errors too (their unreadable parts "
                     "are dropped)")
    fmt.set_defaults(handler=_fmt)

    convert = command("convert", "convert a record to another dialect",
                      _CONVERT_EXAMPLES + f"Dialects: {', '.join(dialect_names())}.\n")
    convert.add_argument("path", metavar="PATH", help="a file, or - for standard input")
    convert.add_argument("--to", required=True, metavar="DIALECT", help="target dialect")
    convert.add_argument("--from", dest="source", metavar="DIALECT",
                         help="source dialect (default: detected)")
    target = convert.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="FILE",
                        help="write here instead of standard output")
    target.add_argument("--in-place", action="store_true", help="rewrite PATH itself")
    convert.set_defaults(handler=_convert)

    score = command("score", "score games and matches", _SCORE_EXAMPLES)
    score.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or -")
    score.add_argument("--format", choices=["text", "json"], default="text")
    score.set_defaults(handler=_score)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``lcn`` with ``argv`` (default: the process arguments); return the exit status."""
    with _tolerant_output():
        return _main(argv)


@contextlib.contextmanager
def _tolerant_output() -> Iterator[None]:
    """Escape what standard output cannot encode instead of dying on it.

    A file name that is not UTF-8 reaches Python as lone surrogates, and a
    terminal may not be UTF-8 at all; the text we print must not fail on
    either.  (Records themselves are written as bytes.)
    """
    changed = []
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
            changed.append(stream)
    try:
        yield
    finally:
        for stream in changed:
            with contextlib.suppress(ValueError, OSError):  # closed, or a broken pipe
                stream.reconfigure(errors="strict")


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return args.handler(args)
    except ConfigError as exc:
        _err(str(exc))
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader of our output went away (e.g. `lcn lint | head`): say nothing
        # more, and keep Python from complaining when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    except KeyboardInterrupt:
        _err("interrupted")
        return 130


def _err(message: str) -> None:
    print(printable(f"lcn: {message}"), file=sys.stderr)


def _codes(value: Optional[str], what: str) -> Optional[Tuple[str, ...]]:
    if value is None:
        return None
    return parse_codes([c for c in value.split(",") if c.strip()], what)


def _config(args: argparse.Namespace) -> LintConfig:
    if args.config and not os.path.isfile(args.config):
        raise ConfigError(f"{args.config}: no such configuration file")
    config = load_config(args.config if args.config else find_config("."))
    select, ignore = _codes(args.select, "--select"), _codes(args.ignore, "--ignore")
    return LintConfig(select if select is not None else config.select,
                      ignore if ignore is not None else config.ignore,
                      config.colors, config.dialect)


def _paths(paths: Sequence[str]) -> Iterator[str]:
    """The files to work on: folders expanded, ``-`` (standard input) kept."""
    for path in paths:
        if path == "-":
            yield path
        else:
            yield from iter_lcn_files([path])


def _read(path: str) -> Optional[SourceFile]:
    """The decoded file (or standard input); None, with a message, when it cannot be read."""
    try:
        return decode_source(sys.stdin.buffer.read()) if path == "-" else read_source(path)
    except OSError as exc:
        _err(f"{path}: cannot read: {exc.strerror or exc}")
    except NotationError as exc:
        _err(f"{path}:{exc.line}:{exc.column}: cannot read: {exc.message}")
    return None


def _write(path: str, data: bytes) -> bool:
    """Replace the file ``path`` with ``data``; False, with a message, when that fails."""
    try:
        write_atomic(path, data)
    except OSError as exc:
        _err(f"{path}: cannot write: {exc.strerror or exc}")
        return False
    return True


def _write_stdout(data: bytes) -> None:
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream that a calling program put there
        sys.stdout.write(data.decode("utf-8"))
        return
    sys.stdout.flush()
    buffer.write(data)
    buffer.flush()


def _jobs(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes (0 or more), "
                                         f"not {value!r}")
    return n


# ---------------------------------------------------------------- lint


def _lint_one(job: Tuple[str, LintConfig]) -> FileReport:
    path, config = job
    return lint_file(path, config)


def _reports(paths: Sequence[str], config: LintConfig, jobs: int,
             bar: Progress) -> Iterator[FileReport]:
    """The report of every file, in the order of ``paths``."""
    files = [p for p in _paths(paths)]
    bar.total = len(files)
    if len(files) < 2:
        bar.enabled = False  # a bar that is full at once would only flicker
    if jobs > 1 and len(files) > 1:
        chunk = max(1, min(64, len(files) // (jobs * 8)))
        with ProcessPoolExecutor(max_workers=min(jobs, len(files))) as pool:
            reports = pool.map(_lint_one, [(f, config) for f in files if f != "-"],
                               chunksize=chunk)
            for f in files:
                yield _lint_stdin(config) if f == "-" else next(reports)
    else:
        for f in files:
            yield _lint_stdin(config) if f == "-" else lint_file(f, config)


def _lint_stdin(config: LintConfig) -> FileReport:
    return lint_lines(_decoded_lines(sys.stdin.buffer), "-", config)


def _lint(args: argparse.Namespace) -> int:
    config = _config(args)
    paths = args.paths or ["."]
    if args.fix and "-" in paths:
        _err("--fix cannot rewrite standard input; use lcn fmt - for that")
        return EXIT_USAGE
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    out = sys.stdout
    readable: List[FileReport] = []
    unreadable = unwritten = 0
    with Progress(0, enabled=False if args.no_progress else None) as bar:
        for report in _reports(paths, config, jobs, bar):
            if report.unreadable:
                bar.clear()
                _err(f"{report.path}: cannot read: {report.unreadable}")
                unreadable += 1
            else:
                if args.fix:
                    report, written = _fix(report, config, bar, args.force)
                    unwritten += not written
                readable.append(report)
                # Text and annotations are written file by file, as they come.
                if report.findings and args.format in ("text", "github"):
                    bar.clear()
                    for f in report.findings:
                        out.write(github_line(f.diagnostic) if args.format == "github"
                                  else text_line(f.diagnostic, f.fix is not None))
                        out.write("\n")
                    if bar.enabled:
                        out.flush()  # before the bar is drawn again below them
            bar.advance()
    if not readable and not unreadable:
        _err("warning: no *.lcn files found in " + ", ".join(paths))
    if args.format == "json":
        out.write(to_json(readable) + "\n")
    elif args.format == "sarif":
        out.write(to_sarif(readable, __version__) + "\n")
    elif args.format == "text":
        line = summary(readable)
        if unreadable:
            line += f" {unreadable} could not be read."
        out.write(line + "\n")
    if unreadable or unwritten:
        return EXIT_USAGE
    failing = {Severity.ERROR} | ({Severity.WARNING, Severity.INFO} if args.strict else set())
    if any(f.diagnostic.severity in failing for r in readable for f in r.findings):
        return EXIT_FINDINGS
    return EXIT_OK


def _fix(report: FileReport, config: LintConfig, bar: Progress,
         force: bool) -> Tuple[FileReport, bool]:
    """Apply the report's safe fixes to its file: the report of the fixed file,
    and False when the file could not be written."""
    if not report.fixes:
        return report, True
    bar.clear()
    source = _read(report.path)
    if source is None:
        return report, True
    if source.newline is None:
        _err(f"{report.path}: not fixed: the file mixes line ends")
        return report, True
    if not force and _refused_for_errors(source, report.path, "fixed"):
        # Where the reader lost its way (a '{' never closed), what it read as
        # moves may be the author's prose: no fix is certain there.
        return report, True
    text, applied, fixed = fix_text(source.text, report.path, config, report)
    if text == source.text:
        return report, True
    if not _write(report.path, source.encode(text)):
        return report, False
    _err(f"{report.path}: applied {applied} fix{'es' if applied != 1 else ''}")
    return fixed, True


# ---------------------------------------------------------------- fmt


def _refused_for_errors(source: SourceFile, path: str, done: str,
                        games: Optional[List[Game]] = None) -> bool:
    """Whether ``source`` has syntax errors (then said on stderr)."""
    games = list(parse_games(source.text, path=path)) if games is None else games
    errors = [e for g in games for e in g.errors]
    if not errors:
        return False
    first = errors[0]
    _err(f"{path}:{first.line}:{first.column}: not {done}: {len(errors)} syntax "
         f"error{'s' if len(errors) != 1 else ''} (first: {first.message}); "
         "fix them or use --force")
    return True


def _formatted(source: SourceFile, path: str, dialect: str, force: bool) -> Optional[str]:
    """The canonical text of ``source``, or None (with a message) when refused."""
    games = list(parse_games(source.text, path=path))
    if not force and _refused_for_errors(source, path, "formatted", games):
        return None
    parts = []
    for i, game in enumerate(games):
        if i and not games[i - 1].moves:
            _err(f"{path}: not formatted: game {i} has no moves and is followed by "
                 "another game")
            return None
        parts.append(format_game(game, dialect))
    return "\n".join(parts)


def _fmt(args: argparse.Namespace) -> int:
    try:
        get_dialect(args.dialect)
    except ValueError as exc:
        _err(str(exc))
        return EXIT_USAGE
    status = EXIT_OK
    for path in _paths(args.paths):
        source = _read(path)
        if source is None:
            status = EXIT_USAGE
            continue
        new = _formatted(source, path, args.dialect, args.force)
        if new is None:
            status = max(status, EXIT_FINDINGS)
            continue
        if path == "-" and not (args.check or args.diff):
            # As bytes: the input's line ends and BOM, UTF-8 whatever the locale.
            _write_stdout(source.encode(new) if source.newline is not None
                          else new.encode("utf-8"))
            continue
        if new == source.text:
            continue
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(
                source.text.splitlines(True), new.splitlines(True), path, path))
        if args.check or args.diff:
            if args.check:
                print(printable(f"would reformat {path}"))
            status = max(status, EXIT_FINDINGS)
            continue
        if source.newline is None:
            _err(f"{path}: not formatted: the file mixes line ends")
            status = max(status, EXIT_FINDINGS)
            continue
        if _write(path, source.encode(new)):
            print(printable(f"reformatted {path}"), file=sys.stderr)
        else:
            status = EXIT_USAGE
    return status


# ---------------------------------------------------------------- convert


def _convert(args: argparse.Namespace) -> int:
    known = dialect_names()
    for name in (args.to, args.source):
        if name is not None and name not in known:
            _err(f"unknown dialect {name!r}; known dialects: {', '.join(known)}")
            return EXIT_USAGE
    if args.in_place and args.path == "-":
        _err("--in-place needs a file, not standard input")
        return EXIT_USAGE
    target = args.path if args.in_place else args.output
    if target is None:
        # Nothing reaches standard output unless the whole conversion succeeds.
        with tempfile.SpooledTemporaryFile(max_size=1 << 22) as buffer:
            try:
                status = _convert_to(args, _Output(buffer))
            except _WriteError as exc:
                _err(f"cannot convert: {exc.__cause__}")
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
        _err(f"{target}: cannot write: {getattr(cause, 'strerror', None) or cause}")
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
        _err(f"{path}: cannot read: {exc.strerror or exc}")
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
            _err(f"{path}: cannot read: {exc.strerror or exc}")
            return EXIT_USAGE
        except UnicodeDecodeError:
            problem = _decode_problem(path)
        except ConversionError as exc:
            try:
                problems = exc.errors if whole else _all_problems(path, args)
            except NotationError as err:
                # The stream stopped at a bad game before reaching bytes that
                # are not UTF-8: the file cannot be read, as if met first.
                problem = err
            else:
                for e in problems:
                    print(printable(f"{path}:{e.line}:{e.column}: {e.code} {e.message}"),
                          file=sys.stderr)
                _err(f"{path}: not converted: {len(problems)} problem"
                     f"{'s' if len(problems) != 1 else ''}")
                return EXIT_FINDINGS
        except NotationError as exc:
            problem = exc
        _err(f"{path}:{problem.line}:{problem.column}: cannot read: {problem.message}")
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


# ---------------------------------------------------------------- score


def _score(args: argparse.Namespace) -> int:
    status = EXIT_OK
    rows = []
    for path in _paths(args.paths):
        source = _read(path)
        if source is None:
            status = EXIT_USAGE
            continue
        for index, game in enumerate(parse_games(source.text, path=path), 1):
            rows.append((path, index, game, score(game)))
    totals = match_totals([s for _, _, _, s in rows])
    if args.format == "json":
        sys.stdout.write(json_text(_score_json(rows, totals)) + "\n")
    else:
        sys.stdout.write(_score_table(rows, totals))
    return status


def _score_json(rows: list, totals: Dict[str, int]) -> dict:
    games = []
    for path, index, game, s in rows:
        games.append({
            "path": path, "index": index,
            "players": list(s.players), "scores": list(s.totals), "complete": s.complete,
            "by_color": [s.by_color(0), s.by_color(1)],
            "event": game.header("Event"), "round": game.header("Round"),
            "syntax_errors": len(game.errors),
        })
    return {"games": games, "totals": totals}


def _score_table(rows: list, totals: Dict[str, int]) -> str:
    out = io.StringIO()
    for path, index, game, s in rows:
        title = game.header("Event") or path
        rnd = game.header("Round")
        state = "" if s.complete else " (incomplete)"
        out.write(f"{title}, game {index}{f', round {rnd}' if rnd else ''}{state}\n")
        width = max(8, *(len(p) for p in s.players))
        out.write(f"  {'player':<{width}} " + " ".join(f"{c:>4}" for c in s.colors)
                  + f" {'total':>6}\n")
        for p, name in enumerate(s.players):
            out.write(f"  {name:<{width}} "
                      + " ".join(f"{v:>4}" for v in s.expeditions[p])
                      + f" {s.totals[p]:>6}\n")
        out.write("\n")
    if totals:
        out.write("match totals\n")
        width = max(8, *(len(n) for n in totals))
        for name, total in sorted(totals.items(), key=lambda kv: -kv[1]):
            out.write(f"  {name:<{width}} {total:>6}\n")
    return out.getvalue()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
