"""Playing engines against each other: one game (:func:`play_game`) and a match
(:class:`Match`), on asyncio.

A game is refereed on the whole deal (:class:`Referee`, a
:class:`~lcnotation.lostcities.game.state.GameState` that knows every card), while each
engine is told only what its player sees (``spec/engine-protocol.md``).  An
illegal move, a time-out, a crash or a line that is not the protocol ends the
game: the engine that did it forfeits, and the record says why and where
(:mod:`.records`).  An engine that timed out, crashed or broke the protocol is
restarted for its next game; one that failed twice in a row before the first
move of a game stops the match (:class:`MatchAborted`): a game without a move
cannot be recorded among others, and such an engine cannot play.

A match plays pairs of games on the same deal with the seats swapped, ``jobs``
games at once (each with its own two engine processes), and hands the
finished records over in the order of their rounds, so that an output file is
always a whole prefix of the match (what ``--resume`` continues from).  With
an SPRT it stops once the test is decided.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from ..lostcities.game.checker import check
from ..lostcities.game.setup import read_setup
from ..lostcities.game.state import GameState
from ..lostcities.text.ast import Card, Game, Move
from .aio import AsyncEngineClient
from .protocol import EngineError, option_value
from .records import (ADJUDICATION, NORMAL, Outcome, Termination, deal_for, engine1_seat,
                      make_record, outcome)
from .stats import Sprt, Summary, summarize

__all__ = ["Limits", "Referee", "play_game", "Match", "MatchAborted", "Settings"]


@dataclass(frozen=True)
class Limits:
    """The time an engine has for each move, and for all its moves of a game
    (None: no limit), in seconds; a game that reaches ``max_moves`` moves is
    adjudicated (scored as it stands)."""

    move_time: float = 1.0
    game_time: Optional[float] = None
    max_moves: int = 1000


class Referee:
    """One game on its whole deal: whose turn, the legality of each move, the cards drawn."""

    def __init__(self, deal: Game, players: Tuple[str, str]) -> None:
        setup = read_setup(deal)
        if setup.diagnostics or setup.deck is None or None in setup.hands:
            raise ValueError("the deal is not a whole deal of the colours")
        self.colors = setup.colors
        self.hands: Tuple[Tuple[Card, ...], ...] = tuple(
            tuple(Card(c, r) for c, r in hand or ()) for hand in setup.hands)
        self.state = GameState.from_setup(setup._replace(players=players))
        self.players = players
        self.moves: List[Move] = []

    @property
    def to_move(self) -> int:
        return self.state.to_move

    @property
    def over(self) -> bool:
        return self.state.is_over

    def play(self, move: Move) -> Tuple[Optional[str], Optional[Card]]:
        """Play ``move`` for the side to move: (None, the card it drew), or (why it
        is illegal, None), the move then not played."""
        state = self.state
        source = move.draw.color
        if source is None:
            drawn = state.top_of_draw_pile()
        else:
            pile = state.discard_pile(source) if source in state.colors else ()
            drawn = pile[-1] if pile else None
        trial = state.copy()
        broken = trial.apply(move)
        if broken:
            return broken[0].message, None
        self.state = trial
        self.moves.append(move)
        return None, drawn


def _detail_of(exc: EngineError, name: str, number: int) -> str:
    return f"move {number}: {name} {exc.message}"


async def play_game(engines: Sequence[AsyncEngineClient], referee: Referee,
                    limits: Limits) -> Termination:
    """Play one game between ``engines`` (``engines[0]`` is Player1) on ``referee``;
    how it ended.  The engines hear ``end`` unless they failed; an engine's
    error ends the game with its forfeit."""
    names = referee.players
    seat = 0
    try:
        for seat in (0, 1):
            await engines[seat].new_game(referee.colors, seat, referee.hands[seat])
    except EngineError as exc:
        return Termination(exc.cause, seat, _detail_of(exc, names[seat], 1))
    left: List[Optional[float]] = [limits.game_time, limits.game_time]
    last: Optional[Move] = None
    termination = Termination(NORMAL)
    while not referee.over:
        number = len(referee.moves) + 1
        if number > limits.max_moves:
            termination = Termination(ADJUDICATION, None, f"the game reached "
                                      f"{limits.max_moves} moves: scored as it stands")
            break
        seat = referee.to_move
        engine = engines[seat]
        budget = limits.move_time
        game_left = left[seat]
        if game_left is not None:
            budget = min(budget, game_left)
        try:
            if last is not None:
                await engine.opponent_moved(last)
            answer = await engine.go(budget, game_left)
        except EngineError as exc:
            termination = Termination(exc.cause, seat, _detail_of(exc, names[seat], number))
            break
        if game_left is not None:
            left[seat] = max(0.0, game_left - answer.seconds)
        problem, drawn = referee.play(answer.move)
        if problem is not None or drawn is None:
            termination = Termination("illegal move", seat, f"move {number}: {names[seat]} "
                                      f"played {answer.text}, which is illegal: {problem}")
            break
        try:
            await engine.drew(drawn)
        except EngineError as exc:
            termination = Termination(exc.cause, seat, _detail_of(exc, names[seat], number))
            break
        last = answer.move
    scores = _scores(referee)
    for seat, engine in enumerate(engines):
        if engine.failed is not None:
            continue
        with contextlib.suppress(EngineError):
            if last is not None and seat == referee.to_move and not termination.forfeit:
                await engine.opponent_moved(last)
            await engine.end_game(scores, termination.value)
    return termination


def _scores(referee: Referee) -> Tuple[int, int]:
    return referee.state.scores().totals


class MatchAborted(Exception):
    """The match cannot go on (an engine cannot be started, or fails before its
    first move twice in a row)."""


@dataclass
class Settings:
    """What a match plays: the two engines' command lines, the number of games,
    the seed of the deals, the limits, how many games at once, the options to set
    in each engine, the colours, the Event header, an optional SPRT."""

    commands: Tuple[Sequence[str], Sequence[str]]
    games: int = 100
    seed: object = 1
    limits: Limits = field(default_factory=Limits)
    jobs: int = 1
    options: Tuple[Dict[str, str], Dict[str, str]] = field(default_factory=lambda: ({}, {}))
    colors: Tuple[str, ...] = ("R", "G", "W", "B", "Y")
    event: Optional[str] = None
    date: str = "????.??.??"
    start_time: float = 10.0
    sprt: Optional[Sprt] = None


#: Called with each record, in the order of rounds, and the summary so far.
OnRecord = Callable[[Game, Summary], None]


class Match:
    """A match between two engines; :meth:`run` plays it.

    ``done`` are the records of games already played (``--resume``): the match
    checks that they are this match's (:meth:`check_resumed`), counts them and
    plays the rest.  ``on_record`` receives each new record in round order
    (``lcn match`` writes it to its file); ``on_event`` gets a line to show the
    user (an engine restarted, an engine's last words on standard error).
    """

    def __init__(self, settings: Settings, on_record: OnRecord,
                 on_event: Callable[[str], None] = lambda text: None,
                 done: Sequence[Game] = ()) -> None:
        self.settings = settings
        self.on_record = on_record
        self.on_event = on_event
        self.records: List[Game] = list(done)
        self.outcomes: List[Outcome] = []
        self.names: Tuple[str, str] = ("", "")
        self.summary: Optional[Summary] = None
        self._finished: Dict[int, Game] = {}
        self._next = len(self.records) + 1
        self._stop = False
        self._clients: Set[AsyncEngineClient] = set()
        self._workers: List["asyncio.Future[None]"] = []

    @property
    def event(self) -> str:
        return self.settings.event or f"lcn match, seed {self.settings.seed}"

    # ------------------------------------------------------------ engines

    async def _start(self, which: int) -> AsyncEngineClient:
        s = self.settings
        client = AsyncEngineClient(s.commands[which], start_time=s.start_time)
        self._clients.add(client)
        try:
            await client.start()
            for name, value in s.options[which].items():
                try:
                    option, parsed = option_value(client.options, name, value)
                except ValueError as exc:
                    raise MatchAborted(f"engine {which + 1} ({client.name}): {exc}") from None
                await client.set_option(option.name, parsed)
        except BaseException:
            await self._quit(client)
            raise
        return client

    async def _quit(self, client: AsyncEngineClient) -> None:
        try:
            await client.quit()
        finally:
            self._clients.discard(client)

    async def _restart(self, clients: List[Optional[AsyncEngineClient]], which: int
                       ) -> AsyncEngineClient:
        old = clients[which]
        if old is not None:
            await self._quit(old)
        clients[which] = None
        clients[which] = await self._start(which)
        return clients[which]  # type: ignore[return-value]

    def _name(self, which: int, client: AsyncEngineClient) -> str:
        return self.names[which] or client.command[0]

    # ------------------------------------------------------------ the match

    async def run(self) -> Summary:
        """Play the match; its summary (also when stopped by the SPRT)."""
        s = self.settings
        jobs = max(1, min(s.jobs, s.games - len(self.records) or 1))
        clients: List[List[Optional[AsyncEngineClient]]] = []
        try:
            try:
                for _ in range(jobs):
                    clients.append([None, None])
                first = await asyncio.gather(*(self._start_or_abort(i) for i in (0, 1)))
                clients[0] = list(first)
                self.names = _distinct(first[0].name, first[1].name)
                self._check_done()
                rest = await asyncio.gather(*(self._start_or_abort(i)
                                              for _ in range(1, jobs) for i in (0, 1)))
                for k in range(1, jobs):
                    clients[k] = [rest[2 * k - 2], rest[2 * k - 1]]
            except BaseException:
                await self._quit_all(clients)
                raise
            self._summarize()
            if not self._decided():
                workers = self._workers = [asyncio.ensure_future(self._worker(c))
                                           for c in clients]
                try:
                    await _first_failure(workers)
                finally:
                    for w in workers:
                        w.cancel()
                    await asyncio.gather(*workers, return_exceptions=True)
            await self._quit_all(clients)
        finally:
            for client in list(self._clients):  # what an interruption left running
                client.kill()
            self._clients.clear()
        assert self.summary is not None
        return self.summary

    async def _start_or_abort(self, which: int) -> AsyncEngineClient:
        try:
            return await self._start(which)
        except EngineError as exc:
            raise MatchAborted(_cannot_start(self.settings.commands[which], which, exc)
                               ) from None

    async def _quit_all(self, clients: List[List[Optional[AsyncEngineClient]]]) -> None:
        live = [c for pair in clients for c in pair if c is not None]
        await asyncio.gather(*(self._quit(c) for c in live), return_exceptions=True)

    def _check_done(self) -> None:
        problem = check_resumed(self.records, self.settings, self.names)
        if problem is not None:
            raise MatchAborted(problem)
        self.outcomes = [outcome(g, i) for i, g in enumerate(self.records, 1)]

    def _decided(self) -> bool:
        summary = self.summary
        return self._stop or (summary is not None and summary.sprt is not None
                              and summary.sprt.verdict is not None)

    def _summarize(self) -> None:
        self.summary = summarize(self.names, self.outcomes, self.settings.sprt)

    async def _worker(self, clients: List[Optional[AsyncEngineClient]]) -> None:
        s = self.settings
        while not self._decided() and self._next <= s.games:
            number = self._next
            self._next += 1
            record = await self._play(number, clients)
            self._finished[number] = record
            await self._flush()

    async def _ensure(self, clients: List[Optional[AsyncEngineClient]], which: int) -> None:
        """Engine ``which`` of a slot, started again if it failed (twice at most)."""
        client = clients[which]
        if client is not None and client.failed is None:
            return
        if client is not None:
            self._tell_failure(which, client)
        for attempt in (1, 2):
            try:
                await self._restart(clients, which)
                return
            except EngineError as exc:
                if attempt == 2:
                    raise MatchAborted(_cannot_start(self.settings.commands[which], which,
                                                     exc)) from None
                self.on_event(f"engine {which + 1} ({self.names[which]}) could not be "
                              f"restarted ({exc.message}); trying again")

    async def _play(self, number: int, clients: List[Optional[AsyncEngineClient]]) -> Game:
        """Game ``number``, played again (after a restart) when it ends before its
        first move; MatchAborted the second time."""
        s = self.settings
        first = engine1_seat(number)
        deal = deal_for(s.seed, (number + 1) // 2, s.colors)
        seat_names = ((self.names[0], self.names[1]) if first == 0
                      else (self.names[1], self.names[0]))
        for attempt in (1, 2):
            for which in (0, 1):
                await self._ensure(clients, which)
            one, two = clients
            assert one is not None and two is not None
            engines = (one, two) if first == 0 else (two, one)
            referee = Referee(deal, seat_names)
            termination = await play_game(engines, referee, s.limits)
            if referee.moves or termination.seat is None:
                return make_record(deal, event=self.event, date=s.date, round_number=number,
                                   players=seat_names, moves=referee.moves,
                                   result=_result(referee, termination),
                                   termination=termination)
            which = 0 if termination.seat == first else 1
            if attempt == 2:
                raise MatchAborted(f"engine {which + 1} ({self.names[which]}) failed before "
                                   f"the first move of game {number} twice in a row: "
                                   f"{termination.detail}" + _stderr(clients[which]))
            self.on_event(f"game {number} ended before its first move ({termination.detail}): "
                          "playing it again")
        raise AssertionError("unreachable")

    def _tell_failure(self, which: int, client: AsyncEngineClient) -> None:
        assert client.failed is not None
        text = (f"engine {which + 1} ({self.names[which]}) {client.failed.message}: "
                "restarted")
        self.on_event(text + _stderr(client))

    async def _flush(self) -> None:
        """Hand over the finished records that come next in round order."""
        while not self._stop:
            number = len(self.records) + 1
            record = self._finished.pop(number, None)
            if record is None:
                return
            self.records.append(record)
            self.outcomes.append(outcome(record, number))
            self._summarize()
            assert self.summary is not None
            self.on_record(record, self.summary)
            if self._decided():
                self._stop = True
                current = asyncio.current_task()
                for worker in self._workers:
                    if worker is not current:
                        worker.cancel()


def _result(referee: Referee, termination: Termination) -> str:
    if termination.forfeit:
        return "*"
    a, b = referee.state.scores().totals
    return f"{a}-{b}"


def _stderr(client: Optional[AsyncEngineClient]) -> str:
    if client is None or client.failed is None or not client.failed.stderr:
        return ""
    return "\n  its last words on standard error:\n    " + \
        client.failed.stderr.replace("\n", "\n    ")


def _cannot_start(command: Sequence[str], which: int, exc: EngineError) -> str:
    text = f"engine {which + 1} ({' '.join(command)}) cannot be started: {exc.message}"
    if exc.stderr:
        text += "\n  its last words on standard error:\n    " + exc.stderr.replace("\n", "\n    ")
    return text


def _distinct(first: str, second: str) -> Tuple[str, str]:
    """The engines' names, made distinct when they are the same (a record's
    totals follow the names)."""
    if first != second:
        return first, second
    return f"{first} (1)", f"{second} (2)"


async def _first_failure(tasks: Sequence["asyncio.Future[None]"]) -> None:
    """Wait for every task; the first that fails makes the wait raise its error."""
    pending = set(tasks)
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            if task.cancelled():
                continue
            error = task.exception()
            if error is not None:
                raise error


_DEAL_TAGS = ("Colors", "Hand1", "Hand2", "Deck")


def check_resumed(records: Sequence[Game], settings: Settings, names: Tuple[str, str]
                  ) -> Optional[str]:
    """Why ``records`` are not the first games of this match (None when they are):
    each must be the round of its place, with the deal of the seed and the
    engines' names in their seats, and a Termination header."""
    for number, record in enumerate(records, 1):
        where = f"game {number}"
        if record.span.known:
            where = f"line {record.span.line}: game {number}"
        if record.errors:
            return f"{where} has a syntax error: {record.errors[0]}"
        if record.header("Round") != str(number):
            return f"{where} has Round {record.header('Round')!r}, not {number}"
        first = engine1_seat(number)
        seats = (names[0], names[1]) if first == 0 else (names[1], names[0])
        found = (record.header("Player1"), record.header("Player2"))
        if found != seats:
            return (f"{where} was played by {found[0]!r} and {found[1]!r}, not by "
                    f"{seats[0]!r} and {seats[1]!r}")
        deal = deal_for(settings.seed, (number + 1) // 2, settings.colors)
        if tuple(h for h in record.headers if h.name in _DEAL_TAGS) != deal.headers:
            return (f"{where} does not have the deal of seed {settings.seed} (the file "
                    f"says Event {record.header('Event')!r}): resume with the seed, and "
                    "the colours, of the interrupted run")
        try:
            counted = outcome(record, number)
        except ValueError as exc:
            return f"{where}: {exc}"
        report = check(record)
        if report.errors:
            error = report.errors[0]
            return f"{where}: {error.code} {error.message}"
        if counted.termination.cause == NORMAL and not report.complete:
            return (f"{where} ends before the draw pile is spent, though its Termination "
                    "says normal: the file was cut short")
    return None
