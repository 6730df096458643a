"""The ``lcn`` command: lint, format, convert and score Lost Cities records.

Run ``lcn --help`` or ``lcn COMMAND --help`` for the options; every error
about the command line is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import IO, Callable, Dict, List, Optional, Sequence, TextIO

from . import __version__
from .config import ConfigError, find_config, load_config
from .errors import NotationError, Severity
from .files import SourceFile, decode_source, read_source, write_atomic
from .formatter import format_game
from .lint import FileReport, LintConfig, iter_lcn_files, lint_file, lint_lines, lint_text
from .output import github_line, summary, text_line, to_json, to_sarif
from .progress import Progress
from .reader import _decoded_lines, parse_games
from .style import apply_fixes

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, not a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


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

Only the moves are rewritten: comments, headers and layout are kept.
"""

_SCORE_EXAMPLES = """\
examples:
  lcn score match.lcn                a table per game and the match totals
  lcn score match.lcn --format json  {"games": [...], "totals": {...}}
"""


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="lcn", description="Lint, format, convert and score Lost Cities "
                     "game records (Lost Cities Standard Notation v1.0).")
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
    lint.add_argument("--select", metavar="CODES",
                      help="comma-separated codes or prefixes to report (e.g. N,R,S101)")
    lint.add_argument("--ignore", metavar="CODES",
                      help="comma-separated codes or prefixes not to report")
    lint.add_argument("--config", metavar="FILE",
                      help="a pyproject.toml to read [tool.lcnotation] from "
                      "(default: the nearest one)")
    lint.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
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

    convert = command("convert", "convert a record to another dialect", _CONVERT_EXAMPLES)
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
        # The reader of our output went away (e.g. `lcn lint | head`).
        sys.stderr.close()
        return EXIT_FINDINGS
    except KeyboardInterrupt:
        _err("interrupted")
        return 130


def _err(message: str) -> None:
    print(f"lcn: {message}", file=sys.stderr)


def _codes(value: Optional[str]) -> Optional[tuple]:
    if value is None:
        return None
    return tuple(c.strip().upper() for c in value.split(",") if c.strip())


def _config(args: argparse.Namespace) -> LintConfig:
    path = args.config if args.config else find_config(".")
    if args.config and not os.path.isfile(args.config):
        raise ConfigError(f"{args.config}: no such configuration file")
    config = load_config(path)
    select, ignore = _codes(args.select), _codes(args.ignore)
    return LintConfig(select if select is not None else config.select,
                      ignore if ignore is not None else config.ignore,
                      config.colors, config.dialect)


# ---------------------------------------------------------------- lint


def _lint_one(job: tuple) -> FileReport:
    path, config = job
    return lint_file(path, config)


def _lint(args: argparse.Namespace) -> int:
    config = _config(args)
    paths = args.paths or ["."]
    if args.fix and "-" in paths:
        _err("--fix cannot rewrite standard input; use lcn fmt - for that")
        return EXIT_USAGE
    files = [p for p in iter_lcn_files([p for p in paths if p != "-"])]
    if not files and "-" not in paths:
        _err("warning: no *.lcn files found in " + ", ".join(paths))
    reports: List[FileReport] = []
    if "-" in paths:
        reports.append(lint_lines(_decoded_lines(sys.stdin.buffer), "-", config))
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    show = (not args.no_progress) and len(files) > 1
    with Progress(len(files), enabled=None if show else False) as bar:
        if jobs > 1 and len(files) > 1:
            chunk = max(1, min(64, len(files) // (jobs * 8)))
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for report in pool.map(_lint_one, [(f, config) for f in files],
                                       chunksize=chunk):
                    reports.append(report)
                    bar.advance()
        else:
            for f in files:
                reports.append(lint_file(f, config))
                bar.advance()
    if args.fix:
        reports = [_fix(r, config) for r in reports]

    unreadable = [r for r in reports if r.unreadable]
    readable = [r for r in reports if not r.unreadable]
    for r in unreadable:
        _err(f"{r.path}: cannot read: {r.unreadable}")
    out = sys.stdout
    if args.format == "json":
        out.write(to_json(readable) + "\n")
    elif args.format == "sarif":
        out.write(to_sarif(readable, __version__) + "\n")
    elif args.format == "github":
        for r in readable:
            for f in r.findings:
                out.write(github_line(f.diagnostic) + "\n")
    else:
        for r in readable:
            for f in r.findings:
                out.write(text_line(f.diagnostic, f.fix is not None) + "\n")
        line = summary(readable)
        if unreadable:
            line += f" {len(unreadable)} could not be read."
        out.write(line + "\n")
    if unreadable:
        return EXIT_USAGE
    failing = {Severity.ERROR} | ({Severity.WARNING, Severity.INFO} if args.strict else set())
    if any(f.diagnostic.severity in failing for r in readable for f in r.findings):
        return EXIT_FINDINGS
    return EXIT_OK


def _fix(report: FileReport, config: LintConfig) -> FileReport:
    """Apply the report's safe fixes to its file, then lint the result again."""
    if report.unreadable or not report.fixes:
        return report
    try:
        source = read_source(report.path)
    except (OSError, NotationError):
        return report
    if source.newline is None:
        _err(f"{report.path}: not fixed: the file mixes line ends")
        return report
    fixed, count = apply_fixes(source.text, report.fixes)
    if fixed != source.text:
        write_atomic(report.path, source.encode(fixed))
        print(f"lcn: {report.path}: applied {count} fix{'es' if count != 1 else ''}",
              file=sys.stderr)
    return lint_file(report.path, config)


# ---------------------------------------------------------------- fmt


def _formatted(source: SourceFile, path: str, dialect: str, force: bool) -> Optional[str]:
    """The canonical text of ``source``, or None (with a message) when refused."""
    games = list(parse_games(source.text, path=path))
    errors = [e for g in games for e in g.errors]
    if errors and not force:
        first = errors[0]
        _err(f"{path}:{first.line}:{first.column}: not formatted: {len(errors)} syntax "
             f"error{'s' if len(errors) != 1 else ''} (first: {first.message}); "
             "fix them or use --force")
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
    from .dialects import get_dialect
    try:
        get_dialect(args.dialect)
    except ValueError as exc:
        _err(str(exc))
        return EXIT_USAGE
    status = EXIT_OK
    changed = 0
    for path in (["-"] if args.paths == ["-"] else iter_lcn_files(args.paths)):
        try:
            source = (decode_source(sys.stdin.buffer.read()) if path == "-"
                      else read_source(path))
        except OSError as exc:
            _err(f"{path}: cannot read: {exc.strerror or exc}")
            status = EXIT_USAGE
            continue
        except NotationError as exc:
            _err(f"{path}:{exc.line}:{exc.column}: cannot read: {exc.message}")
            status = EXIT_USAGE
            continue
        new = _formatted(source, path, args.dialect, args.force)
        if new is None:
            status = max(status, EXIT_FINDINGS)
            continue
        if path == "-":
            sys.stdout.write(new)
            continue
        if new == source.text:
            continue
        changed += 1
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(
                source.text.splitlines(True), new.splitlines(True), path, path))
        if args.check or args.diff:
            if args.check:
                print(f"would reformat {path}")
            status = max(status, EXIT_FINDINGS)
            continue
        if source.newline is None:
            _err(f"{path}: not formatted: the file mixes line ends")
            status = max(status, EXIT_FINDINGS)
            continue
        write_atomic(path, source.encode(new))
        print(f"reformatted {path}", file=sys.stderr)
    return status


# ---------------------------------------------------------------- convert


def _convert(args: argparse.Namespace) -> int:
    from .convert import convert_text
    from .dialects import ConversionError
    try:
        data = sys.stdin.buffer.read() if args.path == "-" else _read_bytes(args.path)
        source = decode_source(data)
    except OSError as exc:
        _err(f"{args.path}: cannot read: {exc.strerror or exc}")
        return EXIT_USAGE
    except NotationError as exc:
        _err(f"{args.path}:{exc.line}:{exc.column}: cannot read: {exc.message}")
        return EXIT_USAGE
    if args.in_place and args.path == "-":
        _err("--in-place needs a file, not standard input")
        return EXIT_USAGE
    try:
        result = convert_text(source.text, args.to, source=args.source, path=args.path)
    except ValueError as exc:  # unknown dialect
        if isinstance(exc, (ConversionError, NotationError)):
            _err(f"{args.path}: {exc}")
            return EXIT_FINDINGS
        _err(str(exc))
        return EXIT_USAGE
    if args.in_place:
        if source.newline is None:
            _err(f"{args.path}: not converted: the file mixes line ends")
            return EXIT_FINDINGS
        if result != source.text:
            write_atomic(args.path, source.encode(result))
    elif args.output:
        keep = source if source.newline is not None else SourceFile("", "\n", False)
        write_atomic(args.output, SourceFile("", keep.newline, keep.bom).encode(result))
    else:
        sys.stdout.write(result)
    return EXIT_OK


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


# ---------------------------------------------------------------- score


def _score(args: argparse.Namespace) -> int:
    from .scoring import match_totals, score
    status = EXIT_OK
    rows = []
    for path in (["-"] if args.paths == ["-"] else iter_lcn_files(args.paths)):
        try:
            source = (decode_source(sys.stdin.buffer.read()) if path == "-"
                      else read_source(path))
        except (OSError, NotationError) as exc:
            _err(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}")
            status = EXIT_USAGE
            continue
        for index, game in enumerate(parse_games(source.text, path=path), 1):
            rows.append((path, index, game, score(game)))
    totals = match_totals([s for _, _, _, s in rows])
    if args.format == "json":
        sys.stdout.write(json.dumps(_score_json(rows, totals), indent=2,
                                    ensure_ascii=False) + "\n")
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
