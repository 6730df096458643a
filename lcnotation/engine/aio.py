"""Driving an engine process with asyncio: :class:`AsyncEngineClient`.

The same client as :class:`~.client.EngineClient` (the same steps of the
conversation, the same errors), each call a coroutine, so that one event
loop drives many engines at once (``lcn match -j N`` does):

>>> import asyncio, sys
>>> from lcnotation import Card
>>> async def first_move():
...     async with AsyncEngineClient([sys.executable, "-m", "lcnotation", "bot", "greedy"]) as engine:
...         await engine.new_game("RGWBY", 0, [Card("W", r) for r in range(3, 11)])
...         return (await engine.go(5.0)).text
>>> asyncio.run(first_move())
'W3-D'

The engine's pipes are asyncio transports; a pidfd (Linux), or a check every
50 ms elsewhere, tells the moment the engine exits.
"""

from __future__ import annotations

import asyncio
import signal
import time
from typing import Dict, Generator, Iterable, List, Optional, Sequence, Tuple, TypeVar, Union

from ..lostcities.text.ast import Card, Move
from .client import Answer, Conversation
from .process import GRACE, POLL, EngineProcess, end_of_output, timed_out
from .protocol import (QUIT, EngineError, Handshake, LineBuffer, OptionValue, Read, Send, Step,
                       StepResult, drew_line)

__all__ = ["AsyncEngineClient", "AsyncChannel"]

_T = TypeVar("_T")


class _Output(asyncio.Protocol):
    """The engine's standard output, into a LineBuffer."""

    def __init__(self, channel: AsyncChannel) -> None:
        self._channel = channel

    def data_received(self, data: bytes) -> None:
        self._channel.buffer.feed(data)
        self._channel.wake()

    def eof_received(self) -> bool:
        self._channel.end_of_output()
        return False

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._channel.end_of_output()


class _Errors(asyncio.Protocol):
    """The engine's standard error, into its StderrTail."""

    def __init__(self, process: EngineProcess) -> None:
        self._tail = process.stderr

    def data_received(self, data: bytes) -> None:
        self._tail.feed(data)


class _Input(asyncio.BaseProtocol):
    """The engine's standard input; it knows when the engine closed it."""

    def __init__(self) -> None:
        self.lost = False

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self.lost = True


class AsyncChannel:
    """An engine's lines, read with a deadline, on the running event loop."""

    def __init__(self, process: EngineProcess) -> None:
        self.process = process
        self.buffer = LineBuffer()
        self._loop = asyncio.get_running_loop()
        self._waiter: Optional[asyncio.Future[None]] = None
        self._transports: List[asyncio.BaseTransport] = []
        self._input: Optional[asyncio.WriteTransport] = None
        self._input_protocol = _Input()
        self._poller: Optional[asyncio.TimerHandle] = None
        self._exit_seen = False

    async def open(self) -> None:
        loop, process = self._loop, self.process
        out, _ = await loop.connect_read_pipe(lambda: _Output(self), process.stdout)
        err, _ = await loop.connect_read_pipe(lambda: _Errors(process), process.stderr_pipe)
        self._input, _ = await loop.connect_write_pipe(lambda: self._input_protocol,
                                                       process.stdin)
        self._transports = [out, err, self._input]
        if process.pidfd is not None:
            loop.add_reader(process.pidfd, self._exited)
        else:
            self._poller = loop.call_later(POLL, self._poll)

    def wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def end_of_output(self) -> None:
        self.buffer.eof = True
        self.wake()

    def _exited(self) -> None:
        """The engine exited: what it wrote before is in the pipe, and reaches the
        buffer before the end of the output is declared (two turns of the loop)."""
        if self._exit_seen:
            return
        self._exit_seen = True
        if self.process.pidfd is not None:
            self._loop.remove_reader(self.process.pidfd)
        self._loop.call_soon(self._loop.call_soon, self.end_of_output)

    def _poll(self) -> None:
        if self.process.exited():
            self._exited()
        else:
            self._poller = self._loop.call_later(POLL, self._poll)

    def write(self, data: bytes) -> None:
        transport = self._input
        if transport is None or self._input_protocol.lost or transport.is_closing():
            raise self.process.crashed(self._gone())
        transport.write(data)

    def _gone(self) -> str:
        if self.process.exited():
            return self.process.how_it_ended()
        return "closed its input"

    def drain(self) -> List[str]:
        return self.buffer.pop_all()

    async def read_line(self, step: Read) -> str:
        deadline = step.deadline
        buffer = self.buffer
        loop = self._loop
        while True:
            line = buffer.pop()
            if line is not None:
                return line
            if buffer.eof:
                raise self.process.crashed(await self._ended(step.waiting_for))
            timer = None
            self._waiter = waiter = loop.create_future()
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self.process.timed_out(timed_out(step))
                timer = loop.call_at(loop.time() + left, self.wake)
            try:
                await waiter
            finally:
                self._waiter = None
                if timer is not None:
                    timer.cancel()

    async def _ended(self, waiting_for: str) -> str:
        if not self.process.exited():
            await wait_exit(self.process, 0.2)
        return end_of_output(self.process, self.buffer, waiting_for)

    def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
        if self.process.pidfd is not None and not self._exit_seen:
            self._loop.remove_reader(self.process.pidfd)
            self._exit_seen = True
        for transport in self._transports:
            transport.close()
        self._transports = []


async def wait_exit(process: EngineProcess, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for ``process`` to exit, without blocking the loop."""
    deadline = time.monotonic() + timeout
    delay = 0.002
    while not process.exited():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        await asyncio.sleep(min(delay, left))
        delay = min(delay * 2, POLL)
    return True


async def stop(process: EngineProcess, grace: float) -> None:
    """:meth:`EngineProcess.stop` without blocking the loop."""
    if process.stopped:
        return
    if grace > 0 and not await wait_exit(process, grace):
        process.signal_group(signal.SIGTERM)
        await wait_exit(process, grace)
    process.reap()


class AsyncEngineClient(Conversation[AsyncChannel]):
    """An engine process driven with asyncio; the arguments and methods of
    :class:`~.client.EngineClient`, each method a coroutine."""

    def __init__(self, command: Sequence[str], start_time: float = 10.0,
                 grace: float = GRACE, cwd: Optional[str] = None,
                 env: Optional[Dict[str, str]] = None) -> None:
        super().__init__(command, start_time, grace, cwd, env)
        self.process: Optional[EngineProcess] = None

    async def start(self) -> Handshake:
        if self.process is not None:
            raise RuntimeError("the engine is started already")
        self.process = EngineProcess(self.command, self.cwd, self.env)
        self._channel = AsyncChannel(self.process)
        await self._channel.open()
        return await self._drive(self._start_steps())

    async def _drive(self, steps: Generator[Step, StepResult, _T]) -> _T:
        channel = self._live()
        try:
            step = next(steps)
            while True:
                if isinstance(step, Read):
                    result: StepResult = await channel.read_line(step)
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

    async def set_option(self, name: str, value: Union[OptionValue, str]) -> None:
        self._send(self._set_line(name, value))

    async def new_game(self, colors: Iterable[str], seat: int, hand: Sequence[Card]) -> None:
        self._send(self._game_line(colors, seat, hand))

    async def opponent_moved(self, move: Move) -> None:
        self._tell_opponent(move)

    async def go(self, move_time: float, game_time: Optional[float] = None) -> Answer:
        return await self._drive(self._go_steps(move_time, game_time))

    async def drew(self, card: Card) -> None:
        self._send(drew_line(card))

    async def end_game(self, scores: Tuple[int, int], termination: str = "normal") -> None:
        self._send(self._end_line(scores, termination))

    async def quit(self) -> None:
        """Say ``quit`` and end the engine; safe to call more than once, and after
        an error.  Cancelled, it still kills and reaps the engine."""
        process = self.process
        if process is None or process.stopped:
            return
        channel = self._channel
        try:
            if self.failed is None and channel is not None:
                try:
                    channel.write(QUIT)
                except EngineError:
                    pass
            if channel is not None:
                channel.close()  # the input's end: the engine reads its end
            await stop(process, self.grace if self.failed is None else min(self.grace, 0.2))
        finally:
            if not process.stopped:
                process.stop(0)

    close = quit

    def kill(self) -> None:
        """End the engine now, without waiting (a runner that is interrupted)."""
        if self._channel is not None:
            self._channel.close()
        if self.process is not None and not self.process.stopped:
            self.process.stop(0)

    async def __aenter__(self) -> AsyncEngineClient:
        if self.process is None:
            try:
                await self.start()
            except BaseException:
                await self.quit()
                raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.quit()
