"""The ``lcn`` command: lint, format, convert and score Lost Cities records.

Run ``lcn --help`` or ``lcn COMMAND --help`` for the options; every error
about the command line is one line on stderr and exit status 2.

Each subcommand is a module of this package with a ``register(sub)``
function that adds its parser (with ``handler=run``); :data:`COMMANDS`
lists them in the order ``lcn --help`` shows them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Iterator, Optional, Sequence

from .. import __version__
from ..tools.config import ConfigError
from . import convert, fmt, lint, score, server
from .common import EXIT_FINDINGS, EXIT_USAGE, Parser, err

__all__ = ["COMMANDS", "main"]

COMMANDS = (lint, fmt, convert, score, server)

_MAIN_EXAMPLES = """\
examples:
  lcn lint games/                     check every *.lcn file below games/
  lcn fmt games/ --check              are the files in the canonical layout?
  lcn convert match.lcn --to json     the JSON interchange form
  lcn score match.lcn                 scores per game and match totals
  lcn server                          the language server, for editors

Run 'lcn COMMAND --help' for a command's options and more examples.
"""


def _build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="lcn", description="Lint, format, convert and score Lost Cities "
                    "game records (Lost Cities Standard Notation v1.0).",
                    epilog=_MAIN_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"lcn {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for command in COMMANDS:
        command.register(sub)
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
        err(str(exc))
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader of our output went away (e.g. `lcn lint | head`): say nothing
        # more, and keep Python from complaining when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    except KeyboardInterrupt:
        err("interrupted")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
