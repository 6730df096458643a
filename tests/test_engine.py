"""The engine protocol's lines, the library for bot authors, and the clients
(synchronous and asyncio) against engines that misbehave: each failure is the
error it should be, on time, and no process is left behind."""

from __future__ import annotations

import asyncio
import io
import os
import re
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lcnotation import Card, Game, Header, format_card, format_move, parse_move
from lcnotation.engine import (AsyncEngineClient, EngineClient, EngineCrashed, EngineError,
                               EngineTimeout, Engine, Option, ProtocolError, View)
from lcnotation.engine.bots import GreedyBot, RandomBot
from lcnotation.engine.match import Limits, Referee, play_game
from lcnotation.engine.protocol import (HandshakeReader, LineBuffer, game_line, go_line,
                                        read_end, read_game, read_go, read_move, split_line)
from lcnotation.engine.records import Termination, make_record
from lcnotation.lostcities.game.checker import check
from lcnotation.lostcities.game.generator import generate_game

from enginetools import bad, bot, package_path, pids, play_out, written_pids  # noqa: F401

pytestmark = pytest.mark.usefixtures("package_path")

HAND = [Card("R", r) for r in (2, 3, 4, 5, 6, 7, 8, 9)]


# ---------------------------------------------------------------- lines


@given(st.lists(st.sampled_from("RGWBYKP"), min_size=5, max_size=6, unique=True),
       st.integers(0, 1), st.data())
def test_a_game_line_reads_back(colors: List[str], seat: int, data: st.DataObject) -> None:
    hand = data.draw(st.lists(st.builds(Card, st.sampled_from(colors),
                                        st.sampled_from((0, 2, 3, 4, 5, 6, 7, 8, 9, 10))),
                              min_size=8, max_size=8))
    text = game_line(colors, seat, hand).decode()
    assert text.endswith("\n") and text.count("\n") == 1
    word, rest = split_line(text.rstrip("\n"))
    assert word == "game" and read_game(rest) == (tuple(colors), seat, tuple(hand))


@given(st.floats(0.001, 1e5), st.one_of(st.none(), st.floats(0, 1e5)))
def test_a_go_line_reads_back_in_milliseconds(move: float, game: Optional[float]) -> None:
    word, rest = split_line(go_line(move, game).decode().rstrip("\n"))
    move_ms, game_ms = read_go(rest)
    assert word == "go" and move_ms == int(move * 1000 + 1e-9)
    assert game_ms == (None if game is None else int(game * 1000 + 1e-9))


def test_go_ignores_names_it_does_not_know_and_refuses_what_is_broken() -> None:
    assert read_go("ponder 1 movetime 50 extra x") == (50, None)
    for broken in ("", "movetime", "movetime -5", "movetime 1.5", "gametime 5"):
        with pytest.raises(ProtocolError):
            read_go(broken)


def test_end_and_move_lines() -> None:
    assert read_end("30 -12 illegal move by Player2") == ((30, -12), "illegal move by Player2")
    assert read_move(" bhx-r ") == parse_move("BHD-R")
    for broken in ("R3-D {x}", "R3", "", "R3-D R4-D"):
        with pytest.raises(ProtocolError, match="not one move"):
            read_move(broken)


@given(st.lists(st.text(st.characters(blacklist_characters="\n\r",
                                      blacklist_categories=("Cs",)), max_size=50),
                max_size=8),
       st.lists(st.integers(1, 20), min_size=1, max_size=10))
def test_lines_come_out_whatever_the_chunks(lines: List[str], cuts: List[int]) -> None:
    data = "".join(line + "\n" for line in lines).encode()
    buffer = LineBuffer()
    got: List[str] = []
    i = 0
    k = 0
    while i < len(data):
        step = cuts[k % len(cuts)]
        buffer.feed(data[i:i + step])
        i += step
        k += 1
        while (line := buffer.pop()) is not None:
            got.append(line)
    assert got == lines and buffer.tail == b""


def test_the_buffer_cuts_floods_and_endless_lines() -> None:
    long = LineBuffer(max_line=100)
    long.feed(b"x" * 60)
    long.feed(b"x" * 60)
    with pytest.raises(ProtocolError, match="longer than 100 bytes"):
        long.pop()
    long.feed(b"y" * 10_000)  # kept out: memory stays bounded
    assert long.tail == b""
    flood = LineBuffer(max_answer=1000)
    for _ in range(20):
        flood.feed(b"info " + b"z" * 95 + b"\n")
    lines = [flood.pop() for _ in range(9)]
    assert all(x is not None for x in lines)
    with pytest.raises(ProtocolError, match="flooded"):
        while flood.pop() is not None:
            pass
    crlf = LineBuffer()
    crlf.feed(b"move R3-D\r\n\xff\n")
    assert crlf.pop() == "move R3-D"
    with pytest.raises(ProtocolError, match="not UTF-8"):
        crlf.pop()


@pytest.mark.parametrize("lines, message", [
    (["ok 1"], "without its name"),
    (["name X", "ok 2"], "version 2"),
    (["name X", "hello"], "not a line of the handshake"),
    (["name X", "option a int 1", "option a int 2"], "twice"),
    (["name X", "option a int x"], "not a int"),
    (["name X", "option 9a int 1"], "option name"),
    (["name X", "option a colour red"], "type 'colour'"),
])
def test_a_broken_handshake_is_a_protocol_error(lines: List[str], message: str) -> None:
    reader = HandshakeReader()
    with pytest.raises(ProtocolError, match=message):
        for text in lines:
            reader.feed(text)


def test_a_handshake_with_options_and_a_long_name() -> None:
    reader = HandshakeReader()
    for text in ["info hello", "", "name  \x1b[1mDeep\tLost " + "x" * 300,
                 "author A. N. Other", "option depth int 3", "option style string calm one",
                 "option fast bool true", "option k float -1.5e2"]:
        assert reader.feed(text) is None
    found = reader.feed("ok 1")
    assert found is not None
    assert found.name.startswith("[1mDeep Lost x") and len(found.name) == 100
    assert [(o.name, o.default) for o in found.options] == [
        ("depth", 3), ("style", "calm one"), ("fast", True), ("k", -150.0)]


# ---------------------------------------------------------------- the library


def serve(engine: Engine, text: str) -> Tuple[int, List[str]]:
    out = io.BytesIO()
    status = engine.run(io.BytesIO(text.encode()), out)
    return status, out.getvalue().decode().splitlines()


def test_an_engine_answers_the_handshake_and_each_request() -> None:
    status, lines = serve(RandomBot(), "lcn-engine 1\nset seed 7\n"
                          "game RGWBY 2 R2 R3 R4 R5 R6 R7 R8 R9\nopponent G5D-D\n"
                          "go movetime 100\nnot-yet-a-message of a later version\nquit\n"
                          "go movetime 100\n")
    assert status == 0
    assert lines[:4] == ["name Random", "author lcnotation", "option seed int 0", "ok 1"]
    assert len(lines) == 5 and lines[4].startswith("move ")
    view = View("RGWBY", 1, HAND)
    view.opponent_moved(parse_move("G5D-D"))
    assert read_move(lines[4][5:]) in view.legal_moves
    # The seed repeats the engine's games.
    assert serve(RandomBot(), "lcn-engine 1\nset seed 7\ngame RGWBY 2 R2 R3 R4 R5 R6 R7 R8 R9\n"
                 "opponent G5D-D\ngo movetime 100\n")[1][4] == lines[4]


def test_a_function_is_an_engine_and_may_answer_with_text() -> None:
    from lcnotation.engine.bot import _FunctionEngine

    seen: List[View] = []

    def choose(view: View) -> str:
        seen.append(view)
        return format_move(view.legal_moves[-1]).lower()

    engine = _FunctionEngine(choose, "Last", "", (Option("depth", "int", 2),))
    status, lines = serve(engine, "lcn-engine 1\nset depth 5\ngame RGWBY 1 " +
                          " ".join(f"R{r}" for r in range(2, 10)) + "\ngo movetime 50\n"
                          "drew B4\nopponent B5D-D\ngo movetime 50 gametime 900\n")
    assert status == 0 and lines[-2:] == ["move R9D-D", "move B4D-R"]
    assert engine.settings == {"depth": 5}
    assert seen[-1].time_for_move == 0.05 and seen[-1].game_time_left == 0.9


@pytest.mark.parametrize("text, message", [
    ("go movetime 5\n", "outside a game"),
    ("game RGWBY 3 R2\n", "seat"),
    ("lcn-engine 1\nset nothing 1\n", "no such option"),
    ("game RGWBY 2 R2 R3 R4 R5 R6 R7 R8 R9\nopponent R9-D\n", "illegal"),
    ("game RGWBY 1 R2 R3 R4 R5 R6 R7 R8 R9\nopponent B9-D\n", "not the opponent's turn"),
])
def test_what_the_runner_sends_wrong_ends_the_engine_with_status_2(
        text: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = serve(GreedyBot(), text)
    assert status == 2 and message in capsys.readouterr().err


def test_a_view_tracks_its_hand_and_the_table() -> None:
    view = View("RGWBY", 0, HAND)
    assert view.my_turn and view.draw_pile_size == 44 and len(view.unseen_cards()) == 52
    view.played(parse_move("R2-D"))
    view.drew(Card("G", 10))
    view.opponent_moved(parse_move("B6D-D"))
    view.played(parse_move("R3D-B"))
    view.drew(Card("B", 6))
    assert Card("B", 6) in view.hand and Card("G", 10) in view.hand
    assert view.discard_top("R") == Card("R", 3) and view.discard_top("B") is None
    assert view.expedition(0, "R") == (Card("R", 2),)
    assert view.draw_pile_size == 42 and not view.my_turn
    view.opponent_moved(parse_move("Y7-R"))
    assert view.opponent_known_cards == (Card("R", 3),)
    with pytest.raises(ValueError, match="not the opponent's turn"):
        view.opponent_moved(parse_move("R9-D"))
    view.played(parse_move("R4-D"))
    view.drew(Card("W", 5))
    with pytest.raises(ValueError, match="illegal"):
        view.opponent_moved(parse_move("R9-D"))  # R9 is in this player's hand


# ---------------------------------------------------------------- what an engine hears


def _transcript(record: Game, seat: int, colors: Sequence[str]) -> List[str]:
    """What a player may be told of ``record``: its hand, the opponent's moves and
    the cards it drew itself (worked out here from the deal, with plain lists)."""
    tags = record.tags
    hands = [tags["Hand1"].split(), tags["Hand2"].split()]
    deck = tags["Deck"].split()
    piles: Dict[str, List[str]] = {c: [] for c in colors}
    lines = ["lcn-engine 1", f"game {''.join(colors)} {seat + 1} " + " ".join(hands[seat])]
    moves = record.moves
    for turn, move in enumerate(moves):
        text = format_move(move)
        card = text.split("-")[0].rstrip("D") if move.placement.discard else text.split("-")[0]
        source = move.draw.color
        if move.placement.discard:
            piles[move.card.color].append(card)
        drawn = deck.pop(0) if source is None else piles[source].pop()
        if turn % 2 == seat:
            if turn:
                lines.append(f"opponent {format_move(moves[turn - 1])}")
            lines += ["go", f"drew {drawn}"]
    if len(moves) % 2 == seat:  # the opponent moved last
        lines.append(f"opponent {format_move(moves[-1])}")
    return lines


def test_an_engine_hears_only_what_its_player_may_see(tmp_path: Path) -> None:
    # The opponent is dealt the eight black cards and the other four lie at
    # the bottom of the deck: a black card the listener was told of could only
    # come from what it may not see, unless the opponent played it.
    colors = "RGWBYK"
    deck = generate_game(5, colors=colors, deal=True).tags
    cards = deck["Hand1"].split() + deck["Hand2"].split() + deck["Deck"].split()
    black = [c for c in cards if c.startswith("K")]
    others = [c for c in cards if not c.startswith("K")]
    deal = Game((Header("Colors", colors), Header("Hand1", " ".join(others[:8])),
                 Header("Hand2", " ".join(black[:8])),
                 Header("Deck", " ".join(others[8:] + black[8:]))))
    logs = [tmp_path / "heard1", tmp_path / "heard2"]
    referee = Referee(deal, ("Listener", "Other"))

    async def game() -> None:
        async with AsyncEngineClient(bad("play"), env={**os.environ,
                                                      "LCN_TEST_LOG": str(logs[0])}) as one, \
                AsyncEngineClient(bad("play"), env={**os.environ,
                                                   "LCN_TEST_LOG": str(logs[1])}) as two:
            await play_game((one, two), referee, Limits(5.0))

    asyncio.run(game())
    record = make_record(deal, event="e", date="d", round_number=1,
                         players=referee.players, moves=referee.moves, result="*",
                         termination=Termination("normal"))
    assert check(record).complete and not check(record).errors
    for seat, log in enumerate(logs):
        heard = log.read_text().splitlines()
        scores = referee.state.scores().totals
        assert heard[-2:] == [f"end {scores[0]} {scores[1]} normal", "quit"]
        told = [("go" if line.startswith("go ") else line) for line in heard[:-2]]
        assert told == _transcript(record, seat, colors)
        assert all(re.fullmatch(r"go movetime \d+", ln) for ln in heard if ln.startswith("go"))
    # The black cards the listener was told of: those the opponent played, and
    # those it drew itself.
    heard = logs[0].read_text().splitlines()
    played_black = {format_card(m.card) for m in referee.moves[1::2] if m.card.color == "K"}
    mentioned = set(re.findall(r"\bK(?:10|[2-9H])\b", "\n".join(
        ln for ln in heard if not ln.startswith("opponent"))))
    drawn_black = {ln.split()[1] for ln in heard if ln.startswith("drew K")}
    assert mentioned <= drawn_black | played_black
    assert "game RGWBYK 1 " + " ".join(others[:8]) in heard and not any(
        " ".join(black[:3]) in line for line in heard)


# ---------------------------------------------------------------- the clients


def first_move_sync(command: List[str], move_time: float, start_time: float = 20.0,
                    moves: int = 1) -> float:
    """Start ``command``, ask it for ``moves`` moves; the seconds the last took."""
    with EngineClient(command, start_time=start_time) as engine:
        engine.new_game("RGWBY", 0, HAND)
        start = time.monotonic()
        for i in range(moves):
            if i:
                engine.opponent_moved(parse_move("B4D-D" if i == 1 else f"B{i + 3}D-D"))
            answer = engine.go(move_time)
            engine.drew(Card("G", 2 + i))
            assert answer.move in View("RGWBY", 0, HAND).legal_moves or i
        return time.monotonic() - start


def first_move_async(command: List[str], move_time: float, start_time: float = 20.0,
                     moves: int = 1) -> float:
    async def go() -> float:
        async with AsyncEngineClient(command, start_time=start_time) as engine:
            await engine.new_game("RGWBY", 0, HAND)
            start = time.monotonic()
            for i in range(moves):
                if i:
                    await engine.opponent_moved(parse_move("B4D-D" if i == 1
                                                           else f"B{i + 3}D-D"))
                await engine.go(move_time)
                await engine.drew(Card("G", 2 + i))
            return time.monotonic() - start
    return asyncio.run(go())


CLIENTS = {"sync": first_move_sync, "asyncio": first_move_async}
Client = Callable[..., float]


@pytest.fixture(params=sorted(CLIENTS))
def client(request: pytest.FixtureRequest) -> Client:
    return CLIENTS[request.param]


def test_a_good_engine_plays(client: Client, pids: Path) -> None:
    client(bad("play"), 5.0, moves=3)
    assert len(written_pids(pids)) == 1


@pytest.mark.parametrize("mode, error, message", [
    ("hang", EngineTimeout, "did not send its answer to go within 0.3 s"),
    ("garbage", ProtocolError, "wrote 'bonjour tout le monde', which is not the protocol"),
    ("exit", EngineCrashed, "exited with status 3 before its answer to go"),
    ("flood", ProtocolError, "flooded its output"),
    ("longline", ProtocolError, "wrote a line longer than 4,096 bytes"),
    ("child", EngineCrashed, "exited with status 5"),
])
def test_a_misbehaving_engine_is_the_error_it_should_be(
        client: Client, pids: Path, mode: str, error: type, message: str) -> None:
    start = time.monotonic()
    with pytest.raises(error, match=re.escape(message)):
        client(bad(mode), 0.3)
    # On time: a crash is seen at once, not when the time is up (the child of
    # "child" holds the engine's output open).
    assert time.monotonic() - start < 8
    if mode == "child":
        assert len(written_pids(pids)) == 2


def test_a_crash_is_seen_at_once_while_a_child_holds_the_output(client: Client,
                                                                pids: Path) -> None:
    start = time.monotonic()
    with pytest.raises(EngineCrashed):
        client(bad("child"), 30.0)
    assert time.monotonic() - start < 8  # far below the 30 s the engine had


def test_a_crash_comes_with_the_engines_last_words(client: Client, pids: Path) -> None:
    with pytest.raises(EngineCrashed) as caught:
        client(bad("stderr"), 5.0)
    assert "status 4" in caught.value.message
    assert caught.value.stderr.splitlines()[-1] == "Traceback: something broke"
    assert len(caught.value.stderr.splitlines()) == 5


def test_a_line_nobody_asked_for_is_a_protocol_error(client: Client, pids: Path) -> None:
    with pytest.raises(ProtocolError, match="wrote 'surprise' when no answer was asked for"):
        client(bad("stray"), 5.0, moves=2)


@pytest.mark.parametrize("mode, error, message", [
    ("nohello", EngineTimeout, "did not send its handshake (name, options, ok) within 0.5 s"),
    ("noname", ProtocolError, "said ok without its name"),
    ("badversion", ProtocolError, "speaks version 99 of the protocol"),
])
def test_a_broken_start(client: Client, pids: Path, mode: str, error: type,
                        message: str) -> None:
    with pytest.raises(error, match=re.escape(message)):
        client(bad(mode), 5.0, start_time=0.5 if mode == "nohello" else 20.0)


def test_a_command_that_does_not_exist(client: Client) -> None:
    with pytest.raises(EngineCrashed, match="cannot start '/nonexistent/engine'"):
        client(["/nonexistent/engine"], 1.0)


def test_an_engine_that_ignores_quit_and_sigterm_is_killed(pids: Path) -> None:
    engine = EngineClient(bad("stubborn"), grace=0.2)
    engine.start()
    engine.new_game("RGWBY", 0, HAND)
    engine.go(5.0)
    start = time.monotonic()
    engine.quit()
    assert 0.35 < time.monotonic() - start < 5  # quit, 0.2 s, SIGTERM, 0.2 s, SIGKILL
    assert engine.process is not None and engine.process.how_it_ended() == "killed by SIGKILL"


def test_the_async_client_cancelled_still_ends_its_engine(pids: Path) -> None:
    async def cancelled() -> None:
        engine = AsyncEngineClient(bad("hang"))
        task = asyncio.ensure_future(_hang(engine))
        await asyncio.sleep(0.5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    async def _hang(engine: AsyncEngineClient) -> None:
        async with engine:
            await engine.new_game("RGWBY", 0, HAND)
            await engine.go(60.0)

    asyncio.run(cancelled())


def test_stop_all_ends_engines_nobody_closed(pids: Path) -> None:
    from lcnotation.engine.process import stop_all

    engines = [EngineClient(bot("random")) for _ in range(2)]
    for engine in engines:
        engine.start()
    stop_all()
    assert all(e.process is not None and e.process.stopped for e in engines)


def test_errors_are_engine_errors_with_their_record_cause() -> None:
    assert [c.cause for c in (EngineTimeout, EngineCrashed, ProtocolError)] == [
        "time forfeit", "crash", "protocol error"]
    assert issubclass(EngineTimeout, EngineError)


def test_options_are_checked_before_they_are_sent(pids: Path) -> None:
    with EngineClient(bad("play")) as engine:
        assert engine.name == "Bad" and engine.options == ()
    with EngineClient(bot("random")) as engine:
        engine.set_option("seed", 4)
        with pytest.raises(ValueError, match="no option 'depth'"):
            engine.set_option("depth", 3)
        with pytest.raises(ValueError, match="not a int"):
            engine.set_option("seed", "many")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_greedy_and_random_always_play_legal_moves(seed: int) -> None:
    game = generate_game(seed, colors="RGWBY", deal=True)
    referee = Referee(Game(tuple(h for h in game.headers if h.name in ("Hand1", "Hand2", "Deck"))),
                      ("A", "B"))
    engines = [GreedyBot(), RandomBot()] if seed % 2 else [RandomBot(), GreedyBot()]
    views, _ = play_out(referee, engines)  # it checks every move is legal
    assert views[0].scores().totals == views[1].scores().totals == referee.state.scores().totals


# ---------------------------------------------------------------- the specification

SPEC = (Path(__file__).resolve().parent.parent / "spec" / "engine-protocol.md").read_text()


def test_the_specification_states_the_limits_of_the_code() -> None:
    from lcnotation.engine import process, protocol
    from lcnotation.engine.match import Limits

    assert f"**{protocol.MAX_LINE - 1:,} bytes** before its LF" in SPEC
    assert f"**{protocol.MAX_ANSWER:,} bytes**" in SPEC
    assert f"keeps the first {protocol.MAX_NAME} characters" in SPEC
    assert f"giving it {process.GRACE:g} second to exit" in SPEC
    assert f"last {process.StderrTail()._size:,} bytes" in SPEC
    assert f"{Limits().max_moves:,} by default" in SPEC
    assert "`lcn-engine V`" in SPEC and protocol.hello() == b"lcn-engine 1\n"


def test_the_session_of_the_specification_is_what_greedy_says() -> None:
    from lcnotation.engine.records import deal_for

    block = SPEC[SPEC.index("## 11. A session"):]
    block = block[block.index("```text\n") + 8:]
    block = block[:block.index("```")]
    head, tail = block.split("...\n")
    # The game, played by two greedy engines; what the second one hears and says.
    referee = Referee(deal_for(1, 1, "RGWBY"), ("A", "B"))
    session = ["> lcn-engine 1", "< name Greedy", "< author lcnotation", "< ok 1",
               "> game RGWBY 2 " + " ".join(map(format_card, referee.hands[1]))]
    last = None
    for seat, move, drawn in play_out(referee, [GreedyBot(), GreedyBot()])[1]:
        if seat == 1:
            if last is not None:
                session.append(f"> opponent {format_move(last)}")
            session += ["> go movetime 200", f"< move {format_move(move)}",
                        f"> drew {format_card(drawn)}"]
        last = move
    scores = referee.state.scores().totals
    session += [f"> end {scores[0]} {scores[1]} normal", "> quit"]
    assert head.splitlines() == session[:len(head.splitlines())]
    assert tail.splitlines() == session[-len(tail.splitlines()):]
    # And the engine itself, fed the runner's lines of the beginning, says the same.
    said = serve(GreedyBot(), "".join(ln[2:] + "\n" for ln in head.splitlines()
                                      if ln.startswith("> ")))[1]
    assert said == [ln[2:] for ln in head.splitlines() if ln.startswith("< ")]


def test_an_engine_starts_without_the_runners_machinery() -> None:
    # lcn bot loads the library for bot authors, not asyncio, the clients or the runner.
    import json
    import subprocess
    import sys

    code = ("import io, json, sys\n"
            "sys.stdin = io.TextIOWrapper(io.BytesIO(b'lcn-engine 1\\nquit\\n'))\n"
            "from lcnotation.cli import main\nstatus = main(['bot', 'greedy'])\n"
            "print(json.dumps([status, sorted(m for m in sys.modules if m.startswith(("
            "'asyncio', 'lcnotation.engine.aio', 'lcnotation.engine.client', "
            "'lcnotation.engine.match', 'lcnotation.engine.process', 'lcnotation.svg')))]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    lines = done.stdout.splitlines()
    assert lines[0] == "name Greedy" and json.loads(lines[-1]) == [0, []]


def test_without_waitid_or_pidfd_an_exit_is_still_seen(pids: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # As on systems without them: the exit is found by polling, every 50 ms.
    monkeypatch.delattr(os, "waitid")
    monkeypatch.delattr(os, "pidfd_open", raising=False)
    for client in CLIENTS.values():
        start = time.monotonic()
        with pytest.raises(EngineCrashed, match="exited with status 5"):
            client(bad("child"), 30.0)
        assert time.monotonic() - start < 8
