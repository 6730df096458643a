"""The ``lcn`` command: lint, format, convert and score Lost Cities records (and
FreeCell ones, ``lcn freecell``).

Run ``lcn --help`` or ``lcn COMMAND --help`` for the options; every error
about the command line is one line on stderr and exit status 2.

Each subcommand is a module of this package with a ``register(sub)``
function that adds its parser (with ``handler=run``); :data:`COMMAND_MODULES`
names them in the order ``lcn --help`` shows them, and :data:`COMMANDS` is
their modules.  A run imports and registers only the module of the command
it names (``lcn import ...`` loads nothing of ``lcn lint``), every one when
it names none (``lcn --help``, a mistyped command) or asks for the whole
command line (``lcn completion``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import signal
import sys
import threading
from types import FrameType, ModuleType
from typing import Any, Iterator, List, Optional, Sequence, Tuple

from ..core.version import __version__
from ..tools.config import ConfigError
from .common import EXIT_FINDINGS, EXIT_USAGE, Parser, UsageError, err, usage_error

__all__ = ["COMMANDS", "COMMAND_MODULES", "main"]

#: Each command's name and the module of this package that registers it, in
#: the order ``lcn --help`` shows them (tests/test_startup.py holds each
#: module to registering its name, and no other).
COMMAND_MODULES: Tuple[Tuple[str, str], ...] = (
    ("lint", "lint"), ("fmt", "fmt"), ("convert", "convert"), ("score", "score"),
    ("filter", "filtercmd"), ("dedupe", "dedupe"), ("split", "split"), ("stats", "stats"),
    ("import", "importcmd"), ("export", "exportcmd"), ("render", "render"), ("view", "view"),
    ("freecell", "freecell"), ("match", "match"), ("bot", "bot"), ("explain", "explain"),
    ("completion", "completion"), ("server", "server"))
#: The commands that read the whole command line's shape (every command's parser).
_WHOLE = frozenset(("completion",))


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}")


def __getattr__(name: str) -> Any:
    # COMMANDS, the command modules in order, imported when first asked for.
    if name == "COMMANDS":
        return tuple(_module(module) for _, module in COMMAND_MODULES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _commands_for(argv: Optional[Sequence[str]]) -> Optional[Tuple[str, ...]]:
    """The commands whose parsers are enough to read ``argv``: the one it
    names, or none for ``lcn --version``; None for every command."""
    if argv is None:
        return None
    if argv[:1] == ["--version"]:  # read, and the run ends, before a command is looked for
        return ()
    word = next((a for a in argv if not a.startswith("-")), "")
    known = any(word == name for name, _ in COMMAND_MODULES)
    return (word,) if known and word not in _WHOLE else None

_MAIN_EXAMPLES = """\
examples:
  lcn lint games/                     check every *.lcn file below games/
  lcn fmt games/ --check              are the files in the canonical layout?
  lcn convert match.lcn --to json     the JSON interchange form
  lcn score match.lcn                 scores per game and match totals
  lcn filter games/ --where 'Player1 == "Kenny" and expedition.wagers == 3'
  lcn stats games/ --format json      win rates, players, scores, colours
  lcn render match.lcn -o end.svg     a picture of the final position
  lcn view match.lcn -o match.html    a page that replays the games
  lcn freecell deal 1                 FreeCell deal 1 in Standard FreeCell Notation
  lcn explain S102                    what a code means, with an example
  lcn completion bash > ~/.local/share/bash-completion/completions/lcn
  lcn server                          the language server, for editors

Run 'lcn COMMAND --help' for a command's options and more examples.
"""


def _build_parser(argv: Optional[Sequence[str]] = None) -> argparse.ArgumentParser:
    """``lcn``'s parser: with every command's, or only those that reading
    ``argv`` needs (:func:`_commands_for`)."""
    parser = Parser(prog="lcn", description="Lint, format, convert and score Lost Cities "
                    "game records (Lost Cities Standard Notation v1.0).",
                    epilog=_MAIN_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"lcn {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    wanted = _commands_for(argv)
    for name, module in COMMAND_MODULES:
        if wanted is None or name in wanted:
            _module(module).register(sub)
    # A command that reads the whole command line's shape (lcn completion)
    # finds it here, rather than importing this module back.
    parser.set_defaults(top_parser=parser)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``lcn`` with ``argv`` (default: the process arguments); return the exit status."""
    with _tolerant_output(), _signals_end_the_run():
        return _main(argv)


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: the run ends as Ctrl-C ends it (a file being
    written is left as it was, its temporary file removed)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _signals_end_the_run() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP (``timeout``, ``docker stop``, CI cancellation, a
    closed terminal) into :class:`Terminated`, raised where the program is, so
    that every ``finally`` runs; a signal the caller ignores stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may handle signals
        return
    catching = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None))
                if s is not None and signal.getsignal(s) is not signal.SIG_IGN]

    def stop(signum: int, frame: Optional[FrameType]) -> None:
        for s in catching:  # a second signal must not cut the clean-up short
            signal.signal(s, signal.SIG_IGN)
        raise Terminated(signum)

    previous = {s: signal.signal(s, stop) for s in catching}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def _tolerant_output() -> Iterator[None]:
    """Escape what standard output cannot encode instead of dying on it.

    A file name that is not UTF-8 reaches Python as lone surrogates, and a
    terminal may not be UTF-8 at all; the text we print must not fail on
    either.  (Records themselves are written as bytes.)
    """
    changed: List[io.TextIOWrapper] = []
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")
            changed.append(stream)
    try:
        yield
    finally:
        for stream in changed:
            with contextlib.suppress(ValueError, OSError):  # closed, or a broken pipe
                stream.reconfigure(errors="strict")


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = _build_parser(sys.argv[1:] if argv is None else argv)
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if extra:  # argparse would blame "lcn", not the subcommand whose options they are
        return usage_error(args.command, f"unrecognized arguments: {' '.join(extra)}")
    try:
        status = int(args.handler(args))
        sys.stdout.flush()  # a failure to write what is still buffered is caught below
        return status
    except UsageError as exc:
        return usage_error(args.command, str(exc))
    except ConfigError as exc:
        err(str(exc))
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader of our output went away (e.g. `lcn lint | head`): say nothing
        # more, and keep Python from complaining when it flushes stdout at exit.
        _drop_stdout()
        return EXIT_FINDINGS
    except OSError as exc:
        # The commands report every file they cannot read or write themselves:
        # what reaches here is standard output (a full disk, /dev/full, EIO).
        _drop_stdout()
        with contextlib.suppress(OSError):
            err(f"cannot write the output: {exc.strerror or exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except MemoryError:
        _drop_stdout()
        err("out of memory")
        return EXIT_USAGE
    except Terminated as exc:
        with contextlib.suppress(OSError):
            err(f"terminated by {signal.Signals(exc.signum).name}")
        return 128 + exc.signum


def _drop_stdout() -> None:
    """Send what standard output still holds, and anything later, nowhere."""
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
