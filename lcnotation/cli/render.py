"""``lcn render``: a picture of one position of a record (SVG, or PNG with cairosvg)."""

from __future__ import annotations

import argparse
import bisect
from typing import Optional

from .common import (EXIT_USAGE, Parser, add_command, configured_colors, count, err,
                     write_output)
from .inputs import drawn_games

_RENDER_EXAMPLES = """\
examples:
  lcn render match.lcn -o end.svg             the end of the first game
  lcn render match.lcn --game 2 --move 10     after the 10th move of game 2, on stdout
  lcn render match.lcn --move 0 --perspective 2   the deal, Player2 at the bottom
  lcn render match.lcn -o end.png             PNG (needs: pip install 'lcnotation[png]')

A game without a Colors header has the colours of [tool.lcnotation] in the
pyproject.toml nearest the file, as for 'lcn lint' (else RGWBY).
Moves are numbered as the record counts turns, from 1 (the page of 'lcn view'
numbers them the same way); an unreadable move shows the position before it.
A record with mistakes is drawn as the checker replays it.
"""


#: The widest picture drawn, in pixels (a PNG this wide takes about 1 GB to draw).
MAX_SIZE = 10_000


def _pixels(value: str) -> int:
    """An argparse type: a width in pixels, 1 to :data:`MAX_SIZE`."""
    width = count(1)(value) if len(value.strip()) <= len(str(MAX_SIZE)) else MAX_SIZE + 1
    if width > MAX_SIZE:
        raise argparse.ArgumentTypeError(f"a width is 1 to {MAX_SIZE:,} pixels")
    return width


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    render = add_command(sub, "render", "draw a position of a record as a picture",
                         _RENDER_EXAMPLES)
    render.add_argument("path", metavar="PATH", help="a file, or - for standard input")
    render.add_argument("--game", type=count(1), default=1, metavar="N",
                        help="the game of the file, from 1 (default: 1)")
    render.add_argument("--move", type=count(0), metavar="M",
                        help="the position after the M-th move (0: the deal; default: "
                             "the last move)")
    render.add_argument("--perspective", type=int, choices=(1, 2), default=1,
                        help="the player drawn at the bottom (default: 1)")
    render.add_argument("--size", type=_pixels, metavar="PX",
                        help=f"width in pixels, 1 to {MAX_SIZE:,} (default: none, the "
                             "picture scales)")
    render.add_argument("-o", "--output", metavar="FILE",
                        help="write here (.svg, or .png) instead of standard output")
    render.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # The pictures and the game state, only for this command.
    from ..lostcities.game.setup import read_setup
    from ..lostcities.game.state import GameState
    from ..svg import board_svg

    games = drawn_games(args.path, args.output)
    if games is None:
        return EXIT_USAGE
    if args.game > len(games):
        err(f"{args.path}: no game {_shown(args.game)} (the file has {len(games)})")
        return EXIT_USAGE
    game = games[args.game - 1]
    moves = game.moves
    # Moves are numbered as the record counts turns, unreadable ones too.
    numbers = [i + 1 if m.turn is None else m.turn + 1 for i, m in enumerate(moves)]
    last = numbers[-1] if numbers else 0
    if args.move is not None and args.move > last:
        err(f"{args.path}: no move {_shown(args.move)} in game {args.game} (the last is "
            f"{last})")
        return EXIT_USAGE
    at = len(moves) if args.move is None else bisect.bisect_right(numbers, args.move)
    state = GameState.from_setup(read_setup(game, configured_colors(args.path)))
    state.play(moves[:at])
    svg = board_svg(state, perspective=args.perspective - 1,
                    last_move=moves[at - 1] if at else None, size=args.size)
    data = svg.encode("utf-8")
    if args.output is not None and args.output.lower().endswith(".png"):
        png = _png(data)
        if png is None:
            return EXIT_USAGE
        data = png
    return write_output(args.output, data)


def _shown(number: int) -> str:
    """``number`` as a message quotes it: a long one by its length."""
    text = str(number)
    return text if len(text) <= 20 else f"of {len(text):,} digits"


def _png(svg: bytes) -> Optional[bytes]:
    try:
        import cairosvg  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        err("PNG output needs cairosvg: pip install 'lcnotation[png]' (or write .svg)")
        return None
    except OSError as exc:  # cairosvg is there, the cairo library is not
        err(f"PNG output needs the cairo library (Debian: apt-get install libcairo2): {exc}")
        return None
    try:
        png: Optional[bytes] = cairosvg.svg2png(bytestring=svg)
    except MemoryError:
        err("cannot draw the PNG: out of memory (a smaller --size, or write .svg)")
        return None
    except Exception as exc:  # cairo's and its XML parser's own errors
        err(f"cannot draw the PNG: {exc}")
        return None
    if not isinstance(png, bytes):  # svg2png returns bytes when given no write_to
        err("cannot draw the PNG: cairosvg returned no bytes")
        return None
    return png
