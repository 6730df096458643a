"""``lcn lint``: syntax, rules and style findings, and the safe fixes."""

from __future__ import annotations

import argparse
import dataclasses
import io
import itertools
import os
import sys
from typing import IO, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from ..core.version import __version__
from ..core.diagnostics import Diagnostic, NotationError, Severity
from ..tools.codes import ALL_CODES
from ..tools.colour import CHOICES, Palette, wants_colour
from ..core.files import (LineEndCounter, TextWriter, WriteFailed, atomic_writer, guarded,
                           not_regular)
from ..core.lint import FixResult
from ..core.notation import Streaming
from ..tools.notations import notation_for
from ..core.findings import Finding
from ..tools.lint import (FileReport, LintConfig, fix_text, lint_file, lint_file_emitting,
                          lint_games, lint_stream)
from ..core.lineends import LINE_END_NAMES
from ..core.terminal import printable, printable_diff
from ..tools.output import (Tally, github_line, source_excerpt, statistics,
                            summary, text_line, to_json, to_sarif)
from ..tools.progress import Progress
from .inputs import Unreadable, chosen_format, foreign_format, imported
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, Settings, add_command,
                     add_config_options, add_exclude_options, add_notation_option, err, output_path,
                     process_count, read_input, usage_error, write_file, written_over)

_LINT_EXAMPLES = """\
examples:
  lcn lint games/                    lint every *.lcn file below games/
  lcn lint match.lcn --output-format json   findings as a JSON array
  lcn lint . --output-format github  annotations for GitHub Actions
  lcn lint . --output-format sarif --output-file lcn.sarif
  lcn lint - --stdin-filename games/match.lcn < match.lcn
  lcn lint . --fix                   repair case, discard markers and numbering
  lcn lint . --diff                  show what --fix would change, write nothing
  lcn lint . --statistics            how many findings of each code
  lcn lint . --select R --ignore R2  only rules findings, not R2xx
  lcn explain S102                   what a code means, with an example
  lcn lint . --add-noqa              suppress today's findings with lcn: ignore[CODE]
  lcn lint --show-settings a.lcn     the configuration a.lcn is linted with
  lcn lint . --watch                 lint again whenever a file changes

exit status: 0 no errors (warnings and notes alone pass unless --strict),
1 errors found, 2 usage error or unreadable file.
Suppress a finding with a comment on its line:  R4-B ; lcn: ignore[R101]
Syntax errors (N) are always reported. Configure in pyproject.toml, found
from each file's folder up:  [tool.lcnotation] select, ignore, colors,
dialect, per-file-ignores, exclude, extend-exclude.
"""

def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    lint = add_command(sub, "lint", "check records for syntax, rules and style problems",
                       _LINT_EXAMPLES)
    lint.add_argument("paths", nargs="*", metavar="PATH",
                      help="files, folders (searched for *.lcn) or - for standard input "
                      "(default: the current folder)")
    lint.add_argument("--output-format", "--format", dest="format", default=None,
                      choices=["full", "concise", "text", "json", "github", "sarif"],
                      help="full (each finding with its source line and a caret), concise "
                      "(one line each; text is the same), json, github or sarif (default: "
                      "full on a terminal, else concise)")
    lint.add_argument("--output-file", "-o", type=output_path, metavar="FILE",
                      help="write the findings to FILE instead of standard output")
    lint.add_argument("--strict", action="store_true",
                      help="fail (exit 1) on warnings and info findings too")
    lint.add_argument("--exit-zero", action="store_true",
                      help="exit 0 even when findings fail the run (2 stays for usage errors)")
    lint.add_argument("--fix", action="store_true",
                      help="apply the safe fixes (letter case, discard marker, numbering, "
                      "line ends)")
    lint.add_argument("--diff", action="store_true",
                      help="show what --fix would change as a diff (only that: no "
                      "findings), write nothing; exit 1 if a file would change")
    lint.add_argument("--show-fixes", action="store_true",
                      help="list the fixes: under each fixable finding, and with --fix "
                      "what was fixed in each file")
    lint.add_argument("--force", action="store_true",
                      help="with --fix: fix files with syntax errors too (text the reader "
                      "could not make sense of, such as a comment never closed, may then "
                      "be rewritten)")
    lint.add_argument("--add-noqa", action="store_true",
                      help="write lcn: ignore[CODE] on the line of each finding a comment can "
                      "silence (merged with the line's suppression), and say what is left")
    lint.add_argument("--show-settings", action="store_true",
                      help="print the resolved configuration of the one file given, and exit")
    lint.add_argument("--watch", action="store_true",
                      help="lint again whenever a file changes (Ctrl-C stops)")
    lint.add_argument("--statistics", action="store_true",
                      help="print how many findings of each code instead of the findings")
    lint.add_argument("--select", metavar="CODES",
                      help="comma-separated codes or prefixes to report (e.g. N,R,S101), "
                      "instead of the configuration's")
    lint.add_argument("--ignore", metavar="CODES",
                      help="comma-separated codes or prefixes not to report, instead of "
                      "the configuration's")
    lint.add_argument("--extend-select", metavar="CODES",
                      help="codes or prefixes to report besides the selected ones")
    lint.add_argument("--extend-ignore", metavar="CODES",
                      help="codes or prefixes not to report, besides the ignored ones")
    add_config_options(lint)
    add_exclude_options(lint)
    add_notation_option(lint)
    lint.add_argument("-j", "--jobs", type=process_count, default=1, metavar="N",
                      help="lint in N processes (0: one per core): files, or one large "
                      "file cut at game boundaries")
    lint.add_argument("--color", choices=CHOICES, default="auto",
                      help="colour the findings: auto (on a terminal, unless NO_COLOR; "
                      "FORCE_COLOR forces it), always or never")
    loudness = lint.add_mutually_exclusive_group()
    loudness.add_argument("-q", "--quiet", action="store_true",
                          help="print the findings and nothing else (no summary, no notes)")
    loudness.add_argument("-v", "--verbose", action="store_true",
                          help="also say which files were checked, with which configuration")
    lint.add_argument("--no-progress", action="store_true", help="never draw a progress bar")
    lint.add_argument("--scheduler", metavar="ADDRESS",
                      help="lint on a Dask cluster: its scheduler's address (tcp://host:8786), "
                      "or 'local' for one on this machine (local:N: N workers); large files "
                      "are split at game boundaries; needs pip install 'lcnotation[dask]'")
    lint.add_argument("--from", dest="from_format", metavar="FORMAT",
                      help="read records of another program (see lcn import); rules only")
    lint.set_defaults(handler=run)


#: A progress bar is drawn when there is at least this much to read.
PROGRESS_BYTES = 1 << 20


def _lint_one(job: Tuple[str, LintConfig]) -> FileReport:
    path, config = job
    return lint_file(path, config)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path) if path != "-" else 0
    except OSError:
        return 0


#: Given a file's path, what takes its findings as they are found, and what to
#: call when the file is done.
Emitter = Callable[[str], Tuple[Callable[[List[Finding]], None], Callable[[], None]]]


def _reports(files: Sequence[str], settings: Settings, jobs: int, bar: Progress,
             emitter: Optional[Emitter] = None) -> Iterator[Tuple[FileReport, LintConfig]]:
    """The report of every file, in the order of ``files``, with its settings.

    With ``emitter``, a file linted in this process gives its findings to it
    as they are found, and its report holds none (memory holds a game's)."""
    sizes = [_size(f) for f in files]
    bar.total = sum(sizes)
    if bar.total < PROGRESS_BYTES:
        bar.enabled = False  # a bar that is full at once would only flicker
    configs = [settings.lint(f) for f in files]
    if jobs > 1 and len(files) == 1 and files[0] != "-":
        # One file: cut at game boundaries and linted in ``jobs`` processes.
        f, config, size = files[0], configs[0], sizes[0]
        kept: List[Finding] = []
        if emitter is not None:
            emit, done = emitter(f)
        else:
            emit, done = kept.extend, _nothing
        try:
            report = lint_file_emitting(f, config, emit, progress=bar.update, jobs=jobs)
        finally:
            done()
        if emitter is None and not report.unreadable:
            report.findings = kept
        yield report, config
        bar.update(size)
    elif jobs > 1 and len(files) > 1:
        # multiprocessing is imported only when there are workers to start
        from concurrent.futures import ProcessPoolExecutor

        chunk = max(1, min(64, len(files) // (jobs * 8)))
        with ProcessPoolExecutor(max_workers=min(jobs, len(files))) as pool:
            reports = pool.map(_lint_one, [(f, c) for f, c in zip(files, configs) if f != "-"],
                               chunksize=chunk)
            for f, config, size in zip(files, configs, sizes):
                yield (_lint_stdin(settings, config) if f == "-" else next(reports)), config
                bar.advance(size)
    else:
        for f, config, size in zip(files, configs, sizes):
            if f == "-":
                yield _lint_stdin(settings, config), config
                continue
            base = bar.done
            if emitter is not None:
                emit, done = emitter(f)
                try:
                    report = lint_file_emitting(f, config, emit,
                                                progress=lambda n: bar.update(base + n))
                finally:
                    done()
                yield report, config
            else:
                yield lint_file(f, config, progress=lambda n: bar.update(base + n)), config
            bar.update(base + size)


def _lint_stdin(settings: Settings, config: LintConfig) -> FileReport:
    try:
        return lint_stream(sys.stdin.buffer, settings.named("-"), config)
    except OSError as exc:  # standard input stops being readable, or never ends
        return FileReport(settings.named("-"), unreadable=exc.strerror or str(exc))


class _Run:
    """What one ``lcn lint`` has seen so far, and where it writes."""

    def __init__(self, args: argparse.Namespace, out: IO[str]) -> None:
        self.unwritten = 0  # files --fix could not write
        self.args = args
        self.out = out
        fmt = args.format
        self.concise = fmt in ("concise", "text")
        self.lines = fmt in ("full", "concise", "text", "github")
        color = wants_colour(args.color, os.environ, _isatty(out) and args.output_file is None)
        self.palette = Palette(color and fmt in ("full", "concise", "text"))
        self.counts: Dict[str, List[int]] = {}
        self.failing = {Severity.ERROR} | (
            {Severity.WARNING, Severity.INFO} if args.strict else set())
        self.failed = False
        self.changed = False
        self.sniffed: Set[str] = set()  # the files with syntax errors looked at for a format
        self.would_fix = [0, 0]  # under --diff: fixes, files

    def note(self, message: str) -> None:
        if not self.args.quiet:
            err(message)

    def show(self, report: FileReport, bar: Progress,
             source: "Optional[_SourceLines]" = None) -> None:
        """Count the report's findings and write them (text and annotations
        are written file by file, or game by game, as they come).  ``source``
        is the file's lines for the full format, when the caller keeps them
        open across several calls for one file."""
        if report.path not in self.sniffed and self.args.from_format is None:
            self._suggest_format(report)
        for f in report.findings:
            row = self.counts.setdefault(f.diagnostic.code, [0, 0])
            row[0] += 1
            row[1] += f.fix is not None
            if f.diagnostic.severity in self.failing:
                self.failed = True
        if not report.findings or not self.lines or self.args.statistics:
            return
        bar.clear()
        if self.args.format == "github":
            for f in report.findings:
                self.out.write(github_line(f.diagnostic) + "\n")
        else:
            own = source is None and not self.concise
            if own:
                source = _SourceLines(report.path)
            for f in report.findings:
                d = f.diagnostic
                self.out.write(text_line(d, f.fix is not None, self.palette) + "\n")
                if source is not None:
                    line = source.line(d.line)
                    if line is not None:
                        self.out.write(source_excerpt(d, line, self.palette) + "\n")
                if self.args.show_fixes and f.fix is not None:
                    self.out.write(f"  {self.palette.fixable('fix:')} "
                                   f"{printable(f.fix.description)}\n")
                if source is not None:
                    self.out.write("\n")
            if own and source is not None:
                source.close()
        if bar.enabled:
            self.out.flush()  # before the bar is drawn again below them

    def _suggest_format(self, report: FileReport) -> None:
        """A file of another program read as notation: its first syntax error
        says which ``--from`` reads it."""
        first = next((i for i, f in enumerate(report.findings)
                      if f.diagnostic.code.startswith("N")), None)
        if first is None:
            return
        self.sniffed.add(report.path)
        name = foreign_format(report.path)
        if name is not None:
            f = report.findings[first]
            d = dataclasses.replace(f.diagnostic, message=f"{f.diagnostic.message}; this looks "
                                    f"like a {name} record: lint it with --from {name}")
            report.findings[first] = dataclasses.replace(f, diagnostic=d)


class _SourceLines:
    """The lines of a file, read again as a stream (forward only, started
    over when asked for an earlier line) to show the lines of findings.
    Python's universal line ends count lines as the reader does."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.number = 0
        self.handle: Optional[IO[str]] = None
        self.current: Optional[str] = None

    def line(self, number: int) -> Optional[str]:
        if self.path == "-" or number < 1:
            return None
        if self.handle is None or number < self.number:
            self.close()
            try:
                self.handle = open(self.path, encoding="utf-8-sig", errors="replace",
                                   newline=None)
            except OSError:
                return None
            self.number = 0
        while self.number < number:
            read = self.handle.readline()
            self.number += 1
            if not read:
                self.current = None
                return None
            self.current = read.rstrip("\n")
        return self.current

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None


def imported_reports(paths: Sequence[str], name: str,
                     config: LintConfig) -> Iterator[FileReport]:
    """``lcn lint --from``: the rules findings of each imported file; a file
    that cannot be imported is reported unreadable."""
    fmt = chosen_format(name)
    for path in paths:
        try:
            games = imported(path, fmt)
        except Unreadable:
            yield FileReport(path, unreadable="see above")
            continue
        except NotationError as exc:
            yield FileReport(path, unreadable=f"{exc.line}:{exc.column}: {exc.code} "
                             f"{exc.message}")
            continue
        yield lint_games(games, path, config)


def _isatty(stream: IO[str]) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty()) if callable(isatty) else False


def run(args: argparse.Namespace) -> int:
    settings = Settings(args)
    paths = args.paths or ["."]
    if (args.fix or args.diff) and "-" in paths:
        return usage_error("lint", "--fix and --diff cannot rewrite standard input; "
                           "use lcn fmt - for that")
    if args.stdin_filename is not None and not args.paths:
        paths = ["-"]
    if args.add_noqa:
        from .noqa import run_add_noqa

        return run_add_noqa(args, settings, paths)
    if args.show_settings:
        from .showsettings import show_settings

        return show_settings(args, settings, paths)
    if args.watch:
        from .watch import watch

        return watch(args, paths, lambda: run(argparse.Namespace(**{**vars(args),
                                                                    "watch": False})))
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    if args.from_format is not None:
        try:
            chosen_format(args.from_format)
        except ValueError as exc:
            return usage_error("lint", str(exc))
        if args.fix or args.diff:
            return usage_error("lint", "--fix cannot rewrite records of another program; "
                               "lcn import them first")
    if args.scheduler is not None:
        if args.fix or args.diff or args.from_format is not None:
            return usage_error("lint", "--scheduler lints .lcn files: --fix, --diff and "
                               "--from work in this process")
        from .clusters import scheduler_problem

        problem = scheduler_problem(args.scheduler)
        if problem is not None:
            return usage_error("lint", problem)
    if args.output_file is not None:
        if _output_is_input(args.output_file, paths, settings):
            return EXIT_USAGE
        try:
            out: IO[str] = open(args.output_file, "w", encoding="utf-8",
                                errors="backslashreplace")
        except OSError as exc:
            err(f"{args.output_file}: cannot write: {exc.strerror or exc}")
            return EXIT_USAGE
    else:
        out = sys.stdout
    try:
        return _run(args, settings, paths, jobs, out)
    finally:
        if out is not sys.stdout:
            out.close()


def _output_is_input(output: str, paths: Sequence[str], settings: Settings) -> bool:
    """Whether ``-o output`` is one of the files linted (said on stderr):
    opening it would empty the record before it is read."""
    if not os.path.exists(output):
        return False  # a new file is no input (and no folder need be walked)
    return written_over(output, itertools.chain(paths, settings.expand(paths)), "lint")


def _run(args: argparse.Namespace, settings: Settings, paths: List[str], jobs: int,
         out: IO[str]) -> int:
    if args.format is None:
        args.format = "full" if _isatty(out) else "concise"
    state = _Run(args, out)
    # JSON and SARIF are written at the end, so they keep the findings; the
    # other formats write each file's as they come and keep only counts.
    readable: List[FileReport] = []
    tally = Tally()
    announced: Set[str] = set()  # the files whose configuration -v said already
    unreadable = unwritten = 0
    unread: List[Tuple[str, str]] = []  # each file that could not be read, and why
    with Progress(0, enabled=False if args.no_progress else None, unit="MB") as bar:
        streamed = args.fix and not (args.diff or args.show_fixes) and args.from_format is None
        found: Iterable[Tuple[FileReport, LintConfig]]
        if streamed:
            # A file at a time, fixed as it is read: no report of the file
            # before fixing is kept (memory holds one game).
            found = _fixed_reports(list(settings.expand(paths)), settings, bar, state)
        elif args.scheduler is not None:
            from .clusters import lint_on_cluster

            try:
                found = lint_on_cluster(list(settings.expand(paths)), settings, args.scheduler,
                                        lambda config: _lint_stdin(settings, config))
            except ValueError as exc:  # a scheduler that cannot be reached
                err(str(exc))
                return EXIT_USAGE
        elif args.from_format is None:
            emitter: Optional[Emitter] = None
            if args.format not in ("json", "sarif") and not (args.fix or args.diff):
                # Findings written (or counted) as they are found: a file of a
                # million findings is linted in flat memory.
                def emitting(path: str) -> Tuple[Callable[[List[Finding]], None],
                                                 Callable[[], None]]:
                    if args.verbose:
                        _say_configuration(settings, path, bar)
                        announced.add(path)
                    source = (None if state.concise or not state.lines or args.statistics
                              or args.format == "github" else _SourceLines(path))

                    def emit(findings: List[Finding]) -> None:
                        state.show(FileReport(path, findings), bar, source)
                        tally.add_findings(findings)

                    return emit, (source.close if source is not None else _nothing)

                emitter = emitting
            found = _reports(list(settings.expand(paths)), settings, jobs, bar, emitter)
        else:
            config = settings.lint(paths[0])
            found = ((r, config) for r in imported_reports(paths, args.from_format, config))
        for report, config in found:
            if args.verbose and report.path not in announced:
                _say_configuration(settings, report.path, bar)
            if report.unreadable:
                bar.clear()
                err(f"{report.path}: cannot read: {report.unreadable}")
                unreadable += 1
                unread.append((report.path, report.unreadable))
                continue
            if (args.fix or args.diff) and not streamed:
                report, written = _fix(report, config, bar, state)
                unwritten += not written
            if args.diff:  # as ruff's: the diffs, not the findings
                tally.add(report)
                continue
            state.show(report, bar)
            tally.add(report)
            if args.format in ("json", "sarif"):
                readable.append(report)
    if not tally.files and not unreadable:
        err("warning: no *.lcn files found in " + ", ".join(paths))
    if args.diff:
        fixes, files = state.would_fix
        state.note(f"would fix {_count(fixes, 'finding')} in {_count(files, 'file')}"
                   if fixes else "nothing to fix")
    elif args.statistics:
        if state.counts:
            out.write(statistics(state.counts) + "\n")
    elif args.format == "json":
        out.write(to_json(readable) + "\n")
    elif args.format == "sarif":
        out.write(to_sarif(readable, __version__, unread) + "\n")
    if args.format in ("full", "concise", "text") and not args.quiet and not args.diff:
        out.write(summary(tally, unreadable) + "\n")
    if unreadable or unwritten or state.unwritten:
        return EXIT_USAGE
    if args.exit_zero:
        return EXIT_OK
    if state.failed or (args.diff and state.changed):
        return EXIT_FINDINGS
    return EXIT_OK


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _say_configuration(settings: Settings, path: str, bar: Progress) -> None:
    project = settings.project(path)
    bar.clear()
    err(f"{path}: configuration {project.path if project.path else '(defaults)'}")


def _nothing() -> None:
    return None


def _fix(report: FileReport, config: LintConfig, bar: Progress,
         state: _Run) -> Tuple[FileReport, bool]:
    """Apply the report's safe fixes to its file (with --diff: show them): the
    report of the fixed file, and False when the file could not be written."""
    args = state.args
    if not report.fixes:
        return report, True
    bar.clear()
    source = read_input(report.path)
    if source is None:
        return report, True
    syntax = [f.diagnostic for f in report.findings if f.diagnostic.code.startswith("N")]
    if syntax and not args.force:
        # Where the reader lost its way (a '{' never closed), what it read as
        # moves may be the author's prose: no fix is certain there.
        state.note(not_fixed(report.path, syntax[0], len(syntax)))
        return report, True
    newline = source.newline
    if newline is None:
        newline = next((f.fix.newline for f in report.findings
                        if f.fix is not None and f.fix.newline is not None), None)
        if newline is None:
            state.note(f"{report.path}: not fixed: the file mixes line ends, and S107 "
                       "(which would end every line alike) is not selected")
            return report, True
    text, applied, fixed = fix_text(source.text, report.path, config, report)
    if source.newline is None:
        # The file is written with one line end: its S107 (the finding whose
        # fix ends every line alike) is fixed too, even when fix_text, given
        # the text read with LF line ends, had nothing else to fix.
        applied += 1
        fixed = FileReport(fixed.path, [f for f in fixed.findings
                                        if f.fix is None or f.fix.newline is None],
                           fixed.games, fixed.moves, fixed.unreadable)
    if text == source.text and newline == source.newline:
        return report, True
    state.changed = True
    if args.diff:
        state.would_fix[0] += applied
        state.would_fix[1] += 1
        state.out.writelines(printable_diff(source.text, text, report.path))
        if newline != source.newline:
            state.out.write(f"{report.path}: every line would end with "
                            f"{LINE_END_NAMES[newline]}\n")
        return report, True
    if not write_file(report.path, source.encode(text, newline), source.identity):
        return report, False
    state.note(f"{report.path}: applied {applied} fix{'es' if applied != 1 else ''}")
    if args.show_fixes:
        _list_fixes(report, fixed, state)
    return fixed, True


def _list_fixes(before: FileReport, after: FileReport, state: _Run) -> None:
    """Under --show-fixes: how many findings of each code --fix repaired."""
    counts: Dict[str, int] = {}
    for f in before.findings:
        if f.fix is not None:
            counts[f.diagnostic.code] = 0
    for f in before.findings:
        counts[f.diagnostic.code] = counts.get(f.diagnostic.code, 0) + 1
    for f in after.findings:
        counts[f.diagnostic.code] = counts.get(f.diagnostic.code, 0) - 1
    for code in sorted(c for c in counts if any(
            f.fix is not None and f.diagnostic.code == c for f in before.findings)):
        if counts[code] > 0:
            state.out.write(f"fixed {counts[code]} \u00d7 {code} in {printable(before.path)}: "
                            f"{ALL_CODES.get(code, (None, ''))[1]}\n")


class _Unchanged(Exception):
    """Leaves the file as it was (the atomic writer removes its temporary file)."""


def _fixed_reports(files: Sequence[str], settings: Settings, bar: Progress,
                   state: _Run) -> Iterator[Tuple[FileReport, LintConfig]]:
    """Each file fixed as a stream (see :func:`_fix_file`), with its settings.
    A file that mixes line ends goes the way of --diff and --show-fixes: whole
    (S107 decides its line end); so does a file of a notation that is not read
    as a stream."""
    for f in files:
        config = settings.lint(f)
        notation = notation_for(f, config.notation)
        done = (_fix_file(f, notation, config, bar, state.args.force)
                if isinstance(notation, Streaming) else None)
        report, written = (done if done is not None
                           else _fix(lint_file(f, config), config, bar, state))
        state.unwritten += not written
        yield report, config


def _fix_file(path: str, notation: Streaming, config: LintConfig, bar: Progress,
              force: bool) -> Optional[Tuple[FileReport, bool]]:
    """Apply the safe fixes to the file ``path`` as a stream, a game at a time,
    straight into the temporary file that replaces it: the report of the fixed
    file (of the file as it is when it is not rewritten), and False when it
    could not be written; None, with nothing written, for a file that mixes
    line ends."""
    refused = not_regular(path)
    if refused is not None:
        return FileReport(path, unreadable=refused), True
    result: Optional[FixResult] = None
    unchanged: Optional[FileReport] = None
    mixed = opened = False
    try:
        with open(path, "rb") as handle:
            opened = True  # what fails from here on is the writing (reading is caught below)
            try:
                with atomic_writer(path) as out:
                    counter = LineEndCounter(handle)
                    writer = TextWriter(counter, guarded(out.write))
                    try:
                        result = notation.fix_stream(io.BufferedReader(counter, 1 << 16),
                                                     path, config, writer)
                    except (OSError, NotationError, MemoryError) as exc:
                        # Reading failed: lint the file as it is, which says why.
                        raise _Unchanged() from exc
                    if not writer.faithful:
                        mixed = True
                        raise _Unchanged()
                    if not result.applied:
                        # Nothing to fix: the report of the stream is that of
                        # the file as it is (no second reading of the file).
                        unchanged = result.report
                        raise _Unchanged()
                    if not _may_fix(result, path, bar, force):
                        raise _Unchanged()
            except _Unchanged:
                if mixed:
                    return None
                return (unchanged if unchanged is not None else lint_file(path, config)), True
    except WriteFailed as exc:
        bar.clear()
        cause = exc.__cause__
        err(f"{path}: cannot write: {getattr(cause, 'strerror', None) or cause}")
        return lint_file(path, config), False
    except OSError as exc:
        bar.clear()
        if opened:  # the atomic writer failed (to start, or to replace the file)
            err(f"{path}: cannot write: {exc.strerror or exc}")
            return lint_file(path, config), False
        return FileReport(path, unreadable=exc.strerror or str(exc)), True
    bar.clear()
    assert result is not None
    err(f"{path}: applied {result.applied} fix{'es' if result.applied != 1 else ''}")
    return result.report, True


def not_fixed(path: str, first: "Diagnostic | NotationError", count: int) -> str:
    """Why a file with syntax errors is not fixed (without --force): where the
    reader lost its way (a '{' never closed), what it read as moves may be the
    author's prose, and no fix is certain there."""
    return (f"{path}:{first.line}:{first.column}: not fixed: {count} syntax "
            f"error{'s' if count != 1 else ''} (first: {first.message}); "
            "fix them or use --force")


def _may_fix(result: FixResult, path: str, bar: Progress, force: bool) -> bool:
    """Whether the fixed text may replace the file (else why not, on stderr)."""
    first = result.first_error
    if first is not None and (first.code == "N001" or not force):
        if first.code != "N001":
            # Where the reader lost its way (a '{' never closed), what it read
            # as moves may be the author's prose: no fix is certain there.
            bar.clear()
            err(not_fixed(path, first, result.error_count))
        return False  # bytes that are not UTF-8 are never rewritten
    return True
