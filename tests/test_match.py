"""``lcn match`` end to end: the records it writes are read by every other
command and score as its summary says; forfeits, restarts, resume, the SPRT,
interruptions, the progress bar; no engine process left behind."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from lcnotation import from_json, parse_games, read_games
from lcnotation.engine.records import Termination

from enginetools import (EXAMPLES, ROOT, bad, bot, line, package_path, pids,  # noqa: F401
                         wait_until_gone, written_pids)

pytestmark = pytest.mark.usefixtures("package_path")

GREEDY, RANDOM = line(bot("greedy")), line(bot("random"))


def match(run: Any, *argv: str) -> Tuple[int, Dict[str, Any], str]:
    """``lcn match`` in this process, with a JSON summary: status, summary, stderr."""
    ran = run("match", *argv, "--format", "json", "--no-progress")
    return ran.status, (json.loads(ran.out) if ran.out else {}), ran.err


def score_totals(out: str) -> Any:
    """The totals of the one match of ``lcn score --format json``'s output."""
    matches = json.loads(out)["matches"]
    assert len(matches) == 1, matches
    return matches[0]["totals"]


def games_of(path: Path) -> List[Any]:
    return list(read_games(str(path)))


def test_records_of_a_match_are_read_by_every_command(run: Any, tmp_path: Path) -> None:
    status, summary, err = match(run, GREEDY, RANDOM, "--games", "4", "-o", "m.lcn",
                                 "--time-per-move", "5", "--seed", "7")
    assert status == 0, err
    games = games_of(tmp_path / "m.lcn")
    assert [g.header("Round") for g in games] == ["1", "2", "3", "4"]
    assert [g.header("Player1") for g in games] == ["Greedy", "Random"] * 2
    assert all(g.header("Termination") == "normal" and g.header("Event") == "lcn match, seed 7"
               and re.fullmatch(r"\d{4}\.\d\d\.\d\d", g.header("Date") or "") for g in games)
    # Paired deals: each deal twice, the seats swapped; another deal for the next pair.
    deals = [tuple(g.header(t) for t in ("Hand1", "Hand2", "Deck")) for g in games]
    assert deals[0] == deals[1] != deals[2] == deals[3]

    assert run("lint", "m.lcn").status == 0
    assert run("lint", "--select", "R,S", "m.lcn").out.startswith("All clear")
    assert run("fmt", "--check", "m.lcn").status == 0
    scored = run("score", "--format", "json", "m.lcn")
    assert scored.status == 0
    assert score_totals(scored.out) == summary["points"]
    wins = 0
    for game in json.loads(scored.out)["games"]:
        greedy = game["players"].index("Greedy")
        wins += game["scores"][greedy] > game["scores"][1 - greedy]
        assert game["complete"] and game["result"]
    assert wins == summary["wins"] and summary["games"] == 4 and summary["pairs"] == 2
    assert run("convert", "--to", "json", "m.lcn", "-o", "m.json").status == 0
    assert from_json((tmp_path / "m.json").read_text()) == games
    assert run("render", "m.lcn", "--game", "4", "-o", "end.svg").status == 0
    assert run("view", "m.lcn", "-o", "m.html").status == 0
    assert run("export", "--to", "metapyziks", "m.lcn", "-o", "r.txt").status == 0
    assert run("import", "r.txt", "-o", "back.lcn").status == 0
    back = games_of(tmp_path / "back.lcn")
    assert [g.moves for g in back] == [g.moves for g in games]


def test_the_text_summary(run: Any) -> None:
    ran = run("match", GREEDY, RANDOM, "--games", "4", "--time-per-move", "5", "--no-progress")
    assert ran.status == 0, ran.err
    lines = ran.out.splitlines()
    assert lines[0] == "Greedy vs Random: 4 games (2 pairs), seed 1, 5 s a move"
    assert re.fullmatch(r"  Greedy: \d wins?, \d loss(es)?, \d draws? \(score [01]\.\d{3}\)",
                        lines[1])
    assert lines[2] == "  forfeits: Greedy 0, Random 0"
    assert lines[3].startswith("  points (as lcn score totals them): Greedy ")
    assert lines[4].startswith("  score difference a game: +")
    assert lines[5].startswith("  Elo difference: ")


@pytest.mark.parametrize("mode, cause, time_per_move", [
    ("hang", "time forfeit", "0.3"),
    ("garbage", "protocol error", "5"),
    ("flood", "protocol error", "5"),
    ("exit", "crash", "5"),
    ("child", "crash", "5"),
    ("illegal", "illegal move", "5"),
])
def test_a_forfeit_is_recorded_and_the_engine_restarted(
        run: Any, tmp_path: Path, pids: Path, mode: str, cause: str,
        time_per_move: str) -> None:
    status, summary, err = match(run, GREEDY, line(bad(mode, 2)), "--games", "2", "-o",
                                 "m.lcn", "--time-per-move", time_per_move)
    assert status == 0, err
    games = games_of(tmp_path / "m.lcn")
    assert len(games) == 2
    for number, game in enumerate(games, 1):
        bad_seat = 2 if number == 1 else 1
        assert game.header("Termination") == f"{cause} by Player{bad_seat}"
        assert game.header("Result") == "*"
        # It misbehaved at its third request: the record stops before it.
        moves = 6 if bad_seat == 2 else 5
        assert len(game.moves) == moves - 1
        comment = game.headers[-1].comments[0].text
        assert comment.startswith(f" move {moves}: Bad ")
    assert summary["forfeits"] == {"Greedy": {}, "Bad": {cause: 2}}
    assert summary["wins"] == 2 and summary["score"] == 1.0
    assert run("lint", "m.lcn").status == 0
    # A forfeit is not a result: lcn score leaves it out of the totals, as the summary does.
    assert json.loads(run("score", "--format", "json", "m.lcn").out)["matches"] == []
    assert summary["points"] == {"Greedy": 0, "Bad": 0}
    started = written_pids(pids)
    if mode == "illegal":
        assert len(started) == 1  # still speaking the protocol: kept for game 2
    else:
        assert len(started) == (4 if mode == "child" else 2)
        assert "restarted" in err


def test_an_engine_that_fails_before_its_first_move_stops_the_match(
        run: Any, tmp_path: Path, pids: Path) -> None:
    status, _, err = match(run, GREEDY, line(bad("exit")), "--games", "4", "-o", "m.lcn",
                           "--time-per-move", "5")
    assert status == 2
    assert "failed before the first move of game 2 twice in a row" in err
    games = games_of(tmp_path / "m.lcn")  # game 1: Bad crashed at its first move, move 2
    assert len(games) == 1 and len(games[0].moves) == 1
    assert games[0].header("Termination") == "crash by Player2"
    assert run("lint", "m.lcn").status == 0


def test_an_engine_that_cannot_start(run: Any, tmp_path: Path) -> None:
    status, _, err = match(run, GREEDY, "/nonexistent/engine", "-o", "m.lcn")
    assert status == 2 and "engine 2 (/nonexistent/engine) cannot be started" in err
    assert not (tmp_path / "m.lcn").exists()
    status, _, err = match(run, GREEDY, RANDOM, "-o", "missing/m.lcn")
    assert status == 2 and "cannot write missing/m.lcn: its folder does not exist" in err
    status, _, err = match(run, GREEDY, line(bad("nohello")), "--start-time", "0.3")
    assert status == 2 and "did not send its handshake" in err


@pytest.mark.parametrize("argv, message", [
    (["--resume"], "give -o FILE"),
    (["--sprt", "10"], "two Elo values"),
    (["--sprt", "10,0"], "elo0 (10) must be below elo1"),
    (["--colors", "RGD"], "--colors"),
    (["--colors", "RGW"], "5 or 6 colours"),
    (["--option1", "seed"], "expected NAME=VALUE"),
    (["--time-per-move", "0"], "above 0"),
    (["--event", "two\nlines"], "no line break"),
])
def test_usage_errors(run: Any, argv: List[str], message: str) -> None:
    ran = run("match", GREEDY, RANDOM, *argv)
    assert ran.status == 2 and message in ran.err
    assert run("match", "", RANDOM).status == 2


def test_options_are_set_and_checked(run: Any, tmp_path: Path) -> None:
    for out in ("a.lcn", "b.lcn"):
        status, _, err = match(run, RANDOM, GREEDY, "--games", "2", "--option1", "seed=5",
                               "-o", out, "--time-per-move", "5")
        assert status == 0, err
    assert (tmp_path / "a.lcn").read_text() == (tmp_path / "b.lcn").read_text()
    status, _, err = match(run, RANDOM, GREEDY, "--option1", "depth=3")
    assert status == 2 and "engine 1 (Random): no option 'depth' (the options: seed)" in err
    status, _, err = match(run, RANDOM, GREEDY, "--option1", "seed=many")
    assert status == 2 and "'many' is not a int" in err


def test_engines_with_one_name_are_told_apart(run: Any, tmp_path: Path) -> None:
    status, summary, _ = match(run, RANDOM, RANDOM, "--games", "2", "-o", "m.lcn",
                               "--time-per-move", "5")
    assert status == 0 and summary["engines"] == ["Random (1)", "Random (2)"]
    totals = score_totals(run("score", "--format", "json", "m.lcn").out)
    assert totals == summary["points"] and len(totals) == 2


def test_a_long_game_is_adjudicated(run: Any, tmp_path: Path) -> None:
    status, summary, _ = match(run, GREEDY, RANDOM, "--games", "1", "-o", "m.lcn",
                               "--max-moves", "10", "--time-per-move", "5")
    assert status == 0
    game, = games_of(tmp_path / "m.lcn")
    assert len(game.moves) == 10 and game.header("Termination") == "adjudication"
    scores = json.loads(run("score", "--format", "json", "m.lcn").out)["games"][0]["scores"]
    assert game.header("Result") == f"{scores[0]}-{scores[1]}"
    assert summary["games"] == 1 and summary["pairs"] == 0 and summary["elo"] is None
    assert run("lint", "m.lcn").status == 0  # R110 (incomplete) is information


def test_the_time_for_a_game(run: Any, tmp_path: Path, pids: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "heard"
    monkeypatch.setenv("LCN_TEST_LOG", str(log))
    # Every move of the slow engine takes 0.5 s: its 1.2 s for the game run out.
    status, summary, _ = match(run, GREEDY, line(bad("slow")), "--games", "1", "-o",
                               "m.lcn", "--time-per-move", "5", "--time-per-game", "1.2")
    assert status == 0
    game, = games_of(tmp_path / "m.lcn")
    assert game.header("Termination") == "time forfeit by Player2"
    goes = [ln.split() for ln in log.read_text().splitlines() if ln.startswith("go ")]
    assert goes[0] == ["go", "movetime", "1200", "gametime", "1200"]
    left = [int(go[4]) for go in goes]
    # Each answer's time is taken from what is left, and no move may take more.
    assert all(b <= a - 500 for a, b in zip(left, left[1:]))
    assert all(int(go[2]) == int(go[4]) for go in goes)
    assert len(game.moves) == 2 * len(goes) - 1 and 2 <= len(goes) <= 3


def test_the_same_records_whatever_the_number_of_jobs(run: Any, tmp_path: Path) -> None:
    for jobs, out in (("1", "one.lcn"), ("2", "two.lcn")):
        status, _, err = match(run, GREEDY, line(bad("play")), "--games", "6", "-j", jobs,
                               "-o", out, "--time-per-move", "5")
        assert status == 0, err
    assert (tmp_path / "one.lcn").read_text() == (tmp_path / "two.lcn").read_text()


def test_the_sprt_stops_the_match_once_decided(run: Any, tmp_path: Path) -> None:
    status, summary, _ = match(run, GREEDY, RANDOM, "--games", "200", "--sprt", "0,100",
                               "-o", "m.lcn", "--time-per-move", "5", "-j", "2")
    assert status == 0
    assert summary["sprt"]["verdict"] == "H1" and summary["sprt"]["llr"] >= \
        summary["sprt"]["bounds"][1]
    played = summary["games"]
    assert played < 200 and played % 2 == 0 and len(games_of(tmp_path / "m.lcn")) == played
    # A resumed run that is decided plays nothing more.
    status, again, _ = match(run, GREEDY, RANDOM, "--games", "200", "--sprt", "0,100",
                             "-o", "m.lcn", "--resume")
    assert status == 0 and again["games"] == played


def _lcn(*argv: str, **kwargs: Any) -> "subprocess.Popen[bytes]":
    return subprocess.Popen([sys.executable, "-m", "lcnotation", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def _wait_for_games(path: Path, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().count("[Termination ") >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"{path} did not get {count} games")


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_match_ends_its_engines_and_resumes(
        tmp_path: Path, pids: Path, signum: int, status: int) -> None:
    out = tmp_path / "m.lcn"
    argv = (line(bad("play")), line(bad("hanggame", 3)), "--games", "6", "-o", str(out),
            "--time-per-move", "60", "--no-progress")
    runner = _lcn("match", *argv)
    try:
        _wait_for_games(out, 2)
        time.sleep(0.2)  # game 3 hangs: its engine is waiting for its move
        start = time.monotonic()
        runner.send_signal(signum)
        _, err = runner.communicate(timeout=30)
    finally:
        runner.kill()
        runner.wait()
    assert runner.returncode == status
    assert time.monotonic() - start < 10
    assert "stopped after 2 games" in err.decode() and "--resume" in err.decode()
    assert len(games_of(out)) == 2
    assert not wait_until_gone(set(written_pids(pids)))
    # The rest, with engines that behave: the file is the whole match.
    resumed = _lcn("match", *argv[:1], line(bad("play")), *argv[2:], "--resume",
                   "--format", "json")
    summary, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    games = games_of(out)
    assert [g.header("Round") for g in games] == [str(n) for n in range(1, 7)]
    assert json.loads(summary)["games"] == 6
    whole = _lcn("match", line(bad("play")), line(bad("play")), *argv[2:3], "6", "-o",
                 str(tmp_path / "whole.lcn"), "--time-per-move", "60", "--no-progress")
    whole.communicate(timeout=120)
    assert [(g.headers, g.moves) for g in games] == \
        [(g.headers, g.moves) for g in games_of(tmp_path / "whole.lcn")]


def test_resume_refuses_another_runs_file(run: Any, tmp_path: Path) -> None:
    assert match(run, GREEDY, RANDOM, "--games", "2", "-o", "m.lcn",
                 "--time-per-move", "5")[0] == 0
    status, _, err = match(run, GREEDY, RANDOM, "--games", "2", "-o", "m.lcn")
    assert status == 2 and "m.lcn exists: --resume continues" in err
    status, _, err = match(run, GREEDY, RANDOM, "--games", "4", "-o", "m.lcn", "--resume",
                           "--seed", "2")
    assert status == 2 and "does not have the deal of seed 2" in err
    assert "'lcn match, seed 1'" in err
    status, _, err = match(run, RANDOM, GREEDY, "--games", "4", "-o", "m.lcn", "--resume")
    assert status == 2 and "was played by 'Greedy' and 'Random'" in err
    # A file cut short in its last game.
    text = (tmp_path / "m.lcn").read_text()
    (tmp_path / "cut.lcn").write_text(text[:text.rindex("\n20.")] + "\n")
    status, _, err = match(run, GREEDY, RANDOM, "--games", "4", "-o", "cut.lcn", "--resume")
    assert status == 2 and "line " in err and "cut short" in err
    assert (tmp_path / "cut.lcn").read_text() == text[:text.rindex("\n20.")] + "\n"


def test_the_progress_bar_is_drawn_on_a_terminal() -> None:
    outputs = []
    for extra in ([], ["--no-progress"]):
        leader, follower = pty.openpty()
        runner = subprocess.Popen([sys.executable, "-m", "lcnotation", "match", GREEDY, RANDOM,
                                   "--games", "2", "--time-per-move", "5", *extra],
                                  stdout=subprocess.DEVNULL, stderr=follower)
        os.close(follower)
        seen = b""
        while True:
            ready, _, _ = select.select([leader], [], [], 60)
            try:
                chunk = os.read(leader, 4096) if ready else b""
            except OSError:  # the terminal's other end is closed
                chunk = b""
            if not chunk:
                break
            seen += chunk
        runner.wait(timeout=60)
        os.close(leader)
        outputs.append(seen.decode())
    assert "match [" in outputs[0] and "2/2" in outputs[0] and "2-0-0" in outputs[0]
    assert outputs[1] == ""


def test_a_bot_in_the_shell_plays_a_match(run: Any, tmp_path: Path) -> None:
    sh = shutil.which("sh")
    if sh is None:
        pytest.skip("no sh")
    status, summary, err = match(run, line([sh, str(EXAMPLES / "discard.sh")]), RANDOM,
                                 "--games", "2", "-o", "m.lcn", "--time-per-move", "5")
    assert status == 0, err
    assert summary["forfeits"] == {"Discarder": {}, "Random": {}}
    assert all(g.header("Termination") == "normal" for g in games_of(tmp_path / "m.lcn"))


def test_the_adapter_example_wraps_an_engine_of_its_own_lines(run: Any, tmp_path: Path,
                                                             pids: Path) -> None:
    wrapped = line([sys.executable, str(EXAMPLES / "adapter.py"), sys.executable,
                    str(EXAMPLES / "legacy_bot.py")])
    status, summary, err = match(run, wrapped, RANDOM, "--games", "2", "-o", "m.lcn",
                                 "--time-per-move", "5")
    assert status == 0, err
    assert summary["engines"][0] == "Legacy (adapted)"
    assert summary["forfeits"]["Legacy (adapted)"] == {}
    assert run("lint", "m.lcn").status == 0


def test_termination_values_read_back() -> None:
    for t in (Termination("normal"), Termination("adjudication"),
              *(Termination(c, s) for c in ("time forfeit", "illegal move", "crash",
                                            "protocol error") for s in (0, 1))):
        assert Termination.read(t.value) == t
    assert Termination.read("resigned by Player1") is None
    assert list(parse_games('[Termination "normal"]\n1. R3-D\n'))[0].header("Termination")
