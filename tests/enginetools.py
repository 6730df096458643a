"""What the engine tests share: engine command lines, and checks that no
process is left behind (read from /proc, without psutil)."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, List, Sequence, Set, Tuple

import pytest

from lcnotation import Card, Move

if TYPE_CHECKING:
    from lcnotation.engine import Engine, View
    from lcnotation.engine.match import Referee

ROOT = Path(__file__).resolve().parent.parent
BAD = Path(__file__).resolve().parent / "engines" / "bad.py"
EXAMPLES = ROOT / "examples" / "engines"


def bot(name: str) -> List[str]:
    """The command line of ``lcn bot NAME``, run by this Python."""
    return [sys.executable, "-m", "lcnotation", "bot", name]


def bad(mode: str, after: int = 0) -> List[str]:
    """The command line of the misbehaving test engine (tests/engines/bad.py)."""
    return [sys.executable, str(BAD), mode, str(after)]


def line(command: List[str]) -> str:
    """A command line as one argument of ``lcn match``."""
    return shlex.join(command)


def _stat(pid: int) -> List[str]:
    text = Path(f"/proc/{pid}/stat").read_text()
    # The name (in parentheses) may hold spaces: the fields after it.
    return text[text.rindex(")") + 2:].split()


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process, or a zombie this process has not reaped
    (a zombie of another parent is dead: its parent will reap it)."""
    try:
        fields = _stat(pid)
    except (FileNotFoundError, ProcessLookupError):
        return False
    state, parent = fields[0], int(fields[1])
    return state != "Z" or parent == os.getpid()


def children() -> Set[int]:
    """This process's children (zombies included)."""
    found = set()
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if int(_stat(int(entry))[1]) == me:
                    found.add(int(entry))
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue
    return found


def wait_until_gone(pids: Set[int], timeout: float = 5.0) -> Set[int]:
    """The processes of ``pids`` still running after up to ``timeout`` seconds
    (killed grandchildren are reaped by init a moment later)."""
    deadline = time.monotonic() + timeout
    left = {p for p in pids if running(p)}
    while left and time.monotonic() < deadline:
        time.sleep(0.02)
        left = {p for p in left if running(p)}
    return left


@pytest.fixture
def pids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A file every test engine writes its pid (and its children's) to; after the
    test, none of them may be running, and this process may have no child left."""
    path = tmp_path / "pids"
    path.touch()
    monkeypatch.setenv("LCN_TEST_PIDS", str(path))
    before = children()
    yield path
    written = {int(p) for p in path.read_text().split()}
    assert not wait_until_gone(written), "engine processes left running"
    assert not wait_until_gone(children() - before), "child processes left"


def written_pids(path: Path) -> List[int]:
    return [int(p) for p in path.read_text().split()]


@pytest.fixture(autouse=False)
def package_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Engines started by the tests import this checkout of lcnotation."""
    old = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + (os.pathsep + old if old else ""))


def play_out(referee: "Referee", bots: "Sequence[Engine]"
             ) -> "Tuple[List[View], List[Tuple[int, Move, Card]]]":
    """Play the game of ``referee`` to its end with ``bots`` (by seat), each with
    its view: the views, and each move with its seat and the card it drew."""
    from lcnotation.engine.view import View

    views = [View(referee.colors, s, referee.hands[s]) for s in (0, 1)]
    made: List[Tuple[int, Move, Card]] = []
    while not referee.over:
        seat = referee.to_move
        move = bots[seat].choose(views[seat])
        assert isinstance(move, Move)
        problem, drawn = referee.play(move)
        assert problem is None and drawn is not None, problem
        views[seat].played(move)
        views[seat].drew(drawn)
        views[1 - seat].opponent_moved(move)
        made.append((seat, move, drawn))
    return views, made
