"""``lcn bot NAME``: an engine that ships, speaking the engine protocol on
standard input and output (spec/engine-protocol.md)."""

from __future__ import annotations

import argparse

from .common import Parser, add_command

_BOT_EXAMPLES = """\
examples:
  lcn match "lcn bot greedy" "lcn bot random" --games 100
  lcn bot greedy              then type: lcn-engine 1

random  a uniformly random legal move (option seed: 0 for a new seed each run)
greedy  the best move by a few rules of thumb; beats random by far
"""

#: The names of the engines (lcnotation.engine.bots.BOTS holds them; the
#: command line lists them without importing the engines).
NAMES = ("random", "greedy")


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    bot = add_command(sub, "bot", "run an engine that ships (random, greedy)", _BOT_EXAMPLES)
    bot.add_argument("name", choices=NAMES, help="the engine")
    bot.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..engine.bots import BOTS

    return BOTS[args.name]().run()
