"""``lcn split``: a file's games into several files, each game as it was written."""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections import OrderedDict
from typing import IO, Callable, Dict, Optional, Tuple

from .archives import GameWriter, ReadFailed, entries, read_failed
from .common import EXIT_OK, EXIT_USAGE, Parser, add_command, count, err, same_file

_SPLIT_EXAMPLES = """\
examples:
  lcn split big.lcn --games 1000 -o parts/    parts/big-0001.lcn, big-0002.lcn, ...
  lcn split club.lcn --by Event -o events/    one file per Event (events/Club_night.lcn)
  lcn split bots.lcn --by deal -o deals/      one file per deal (Hand1, Hand2, Deck)

Every game is written exactly as it was written, in the order read, so the
files laid end to end (--games: in the order of their names) are the input,
byte for byte. The byte-order mark, if any, goes to the file of the first
game. Files are named from the input's name (--games), from the header's
value, letters, digits, '.', '-' and '_' kept and the rest written '_'
(--by HEADER; games without the header go to 'no-HEADER.lcn'), or from the
digest of the deal (--by deal; games without a whole deal go to
'no-deal.lcn'). An existing file is not replaced unless --force; an input
never is.
"""

#: How many output files are kept open at once (the others are reopened).
OPEN_FILES = 64


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    p = add_command(sub, "split", "split a file's games into several files", _SPLIT_EXAMPLES)
    p.add_argument("path", metavar="PATH", help="the file to split, or - for standard input")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--games", type=count(1), metavar="N", help="N games per file")
    how.add_argument("--by", metavar="HEADER",
                     help="one file per value of the header HEADER, or per deal (--by deal)")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="the folder to write the files into (made if needed)")
    p.add_argument("--force", action="store_true", help="replace files that exist")
    p.set_defaults(handler=run)


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe(value: str) -> str:
    name = _UNSAFE.sub("_", value).strip("._") or "_"
    return name[:120]


class _Outputs:
    """The output files, written as temporary files in the folder and put in
    place at the end (each replacing a file of its name only then): a run
    that fails or is interrupted leaves the folder as it was."""

    def __init__(self, folder: str, force: bool, inputs: Tuple[str, ...]) -> None:
        self.folder, self.force, self.inputs = folder, force, inputs
        self.names: Dict[str, str] = {}          # key -> file name
        self.temporary: Dict[str, str] = {}      # key -> temporary path
        self.writers: Dict[str, GameWriter] = {}
        self.open: "OrderedDict[str, IO[bytes]]" = OrderedDict()
        self.taken: Dict[str, str] = {}          # file name -> key

    def name_for(self, key: str, wanted: str) -> Optional[str]:
        name = self.names.get(key)
        if name is not None:
            return name
        base, n = wanted, 1
        while wanted in self.taken:  # two values with the same safe name
            n += 1
            stem, ext = os.path.splitext(base)
            wanted = f"{stem}-{n}{ext}"
        target = os.path.join(self.folder, wanted)
        if any(same_file(target, p) for p in self.inputs):
            err(f"{target}: is the input: lcn split never writes over an input")
            return None
        if os.path.lexists(target) and not self.force:
            err(f"{target}: exists; lcn split replaces files only with --force")
            return None
        self.taken[wanted] = key
        self.names[key] = wanted
        return wanted

    def writer(self, key: str, bom: bytes) -> GameWriter:
        w = self.writers.get(key)
        if w is None:
            fd, tmp = tempfile.mkstemp(prefix=".lcn-", suffix=".tmp", dir=self.folder)
            os.close(fd)
            self.temporary[key] = tmp
            w = self.writers[key] = GameWriter(self._writes_to(key), bom)
        return w

    def _writes_to(self, key: str) -> Callable[[bytes], object]:
        return lambda data: self._handle(key).write(data)

    def _handle(self, key: str) -> IO[bytes]:
        handle = self.open.get(key)
        if handle is not None:
            self.open.move_to_end(key)
            return handle
        if len(self.open) >= OPEN_FILES:
            _, oldest = self.open.popitem(last=False)
            oldest.close()
        handle = self.open[key] = open(self.temporary[key], "ab")
        return handle

    def finish(self) -> None:
        for handle in self.open.values():
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()
        self.open.clear()
        umask = os.umask(0o22)
        os.umask(umask)
        for key, tmp in self.temporary.items():
            os.chmod(tmp, 0o666 & ~umask)
            os.replace(tmp, os.path.join(self.folder, self.names[key]))
        self.temporary.clear()

    def abandon(self) -> None:
        for handle in self.open.values():
            handle.close()
        for tmp in self.temporary.values():
            try:
                os.unlink(tmp)
            except OSError:
                pass


def run(args: argparse.Namespace) -> int:
    path, folder = args.path, args.output
    name = path
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        err(f"{folder}: cannot make the folder: {exc.strerror or exc}")
        return EXIT_USAGE
    stem = os.path.splitext(os.path.basename(path))[0] if path != "-" else "stdin"
    width = 4
    if args.games is not None and path != "-":
        try:
            total = sum(1 for _ in entries(path, name))
        except ReadFailed as exc:
            read_failed(name, exc)
            return EXIT_USAGE
        width = max(width, len(str(max(1, -(-total // args.games)))))
    outputs = _Outputs(folder, args.force, (path,) if path != "-" else ())
    games = files_before = 0
    try:
        status = _split(args, path, name, stem, width, outputs)
        if status != EXIT_OK:
            outputs.abandon()
            return status
        games = sum(w.games for w in outputs.writers.values())
        files_before = len(outputs.writers)
        outputs.finish()
    except OSError as exc:
        outputs.abandon()
        err(f"{folder}: cannot write: {exc.strerror or exc}")
        return EXIT_USAGE
    except BaseException:
        outputs.abandon()
        raise
    err(f"split: {games} game{'s' if games != 1 else ''} into {files_before} "
        f"file{'s' if files_before != 1 else ''} in {folder}")
    return EXIT_OK


def _split(args: argparse.Namespace, path: str, name: str, stem: str, width: int,
           outputs: _Outputs) -> int:
    from ..archive import deal_digest
    from ..lostcities.text.ast import Game

    by: Optional[str] = args.by
    bom = _bom_of(path)
    try:
        for entry in entries(path, name):
            if args.games is not None:
                part = (entry.number - 1) // args.games + 1
                key, wanted = str(part), f"{stem}-{part:0{width}d}.lcn"
            elif by == "deal":
                deal = deal_digest(Game(entry.headers()))
                key, wanted = ((deal, f"deal-{deal[:16]}.lcn") if deal is not None
                               else ("", "no-deal.lcn"))
            else:
                assert by is not None
                value = entry.tags().get(by)
                key, wanted = (("=" + value, _safe(value) + ".lcn") if value is not None
                               else ("", f"no-{_safe(by)}.lcn"))
            if outputs.name_for(key, wanted) is None:
                return EXIT_USAGE
            writer = outputs.writer(key, bom if entry.number == 1 else b"")
            if not writer.write(entry):  # pragma: no cover - a file's games follow each other
                err(f"{name}:{entry.line}:1: game {entry.number} cannot follow the game before "
                    "it in its file")
                return EXIT_USAGE
    except ReadFailed as exc:
        read_failed(name, exc)
        return EXIT_USAGE
    return EXIT_OK


def _bom_of(path: str) -> bytes:
    """The byte-order mark of the file ``path`` (``-``: standard input, looked
    at before it is read), if it has one."""
    from ..archive.reader import BOM

    if path == "-":
        peek = getattr(sys.stdin.buffer, "peek", None)
        return BOM if peek is not None and peek(len(BOM))[:len(BOM)] == BOM else b""
    try:
        with open(path, "rb") as handle:
            return BOM if handle.read(len(BOM)) == BOM else b""
    except OSError:
        return b""

