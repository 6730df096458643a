"""Wrapping an engine that speaks lines of its own (here legacy_bot.py) so that
``lcn match`` can drive it: an adapter is an engine of the lcnotation library
whose every hook passes the news on to the wrapped program, in its words.

    lcn match "python examples/engines/adapter.py python examples/engines/legacy_bot.py" \\
        "lcn bot random" --games 10

The adapter starts the wrapped program as its own child: when the runner ends
the adapter's process group, the program goes with it.  docs/engines.md walks
through it.
"""

import subprocess
import sys

from lcnotation import HANDSHAKE, Card, Draw, Move, Placement
from lcnotation.engine import Engine


def theirs(card: Card) -> str:
    """A card in the wrapped program's words: r0 for a red handshake, g7, w10."""
    return card.color.lower() + str(card.rank)


def ours(text: str) -> Card:
    rank = int(text[1:])
    return Card(text[0].upper(), HANDSHAKE if rank == 0 else rank)


class Adapter(Engine):
    def __init__(self, command):
        super().__init__()
        self.program = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        hello = self.program.stdout.readline().split()      # HELLO name
        self.name = (hello[1] if len(hello) > 1 else "Wrapped") + " (adapted)"

    def say(self, *words):
        print(*words, file=self.program.stdin, flush=True)

    def new_game(self, view):
        self.say("HAND", *(theirs(c) for c in view.hand))

    def opponent_moved(self, view, move):
        source = "deck" if move.draw.color is None else move.draw.color.lower()
        self.say("THEY", "DISCARD" if move.placement.discard else "PLAY",
                 theirs(move.card), source)

    def choose(self, view):
        self.say("YOURTURN")
        action, card = self.program.stdout.readline().split()
        _, source = self.program.stdout.readline().split()
        draw = Draw(None if source == "deck" else source.upper())
        return Move(Placement(ours(card), action == "DISCARD"), draw)

    def drew(self, view, card):
        self.say("GOT", theirs(card))

    def game_over(self, view, end):
        self.say("OVER", *end.scores)


if __name__ == "__main__":
    adapter = Adapter(sys.argv[1:])
    status = adapter.run()
    adapter.say("BYE")
    adapter.program.wait(timeout=5)
    sys.exit(status)
