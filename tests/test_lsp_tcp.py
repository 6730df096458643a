"""``lcn server --tcp``: the same server on a TCP port of 127.0.0.1, for debugging."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from typing import Any, Dict

import pytest

pytest.importorskip("pygls")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _send(sock: socket.socket, message: Dict[str, Any]) -> None:
    body = json.dumps(message).encode("utf-8")
    sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def _receive(stream: Any) -> Dict[str, Any]:
    length = 0
    while True:
        line = stream.readline()
        assert line, "the server closed the connection"
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    message: Dict[str, Any] = json.loads(stream.read(length))
    return message


def _response(stream: Any, ident: int) -> Dict[str, Any]:
    """The response to request ``ident`` (notifications on the way are skipped)."""
    while True:
        message = _receive(stream)
        if message.get("id") == ident:
            return message


def test_the_server_answers_on_tcp_and_lints_a_document():
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "lcnotation", "server", "--tcp",
                               "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "the server did not listen"
                time.sleep(0.1)
        with sock, sock.makefile("rb") as stream:
            _send(sock, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"processId": None, "rootUri": None, "capabilities": {}}})
            caps = _response(stream, 1)["result"]["capabilities"]
            assert caps["documentFormattingProvider"] and caps["hoverProvider"]
            _send(sock, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
            _send(sock, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": {"uri": "untitled:game.lcn", "languageId": "lcn",
                                 "version": 1, "text": "1. R3-D\n2. B4-D\n3. R2-D\n"}}})
            while True:  # push diagnostics: the client declared no pull support
                note = _receive(stream)
                if note.get("method") == "textDocument/publishDiagnostics":
                    break
            codes = [d["code"] for d in note["params"]["diagnostics"]]
            assert "R101" in codes  # the first player's Red 2 cannot follow their Red 3
            _send(sock, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
            assert _response(stream, 2)["result"] is None
            _send(sock, {"jsonrpc": "2.0", "method": "exit"})
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
