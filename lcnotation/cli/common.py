"""What every ``lcn`` command shares: exit statuses, messages, reading and writing files."""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from ..text.ast import Game
from ..text.errors import NotationError
from ..text.reader import parse_games
from ..tools.config import ConfigError, find_config, load_config, parse_codes
from ..tools.files import SourceFile, decode_source, read_source, write_atomic
from ..tools.lint import LintConfig, iter_lcn_files
from ..tools.output import printable

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, not a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def add_command(sub: "argparse._SubParsersAction[Parser]", name: str, help_text: str,
                epilog: str) -> argparse.ArgumentParser:
    """A subcommand's parser, with its help and examples laid out as written."""
    return sub.add_parser(name, help=help_text, description=help_text, epilog=epilog,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def err(message: str) -> None:
    print(printable(f"lcn: {message}"), file=sys.stderr)


def code_list(value: Optional[str], what: str) -> Optional[Tuple[str, ...]]:
    if value is None:
        return None
    return parse_codes([c for c in value.split(",") if c.strip()], what)


def lint_config(args: argparse.Namespace) -> LintConfig:
    if args.config and not os.path.isfile(args.config):
        raise ConfigError(f"{args.config}: no such configuration file")
    config = load_config(args.config if args.config else find_config("."))
    select, ignore = code_list(args.select, "--select"), code_list(args.ignore, "--ignore")
    return LintConfig(select if select is not None else config.select,
                      ignore if ignore is not None else config.ignore,
                      config.colors, config.dialect)


def expand_paths(paths: Sequence[str]) -> Iterator[str]:
    """The files to work on: folders expanded, ``-`` (standard input) kept."""
    for path in paths:
        if path == "-":
            yield path
        else:
            yield from iter_lcn_files([path])


def read_input(path: str) -> Optional[SourceFile]:
    """The decoded file (or standard input); None, with a message, when it cannot be read."""
    try:
        return decode_source(sys.stdin.buffer.read()) if path == "-" else read_source(path)
    except OSError as exc:
        err(f"{path}: cannot read: {exc.strerror or exc}")
    except NotationError as exc:
        err(f"{path}:{exc.line}:{exc.column}: cannot read: {exc.message}")
    return None


def write_file(path: str, data: bytes) -> bool:
    """Replace the file ``path`` with ``data``; False, with a message, when that fails."""
    try:
        write_atomic(path, data)
    except OSError as exc:
        err(f"{path}: cannot write: {exc.strerror or exc}")
        return False
    return True


def write_stdout(data: bytes) -> None:
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream that a calling program put there
        sys.stdout.write(data.decode("utf-8"))
        return
    sys.stdout.flush()
    buffer.write(data)
    buffer.flush()


def deliver_formatted(path: str, source: SourceFile, new: str, check: bool, diff: bool
                      ) -> int:
    """Deliver ``new``, the formatted text of ``source``: to standard output for
    ``-``, as a diff with ``diff``, as a line with ``check``, else over the file
    (its line ends and BOM kept); the exit status that calls for."""
    if path == "-" and not (check or diff):
        # As bytes: the input's line ends and BOM, UTF-8 whatever the locale.
        write_stdout(source.encode(new) if source.newline is not None
                     else new.encode("utf-8"))
        return EXIT_OK
    if new == source.text:
        return EXIT_OK
    if diff:
        sys.stdout.writelines(difflib.unified_diff(
            source.text.splitlines(True), new.splitlines(True), path, path))
    if check or diff:
        if check:
            print(printable(f"would reformat {path}"))
        return EXIT_FINDINGS
    if source.newline is None:
        err(f"{path}: not formatted: the file mixes line ends")
        return EXIT_FINDINGS
    if write_file(path, source.encode(new)):
        print(printable(f"reformatted {path}"), file=sys.stderr)
        return EXIT_OK
    return EXIT_USAGE


def process_count(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes (0 or more), "
                                         f"not {value!r}")
    return n


def refused_for_errors(source: SourceFile, path: str, done: str,
                        games: Optional[List[Game]] = None) -> bool:
    """Whether ``source`` has syntax errors (then said on stderr)."""
    games = list(parse_games(source.text, path=path)) if games is None else games
    errors = [e for g in games for e in g.errors]
    if not errors:
        return False
    first = errors[0]
    err(f"{path}:{first.line}:{first.column}: not {done}: {len(errors)} syntax "
         f"error{'s' if len(errors) != 1 else ''} (first: {first.message}); "
         "fix them or use --force")
    return True



def configured_colors() -> Tuple[str, ...]:
    """The colours of games without a Colors header, as ``lcn lint`` takes them:
    from the nearest ``[tool.lcnotation]`` table (raises ConfigError when it is wrong)."""
    return load_config(find_config(".")).colors


def read_records(path: str) -> Optional[List[Game]]:
    """The games of ``path`` (or standard input); None, with a message, when it
    cannot be read.  Games with syntax errors are kept: what could be read of
    them still counts."""
    source = read_input(path)
    if source is None:
        return None
    return list(parse_games(source.text, path=path))


def write_output(output: Optional[str], data: bytes) -> int:
    """``data`` to the file ``output``, or to standard output when it is None;
    the exit status."""
    if output is None:
        write_stdout(data)
        return EXIT_OK
    return EXIT_OK if write_file(output, data) else EXIT_USAGE


def count(least: int) -> "Callable[[str], int]":
    """An argparse type: a whole number, ``least`` or more."""
    def parse(value: str) -> int:
        try:
            n = int(value)
        except ValueError:
            n = least - 1
        if n < least:
            raise argparse.ArgumentTypeError(f"expected a whole number, {least} or more, "
                                             f"not {value!r}")
        return n
    return parse
