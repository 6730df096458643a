"""``lcn lint``: syntax, rules and style findings, and the safe fixes."""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Iterator, List, Sequence, Tuple

from .. import __version__
from ..text.errors import Severity
from ..tools.lint import FileReport, LintConfig, fix_text, lint_binary, lint_file
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


def _reports(paths: Sequence[str], config: LintConfig, jobs: int,
             bar: Progress) -> Iterator[FileReport]:
    """The report of every file, in the order of ``paths``."""
    files = [p for p in expand_paths(paths)]
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
        for report in (_reports(paths, config, jobs, bar) if args.from_format is None
                       else imported_reports(paths, args.from_format, config)):
            if report.unreadable:
                bar.clear()
                err(f"{report.path}: cannot read: {report.unreadable}")
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


def _fix(report: FileReport, config: LintConfig, bar: Progress,
         force: bool) -> Tuple[FileReport, bool]:
    """Apply the report's safe fixes to its file: the report of the fixed file,
    and False when the file could not be written."""
    if not report.fixes:
        return report, True
    bar.clear()
    source = read_input(report.path)
    if source is None:
        return report, True
    if source.newline is None:
        err(f"{report.path}: not fixed: the file mixes line ends")
        return report, True
    if not force and refused_for_errors(source, report.path, "fixed"):
        # Where the reader lost its way (a '{' never closed), what it read as
        # moves may be the author's prose: no fix is certain there.
        return report, True
    text, applied, fixed = fix_text(source.text, report.path, config, report)
    if text == source.text:
        return report, True
    if not write_file(report.path, source.encode(text)):
        return report, False
    err(f"{report.path}: applied {applied} fix{'es' if applied != 1 else ''}")
    return fixed, True
