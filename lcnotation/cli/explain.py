"""``lcn explain``: what a diagnostic code means, with an example."""

from __future__ import annotations

import argparse
import sys

from typing import List

from .common import EXIT_OK, Parser, add_command, completes_with, usage_error

_EXPLAIN_EXAMPLES = """\
examples:
  lcn explain S102         the meaning of S102, an example and its fix
  lcn explain --all        every code, one line each
"""


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    parser = add_command(sub, "explain", "explain a diagnostic code", _EXPLAIN_EXAMPLES)
    completes_with(parser.add_argument("codes", nargs="*", metavar="CODE",
                                       help="codes such as S102"), _codes)
    parser.add_argument("--all", action="store_true", help="list every code")
    parser.set_defaults(handler=run)


def _codes() -> List[str]:
    from ..tools.codes import ALL_CODES

    return sorted(ALL_CODES)


def run(args: argparse.Namespace) -> int:
    from ..tools.explain import explain, explain_all  # every example, only for this command

    if args.all:
        sys.stdout.write(explain_all())
        return EXIT_OK
    if not args.codes:
        return usage_error("explain", "name a code (such as S102) or give --all")
    texts = []
    for code in args.codes:
        try:
            texts.append(explain(code))
        except KeyError:
            return usage_error("explain", f"no code {code.strip().upper()!r}; "
                               "'lcn explain --all' lists them")
    sys.stdout.write("\n".join(texts))
    return EXIT_OK
