"""Driving an engine process: the synchronous client.

>>> import sys
>>> from lcnotation import Card
>>> with EngineClient([sys.executable, "-m", "lcnotation", "bot", "greedy"]) as engine:
...     hand = [Card("R", r) for r in (2, 3, 4, 5, 6, 7, 8, 9)]
...     engine.new_game("RGWBY", 0, hand)
...     answer = engine.go(5.0)
...     engine.name, answer.move.card.color
('Greedy', 'R')

:class:`EngineClient` starts the engine (in a process group of its own, see
:mod:`.process`), does the handshake within ``start_time`` seconds, and then
sends the runner's messages of ``spec/engine-protocol.md``: :meth:`new_game`,
:meth:`opponent_moved`, :meth:`go` (which waits for the answer, within the
time given), :meth:`drew`, :meth:`end_game`, :meth:`quit`.  What goes wrong
with the engine raises a :class:`~.protocol.EngineError`:
:class:`~.protocol.EngineTimeout`, :class:`~.protocol.EngineCrashed` or
:class:`~.protocol.ProtocolError`, each with the engine's last lines of
standard error; after one the engine is of no more use (:meth:`quit` still
ends it).  :class:`~.aio.AsyncEngineClient` is the same for asyncio: the two
share every step of the conversation (:class:`Conversation`), only the input
and output differ.
"""

from __future__ import annotations

import time
from typing import (Dict, Generator, Generic, Iterable, NamedTuple, Optional, Protocol,
                    Sequence, Tuple, TypeVar, Union)

from ..lostcities.text.ast import Card, Move
from .process import GRACE, EngineProcess, SyncChannel
from .protocol import (QUIT, Drain, EngineError, Handshake, HandshakeReader, Option,
                       OptionValue, ProtocolError, Read, Send, Step, StepResult, drew_line,
                       end_line, game_line, go_line, hello, move_line, option_value, read_move,
                       set_line, split_line, unexpected)

__all__ = ["EngineClient", "Answer", "Conversation"]


class Answer(NamedTuple):
    """An engine's answer to ``go``: the move, as the engine wrote it, and how long
    the answer took (seconds, from the request written to the answer read)."""

    move: Move
    text: str
    seconds: float


_T = TypeVar("_T")


class Channel(Protocol):
    """What the conversation needs of a client's input and output."""

    def write(self, data: bytes) -> None: ...


_C = TypeVar("_C", bound=Channel)


class Conversation(Generic[_C]):
    """What both clients say and expect, without input or output.

    The conversations that wait for answers are generators of :class:`Send`,
    :class:`Read` and :class:`Drain` steps, which a client's driver carries out
    and answers (a line for Read, the lines so far for Drain).
    """

    def __init__(self, command: Sequence[str], start_time: float = 10.0,
                 grace: float = GRACE, cwd: Optional[str] = None,
                 env: Optional[Dict[str, str]] = None) -> None:
        self.command = list(command)
        self.start_time = start_time
        self.grace = grace
        self.cwd = cwd
        self.env = env
        self.handshake: Optional[Handshake] = None
        #: The error that made the engine useless, once there was one.
        self.failed: Optional[EngineError] = None
        self._in_game = False
        self._channel: Optional[_C] = None
        # The opponent's move waits to go out with the next message (``go`` or
        # ``end``, which always follow it): one write, one wake-up of the engine.
        self._pending = b""

    # ------------------------------------------------------------ what it said

    @property
    def name(self) -> str:
        """The engine's name, from its handshake."""
        return self._shook().name

    @property
    def author(self) -> str:
        return self._shook().author

    @property
    def options(self) -> Tuple[Option, ...]:
        """The options the engine declared."""
        return self._shook().options

    def _shook(self) -> Handshake:
        if self.handshake is None:
            raise RuntimeError("the engine is not started: call start() (or use `with`)")
        return self.handshake

    # ------------------------------------------------------------ the channel

    def _live(self) -> _C:
        if self._channel is None:
            raise RuntimeError("the engine is not started: call start() (or use `with`)")
        if self.failed is not None:
            raise self.failed
        return self._channel

    def _send(self, data: bytes) -> None:
        """Write ``data`` (after the opponent's move, if one waits)."""
        pending, self._pending = self._pending, b""
        try:
            self._live().write(pending + data)
        except EngineError as exc:
            self.failed = exc
            raise

    # ------------------------------------------------------------ the lines

    def _start_steps(self) -> Generator[Step, StepResult, Handshake]:
        yield Send(hello())
        reader = HandshakeReader()
        deadline = time.monotonic() + self.start_time
        while True:
            line = yield Read(deadline, "its handshake (name, options, ok)", self.start_time)
            assert isinstance(line, str)
            found = reader.feed(line)
            if found is not None:
                self.handshake = found
                return found

    def _go_steps(self, move_time: float, game_time: Optional[float]
                  ) -> Generator[Step, StepResult, Answer]:
        if not self._in_game:
            raise RuntimeError("go() outside a game: call new_game() first")
        stray = yield Drain()
        assert isinstance(stray, list)
        for written in stray:
            word, _ = split_line(written)
            if word not in ("info", ""):
                raise ProtocolError(f"wrote {written[:60]!r} when no answer was asked for")
        pending, self._pending = self._pending, b""
        yield Send(pending + go_line(move_time, game_time))
        start = time.monotonic()
        deadline = start + move_time
        while True:
            line = yield Read(deadline, "its answer to go", move_time)
            assert isinstance(line, str)
            word, rest = split_line(line)
            if word == "move":
                seconds = time.monotonic() - start
                try:
                    return Answer(read_move(rest), rest, seconds)
                except ProtocolError as exc:
                    raise ProtocolError(f"answered {exc.message}") from None
            if word not in ("info", ""):
                raise unexpected(line, "move MOVE (or info)")

    def _tell_opponent(self, move: Move) -> None:
        """``opponent MOVE``, sent with the next message."""
        if not self._in_game:
            raise RuntimeError("opponent_moved() outside a game: call new_game() first")
        self._pending += move_line("opponent", move)

    def _set_line(self, name: str, value: Union[OptionValue, str]) -> bytes:
        option, parsed = option_value(self.options, name,
                                      value if isinstance(value, str) else _text(value))
        return set_line(option, parsed)

    def _game_line(self, colors: Iterable[str], seat: int, hand: Sequence[Card]) -> bytes:
        if seat not in (0, 1):
            raise ValueError(f"seat {seat!r}: 0 (Player1, who moves first) or 1")
        self._in_game = True
        return game_line(tuple(colors), seat, hand)

    def _end_line(self, scores: Tuple[int, int], termination: str) -> bytes:
        self._in_game = False
        return end_line(scores, termination)


def _text(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class EngineClient(Conversation[SyncChannel]):
    """An engine process driven synchronously; see the module.

    ``command`` is the engine's command line (a list of words); ``start_time``
    the seconds it has to answer the handshake; ``grace`` the seconds it has to
    exit after ``quit`` (and again after SIGTERM) before it is killed.
    """

    def __init__(self, command: Sequence[str], start_time: float = 10.0,
                 grace: float = GRACE, cwd: Optional[str] = None,
                 env: Optional[Dict[str, str]] = None) -> None:
        super().__init__(command, start_time, grace, cwd, env)
        self.process: Optional[EngineProcess] = None

    def start(self) -> Handshake:
        """Start the engine and read its handshake."""
        if self.process is not None:
            raise RuntimeError("the engine is started already")
        self.process = EngineProcess(self.command, self.cwd, self.env)
        self._channel = SyncChannel(self.process)
        return self._drive(self._start_steps())

    def _drive(self, steps: Generator[Step, StepResult, _T]) -> _T:
        channel = self._live()
        try:
            step = next(steps)
            while True:
                if isinstance(step, Read):
                    result: StepResult = channel.read_line(step)
                elif isinstance(step, Send):
                    channel.write(step.data)
                    channel.buffer.expect_answer()
                    result = None
                else:
                    result = channel.drain()
                step = steps.send(result)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        except EngineError as exc:
            self.failed = exc
            raise

    def set_option(self, name: str, value: Union[OptionValue, str]) -> None:
        """Set an option the engine declared (ValueError for an unknown one, or a
        value of the wrong type)."""
        self._send(self._set_line(name, value))

    def new_game(self, colors: Iterable[str], seat: int, hand: Sequence[Card]) -> None:
        """A new game: the colour set, the engine's seat (0: Player1, who moves
        first) and its hand."""
        self._send(self._game_line(colors, seat, hand))

    def opponent_moved(self, move: Move) -> None:
        """The opponent made ``move`` (written with the next message, the engine's
        ``go`` or ``end``, in one write)."""
        self._tell_opponent(move)

    def go(self, move_time: float, game_time: Optional[float] = None) -> Answer:
        """Ask for a move within ``move_time`` seconds (``game_time``: what is left of
        the engine's time for the game, which it is told); its answer."""
        return self._drive(self._go_steps(move_time, game_time))

    def drew(self, card: Card) -> None:
        """Tell the engine the card its move drew."""
        self._send(drew_line(card))

    def end_game(self, scores: Tuple[int, int], termination: str = "normal") -> None:
        """The game is over: the scores (Player1's first) and how it ended."""
        self._send(self._end_line(scores, termination))

    def quit(self) -> None:
        """Say ``quit`` and end the engine (killing its group if it lingers);
        safe to call more than once, and after an error."""
        process = self.process
        if process is None or process.stopped:
            return
        try:
            if self.failed is None and self._channel is not None:
                self._channel.write(QUIT)
        except EngineError:
            pass
        grace = self.grace if self.failed is None else min(self.grace, 0.2)
        process.stop(grace)
        if self._channel is not None:
            self._channel.close()

    close = quit

    def __enter__(self) -> EngineClient:
        if self.process is None:
            try:
                self.start()
            except BaseException:
                self.quit()
                raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()
