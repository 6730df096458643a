"""``lcn lint``: syntax, rules and style findings, and the safe fixes."""

from __future__ import annotations

import argparse
import io
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from .. import __version__
from ..text.errors import Severity
from ..text.errors import NotationError
from ..text.reader import _decoded_lines
from ..tools.files import (LineEndCounter, TextWriter, WriteFailed, atomic_writer, guarded,
                           not_regular)
from ..tools.lint import FileReport, FixResult, LintConfig, fix_stream, lint_binary, lint_file
from ..tools.output import github_line, summary, text_line, to_json, to_sarif
from ..tools.progress import Progress
from .importcmd import chosen_format, imported_reports
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, add_command, err,
                     expand_paths, lint_config, process_count, read_input, refused_for_errors,
                     write_file)

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

def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    lint = add_command(sub, "lint", "check records for syntax, rules and style problems",
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
    lint.add_argument("-j", "--jobs", type=process_count, default=1, metavar="N",
                      help="lint files in N processes (0: one per core)")
    lint.add_argument("--no-progress", action="store_true", help="never draw a progress bar")
    lint.add_argument("--from", dest="from_format", metavar="FORMAT",
                      help="read records of another program (see lcn import); rules only")
    lint.set_defaults(handler=run)

def _lint_one(job: Tuple[str, LintConfig]) -> FileReport:
    path, config = job
    return lint_file(path, config)


def _reports(paths: Sequence[str], config: LintConfig, jobs: int, bar: Progress,
             fixer: Optional[Callable[[str], FileReport]] = None) -> Iterator[FileReport]:
    """The report of every file, in the order of ``paths`` (with ``fixer``: of
    every file as ``fixer`` fixed it, one file after the other)."""
    files = [p for p in expand_paths(paths)]
    bar.total = len(files)
    if len(files) < 2:
        bar.enabled = False  # a bar that is full at once would only flicker
    if fixer is not None:
        for f in files:
            yield fixer(f)
    elif jobs > 1 and len(files) > 1:
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
    try:
        return lint_binary(sys.stdin.buffer, "-", config)
    except OSError as exc:
        return FileReport("-", unreadable=exc.strerror or str(exc))


def run(args: argparse.Namespace) -> int:
    config = lint_config(args)
    paths = args.paths or ["."]
    if args.fix and "-" in paths:
        err("--fix cannot rewrite standard input; use lcn fmt - for that")
        return EXIT_USAGE
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    if args.from_format is not None:
        try:
            chosen_format(args.from_format)
        except ValueError as exc:
            err(str(exc))
            return EXIT_USAGE
        if args.fix:
            err("--fix cannot rewrite records of another program; lcn import them first")
            return EXIT_USAGE
    out = sys.stdout
    readable: List[FileReport] = []
    unreadable = unwritten = 0
    with Progress(0, enabled=False if args.no_progress else None) as bar:
        def fix(path: str) -> FileReport:
            nonlocal unwritten
            report, written = _fix_file(path, config, bar, args.force)
            unwritten += not written
            return report

        fixer = fix if args.fix else None
        for report in (_reports(paths, config, jobs, bar, fixer) if args.from_format is None
                       else imported_reports(paths, args.from_format, config)):
            if report.unreadable:
                bar.clear()
                err(f"{report.path}: cannot read: {report.unreadable}")
                unreadable += 1
            else:
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
        err("warning: no *.lcn files found in " + ", ".join(paths))
    if args.format == "json":
        out.write(to_json(readable) + "\n")
    elif args.format == "sarif":
        out.write(to_sarif(readable, __version__) + "\n")
    elif args.format == "text":
        out.write(summary(readable, unreadable) + "\n")
    if unreadable or unwritten:
        return EXIT_USAGE
    failing = {Severity.ERROR} | ({Severity.WARNING, Severity.INFO} if args.strict else set())
    if any(f.diagnostic.severity in failing for r in readable for f in r.findings):
        return EXIT_FINDINGS
    return EXIT_OK


class _Unchanged(Exception):
    """Leaves the file as it was (the atomic writer removes its temporary file)."""


def _fix_file(path: str, config: LintConfig, bar: Progress,
              force: bool) -> Tuple[FileReport, bool]:
    """Apply the safe fixes to the file ``path`` as a stream, a game at a time,
    straight into the temporary file that replaces it: the report of the fixed
    file (of the file as it is when it is not rewritten), and False when it
    could not be written."""
    refused = not_regular(path)
    if refused is not None:
        return FileReport(path, unreadable=refused), True
    result: Optional[FixResult] = None
    try:
        with open(path, "rb") as handle:
            try:
                with atomic_writer(path) as out:
                    counter = LineEndCounter(handle)
                    writer = TextWriter(counter, guarded(out.write))
                    lines = _decoded_lines(io.BufferedReader(counter, 1 << 16))
                    try:
                        result = fix_stream(lines, path, config, writer)
                    except (OSError, NotationError, MemoryError) as exc:
                        # Reading failed: lint the file as it is, which says why.
                        raise _Unchanged() from exc
                    if not result.applied or not _may_fix(result, writer, path, bar, force):
                        raise _Unchanged()
            except _Unchanged:
                return lint_file(path, config), True
    except WriteFailed as exc:
        bar.clear()
        cause = exc.__cause__
        err(f"{path}: cannot write: {getattr(cause, 'strerror', None) or cause}")
        return lint_file(path, config), False
    except OSError as exc:
        bar.clear()
        if result is not None:  # the file was read: the atomic writer failed
            err(f"{path}: cannot write: {exc.strerror or exc}")
            return lint_file(path, config), False
        return FileReport(path, unreadable=exc.strerror or str(exc)), True
    bar.clear()
    assert result is not None
    err(f"{path}: applied {result.applied} fix{'es' if result.applied != 1 else ''}")
    return result.report, True


def _may_fix(result: FixResult, writer: TextWriter, path: str, bar: Progress,
             force: bool) -> bool:
    """Whether the fixed text may replace the file (else why not, on stderr)."""
    first = result.first_error
    if first is not None and (first.code == "N001" or not force):
        if first.code != "N001":
            # Where the reader lost its way (a '{' never closed), what it read
            # as moves may be the author's prose: no fix is certain there.
            bar.clear()
            n = result.error_count
            err(f"{path}:{first.line}:{first.column}: not fixed: {n} syntax "
                f"error{'s' if n != 1 else ''} (first: {first.message}); "
                "fix them or use --force")
        return False  # bytes that are not UTF-8 are never rewritten
    if not writer.faithful:
        bar.clear()
        err(f"{path}: not fixed: the file mixes line ends")
        return False
    return True
