"""``lcn render``: pictures of a record's positions (SVG, PNG), and animations (GIF, APNG)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any, Dict, Optional

from .common import (EXIT_OK, EXIT_USAGE, Parser, add_command, cannot_read, configured_colors,
                     count, err, output_path, usage_error, write_file, write_output)
from .inputs import GamesUnreadable, drawn_games

if TYPE_CHECKING:
    from ..lostcities.text.ast import Game

_RENDER_EXAMPLES = """\
examples:
  lcn render match.lcn -o end.svg             the end of the first game
  lcn render match.lcn --game 2 --move 10     after the 10th move of game 2, on stdout
  lcn render match.lcn --move 0 --perspective 2   the deal, Player2 at the bottom
  lcn render match.lcn -o end.png             PNG (needs: pip install 'lcnotation[png]')
  lcn render match.lcn --all -o frames/       every position of game 1, one file each
  lcn render match.lcn -o game.gif            the whole game, animated (also .apng)

The file's extension says what is written: .svg, .png, or an animation of
the game up to --move as .gif or .apng; any other is refused. Each picture
has a caption (the game, the move in notation and in words) unless
--no-caption.
A game without a Colors header has the colours of [tool.lcnotation] in the
pyproject.toml nearest the file, as for 'lcn lint' (else RGWBY).
Moves are numbered as the record counts turns, from 1, unreadable ones too
(the page of 'lcn view' numbers them the same way); an unreadable move shows
the position before it. A record with mistakes is drawn as the checker
replays it.
"""

#: The widest picture drawn, in pixels (a PNG this wide takes about 1 GB to draw).
MAX_SIZE = 10_000
#: The widest animation: every frame is held in memory while it is put together.
MAX_ANIMATION = 2_000
#: The width of an animation without --size.
ANIMATION_SIZE = 800
#: The most positions an animation holds (a game has about 60; every frame
#: is held in memory while the animation is put together).
MAX_FRAMES = 1_000
#: The formats, by the extension of the file written.
STILLS = (".svg", ".png")


def _pixels(value: str) -> int:
    """An argparse type: a width in pixels, 1 to :data:`MAX_SIZE`."""
    width = count(1)(value) if len(value.strip()) <= len(str(MAX_SIZE)) else MAX_SIZE + 1
    if width > MAX_SIZE:
        raise argparse.ArgumentTypeError(f"a width is 1 to {MAX_SIZE:,} pixels")
    return width


def _delay(value: str) -> int:
    """An argparse type: milliseconds a move is shown, 20 to 60,000."""
    ms = count(20)(value) if len(value.strip()) <= 5 else 60_001
    if ms > 60_000:
        raise argparse.ArgumentTypeError("a delay is 20 to 60,000 milliseconds")
    return ms


def register(sub: "argparse._SubParsersAction[Parser]") -> None:
    render = add_command(sub, "render", "draw positions of a record as pictures",
                         _RENDER_EXAMPLES)
    render.add_argument("path", metavar="PATH", help="a file, or - for standard input")
    render.add_argument("--game", type=count(1), default=1, metavar="N",
                        help="the game of the file, from 1 (default: 1)")
    render.add_argument("--move", type=count(0), metavar="M",
                        help="the position after the M-th move (0: the deal; default: "
                             "the last move); an animation ends there")
    render.add_argument("--perspective", type=int, choices=(1, 2), default=1,
                        help="the player drawn at the bottom (default: 1)")
    render.add_argument("--size", type=_pixels, metavar="PX",
                        help=f"width in pixels, 1 to {MAX_SIZE:,} (default: none, the "
                             f"picture scales; an animation: {ANIMATION_SIZE})")
    render.add_argument("--no-caption", dest="caption", action="store_false",
                        help="leave out the caption (the game and the move)")
    render.add_argument("-o", "--output", type=output_path, metavar="FILE",
                        help="write here (.svg, .png, .gif, .apng) instead of standard "
                             "output; with --all, a folder")
    render.add_argument("--all", action="store_true",
                        help="every position of the game, one file each, into the folder "
                             "-o names")
    render.add_argument("--format", choices=("svg", "png"),
                        help="with --all, the pictures' format (default: svg)")
    render.add_argument("--delay", type=_delay, default=1200, metavar="MS",
                        help="in an animation, how long each move shows (default: 1200)")
    render.set_defaults(handler=run)


def _extension(output: str) -> Optional[str]:
    """The format ``output`` names, by its extension; None, with a message,
    for one that ``lcn render`` does not write."""
    from ..view.raster import ANIMATIONS

    ext = os.path.splitext(output)[1].lower()
    if ext in STILLS or ext in ANIMATIONS:
        return ext
    known = "pictures as .svg or .png, animations as .gif or .apng"
    if not ext:
        err(f"{output}: name the file with its format: {known}")
    else:
        err(f"{output}: cannot write {ext} files: lcn render writes {known}")
    return None


def run(args: argparse.Namespace) -> int:
    # The pictures and the game state, only for this command.
    from ..lostcities.game.setup import read_setup
    from ..svg import layout
    from ..view.positions import entries, position_svgs
    from ..view.raster import RasterError, animation, png

    if args.all and args.output is None:
        return usage_error("render", "--all writes one file per position: name a folder "
                                     "with -o")
    if args.format is not None and not args.all:
        return usage_error("render", "--format goes with --all (otherwise the file's "
                                     "extension says the format)")
    if args.all and args.move is not None:
        return usage_error("render", "--all draws every position: leave out --move")
    ext = ".svg" if args.output is None or args.all else _extension(args.output)
    if ext is None:
        return EXIT_USAGE
    animated = ext not in STILLS
    if animated and args.size is not None and args.size > MAX_ANIMATION:
        return usage_error("render", f"an animation is at most {MAX_ANIMATION:,} pixels "
                                     "wide (--size)")
    games = drawn_games(args.path, None if args.all else args.output, "render")
    if games is None:
        return EXIT_USAGE
    # Read up to the game drawn, one game at a time (to the end only to count
    # the games of a file that has fewer).
    drawn, seen = None, 0
    try:
        for seen, drawn in enumerate(games, 1):
            if seen == args.game:
                break
    except GamesUnreadable as failed:
        cannot_read(args.path, failed.cause)
        return EXIT_USAGE
    if drawn is None or seen < args.game:
        err(f"{args.path}: no game {_shown(args.game)} (the file has {seen})")
        return EXIT_USAGE
    game = drawn.game
    # Moves are numbered as the record counts turns, unreadable ones too.
    last = len(entries(game, drawn.source))
    if args.move is not None and args.move > last:
        err(f"{args.path}: no move {_shown(args.move)} in game {args.game} (the last is "
            f"{last})")
        return EXIT_USAGE
    at = last if args.move is None else args.move
    if animated and at + 1 > MAX_FRAMES:
        err(f"{args.path}: an animation holds at most {MAX_FRAMES:,} positions; game "
            f"{args.game} has {at + 1:,} up to move {at:,} (end it sooner with --move)")
        return EXIT_USAGE
    options: Dict[str, Any] = dict(perspective=args.perspective - 1, caption=args.caption,
                                   default_colors=configured_colors(args.path),
                                   source=drawn.source)
    try:
        if args.all:
            return _write_all(args, game, last, options)
        if animated:
            width = args.size or ANIMATION_SIZE
            svgs = list(position_svgs(game, upto=at, **options))
            durations = [args.delay] * len(svgs)
            durations[0] = max(args.delay, 1500)
            durations[-1] = max(args.delay, 4000)
            colors = read_setup(game, options["default_colors"]).colors
            background = layout(colors).background
            data = animation(svgs, durations, ext, width, background)
        else:
            svg = next(iter(position_svgs(game, upto=at, start=at, size=args.size,
                                          **options)))
            data = png(svg) if ext == ".png" else svg.encode("utf-8")
    except RasterError as exc:
        err(str(exc))
        return EXIT_USAGE
    return write_output(args.output, data)


def _write_all(args: argparse.Namespace, game: "Game", last: int,
               options: Dict[str, Any]) -> int:
    """Every position of ``game`` into the folder ``args.output``."""
    from ..view.positions import position_svgs
    from ..view.raster import png

    folder = args.output
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        err(f"{folder}: cannot make the folder: {exc.strerror or exc}")
        return EXIT_USAGE
    if not os.path.isdir(folder):
        err(f"{folder}: not a folder")
        return EXIT_USAGE
    stem = "stdin" if args.path == "-" else os.path.splitext(os.path.basename(args.path))[0]
    ext = "." + (args.format or "svg")
    digits = max(3, len(str(last)))
    names = []
    for k, svg in enumerate(position_svgs(game, size=args.size, **options)):
        name = os.path.join(folder, f"{stem}-game{args.game}-move{k:0{digits}d}{ext}")
        data = png(svg) if ext == ".png" else svg.encode("utf-8")
        if not write_file(name, data):
            return EXIT_USAGE
        names.append(name)
    err(f"wrote {len(names)} pictures to {folder} ({os.path.basename(names[0])} to "
        f"{os.path.basename(names[-1])})")
    return EXIT_OK


def _shown(number: int) -> str:
    """``number`` as a message quotes it: a long one by its length."""
    text = str(number)
    return text if len(text) <= 20 else f"of {len(text):,} digits"
