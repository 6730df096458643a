"""What every ``lcn`` command shares: exit statuses, messages, reading and writing files."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import os
from dataclasses import replace
import stat
import sys
from typing import (IO, TYPE_CHECKING, Callable, Dict, Iterable, Iterator, List, Optional,
                    Sequence, Tuple)

from ..core.diagnostics import NotationError
from ..tools.config import (ConfigCache, ConfigError, ProjectConfig, config_for_file, parse_codes,
                            project_for)
from ..core.files import SourceFile, decode_source, display_path, not_regular, write_atomic
from ..core.files import Identity, identity_of
from ..core.lint import LintConfig
from ..tools.notations import DEFAULT, NOTATIONS
from ..core.walk import iter_record_files
from ..core.lineends import LINE_END_NAMES
from ..core.terminal import numbers_shortened, printable, printable_diff

# The Lost Cities reader and lint are imported by the functions that use them:
# every command imports this module, FreeCell's and the importers' too.
if TYPE_CHECKING:  # pragma: no cover
    from ..lostcities.text.ast import Game

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, not a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # The message may quote an argument: escaped, like everything we print.
        self.exit(EXIT_USAGE, printable(numbers_shortened(
            f"{self.prog}: error: {message} (see '{self.prog} --help')")) + "\n")


def add_command(sub: "argparse._SubParsersAction[Parser]", name: str, help_text: str,
                epilog: str) -> argparse.ArgumentParser:
    """A subcommand's parser, with its help and examples laid out as written."""
    return sub.add_parser(name, help=help_text, description=help_text, epilog=epilog,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def completes_with(action: argparse.Action, values: Callable[[], Iterable[str]]) -> None:
    """Have ``lcn completion`` offer ``values()`` for the argument ``action``:
    the names of a registry, read when a script is written (argparse's
    ``choices`` would read them each time ``lcn`` starts)."""
    setattr(action, "completions", values)


def err(message: str) -> None:
    print(printable(f"lcn: {message}"), file=sys.stderr)


def usage_error(command: str, message: str) -> int:
    """Say what is wrong with the command line of ``lcn command``, as argparse
    does, naming the command's help; the exit status."""
    print(printable(numbers_shortened(f"lcn {command}: error: {message} (see 'lcn {command} "
                                      "--help')")), file=sys.stderr)
    return EXIT_USAGE


class UsageError(ConfigError):
    """An option of the command line that cannot be used."""


def code_list(value: Optional[str], what: str) -> Optional[Tuple[str, ...]]:
    if value is None:
        return None
    try:
        return parse_codes([c for c in value.split(",") if c.strip()], what)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def pattern_list(value: Optional[str]) -> Optional[Tuple[str, ...]]:
    """Comma-separated patterns of the command line (None when not given)."""
    if value is None:
        return None
    return tuple(p.strip() for p in value.split(",") if p.strip())


def add_config_options(parser: argparse.ArgumentParser) -> None:
    """``--config`` and ``--stdin-filename``, shared by the commands that read
    the configuration."""
    parser.add_argument("--config", metavar="FILE",
                        help="a pyproject.toml to read [tool.lcnotation] from (default: the "
                        "nearest one above each file, as ruff finds its own)")
    parser.add_argument("--stdin-filename", metavar="PATH",
                        help="the name of the file read from standard input (-): its "
                        "configuration, per-file ignores, notation and the name in messages")


def add_exclude_options(parser: argparse.ArgumentParser) -> None:
    """``--exclude`` and ``--extend-exclude``, for the commands that walk folders
    (lint, fmt): glob patterns as the configuration's ``exclude``, relative to
    the working folder."""
    parser.add_argument("--exclude", metavar="PATTERNS",
                        help="comma-separated glob patterns of files and folders to skip "
                        "in folders, instead of the configuration's exclude")
    parser.add_argument("--extend-exclude", metavar="PATTERNS",
                        help="comma-separated glob patterns to skip besides the "
                        "configuration's exclude and extend-exclude")


def add_notation_option(parser: argparse.ArgumentParser) -> None:
    """``--notation``, for the commands that work on every notation (lint, fmt)."""
    parser.add_argument("--notation", choices=list(NOTATIONS), default=None,
                        help="read every file in this notation (default: by its extension, "
                        + ", ".join(f"{ext} {name}" for ext, name in NOTATIONS.by_extensions())
                        + "; other files and standard input: " + DEFAULT + ")")


class Settings:
    """The settings of one run: the command line's options over the
    configuration of each file (:func:`~lcnotation.tools.config.project_for`)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.explicit: Optional[str] = getattr(args, "config", None)
        if self.explicit is not None and not os.path.isfile(self.explicit):
            raise ConfigError(f"{self.explicit}: no such configuration file")
        self.select = code_list(getattr(args, "select", None), "--select")
        self.ignore = code_list(getattr(args, "ignore", None), "--ignore")
        self.extend_select = code_list(getattr(args, "extend_select", None),
                                       "--extend-select") or ()
        self.extend_ignore = code_list(getattr(args, "extend_ignore", None),
                                       "--extend-ignore") or ()
        self.dialect: Optional[str] = getattr(args, "dialect", None)
        self.notation: Optional[str] = getattr(args, "notation", None)
        self.stdin_filename: Optional[str] = getattr(args, "stdin_filename", None)
        #: ``--exclude`` (instead of each configuration's ``exclude``) and
        #: ``--extend-exclude`` (besides everything else), matched against
        #: paths relative to the working folder.
        self.exclude = pattern_list(getattr(args, "exclude", None))
        self.extend_exclude = pattern_list(getattr(args, "extend_exclude", None)) or ()
        self.cache = ConfigCache()

    def project(self, path: str) -> ProjectConfig:
        return project_for(self.named(path), self.explicit, self.cache)

    def named(self, path: str) -> str:
        """The name of ``path`` in messages: ``--stdin-filename`` for ``-``
        (each shown by :func:`~lcnotation.core.files.display_path`)."""
        return display_path(self.stdin_filename if path == "-" and self.stdin_filename
                            else path)

    def lint(self, path: str) -> LintConfig:
        """The lint settings of the file ``path``."""
        config = self.project(path).for_file(self.named(path))
        select = self.select if self.select is not None else config.select
        if select is not None:  # None selects every code: extending it adds nothing
            select = select + self.extend_select
        ignore = (self.ignore if self.ignore is not None else config.ignore) \
            + self.extend_ignore
        dialect = self.dialect if self.dialect is not None else config.dialect
        notation = self.notation if self.notation is not None else config.notation
        if (select, ignore, dialect, notation) == (config.select, config.ignore, config.dialect,
                                                   config.notation):
            return config
        return LintConfig(select, ignore, config.colors, dialect, notation)

    def expand(self, paths: Sequence[str], notations: Optional[Sequence[str]] = None
               ) -> Iterator[str]:
        """The files to work on: folders expanded into the files of ``notations``
        (default: every notation; with ``--notation``, that one's), skipping what
        the configuration excludes and what .gitignore ignores; ``-`` (standard
        input) kept."""
        if notations is None and self.notation is not None:
            notations = [self.notation]
        wanted = tuple(ext for ext, name in NOTATIONS.by_extensions()
                       if notations is None or name in notations)
        for path in paths:
            if path == "-":
                yield path
            else:
                for found in iter_record_files([path], wanted, skip=self._excluded):
                    yield display_path(found)

    def _excluded(self, path: str) -> bool:
        return self.excluded_by(path) is not None

    def excluded_by(self, path: str) -> Optional[str]:
        """What excludes the file or folder ``path`` from a folder walk (the
        ``pyproject.toml``, ``--exclude`` or ``--extend-exclude``), or None."""
        project = self.project(path)
        if self.exclude is not None:
            project = replace(project, exclude=())
        if project.excludes(path):
            return project.path or "pyproject.toml"
        for option, patterns in (("--exclude", self.exclude or ()),
                                 ("--extend-exclude", self.extend_exclude)):
            if patterns and ProjectConfig(None, LintConfig(), exclude=patterns).excludes(path):
                return option
        return None



def output_path(value: str) -> Optional[str]:
    """The value of an ``-o`` that writes to standard output by default:
    ``-`` names standard output (None), as it names standard input among the
    inputs; ``./-`` is a file called ``-``."""
    return None if value == "-" else value


def read_input(path: str) -> Optional[SourceFile]:
    """The decoded file (or standard input); None, with a message, when it cannot be read."""
    refused = not_regular(path)
    if refused is not None:
        err(f"{path}: cannot read: {refused}")
        return None
    try:
        if path == "-":
            return decode_source(_read_whole(sys.stdin.buffer))
        with open(path, "rb") as handle:
            # As it is opened: a rewrite checks that the file is still this one.
            identity = identity_of(os.fstat(handle.fileno()))
            return dataclasses.replace(decode_source(_read_whole(handle)), identity=identity)
    except (OSError, NotationError, _TooLarge, MemoryError) as exc:
        cannot_read(path, exc)
    return None


def read_bytes(path: str) -> Optional[bytes]:
    """The bytes of the regular file ``path``, as :func:`read_input` reads
    them (at most :data:`MAX_WHOLE`); None, with a message, when it cannot be read."""
    refused = not_regular(path)
    if refused is not None:
        err(f"{path}: cannot read: {refused}")
        return None
    try:
        with open(path, "rb") as handle:
            return _read_whole(handle)
    except (OSError, _TooLarge, MemoryError) as exc:
        cannot_read(path, exc)
    return None


def cannot_read(path: str, exc: BaseException) -> None:
    """Say on stderr why the file ``path`` cannot be read (``exc``: an
    OSError, a NotationError of the decoder or the reader, a MemoryError)."""
    if isinstance(exc, NotationError):
        err(f"{path}:{exc.line}:{exc.column}: cannot read: {exc.message}")
    elif isinstance(exc, OSError):
        err(f"{path}: cannot read: {exc.strerror or exc}")
    elif isinstance(exc, _TooLarge):
        err(f"{path}: cannot read: more than {MAX_WHOLE:,} bytes, the most a command that "
            "reads a file whole takes")
    else:
        err(f"{path}: cannot read: out of memory")


def streamable(path: str) -> bool:
    """Whether ``path`` is a regular file, which a command may read twice, or
    game by game (not ``-``, a pipe or a device: those are read whole)."""
    if path == "-" or not_regular(path) is not None:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def readable_games(path: str) -> bool:
    """Whether the regular file ``path`` can be read game by game to its end
    (UTF-8, every game and line within the reader's bounds), as
    :func:`read_input` would read it whole; else False, with the same message.
    Memory holds one game: the first of two passes of a command that streams."""
    from ..lostcities.text.reader import decoded_lines, split_games

    try:
        with open(path, "rb") as handle:
            for part in split_games(decoded_lines(handle)):
                unreadable = next((p for p in part.problems if p.code == "N001"), None)
                if unreadable is not None:
                    raise unreadable
    except (OSError, NotationError, MemoryError) as exc:
        cannot_read(path, exc)
        return False
    return True


#: The most the commands that read a file whole (fmt, score, ...) read: endless
#: input (``lcn score /dev/zero``) must end.
MAX_WHOLE = 1 << 30


class _TooLarge(Exception):
    """A file longer than :data:`MAX_WHOLE`."""


def _read_whole(handle: IO[bytes]) -> bytes:
    pieces: List[bytes] = []
    size = 0
    while True:
        data = handle.read(1 << 20)
        if not data:
            return b"".join(pieces)
        size += len(data)
        if size > MAX_WHOLE:
            raise _TooLarge()
        pieces.append(data)


def same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name one file (the same device and
    inode: also through ``./``, other spellings, hard and symbolic links);
    False when either does not exist."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # not there yet; a name with a NUL
        return False


def written_over(output: Optional[str], inputs: Iterable[str], command: str) -> bool:
    """Whether the file ``output`` is one of the files ``inputs`` (``-``,
    standard input, is none), said in one line on standard error: no ``lcn``
    command writes over what it reads.  Every command that writes a file
    asks this before it opens it."""
    if output is None or output == "-":
        return False
    for path in inputs:
        if path != "-" and same_file(output, path):
            err(f"{output}: not written: it is the input {path}; lcn {command} never "
                "writes over an input")
            return True
    return False


def colliding(targets: Sequence[Tuple[str, str]], command: str) -> bool:
    """Whether two of ``targets`` (each an input and the file it is written to)
    are written to the same file, said in one line on standard error: the
    second would replace the first.  Asked before anything is written."""
    seen: Dict[str, str] = {}
    for source, target in targets:
        key = os.path.normcase(os.path.realpath(target))
        if key in seen:
            err(f"{target}: not written: both {seen[key]} and {source} would be written to "
                f"it; lcn {command} never writes two files over each other")
            return True
        seen[key] = source
    return False


def write_file(path: str, data: bytes, since: Optional[Identity] = None) -> bool:
    """Replace the file ``path`` with ``data``; False, with a message, when that
    fails (also when the file is no longer as it was read: ``since``, see
    :func:`~lcnotation.core.files.atomic_writer`)."""
    try:
        write_atomic(path, data, since)
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


def deliver_formatted(path: str, source: SourceFile, new: str, check: bool, diff: bool,
                      name: Optional[str] = None, quiet: bool = False) -> int:
    """Deliver ``new``, the formatted text of ``source``: to standard output for
    ``-``, as a diff with ``diff``, as a line with ``check``, else over the file
    (its line ends and BOM kept; a file that mixes line ends gets the one most
    of its lines use, as S107's fix); the exit status that calls for.
    ``name`` is the file's name in messages (default: ``path``)."""
    name = name if name is not None else path
    newline = source.newline if source.newline is not None else source.majority
    if path == "-" and not (check or diff):
        # As bytes: the input's line ends and BOM, UTF-8 whatever the locale.
        write_stdout(source.encode(new, newline))
        return EXIT_OK
    if new == source.text and newline == source.newline:
        return EXIT_OK
    if diff:
        sys.stdout.writelines(printable_diff(source.text, new, name))
        if newline != source.newline:
            print(printable(f"{name}: every line would end with {LINE_END_NAMES[newline]}"))
    if check or diff:
        if check:
            print(printable(f"would reformat {name}"))
        return EXIT_FINDINGS
    if write_file(path, source.encode(new, newline), source.identity):
        if not quiet:
            print(printable(f"reformatted {name}"), file=sys.stderr)
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



def configured_colors(path: str) -> Tuple[str, ...]:
    """The colours of games without a Colors header in the file ``path`` (``-``:
    standard input, configured from the working folder), as ``lcn lint`` takes
    them: from the file's own ``[tool.lcnotation]`` table (raises ConfigError
    when it is wrong)."""
    from ..lostcities.lint import colors_of

    return colors_of(config_for_file("." if path == "-" else path))


def read_records(path: str) -> "Optional[List[Game]]":
    """The games of ``path`` (or standard input); None, with a message, when it
    cannot be read.  Games with syntax errors are kept: what could be read of
    them still counts."""
    from ..lostcities.text.reader import parse_games

    source = read_input(path)
    if source is None:
        return None
    return list(parse_games(source.text, path=path))


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a command reads records whole:
    the games, moves and spans it builds are tuples that hold no cycles
    (reference counting frees them), and the collector would walk all of them
    again at each of its full collections as they pile up (9 % of the
    instructions of ``lcn import`` of 1,000 replay strings).  It runs again
    afterwards, as before (the language server keeps large documents out of
    its sight with :func:`gc.freeze` for the same reason)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def write_output(output: Optional[str], data: bytes) -> int:
    """``data`` to the file ``output``, or to standard output when it is None;
    the exit status."""
    if output is None:
        write_stdout(data)
        return EXIT_OK
    return EXIT_OK if write_file(output, data) else EXIT_USAGE


def names_folder(output: Optional[str]) -> bool:
    """Whether ``-o output`` names a folder to write files into: one that
    exists, or a name that ends with a path separator (made when written)."""
    return output is not None and (output.endswith(("/", os.sep)) or os.path.isdir(output))


def make_folder(folder: str) -> bool:
    """Make ``folder`` (and its parents) if need be; False, with a message,
    when that fails."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        err(f"{folder}: cannot make the folder: {exc.strerror or exc}")
        return False
    return True


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
