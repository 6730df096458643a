"""A test engine that plays like ``lcn bot greedy`` and then misbehaves.

    python tests/engines/bad.py MODE [AFTER]

It behaves for its first AFTER requests to move (default 0) and then, at the
next one, does MODE:

hang        sleeps for ever (a time-out)
garbage     answers with a line that is not the protocol
exit        exits with status 3 (a crash in the middle of a game)
illegal     answers with a move that breaks the rules
flood       writes info lines without end
longline    writes one line without end
child       starts a child that keeps the output open, then exits
stray       writes a line nobody asked for, after its move
stderr      writes lines to standard error, then exits with status 4
slow        takes 0.5 s for each move (a time-out under 0.5 s a move)
hanggame    plays, and hangs at its first move of game AFTER (from 1)
play        never misbehaves
stubborn    plays, but ignores SIGTERM and stays after quit (the modes
            below are at start-up)
nohello     never answers the handshake
noname      says ok without a name
badversion  answers the handshake with version 99

Every process it starts writes its pid to the file named by LCN_TEST_PIDS
(one line each), so that a test can check that none is left.  With
LCN_TEST_LOG set, every line it reads is appended to that file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from lcnotation.engine.bots import GreedyBot
from lcnotation.engine.view import View
from lcnotation import Move, parse_move


def note_pid(pid: int) -> None:
    path = os.environ.get("LCN_TEST_PIDS")
    if path:
        with open(path, "a") as f:
            f.write(f"{pid}\n")


class Bad(GreedyBot):
    name = "Bad"

    def __init__(self, mode: str, after: int) -> None:
        super().__init__()
        self.mode, self.after, self.asked = mode, after, 0

    def new_game(self, view: View) -> None:
        self.asked = 0  # misbehaves in every game
        self.games = getattr(self, "games", 0) + 1

    def choose(self, view: View) -> Move:
        self.asked += 1
        if self.mode == "hanggame" and self.games == self.after:
            time.sleep(3600)
        if self.asked <= self.after or self.mode in ("play", "hanggame"):
            return super().choose(view)
        out = sys.stdout.buffer
        mode = self.mode
        if mode == "hang":
            time.sleep(3600)
        elif mode == "garbage":
            out.write(b"bonjour tout le monde\n")
            out.flush()
            time.sleep(3600)
        elif mode == "exit":
            sys.stdout.flush()
            os._exit(3)
        elif mode == "illegal":
            # A card it does not hold: the rules refuse it (R105).
            held = set(view.hand)
            for color in view.colors:
                for rank in range(10, 1, -1):
                    card = parse_move(f"{color}{rank}-D").card
                    if card not in held and card in view.unseen_cards():
                        return parse_move(f"{color}{rank}-D")
        elif mode == "flood":
            line = b"info " + b"x" * 200 + b"\n"
            while True:
                out.write(line * 50)
        elif mode == "longline":
            out.write(b"move ")
            while True:
                out.write(b"R" * 4096)
        elif mode == "child":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            note_pid(child.pid)
            os._exit(5)
        elif mode == "stray":
            move = super().choose(view)
            out.write(b"move " + _text(move) + b"\nsurprise\n")
            out.flush()
            return move
        elif mode == "stderr":
            for i in range(50):
                print(f"debug line {i}", file=sys.stderr)
            print("Traceback: something broke", file=sys.stderr)
            sys.stderr.flush()
            os._exit(4)
        elif mode == "slow":
            time.sleep(0.5)
        return super().choose(view)


def _text(move: Move) -> bytes:
    from lcnotation import format_move

    return format_move(move).encode()


def main() -> int:
    note_pid(os.getpid())
    mode = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    log = os.environ.get("LCN_TEST_LOG")
    stdin = sys.stdin.buffer
    if log:
        stdin = _Logged(stdin, log)
    if mode in ("nohello", "noname", "badversion"):
        line = stdin.readline()
        if mode == "nohello":
            time.sleep(3600)
        reply = b"ok 1\n" if mode == "noname" else b"name Bad\nok 99\n"
        sys.stdout.buffer.write(reply)
        sys.stdout.flush()
        stdin.read()
        return 0
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        Bad("play", after).run(stdin, sys.stdout.buffer)
        time.sleep(3600)
    return Bad(mode, after).run(stdin, sys.stdout.buffer)


class _Logged:
    def __init__(self, stream: object, path: str) -> None:
        self.stream, self.path = stream, path

    def __iter__(self) -> "_Logged":
        return self

    def __next__(self) -> bytes:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def readline(self) -> bytes:
        line = self.stream.readline()  # type: ignore[attr-defined]
        with open(self.path, "ab") as f:
            f.write(line)
        return line  # type: ignore[no-any-return]

    def read(self) -> bytes:
        return self.stream.read()  # type: ignore[attr-defined, no-any-return]


if __name__ == "__main__":
    sys.exit(main())
