"""``lcn freecell``: Standard FreeCell Notation (deal, check, import, fmt)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

# The FreeCell package and the output formats are imported by the actions
# that use them, not with the command line (``lcn lint`` does not need them).
from .common import (EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Parser, add_command, collector_paused,
                     deliver_formatted, err, read_input)
from .inputs import deal_number, translated

if TYPE_CHECKING:  # pragma: no cover
    from ..core.diagnostics import Diagnostic
    from ..core.lint import FileReport
    from ..freecell.checker import CheckResult

_EXAMPLES = """\
examples:
  lcn freecell deal 617                        deal 617 as a standard layout
  lcn freecell check solved.txt                replay the solution: won, illegal, not won
  lcn freecell check *.txt --format json       {"files": [{"path", "verdict", ...}]}
  fc-solve -m -sn board | lcn freecell import --from fc-solve - --deal 617
  lcn freecell fmt solved.txt                  rewrite in the canonical layout, in place

spec/freecell.md describes the notation and every F code.
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    parser = add_command(sub, "freecell", "Standard FreeCell Notation: deal, check, import, "
                         "format", _EXAMPLES)
    actions = parser.add_subparsers(dest="freecell_command", metavar="ACTION",
                                    parser_class=Parser)
    actions.required = True
    dealer = add_command(actions, "deal", "print a Microsoft deal as a standard layout",
                         "example:\n  lcn freecell deal 1\n")
    dealer.add_argument("number", type=deal_number, metavar="N", help="0 to 2**33 - 1")
    dealer.set_defaults(handler=_deal)
    checker = add_command(actions, "check", "replay solutions with Horne automoves",
                          "exit status: 0 every file won, 1 otherwise, 2 a file unreadable\n")
    checker.add_argument("paths", nargs="+", metavar="FILE", help="files or -")
    checker.add_argument("--format", choices=["text", "json", "github", "sarif"],
                         default="text")
    checker.set_defaults(handler=_check)
    importer = add_command(actions, "import", "turn another program's solution into the "
                           "notation", "example:\n  fc-solve -m -snx board.txt > sol.txt\n"
                           "  lcn freecell import --from fc-solve sol.txt --deal 617\n")
    importer.add_argument("--from", dest="source", choices=["fc-solve"], required=True)
    importer.add_argument("path", metavar="FILE", help="the solver's output, or -")
    importer.add_argument("--deal", type=deal_number, metavar="N",
                          help="the deal solved (else the board in the output)")
    importer.set_defaults(handler=_import)
    formatter = add_command(actions, "fmt", "rewrite records in the canonical layout",
                            "Files with reading errors are left alone; comments are kept.\n")
    formatter.add_argument("paths", nargs="+", metavar="FILE", help="files or -")
    formatter.add_argument("--check", action="store_true",
                           help="write nothing; exit 1 if a file would change")
    formatter.add_argument("--diff", action="store_true",
                           help="print a diff instead of writing")
    formatter.set_defaults(handler=_fmt)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:  # pragma: no cover  (an action is required)
    return EXIT_USAGE


def _deal(args: argparse.Namespace) -> int:
    from ..freecell import deal

    sys.stdout.write(deal(args.number))
    return EXIT_OK


def _file_json(path: str, deal: Optional[int], verdict: str, moves: int,
               first_bad_move: Optional[int], diagnostics: Sequence[Diagnostic]) -> Dict[str, Any]:
    """A file's entry of ``--format json`` (the output module, with every
    code's documentation address, is imported only for a file with findings)."""
    found: List[Dict[str, Any]] = []
    if diagnostics:
        from ..tools.output import diagnostic_json

        found = [diagnostic_json(d) for d in diagnostics]
    return {"path": path, "deal": deal, "verdict": verdict, "moves": moves,
            "first_bad_move": first_bad_move, "diagnostics": found}


def _summary(path: Optional[str], verdict: str, moves: int) -> str:
    """The last line of a file's text report: ``617.txt: won (88 moves)``."""
    from ..core.terminal import printable

    return printable(f"{path}: {verdict.replace('_', ' ')} ({moves} moves)") + "\n"


def _text(result: CheckResult) -> str:
    from ..freecell.formatter import layout_text
    from ..tools.output import text_line

    lines = [text_line(d) + "\n" for d in result.diagnostics]
    lines.append(_summary(result.path, result.verdict, result.moves))
    if result.verdict == "illegal" and result.position is not None:
        lines.append("  the position before it:\n")
        lines.extend("    " + row + "\n" for row in layout_text(result.position).splitlines())
    return "".join(lines)


def _checked(text: str, path: str) -> CheckResult:
    """The Python check of a record: read, then replayed."""
    from ..freecell import check, parse

    with collector_paused():  # a record and its replay hold no cycles
        return check(parse(text, path=path), path)


def _check(args: argparse.Namespace) -> int:
    """``lcn freecell check``: a record the compiled clean path calls won
    (:mod:`lcnotation.freecell.accel`) is reported from its answer, without
    the reader or the checker; any other goes the Python way, which says
    what is wrong (the reports are the same, byte for byte)."""
    from ..freecell.accel import clean_check
    from ..freecell.rules import Verdict

    # SARIF reports the findings of lcn lint, which the clean path does not give.
    fast = clean_check() if args.format != "sarif" else None
    status = EXIT_OK
    files: List[Dict[str, Any]] = []
    reports: List[FileReport] = []
    unread: List[Tuple[str, str]] = []
    for path in args.paths:
        source = read_input(path)
        if source is None:
            status = EXIT_USAGE
            unread.append((path, "see the message on standard error"))
            continue
        clean = fast(source.text) if fast is not None else None
        if clean is not None:
            deal, moves = clean
            if args.format == "text":
                sys.stdout.write(_summary(path, Verdict.WON, moves))
            elif args.format == "json":
                files.append(_file_json(path, deal, Verdict.WON, moves, None, ()))
            continue  # github: a won record without findings says nothing
        result = _checked(source.text, path)
        if args.format == "sarif":
            from ..core.lint import LintConfig
            from ..freecell.notation import NOTATION

            # The findings of the check, as lcn lint reports them (less the layout's style).
            reports.append(NOTATION.lint_text(source.text, path, LintConfig(ignore=("F5",))))
        if not result.ok:
            status = max(status, EXIT_FINDINGS)
        if args.format == "text":
            sys.stdout.write(_text(result))
        elif args.format == "github":
            from ..tools.output import github_line

            sys.stdout.writelines(github_line(d) + "\n" for d in result.diagnostics)
        elif args.format == "json":
            files.append(_file_json(path, result.deal, result.verdict, result.moves,
                                    result.first_bad_move, result.diagnostics))
    if args.format == "json":
        from ..core.terminal import json_text

        sys.stdout.write(json_text({"files": files}) + "\n")
    elif args.format == "sarif":
        from ..core.version import __version__
        from ..tools.output import to_sarif

        sys.stdout.write(to_sarif(reports, __version__, unread) + "\n")
    return status


def _import(args: argparse.Namespace) -> int:
    """``lcn freecell import``: ``lcn import --from fc-solve`` (the Format registry's)."""
    from ..formats import get_format

    return translated(get_format(args.source), args.path, args.deal, None)


def _fmt(args: argparse.Namespace) -> int:
    """``lcn freecell fmt``: ``lcn fmt --notation freecell`` of each file."""
    from ..core.lint import LintConfig
    from ..core.notation import FormatRefused
    from ..freecell.notation import NOTATION

    status = EXIT_OK
    for path in args.paths:
        source = read_input(path)
        if source is None:
            status = EXIT_USAGE
            continue
        try:
            text = NOTATION.format_text(source.text, path, LintConfig()).text
        except FormatRefused as exc:
            err(f"{path}:{exc}")
            status = max(status, EXIT_FINDINGS)
            continue
        status = max(status, deliver_formatted(path, source, text, args.check, args.diff))
    return status
