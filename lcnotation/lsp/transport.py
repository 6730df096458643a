"""How the server talks: its own frame reading, on standard input and output or TCP.

pygls reads frames itself, but a malformed frame stopped it for good, a
body that was not JSON or params of the wrong types got no answer, and on
TCP every connection shared one server.  Here each session is a
:class:`Connection`: its own server (made by the factory it is given), its
own :class:`~.frames.FrameReader`; pygls only handles the messages.

- A malformed frame is logged, and reading goes on at the next frame.
- A body that is not JSON is answered -32700, a message that is not
  JSON-RPC -32600, params of the wrong types -32602; a request before
  ``initialize`` -32002, and after ``shutdown`` -32600.
- ``exit`` ends the process: status 0 after ``shutdown``, 1 without.
- SIGINT, SIGTERM and SIGHUP end it at once, with status 128 + the signal's
  number and one line on standard error (there is nothing to save).
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import socketserver
import sys
import threading
from types import FrameType
from typing import Any, Callable, Dict, List, Optional, Protocol, Tuple

import cattrs
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from .frames import (INVALID_PARAMS, INVALID_REQUEST, FrameReader, Malformed,
                     error_response, frame, message_of)

__all__ = ["Session", "Connection", "serve_stdio", "serve_tcp", "ListenError",
           "one_line_logging", "stop_on_signals", "SERVER_NOT_INITIALIZED"]

log = logging.getLogger("lcnotation.lsp")

#: The LSP's error code for a request that comes before ``initialize``.
SERVER_NOT_INITIALIZED = -32002


class Session(Protocol):
    """What a connection needs of a server (:class:`~.server.LcnLanguageServer`)."""

    #: The status the process exits with, once ``exit`` came (None before).
    exit_code: Optional[int]

    @property
    def protocol(self) -> Any: ...

    @property
    def shut_down(self) -> bool: ...


class _Writer:
    """pygls' writer: whole frames to ``send``."""

    def __init__(self, send: Callable[[bytes], None]) -> None:
        self._send = send

    def write(self, data: bytes) -> None:
        self._send(data)

    def close(self) -> None:
        pass


class Connection:
    """One client's session with its own server."""

    def __init__(self, server: Session, send: Callable[[bytes], None]) -> None:
        self.server = server
        self.reader = FrameReader()
        self._send = send
        self.initialized = False
        server.protocol.set_writer(_Writer(send))

    def received(self, data: bytes) -> bool:
        """Handle what ``data`` completes; False once the session is over."""
        for event in self.reader.feed(data):
            if not self._event(event):
                return False
        return True

    def ended(self) -> None:
        """The client's input ended."""
        for event in self.reader.end():
            self._event(event)

    def reply(self, message: Dict[str, Any]) -> None:
        self._send(frame(message))

    def _event(self, event: "bytes | Malformed") -> bool:
        if isinstance(event, Malformed):
            log.warning("malformed frame: %s", event.message)
            return True
        message, error = message_of(event)
        if error is not None:
            log.warning("%s", error["error"]["message"])
            self.reply(error)
            return True
        assert message is not None
        self.dispatch(message)
        return self.server.exit_code is None

    def dispatch(self, message: Dict[str, Any]) -> None:
        protocol = self.server.protocol
        method = message.get("method")
        ident = message.get("id")
        request = method is not None and "id" in message
        if method == lsp.INITIALIZE:
            self.initialized = True
        elif not self.initialized and method is not None and method != lsp.EXIT:
            if request:
                self.reply(error_response(ident, SERVER_NOT_INITIALIZED,
                                          f"the server is not initialized: {method} must "
                                          "come after an initialize request"))
            return  # a notification before initialize is dropped (LSP)
        if request and self.server.shut_down and method != lsp.EXIT:
            self.reply(error_response(ident, INVALID_REQUEST,
                                      f"the server is shut down: {method} after shutdown"))
            return
        try:
            typed = protocol.structure_message(message)
        except JsonRpcException as exc:
            reason = _reason(exc)
            log.warning("%s: invalid params: %s", method, reason)
            if request:
                self.reply(error_response(ident, INVALID_PARAMS,
                                          f"Invalid params for {method}: {reason}"))
            elif method is not None:  # a notification has no answer: say it
                protocol.notify(lsp.WINDOW_SHOW_MESSAGE, lsp.ShowMessageParams(
                    lsp.MessageType.Error, f"lcn: {method} ignored: invalid params: {reason}"))
            return
        protocol.handle_message(typed)


def _reason(exc: BaseException) -> str:
    """Why params could not be read, in one line."""
    cause = exc.__cause__
    if isinstance(cause, cattrs.ClassValidationError):
        found = cattrs.transform_error(cause)
        if found:
            return str(found[0])[:200]
    return (str(cause) or type(cause).__name__)[:200] if cause is not None else str(exc)


def _write_all(fd: int) -> Callable[[bytes], None]:
    def send(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    return send


def serve_stdio(server: Session, fd_in: int, fd_out: int) -> int:
    """Serve one client on two file descriptors; the exit status."""
    connection = Connection(server, _write_all(fd_out))
    try:
        while True:
            data = os.read(fd_in, 1 << 16)
            if not data:
                connection.ended()
                break
            if not connection.received(data):
                break
    except (BrokenPipeError, ConnectionError):
        log.warning("the client went away")
    return _status(server)


def _status(server: Session) -> int:
    if server.exit_code is not None:
        return server.exit_code
    return 0 if server.shut_down else 1


class ListenError(Exception):
    """The TCP server cannot listen where it was asked to."""


class _Listener(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True

    def __init__(self, address: Tuple[str, int], factory: Callable[[], Session]) -> None:
        self.factory = factory
        self.status: Optional[int] = None
        super().__init__(address, _Handler)


class _Handler(socketserver.BaseRequestHandler):

    def handle(self) -> None:
        sock: socket.socket = self.request
        listener = self.server
        assert isinstance(listener, _Listener)
        session = listener.factory()
        connection = Connection(session, sock.sendall)
        try:
            while True:
                data = sock.recv(1 << 16)
                if not data:
                    connection.ended()
                    break
                if not connection.received(data):
                    break
        except OSError:
            log.warning("a client went away")
        if session.exit_code is not None:  # exit ends the process, as on stdio
            listener.status = session.exit_code
            threading.Thread(target=listener.shutdown, daemon=True).start()


def serve_tcp(host: str, port: int, factory: Callable[[], Session]) -> int:
    """Listen on ``host:port``, each connection with a server of its own from
    ``factory``, until a client sends ``exit``; that exit's status."""
    try:
        listener = _Listener((host, port), factory)
    except socket.gaierror as exc:
        raise ListenError(f"cannot listen on {host!r}: {exc.strerror or exc}") from None
    except (OSError, OverflowError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ListenError(f"cannot listen on {host}:{port}: {reason}") from None
    with listener:
        where = listener.socket.getsockname()
        log.info("listening on %s:%s", where[0], where[1])
        listener.serve_forever(poll_interval=0.2)
    return listener.status if listener.status is not None else 0


_SIGNALS = tuple(s for s in (getattr(signal, n, None) for n in ("SIGINT", "SIGTERM", "SIGHUP"))
                 if s is not None)


def stop_on_signals() -> List[Tuple[int, Any]]:
    """End the process on SIGINT, SIGTERM and SIGHUP, at once, whatever the
    server is doing: exit status 128 + the signal's number, one line on
    standard error.  The previous handlers, to put back."""

    def stop(signum: int, frame: Optional[FrameType]) -> None:
        try:
            os.write(2, f"lcn server: stopped by {signal.Signals(signum).name}\n".encode())
        finally:
            os._exit(128 + signum)

    previous = []
    for s in _SIGNALS:
        if signal.getsignal(s) is not signal.SIG_IGN:
            previous.append((s, signal.signal(s, stop)))
    return previous


def one_line_logging(level: int = logging.WARNING) -> None:
    """The server's log on standard error: one line a record, no tracebacks."""

    class OneLine(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            text = record.getMessage().split("\n", 1)[0][:500]
            if record.exc_info and record.exc_info[1] is not None:
                exc = record.exc_info[1]
                text += f" ({type(exc).__name__}: {str(exc)[:200]})"
            return f"lcn server: {text}"

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
