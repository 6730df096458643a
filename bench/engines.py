"""Engines: games per second of ``lcn match`` and the cost of one move request.

Two figures (issue #22):

1. **Games per second** of ``lcn bot random`` against itself, with ``-j 1``
   and ``-j 2``.  Each run of ``lcn match`` is timed whole (start-up of the
   runner and of the engines included), for ``--games N`` and ``2N``; the
   difference of the two, ``N / (t(2N) - t(N))`` (from the best times and
   from the medians), is the rate of the games alone; the processor time of
   the runner and its engines (``RUSAGE_CHILDREN``) is steadier.  The runs
   take turns (``--rounds``); best and median are printed.

2. **One move request**, through the engine protocol against in-process:
   ``EngineClient.go`` (the synchronous client) and ``AsyncEngineClient.go``
   to ``lcn bot random``, each from the request written to the answer read,
   over whole games; against ``RandomBot().choose(view)`` on the same
   positions in this process (the bot's own work, legal moves included).  A
   bare process that answers every line with one fixed line (no game) gives
   the floor of a round trip through two pipes.

    python bench/engines.py                  # about a minute
    python bench/engines.py --games 100 --rounds 5 --requests 3000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir))

from lcnotation import Card, Move  # noqa: E402
from lcnotation.engine.aio import AsyncEngineClient  # noqa: E402
from lcnotation.engine.bots import RandomBot  # noqa: E402
from lcnotation.engine.client import EngineClient  # noqa: E402
from lcnotation.engine.match import Referee  # noqa: E402
from lcnotation.engine.records import deal_for  # noqa: E402
from lcnotation.engine.view import View  # noqa: E402

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = os.path.join(HERE, os.pardir) + (
    os.pathsep + ENV["PYTHONPATH"] if ENV.get("PYTHONPATH") else "")
RANDOM = [sys.executable, "-m", "lcnotation", "bot", "random"]
ECHO = [sys.executable, "-c", "import sys\nfor line in sys.stdin:\n"
        "    sys.stdout.write('move R3-D\\n' if line.startswith('go') else '')\n"
        "    sys.stdout.flush()\n"]


def match_seconds(games: int, jobs: int) -> Tuple[float, float]:
    """The wall seconds of one run, and the processor seconds of the runner and its
    engines (steadier on a busy machine)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "lcnotation", "match", " ".join(RANDOM),
                    " ".join(RANDOM), "--games", str(games), "-j", str(jobs),
                    "--time-per-move", "30", "--no-progress"],
                   stdout=subprocess.DEVNULL, env=ENV, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def games_per_second(games: int, rounds: int) -> None:
    print(f"lcn match, lcn bot random against itself (--games {games} and {2 * games}, "
          f"{rounds} rounds taking turns)")
    times: Dict[Tuple[int, int], List[float]] = {(j, n): [] for j in (1, 2)
                                                 for n in (games, 2 * games)}
    cpu: Dict[Tuple[int, int], List[float]] = {key: [] for key in times}
    for _ in range(rounds):
        for key in times:
            wall, used = match_seconds(key[1], key[0])
            times[key].append(wall)
            cpu[key].append(used)
    for jobs in (1, 2):
        small, big = times[jobs, games], times[jobs, 2 * games]
        per_game = [(b - s) / games for s, b in zip(sorted(cpu[jobs, games]),
                                                    sorted(cpu[jobs, 2 * games]))]
        whole = [2 * games / t for t in big]
        # The games alone: the extra games of the longer run over the extra time,
        # from the best times and from the medians (pairing single runs is too noisy).
        best_alone = games / max(min(big) - min(small), 1e-9)
        median_alone = games / max(statistics.median(big) - statistics.median(small), 1e-9)
        print(f"  -j {jobs}: whole run {max(whole):6.1f} games/s best, "
              f"{statistics.median(whole):6.1f} median; games alone "
              f"{best_alone:6.1f} from the best times, {median_alone:6.1f} from the medians "
              f"(run of {2 * games}: {min(big):.2f} s best); processor time a game "
              f"{statistics.median(per_game) * 1000:.0f} ms (runner and engines)")


def _game(pair: int) -> Referee:
    return Referee(deal_for("bench", pair, "RGWBY"), ("A", "B"))


def _make(referee: Referee, views: Dict[int, View], move: Move) -> Card:
    """Play ``move`` for the side to move, and tell ``views`` (by seat); the card drawn."""
    seat = referee.to_move
    _, drawn = referee.play(move)
    assert drawn is not None
    if seat in views:
        views[seat].played(move)
        views[seat].drew(drawn)
    if 1 - seat in views:
        views[1 - seat].opponent_moved(move)
    return drawn


def in_process(requests: int) -> List[float]:
    """RandomBot.choose on the views of real positions (its legal moves made anew
    each time, as in an engine)."""
    bot = RandomBot()
    times: List[float] = []
    pair = 1
    while len(times) < requests:
        referee = _game(pair)
        views = {s: View("RGWBY", s, referee.hands[s]) for s in (0, 1)}
        while not referee.over and len(times) < requests:
            start = time.perf_counter()
            move = bot.choose(views[referee.to_move])
            times.append(time.perf_counter() - start)
            _make(referee, views, move)
        pair += 1
    return times


def sync_times(requests: int) -> List[float]:
    """The seconds of each ``EngineClient.go`` to ``lcn bot random`` (Player1), over
    whole games against a random player in this process."""
    times: List[float] = []
    other = RandomBot()
    with EngineClient(RANDOM, env=ENV) as engine:
        pair = 1
        while len(times) < requests:
            referee = _game(pair)
            views = {1: View("RGWBY", 1, referee.hands[1])}
            engine.new_game("RGWBY", 0, referee.hands[0])
            while not referee.over and len(times) < requests:
                if referee.to_move == 1:
                    move = other.choose(views[1])
                    _make(referee, views, move)
                    engine.opponent_moved(move)
                    continue
                start = time.perf_counter()
                answer = engine.go(30.0)
                times.append(time.perf_counter() - start)
                engine.drew(_make(referee, views, answer.move))
            engine.end_game(referee.state.scores().totals)
            pair += 1
    return times


def async_times(requests: int) -> List[float]:
    """The same through ``AsyncEngineClient``."""
    times: List[float] = []
    other = RandomBot()

    async def run() -> None:
        async with AsyncEngineClient(RANDOM, env=ENV) as engine:
            pair = 1
            while len(times) < requests:
                referee = _game(pair)
                views = {1: View("RGWBY", 1, referee.hands[1])}
                await engine.new_game("RGWBY", 0, referee.hands[0])
                while not referee.over and len(times) < requests:
                    if referee.to_move == 1:
                        move = other.choose(views[1])
                        _make(referee, views, move)
                        await engine.opponent_moved(move)
                        continue
                    start = time.perf_counter()
                    answer = await engine.go(30.0)
                    times.append(time.perf_counter() - start)
                    await engine.drew(_make(referee, views, answer.move))
                await engine.end_game(referee.state.scores().totals)
                pair += 1

    asyncio.run(run())
    return times


def echo_floor(requests: int) -> List[float]:
    times = []
    process = subprocess.Popen(ECHO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               bufsize=0, env=ENV)
    assert process.stdin is not None and process.stdout is not None
    try:
        for _ in range(requests):
            start = time.perf_counter()
            process.stdin.write(b"go movetime 1000\n")
            process.stdout.readline()
            times.append(time.perf_counter() - start)
    finally:
        process.stdin.close()
        process.wait()
    return times


def describe(label: str, times: Sequence[float]) -> str:
    q = statistics.quantiles(times, n=20)
    return (f"  {label:<38} median {statistics.median(times) * 1e6:7.1f} us, "
            f"5 % {q[0] * 1e6:7.1f} us, 95 % {q[-1] * 1e6:7.1f} us")


def round_trips(requests: int) -> None:
    print(f"one move request, {requests} requests over whole games (lcn bot random)")
    print(describe("RandomBot.choose, in this process", in_process(requests)))
    print(describe("a pipe round trip (fixed answer)", echo_floor(requests)))
    print(describe("EngineClient.go (synchronous)", sync_times(requests)))
    print(describe("AsyncEngineClient.go (asyncio)", async_times(requests)))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}")
    round_trips(args.requests)
    games_per_second(args.games, args.rounds)


if __name__ == "__main__":
    main()
