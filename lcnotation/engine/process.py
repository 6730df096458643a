"""Engine processes that the runner owns, and reading their lines on time.

Each engine starts in a session (so a process group) of its own, with its
standard input, output and error on pipes.  Its group is what the runner ends:
:meth:`EngineProcess.stop` closes its input, gives it a moment to exit, sends
SIGTERM to the whole group, then SIGKILL, and reaps it.  The group is killed
before the engine is reaped, so that the number cannot have been reused, and it
is killed even when the engine exited by itself: a child it left behind in its
group (one holding its output open, say) goes too.  (A child that leaves the
group, with ``setsid``, is out of reach, as with every runner that does not
use containers.)  :func:`stop_all` ends every engine still running (the
runner calls it on every way out; :mod:`atexit` too).

The engine's exit is seen without reaping it (``waitid`` with ``WNOWAIT``; on
Linux a pidfd wakes the reader at once), so an engine that dies while a child
of it keeps its output open is a crash at once, not a time-out later.

:class:`SyncChannel` reads lines with a deadline (``selectors``), keeping the
last lines of the engine's standard error for the messages; the asyncio
channel is in :mod:`.aio`.
"""

from __future__ import annotations

import atexit
import os
import select
import selectors
import signal
import subprocess
import time
from typing import IO, Dict, List, Optional, Sequence, Set

from .protocol import EngineCrashed, EngineTimeout, LineBuffer, Read

__all__ = ["EngineProcess", "SyncChannel", "StderrTail", "stop_all", "GRACE"]

#: How long an engine is given to exit after ``quit`` (and again after SIGTERM).
GRACE = 1.0
#: How often an engine's exit is looked for where no pidfd tells it (seconds).
POLL = 0.05

_LIVE: Set["EngineProcess"] = set()


class StderrTail:
    """The last ``size`` bytes an engine wrote to its standard error."""

    def __init__(self, size: int = 2048) -> None:
        self._size = size
        self._data = bytearray()
        self.total = 0

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        self._data += data[-self._size:]
        if len(self._data) > self._size:
            del self._data[:len(self._data) - self._size]

    def text(self, lines: int = 5) -> str:
        """Its last ``lines`` lines, as text (control characters kept out)."""
        text = self._data.decode("utf-8", "replace")
        kept = [ln.rstrip() for ln in text.splitlines() if ln.strip()][-lines:]
        return "\n".join("".join(ch if ch.isprintable() else "?" for ch in ln)
                         for ln in kept)


class EngineProcess:
    """An engine's process in a process group of its own; see the module.

    ``argv`` is the command line; OSError (no such program) becomes
    :class:`~.protocol.EngineCrashed`.
    """

    def __init__(self, argv: Sequence[str], cwd: Optional[str] = None,
                 env: Optional[Dict[str, str]] = None) -> None:
        if not argv:
            raise EngineCrashed("the engine's command line is empty")
        self.argv = list(argv)
        try:
            self.popen = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0, start_new_session=True, cwd=cwd, env=env)
        except OSError as exc:
            raise EngineCrashed(f"cannot start {self.argv[0]!r}: "
                                f"{exc.strerror or exc}") from None
        self.pid = self.popen.pid
        self.pidfd: Optional[int] = None
        pidfd_open = getattr(os, "pidfd_open", None)
        if pidfd_open is not None:
            try:
                self.pidfd = pidfd_open(self.pid)
            except OSError:  # an old kernel
                self.pidfd = None
        self.stderr = StderrTail()
        self._exit: Optional[str] = None
        self.stopped = False
        _LIVE.add(self)

    @property
    def stdin(self) -> IO[bytes]:
        assert self.popen.stdin is not None
        return self.popen.stdin

    @property
    def stdout(self) -> IO[bytes]:
        assert self.popen.stdout is not None
        return self.popen.stdout

    @property
    def stderr_pipe(self) -> IO[bytes]:
        assert self.popen.stderr is not None
        return self.popen.stderr

    # ------------------------------------------------------------ its exit

    def exited(self) -> bool:
        """Whether the engine has exited (it is not reaped: see the module)."""
        if self._exit is not None:
            return True
        if self.popen.returncode is not None:
            self._exit = _describe(self.popen.returncode)
            return True
        waitid = getattr(os, "waitid", None)
        if waitid is None:  # without waitid, the engine is reaped to be seen
            status = self.popen.poll()
            if status is None:
                return False
            self._exit = _describe(status)
            return True
        try:
            found = waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # reaped by someone else
            self._exit = "exited"
            return True
        if found is None or found.si_pid == 0:
            return False
        killed = found.si_code in (os.CLD_KILLED, os.CLD_DUMPED)
        self._exit = _describe(-found.si_status if killed else found.si_status)
        return True

    def how_it_ended(self) -> str:
        """``exited with status 1``, ``killed by SIGSEGV``, or ``is still running``."""
        return self._exit if self.exited() and self._exit else "is still running"

    def crashed(self, what: str) -> EngineCrashed:
        """The error for an engine that ``what`` (closed its output, ...), with the
        last lines of its standard error."""
        return EngineCrashed(what, self.stderr.text())

    def timed_out(self, what: str) -> EngineTimeout:
        return EngineTimeout(what, self.stderr.text())

    # ------------------------------------------------------------ ending it

    def signal_group(self, signum: int) -> None:
        """Send ``signum`` to the engine's process group (if anything is left of it)."""
        if self.stopped:
            return
        try:
            os.killpg(self.pid, signum)
        except (ProcessLookupError, PermissionError):
            pass

    def wait_exit(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the engine to exit (without reaping it)."""
        deadline = time.monotonic() + timeout
        while not self.exited():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self.pidfd is not None:
                select.select([self.pidfd], [], [], left)
            else:
                time.sleep(min(POLL, left))
        return True

    def reap(self) -> None:
        """Kill what is left of the group, then reap the engine and close its pipes."""
        self.signal_group(signal.SIGKILL)
        self.popen.wait()
        for pipe in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if pipe is not None:
                try:
                    pipe.close()
                except OSError:  # its last write failed: the engine is gone anyway
                    pass
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None
        self.stopped = True
        _LIVE.discard(self)

    def stop(self, grace: float = GRACE) -> None:
        """End the engine: its input closed, ``grace`` seconds to exit, SIGTERM to its
        group, ``grace`` more, then SIGKILL; reaped.  ``grace=0`` kills at once."""
        if self.stopped:
            return
        try:
            self.stdin.close()
        except OSError:
            pass
        if grace > 0 and not self.wait_exit(grace):
            self.signal_group(signal.SIGTERM)
            self.wait_exit(grace)
        self.reap()


def _describe(returncode: int) -> str:
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by {name}"
    return f"exited with status {returncode}"


def stop_all() -> None:
    """Kill and reap every engine still running (the last way out)."""
    for process in list(_LIVE):
        try:
            process.stop(0)
        except Exception:  # noqa: BLE001 - each gets its chance
            _LIVE.discard(process)


atexit.register(stop_all)


class SyncChannel:
    """An engine's lines, read with a deadline, for the synchronous client."""

    def __init__(self, process: EngineProcess) -> None:
        self.process = process
        self.buffer = LineBuffer()
        self._out = process.stdout.fileno()
        self._err = process.stderr_pipe.fileno()
        self._in = process.stdin.fileno()
        os.set_blocking(self._out, False)
        os.set_blocking(self._err, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)
        self._selector.register(self._err, selectors.EVENT_READ)
        if process.pidfd is not None:
            self._selector.register(process.pidfd, selectors.EVENT_READ)

    def write(self, data: bytes) -> None:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._in, view):]
        except OSError:  # a broken pipe: the engine is gone
            raise self.process.crashed(self._gone()) from None

    def _gone(self) -> str:
        if self.process.exited() or self.process.wait_exit(0.2):
            return self.process.how_it_ended()
        return "closed its input"

    def _read(self, fd: int) -> Optional[bytes]:
        """What ``fd`` holds now (None: nothing yet; b"": its end, unregistered)."""
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return None
        except OSError:  # the pipe broke: its end
            data = b""
        if not data:
            self._selector.unregister(fd)
        return data

    def _read_out(self) -> None:
        """Read what the engine's output holds now."""
        while not self.buffer.eof:
            data = self._read(self._out)
            if data is None:
                return
            if not data:
                self.buffer.eof = True
                return
            self.buffer.feed(data)
            if len(data) < 65536:
                return

    def _read_err(self) -> None:
        data = self._read(self._err)
        if data:
            self.process.stderr.feed(data)

    def _handle(self, timeout: Optional[float]) -> None:
        for key, _ in self._selector.select(timeout):
            fd = key.fd
            if fd == self._out:
                self._read_out()
            elif fd == self._err:
                self._read_err()
            else:  # the pidfd: the engine exited; what it wrote before is in the pipe
                self._selector.unregister(fd)
                self._read_out()
                self.buffer.eof = True
        if self.process.pidfd is None and not self.buffer.eof and self.process.exited():
            self._read_out()
            self.buffer.eof = True

    def drain(self) -> List[str]:
        """The lines the engine has written so far, without waiting."""
        if not self.buffer.eof:
            self._handle(0)
        return self.buffer.pop_all()

    def read_line(self, step: Read) -> str:
        """The next line; EngineTimeout after the step's deadline (a
        ``time.monotonic()``), EngineCrashed at the end of the output,
        ProtocolError over a limit."""
        deadline = step.deadline
        buffer = self.buffer
        while True:
            line = buffer.pop()
            if line is not None:
                return line
            if buffer.eof:
                raise self.process.crashed(self._ended(step.waiting_for))
            if deadline is None:
                timeout: Optional[float] = None if self.process.pidfd is not None else POLL
            else:
                timeout = deadline - time.monotonic()
                if timeout <= 0:
                    raise self.process.timed_out(timed_out(step))
                if self.process.pidfd is None:
                    timeout = min(timeout, POLL)
            self._handle(timeout)

    def _ended(self, waiting_for: str) -> str:
        if not self.process.exited():
            self.process.wait_exit(0.2)
        return end_of_output(self.process, self.buffer, waiting_for)

    def close(self) -> None:
        self._selector.close()


def timed_out(step: Read) -> str:
    """What an engine that did not answer ``step`` in time did."""
    return f"did not send {step.waiting_for} within {step.seconds:g} s"


def end_of_output(process: EngineProcess, buffer: LineBuffer, waiting_for: str) -> str:
    """What an engine whose output ended did: ``exited with status 1 before its
    answer to go``, and the line it left unfinished, if any."""
    how = process.how_it_ended() if process.exited() else "closed its output"
    tail = buffer.tail
    left = f" (it left {tail[:40]!r} unfinished)" if tail else ""
    return f"{how} before {waiting_for}{left}"
