"""What the fuzzers run: every entry point of lcnotation on one input.

Each target takes the fuzzer's bytes and raises (so that the fuzzer reports
a crash) when lcnotation breaks a promise of ``spec/guarantees.md``: an
exception other than NotationError from the library, a traceback or an
unexpected exit status from the command line, a file rewritten that should
not have been.  The module does not import atheris, so that the test suite
can run the targets on the corpus (tests/test_fuzz.py) and keep them working.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
from typing import Iterator, List, Tuple

from lcnotation.lostcities.game.checker import check, score
from lcnotation.cli import main
from lcnotation.lostcities.convert import convert_text, detect_dialect, dialect_names
from lcnotation.core.diagnostics import NotationError
from lcnotation.core.files import decode_source
from lcnotation.lostcities.jsonform import from_json
from lcnotation.tools.lint import fix_text, lint_text
from lcnotation.lostcities.text.reader import parse_game, parse_games, read_games

__all__ = ["read_target", "convert_target", "cli_target", "numbers_target", "names_target",
           "importers_target", "TARGETS", "console", "run_lcn"]

DIALECTS = dialect_names()


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def read_target(data: bytes) -> None:
    """Read ``data`` as a file and as text; check, score and lint what was read."""
    games = list(read_games(io.BytesIO(data)))
    with contextlib.suppress(NotationError):
        list(read_games(io.BytesIO(data), strict=True))
    text = _text(data)
    parse_game(text)
    with contextlib.suppress(NotationError):
        parse_game(text, strict=True)
    for game in games[:8]:
        check(game)
        score(game)
    lint_text(text)
    fix_text(text)
    list(read_games(io.StringIO(text)))


def convert_target(data: bytes) -> None:
    """Convert ``data`` (as text) to every dialect and from every dialect."""
    text = _text(data)
    detect_dialect(text)
    with contextlib.suppress(NotationError):
        from_json(text)
    for dialect in DIALECTS:
        with contextlib.suppress(NotationError):
            convert_text(text, to=dialect).encode("utf-8")
        with contextlib.suppress(NotationError):
            convert_text(text, to="v1", source=dialect)
    list(parse_games(text))


@contextlib.contextmanager
def console(stdin: bytes = b"") -> Iterator[List[io.TextIOWrapper]]:
    """Standard streams of this process as strict UTF-8 buffers (what a
    terminal outside the C locale gives): stdin, stdout, stderr."""
    saved = sys.stdin, sys.stdout, sys.stderr
    streams = [io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
               io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict"),
               io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")]
    sys.stdin, sys.stdout, sys.stderr = streams
    try:
        yield streams
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def run_lcn(*argv: str, stdin: bytes = b"") -> Tuple[int, bytes, str]:
    """``lcn argv`` in this process: exit status, standard output (bytes) and
    standard error.  Raises AssertionError on an exit status other than 0, 1
    or 2, or a traceback (tests/test_fuzz.py runs the command with it too)."""
    with console(stdin) as (_, out, err):
        status = main(list(argv))
        out.flush()
        err.flush()
        result = status, out.buffer.getvalue(), err.buffer.getvalue().decode("utf-8")
    if status not in (0, 1, 2) or "Traceback" in result[2]:
        raise AssertionError(f"lcn {' '.join(argv)}: exit {status}\n{result[2]}")
    return result


def _lcn(*argv: str) -> int:
    return run_lcn(*argv)[0]


_folder: List[str] = []


def _input_path() -> str:
    if not _folder:
        _folder.append(tempfile.mkdtemp(prefix="lcn-fuzz-"))
        atexit.register(shutil.rmtree, _folder[0], True)
    return os.path.join(_folder[0], "input.lcn")


def cli_target(data: bytes) -> None:
    """Run the command line on ``data`` as a file: lint, score, convert, and
    the rewriting commands, which must leave the file alone or keep its games."""
    path = _input_path()
    with open(path, "wb") as handle:
        handle.write(data)
    try:
        text = decode_source(data).text
    except NotationError:
        text = None
    _lcn("lint", "--no-progress", path)
    _lcn("lint", "--format", "sarif", path)
    if _lcn("score", "--allow-errors", path) != (2 if text is None else 0):
        raise AssertionError("score: wrong exit status")
    _lcn("convert", path, "--to", DIALECTS[len(data) % len(DIALECTS)])
    before = list(read_games(path)) if text is not None else None
    for argv in (["fmt", path], ["lint", "--fix", path],
                 ["convert", path, "--to", "lower", "--in-place"]):
        _lcn(*argv)
        with open(path, "rb") as handle:
            now = handle.read()
        if now != data:
            if text is None or any(g.errors for g in before):
                raise AssertionError(f"{argv[0]} rewrote a file it had to refuse")
            if list(read_games(path)) != before:
                raise AssertionError(f"{argv[0]} changed what the record says")
            data, before = now, list(read_games(path))


def _number(data: bytes) -> str:
    """A run of digits from ``data``, often longer than Python's 4,300-digit
    limit for ``int()``: the first two bytes give the length (0 to 8,999)."""
    length = int.from_bytes(data[:2].ljust(2, b"\0"), "big") % 9000
    digits = "".join(chr(48 + b % 10) for b in data[2:12]) or "9"
    return (digits * (length // len(digits) + 1))[:max(1, length)]


def numbers_target(data: bytes) -> None:
    """Numbers of any length wherever a record or a JSON document holds one:
    nothing but NotationError from the library, no traceback from the command."""
    n = _number(data)
    sign = "-" if data[-1:] and data[-1] % 2 else ""
    records = [f'[Result "{sign}{n}-{n}"]\n1. R3-D', f"{n}. R3-D {n}. B4-D",
               f'[Round "{n}"]\n[Result "87-{n}"]\n{n}. R3-D']
    for text in records:
        for game in parse_games(text):
            check(game)
            score(game)
        lint_text(text)
        fix_text(text)
    document = ('{"format": "lcnotation", "version": %s, "games": [{"headers": [], '
                '"moves": [{"color": "R", "rank": %s%s, "discard": false, "draw": null}]}]}'
                % (n, sign, n))
    with contextlib.suppress(NotationError):
        from_json(document)
    path = _input_path()
    for text in records + [document]:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        for argv in (["lint", "--no-progress", path], ["lint", "--format", "sarif", path],
                     ["score", path], ["convert", path, "--to", "lower"]):
            _lcn(*argv)


#: What no output of lcn may hold raw: C0 controls but tab and line feed, DEL, C1.
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def names_target(data: bytes) -> None:
    """A file whose name and header values are made of ``data`` (control
    characters, line breaks, bytes that are not UTF-8): every command shows
    them, never obeys them."""
    raw = bytes(b for b in data[:60] if b not in b"/\0") or b"x"
    folder = os.path.dirname(_input_path())
    name = os.fsdecode(raw + b".lcn")
    if len(os.fsencode(name)) > 250:
        return
    path = os.path.join(folder, name)
    value = data[60:].decode("utf-8", "replace").replace("\\", "").replace('"', "")
    value = value.replace("\r", " ").replace("\n", " ")
    with open(path, "wb") as handle:
        handle.write(f'[Event "{value}"]\n[Player1 "{value}"]\n1. r3-d 2. {value[:3]}\n'
                     .encode("utf-8", "surrogateescape"))
    try:
        for argv in (["lint", "--no-progress"], ["lint", "--format", "github"],
                     ["lint", "--format", "json"], ["lint", "--format", "sarif"],
                     ["score"], ["score", "--format", "json"], ["fmt", "--diff", "--force"],
                     ["fmt", "--check", "--force"]):
            _, out, err = run_lcn(*argv, path)
            for stream, text in (("stdout", out.decode("utf-8", "replace")), ("stderr", err)):
                bad = _RAW_CONTROL.search(text)
                if bad is not None:
                    raise AssertionError(f"lcn {' '.join(argv)}: {stream} holds "
                                         f"{bad.group()!r} raw")
    finally:
        os.unlink(path)


def importers_target(data: bytes) -> None:
    """Read ``data`` with every importer's line reader (the transcripts of
    chikinn and metapyziks, fc-solve's solutions): each recognises it or not,
    reads it or refuses it with a NotationError, never anything else; what an
    import gives is a record its notation reads; ``lcn import`` and ``lcn lint
    --from`` on it exit 0, 1 or 2 without a traceback."""
    from lcnotation.formats import FORMATS
    from lcnotation.freecell import parse as parse_freecell

    text = _text(data).replace("\r\n", "\n")
    for name, fmt in sorted(FORMATS.items()):
        if fmt.collection:
            continue  # a folder of tables, not a text
        if fmt.detect is not None:
            fmt.detect(text)
        if fmt.read is not None:
            with contextlib.suppress(NotationError):
                for game in fmt.read(text, None):
                    check(game)
        if fmt.translate is not None:
            try:
                record = fmt.translate(text, {"deal": 1})
            except NotationError:
                continue
            parsed = parse_freecell(record)
            if parsed.errors:
                raise AssertionError(f"{name}: the import is not read back: "
                                     f"{parsed.errors[0]}")
    path = _input_path()
    with open(path, "wb") as handle:
        handle.write(data)
    try:
        for name in ("chikinn", "metapyziks"):
            _lcn("import", "--from", name, path)
        _lcn("import", "--from", "fc-solve", path, "--deal", "1")
        _lcn("lint", "--from", "chikinn", path)
    finally:
        os.unlink(path)


TARGETS = {"read": read_target, "convert": convert_target, "cli": cli_target,
           "numbers": numbers_target, "names": names_target, "importers": importers_target}
