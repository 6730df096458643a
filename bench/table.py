"""The speed table of issue 25: every row as a fraction of a floor measured in the same run.

The floor is what pure Python can do at best on this machine: a bare regular
expression that finds every move of the corpus, line by line (no parser can
be faster and still see each move).  Each row is timed right after its own
run of the floor, in turns (floor, row, floor, next row, ...), round after
round, so that a neighbour slowing the machine for a while slows both halves
of a pair; the table gives, per row, the median over the rounds of
``(row's moves a second) / (floor's moves a second)``, with the lowest and
highest ratio (the spread says how far to trust it on a shared machine).

Rows marked ``(API)`` time the work inside a fresh process (no start-up);
``lcn ...`` rows time the whole command as a user runs it (start-up
included).  ``pure Python`` rows set ``LCNOTATION_PURE_PYTHON=1``; without a
built accelerator they equal the plain rows.  Importers, FreeCell and the
replay page count the moves of their own inputs against the same floor.
``python-chess`` (when installed) is timed against a floor of its own: a
regular expression that finds the SAN moves of its PGN.

Then, unless ``--no-callgrind``: instructions a move of ``lint_file`` under
valgrind's callgrind (see ``bench/instructions.py``), with the accelerator
and in pure Python.

It prints figures and asserts nothing::

    python bench/table.py                 # about 590,000 moves, 4 rounds
    python bench/table.py --games 2000 --rounds 3 --no-callgrind   # quicker
    python bench/table.py --only lint     # the rows whose name holds "lint"
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import corpus  # noqa: E402  (bench/bench.py: the generated corpus)

FLOOR = re.compile(r"[A-Za-z](?:10|[2-9Hh])[DdXx]?-[A-Za-z]")
SAN = re.compile(r"(?:[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=[NBRQ])?|O-O(?:-O)?)[+#]?")
PURE = {"LCNOTATION_PURE_PYTHON": "1"}
# Children write and use byte-code, as an installed package does.
ENV = {k: v for k, v in os.environ.items()
       if k not in ("PYTHONDONTWRITEBYTECODE", "LCNOTATION_PURE_PYTHON")}


class Row(NamedTuple):
    name: str
    #: ``("api", what)`` timed inside a child, or ``("cmd", argv)`` a whole command.
    kind: str
    what: Sequence[str]
    moves: int
    env: Dict[str, str] = {}
    #: The floor this row is held to: "lcn" (the regex over the corpus) or "san".
    floor: str = "lcn"
    #: Run before each timing (e.g. to empty an output folder).
    reset: Optional[Callable[[], None]] = None


# ---------------------------------------------------------------- in a child


def child(what: str, path: str) -> None:
    """Time ``what`` over ``path`` in this process; print seconds and the count."""
    if what == "floor":
        def run() -> int:
            with open(path, encoding="utf-8") as f:
                return sum(len(FLOOR.findall(line)) for line in f)
    elif what == "san-floor":
        def run() -> int:
            with open(path, encoding="utf-8") as f:
                return sum(len(SAN.findall(line)) for line in f
                           if not line.startswith("["))
    elif what == "chess":
        import chess.pgn  # type: ignore[import-not-found]

        def run() -> int:
            moves = 0
            with open(path, encoding="utf-8") as f:
                while True:
                    game = chess.pgn.read_game(f)
                    if game is None:
                        return moves
                    moves += sum(1 for _ in game.mainline_moves())
    elif what == "parse":
        from lcnotation import read_games

        def run() -> int:
            return sum(len(g.moves) for g in read_games(path))
    elif what == "lint":
        from lcnotation import lint_file

        def run() -> int:
            return lint_file(path).moves
    else:
        raise SystemExit(f"unknown row {what}")
    start = time.perf_counter()
    count = run()
    print(json.dumps({"seconds": time.perf_counter() - start, "count": count}))


def timed(row: Row) -> float:
    """Seconds of one run of ``row``."""
    env = {**ENV, **row.env}
    if row.reset is not None:
        row.reset()
    if row.kind == "api":
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child",
                              *row.what], check=True, capture_output=True, text=True, env=env)
        figures = json.loads(out.stdout)
        if figures["count"] != row.moves:
            raise SystemExit(f"{row.name} counted {figures['count']} moves, not {row.moves}")
        return float(figures["seconds"])
    start = time.perf_counter()
    done = subprocess.run(list(row.what), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env=env)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        # A row this version cannot run (an option it lacks): no figure.
        print(f"  {row.name}: exit {done.returncode}: "
              f"{done.stderr.decode(errors='replace').strip()[-300:]}", file=sys.stderr)
        return float("nan")
    return seconds


# ---------------------------------------------------------------- inputs


def lcn(*args: str) -> List[str]:
    return [sys.executable, "-m", "lcnotation", *args]


def split_corpus(path: str, folder: str, files: int) -> None:
    """The games of ``path`` in ``files`` files of about the same size."""
    from lcnotation.lostcities.text.reader import split_games

    if os.path.isdir(folder):
        return
    with open(path, encoding="utf-8") as f:
        games = [g.text for g in split_games([f.read()])]
    os.makedirs(folder + ".tmp", exist_ok=True)
    per = -(-len(games) // files)
    for i in range(files):
        with open(os.path.join(folder + ".tmp", f"part-{i:03}.lcn"), "w",
                  encoding="utf-8", newline="\n") as out:
            out.write("".join(games[i * per:(i + 1) * per]))
    os.replace(folder + ".tmp", folder)


def first_games(path: str, games: int, out_path: str) -> int:
    """The first ``games`` games of ``path`` written to ``out_path``; their moves."""
    from lcnotation import format_games, read_games

    kept = []
    for game in read_games(path):
        kept.append(game)
        if len(kept) == games:
            break
    if not os.path.exists(out_path):
        with open(out_path, "w", encoding="utf-8", newline="\n") as out:
            out.write(format_games(kept))
    return sum(len(g.moves) for g in kept)


def importer_inputs(cache: str, games: int, seed: int) -> Dict[str, tuple]:
    """A file of metapyziks replay strings and one chikinn transcript of many
    rounds, both of ``games`` six-colour games with their deal; their moves."""
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
    from formatwriters import chikinn_round  # type: ignore[import-not-found]

    from lcnotation import export_game, generate_games

    out = {}
    played = list(generate_games(games, seed, deal=True, colors="RGWBYP"))
    moves = sum(len(g.moves) for g in played)
    replays = os.path.join(cache, f"metapyziks-{games}-{seed}.txt")
    if not os.path.exists(replays):
        with open(replays, "w", encoding="ascii") as f:
            f.write("".join(export_game(g, "metapyziks") + "\n" for g in played))
    out["metapyziks"] = (replays, moves)
    transcript = os.path.join(cache, f"chikinn-{games}-{seed}.txt")
    if not os.path.exists(transcript):
        with open(transcript, "w", encoding="utf-8") as f:
            f.write("".join(chikinn_round(g, i) for i, g in enumerate(played)))
    out["chikinn"] = (transcript, moves)
    return out


def freecell_inputs(cache: str, deals: int) -> Optional[tuple]:
    """fc-solve's solutions of deals 1 to ``deals`` imported as records, in a
    folder; the folder and the moves; None without fc-solve."""
    if shutil.which("fc-solve") is None or shutil.which("make-microsoft-freecell-board") is None:
        return None
    folder = os.path.join(cache, f"freecell-{deals}")
    if not os.path.isdir(folder):
        os.makedirs(folder + ".tmp", exist_ok=True)
        env = {**ENV, "FREECELL_SOLVER_QUIET": "1"}
        for deal in range(1, deals + 1):
            board = subprocess.run(["make-microsoft-freecell-board", "-t", str(deal)],
                                   check=True, capture_output=True, env=env).stdout
            try:
                solution = subprocess.run(["fc-solve", "-m", "-snx"], input=board,
                                          capture_output=True, env=env, timeout=30).stdout
            except subprocess.TimeoutExpired:
                continue  # a deal fc-solve is slow to solve: left out
            sol = os.path.join(folder + ".tmp", f"{deal}.sol")
            with open(sol, "wb") as f:
                f.write(solution)
            record = subprocess.run(lcn("freecell", "import", "--from", "fc-solve", sol,
                                        "--deal", str(deal)), capture_output=True, env=ENV)
            os.remove(sol)
            if record.returncode == 0:
                with open(os.path.join(folder + ".tmp", f"{deal}.txt"), "wb") as f:
                    f.write(record.stdout)
        os.replace(folder + ".tmp", folder)
    files = sorted(os.path.join(folder, n) for n in os.listdir(folder))
    checked = subprocess.run(lcn("freecell", "check", "--format", "json", *files),
                             capture_output=True, text=True, env=ENV)
    moves = sum(f["moves"] for f in json.loads(checked.stdout)["files"])
    return files, moves


def chess_input(cache: str, games: int) -> Optional[tuple]:
    """A PGN file of random legal games (python-chess, when installed); its moves."""
    try:
        import random

        import chess
        import chess.pgn
    except ImportError:
        return None
    path = os.path.join(cache, f"chess-{games}.pgn")
    rng = random.Random(1)
    moves = 0
    if not os.path.exists(path):
        with open(path, "w", encoding="utf-8") as out:
            for i in range(games):
                board = chess.Board()
                while not board.is_game_over() and board.ply() < 120:
                    board.push(rng.choice(list(board.legal_moves)))
                game = chess.pgn.Game.from_board(board)
                game.headers["Round"] = str(i + 1)
                out.write(str(game) + "\n\n")
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            moves += sum(1 for _ in game.mainline_moves())
    return path, moves


# ---------------------------------------------------------------- the table


def rows_for(args: argparse.Namespace, work: str) -> tuple:
    path = os.path.join(args.cache, f"corpus-{args.games}-{args.seed}.lcn")
    moves = corpus(path, args.games, args.seed)
    folder = os.path.join(args.cache, f"split-{args.games}-{args.seed}-64")
    split_corpus(path, folder, 64)
    fix_copy = os.path.join(work, "fix.lcn")
    shutil.copyfile(path, fix_copy)
    out = os.path.join(work, "out")

    def empty_out() -> None:
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)

    rows = [
        Row("parse (API)", "api", ("parse", path), moves),
        Row("lint (API)", "api", ("lint", path), moves),
        Row("lint (API), pure Python", "api", ("lint", path), moves, PURE),
        Row("lcn lint", "cmd", lcn("lint", "--no-progress", path), moves),
        Row("lcn lint, pure Python", "cmd", lcn("lint", "--no-progress", path), moves, PURE),
        Row("lcn lint -j 2, one file", "cmd", lcn("lint", "--no-progress", "-j", "2", path),
            moves),
        Row("lcn lint -j 2, 64 files", "cmd",
            lcn("lint", "--no-progress", "-j", "2", folder), moves),
        Row("lcn fmt --check", "cmd", lcn("fmt", "--check", path), moves),
        Row("lcn fmt --check -j 2", "cmd", lcn("fmt", "--check", "-j", "2", path), moves),
        Row("lcn score", "cmd", lcn("score", path), moves),
        Row("lcn score -j 2", "cmd", lcn("score", "-j", "2", path), moves),
        Row("lcn convert --to x-discard", "cmd",
            lcn("convert", path, "--to", "x-discard", "-o", os.path.join(work, "x.lcn")),
            moves),
        Row("lcn convert --to x-discard -j 2", "cmd",
            lcn("convert", path, "--to", "x-discard", "-j", "2", "-o",
                os.path.join(work, "x2.lcn")), moves),
        Row("lcn convert --to json", "cmd",
            lcn("convert", path, "--to", "json", "-o", os.path.join(work, "x.json")), moves),
        Row("lcn lint --fix, nothing to fix", "cmd",
            lcn("lint", "--no-progress", "--fix", fix_copy), moves),
    ]
    for fmt, (source, count) in importer_inputs(args.cache, args.import_games,
                                                args.seed).items():
        rows.append(Row(f"lcn import {fmt}", "cmd",
                        lcn("import", "--from", fmt, source, "-o",
                            os.path.join(out, f"{fmt}.lcn")), count, reset=empty_out))
    cells = freecell_inputs(args.cache, args.deals)
    if cells is not None:
        rows.append(Row(f"lcn freecell check, {len(cells[0])} fc-solve solutions", "cmd",
                        lcn("freecell", "check", *cells[0]), cells[1]))
        rows.append(Row(f"lcn freecell check, {len(cells[0])} fc-solve solutions, pure Python",
                        "cmd", lcn("freecell", "check", *cells[0]), cells[1], PURE))
    view = os.path.join(args.cache, f"view-{args.view_games}-{args.seed}.lcn")
    view_moves = first_games(path, args.view_games, view)
    rows.append(Row(f"lcn view, {args.view_games:,} games", "cmd",
                    lcn("view", view, "-o", os.path.join(work, "view.html")), view_moves))
    pgn = chess_input(args.cache, args.chess_games)
    if pgn is not None:
        rows.append(Row("python-chess read_game (its own SAN floor)", "api", ("chess", pgn[0]),
                        pgn[1], floor="san"))
    if args.only:
        rows = [r for r in rows if any(word in r.name for word in args.only)]
    print(f"corpus: {args.games:,} games, {moves:,} moves, {os.path.getsize(path) / 1e6:.1f} MB"
          f" ({path})")
    return rows, path, moves, pgn


def median(values: Sequence[float]) -> float:
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def accelerated() -> str:
    """Whether the compiled accelerators are built and used here."""
    out = subprocess.run([sys.executable, "-c",
                          "from lcnotation.lostcities import accel; print(accel.describe())\n"
                          "from lcnotation.freecell import accel; print(accel.describe())\n"
                          "from lcnotation.formats import chikinn\n"
                          "print('the chikinn C reader (lcnotation.formats._chikinn)'"
                          " if chikinn.compiled_round() else 'the chikinn reader in pure Python')\n"
                          "from lcnotation.formats import metapyziks\n"
                          "print('the metapyziks C decoder (lcnotation.formats._metapyziks)'"
                          " if metapyziks.compiled_replay()"
                          " else 'the metapyziks decoder in pure Python')"],
                         capture_output=True, text=True, env=ENV)
    return "; ".join(out.stdout.split("\n")).strip("; ") or "no accelerator module"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10000,
                        help="games in the corpus (default 10000: about 590,000 moves)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--import-games", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=200, help="FreeCell deals (fc-solve)")
    parser.add_argument("--view-games", type=int, default=2000)
    parser.add_argument("--chess-games", type=int, default=1000)
    parser.add_argument("--only", nargs="*", help="only rows whose name holds one of these")
    parser.add_argument("--no-callgrind", action="store_true")
    parser.add_argument("--callgrind-games", type=int, default=300)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "lcn-bench"))
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    import lcnotation

    os.makedirs(args.cache, exist_ok=True)
    work = tempfile.mkdtemp(prefix="lcn-table-")
    try:
        rows, path, moves, pgn = rows_for(args, work)
        print(f"python {sys.version.split()[0]}, lcnotation {lcnotation.__version__}, "
              f"{os.cpu_count()} cores; accelerator: {accelerated()}")
        load = os.getloadavg()
        floors = {"lcn": Row("floor", "api", ("floor", path), moves)}
        if pgn is not None:
            floors["san"] = Row("SAN floor", "api", ("san-floor", pgn[0]), pgn[1])
        ratios: Dict[str, List[float]] = {r.name: [] for r in rows}
        floor_rates: Dict[str, List[float]] = {k: [] for k in floors}
        for _ in range(args.rounds):
            for row in rows:
                floor = floors[row.floor]
                f_rate = floor.moves / timed(floor)
                rate = row.moves / timed(row)
                floor_rates[row.floor].append(f_rate)
                ratios[row.name].append(rate / f_rate)
        load = (load[0] + os.getloadavg()[0]) / 2
        print(f"{args.rounds} rounds, load average {load:.2f} (2 cores: above 2 the machine "
              "is shared)")
        print(f"floor: {median(floor_rates['lcn']):,.0f} moves/s (median of "
              f"{len(floor_rates['lcn'])} runs, {min(floor_rates['lcn']):,.0f} to "
              f"{max(floor_rates['lcn']):,.0f})\n")
        print("| what | moves | fraction of the floor: median [lowest, highest] |")
        print("|---|---:|---|")
        for row in rows:
            r = [x for x in ratios[row.name] if x == x]  # not NaN
            if not r:
                print(f"| {row.name} | {row.moves:,} | (cannot run) |")
                continue
            print(f"| {row.name} | {row.moves:,} | {median(r):.3f} [{min(r):.3f}, "
                  f"{max(r):.3f}] |")
        if not args.no_callgrind and shutil.which("valgrind"):
            from instructions import count  # type: ignore[import-not-found]

            small = os.path.join(args.cache, f"corpus-{args.callgrind_games}-{args.seed}.lcn")
            small_moves = corpus(small, args.callgrind_games, args.seed)
            print(f"\ninstructions a move of lint_file under callgrind "
                  f"({args.callgrind_games} games, {small_moves:,} moves):")
            for label, env in (("with the accelerator", {}), ("pure Python", PURE)):
                once, twice = count("lint:1", small, env), count("lint:2", small, env)
                print(f"  {label:22} {(twice - once) / small_moves:10,.0f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
