"""The language server under abuse (issue 26 items 3-12, issue 24 defects 9 and 10).

Real ``lcn server`` processes over standard input and output and over TCP,
spoken to in raw frames: malformed frames, bodies that are not JSON, params
of the wrong types, signals, a second TCP client, hostile Markdown, a
configuration that changes under the server.  Each answer is waited for
with a deadline, so a server that stays silent fails instead of hanging.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, IO, List, Optional

import pytest

pytest.importorskip("pygls")

from hypothesis import given, settings, strategies as st  # noqa: E402

from lcnotation.core.positions import LineIndex  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
SERVER = [sys.executable, "-m", "lcnotation", "server"]
WAIT = float(os.environ.get("LCN_TEST_WAIT", "30"))  # seconds for an answer


def frame(message: Any) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_frames(stream: IO[bytes], into: "queue.Queue[Optional[Dict[str, Any]]]") -> None:
    try:
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None
            into.put(json.loads(stream.read(length)))
    except (OSError, ValueError):
        return
    finally:
        into.put(None)


class Client:
    """A raw client: frames out, every message in, answers waited for."""

    def __init__(self, send: Any, stream: IO[bytes]) -> None:
        self._send = send
        self.messages: "queue.Queue[Optional[Dict[str, Any]]]" = queue.Queue()
        self.seen: List[Dict[str, Any]] = []
        threading.Thread(target=_read_frames, args=(stream, self.messages), daemon=True).start()

    def send(self, message: Any) -> None:
        self._send(frame(message))

    def raw(self, data: bytes) -> None:
        self._send(data)

    def next(self, timeout: float = WAIT) -> Optional[Dict[str, Any]]:
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("the server did not answer") from None
        if message is not None:
            self.seen.append(message)
        return message

    def wait(self, test: Any, timeout: float = WAIT) -> Dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.01, deadline - time.monotonic()))
            assert message is not None, "the server closed the connection"
            if test(message):
                return message

    def response(self, ident: Any) -> Dict[str, Any]:
        return self.wait(lambda m: m.get("id") == ident and "method" not in m)

    def notification(self, method: str) -> Dict[str, Any]:
        return self.wait(lambda m: m.get("method") == method)

    def request(self, ident: int, method: str, params: Any) -> Dict[str, Any]:
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        return self.response(ident)

    def initialize(self) -> None:
        result = self.request(1, "initialize", {"processId": None, "rootUri": None,
                                                "capabilities": {}})
        assert "capabilities" in result["result"]
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def open(self, uri: str, text: str) -> Dict[str, Any]:
        self.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "lcn", "version": 1, "text": text}}})
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri)


class Stdio(Client):
    def __init__(self, cwd: Optional[Path] = None) -> None:
        self.process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=ENV, cwd=cwd)
        assert self.process.stdin is not None and self.process.stdout is not None
        stdin = self.process.stdin

        def send(data: bytes) -> None:
            stdin.write(data)
            stdin.flush()

        super().__init__(send, self.process.stdout)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def stderr(self) -> str:
        assert self.process.stderr is not None
        return self.process.stderr.read().decode("utf-8", "replace")


@pytest.fixture
def server() -> Any:
    client = Stdio()
    yield client
    client.close()


def _hover(uri: str, line: Any, character: Any = 0) -> Dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


GAME = '[Player1 "Ann"]\n[Player2 "Bob"]\n1. R3-D 2. B4-D 3. R2-D\n'


# ------------------------------------------------------------- frames (item 4)

@pytest.mark.parametrize("bad", [
    b"Content-Length: abc\r\n\r\n{}",
    b"Content-Length: 5000\r\n\r\n" + json.dumps({"jsonrpc": "2.0", "method": "x"}).encode(),
    b"Content-Type: text/plain\r\n\r\n{}",
    b"garbage without a colon\r\n\r\n",
    b"Content-Length: 99999999999999999999\r\n\r\n{}",
], ids=["not-a-number", "shorter-than-said", "no-length", "no-colon", "too-large"])
def test_a_malformed_frame_is_logged_and_the_next_frame_is_answered(server: Stdio,
                                                                      bad: bytes) -> None:
    server.raw(bad)
    server.initialize()
    server.open("untitled:a.lcn", GAME)
    hover = server.request(2, "textDocument/hover", _hover("untitled:a.lcn", 2, 3))
    assert "Ann" in hover["result"]["contents"]["value"]
    server.process.stdin.close()  # type: ignore[union-attr]
    assert server.process.wait(WAIT) == 1  # no shutdown came
    assert "malformed frame" in server.stderr()


# ------------------------------------------------------ messages (items 4, 5)

def test_a_body_that_is_not_json_is_answered_parse_error(server: Stdio) -> None:
    server.raw(frame(b'{"jsonrpc": "2.0", "id": 1, '))
    answer = server.next()
    assert answer is not None and answer["error"]["code"] == -32700 and answer["id"] is None
    server.raw(frame(b"\xff\xfe"))
    answer = server.next()
    assert answer is not None and answer["error"]["code"] == -32700
    server.initialize()  # and the session goes on


@pytest.mark.parametrize("message, ident", [
    ([{"jsonrpc": "2.0", "id": 7, "method": "initialize"}], None),
    ({"jsonrpc": "2.0", "id": 7, "method": 12}, 7),
    ({"jsonrpc": "1.0", "id": 7, "method": "initialize"}, 7),
    ({"jsonrpc": "2.0", "id": [1], "method": "initialize"}, None),
    ("just a string", None),
])
def test_a_message_that_is_not_json_rpc_is_answered_invalid_request(server: Stdio,
                                                                    message: Any,
                                                                    ident: Any) -> None:
    server.send(message)
    answer = server.next()
    assert answer is not None and answer["error"]["code"] == -32600 and answer["id"] == ident


@pytest.mark.parametrize("position", ['"y"', '{"line": 1099511627776, "character": 0}',
                                      '{"line": -3, "character": 0}', '{"line": 0}'])
def test_params_of_the_wrong_types_are_answered_invalid_params(server: Stdio,
                                                               position: str) -> None:
    server.initialize()
    server.open("untitled:a.lcn", GAME)
    body = ('{"jsonrpc": "2.0", "id": 9, "method": "textDocument/hover", "params": '
            '{"textDocument": {"uri": "untitled:a.lcn"}, "position": %s}}' % position)
    server.raw(frame(body.encode()))
    answer = server.response(9)
    assert answer["error"]["code"] == -32602
    assert "position" in answer["error"]["message"]
    hover = server.request(10, "textDocument/hover", _hover("untitled:a.lcn", 2, 3))
    assert hover["result"] is not None


def test_a_notification_with_params_of_the_wrong_types_is_said(server: Stdio) -> None:
    server.initialize()
    server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": "untitled:a.lcn", "languageId": "lcn", "version": "one",
                         "text": GAME}}})
    shown = server.notification("window/showMessage")["params"]
    assert shown["type"] == 1 and "didOpen" in shown["message"]
    assert "invalid params" in shown["message"] and "version" in shown["message"]


def test_a_request_before_initialize_and_after_shutdown_is_refused(server: Stdio) -> None:
    answer = server.request(3, "textDocument/hover", _hover("untitled:a.lcn", 0))
    assert answer["error"]["code"] == -32002
    server.initialize()
    assert server.request(4, "shutdown", None)["result"] is None
    answer = server.request(5, "textDocument/hover", _hover("untitled:a.lcn", 0))
    assert answer["error"]["code"] == -32600
    server.send({"jsonrpc": "2.0", "method": "exit"})
    assert server.process.wait(WAIT) == 0


# --------------------------------------------------------- exit (defect 9)

def test_exit_without_shutdown_exits_1(server: Stdio) -> None:
    server.initialize()
    server.send({"jsonrpc": "2.0", "method": "exit"})
    assert server.process.wait(WAIT) == 1


# ------------------------------------------------------ handlers (item 9)

def test_a_handler_that_raises_keeps_the_document_and_says_so(tmp_path: Path) -> None:
    # A pyproject.toml nested 5,000 deep: reading it raises RecursionError.
    (tmp_path / "pyproject.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    uri = (tmp_path / "a.lcn").as_uri()
    client = Stdio()
    try:
        client.initialize()
        client.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "lcn", "version": 1, "text": GAME}}})
        shown = client.notification("window/showMessage")
        assert shown["params"]["type"] == 1 and "configuration" in shown["params"]["message"]
        hover = client.request(2, "textDocument/hover", _hover(uri, 2, 3))
        assert hover["result"] is not None and "Ann" in hover["result"]["contents"]["value"]
    finally:
        client.close()


def test_formatting_a_document_with_syntax_errors_says_why(server: Stdio) -> None:
    server.initialize()
    server.open("untitled:a.lcn", "1. R3-D 2. R11-D\n")
    answer = server.request(2, "textDocument/formatting", {
        "textDocument": {"uri": "untitled:a.lcn"},
        "options": {"tabSize": 4, "insertSpaces": True}})
    assert answer["result"] is None
    shown = [m for m in server.seen if m.get("method") == "window/showMessage"]
    assert shown and "not formatted" in shown[-1]["params"]["message"]
    assert "1:13" in shown[-1]["params"]["message"]  # where the first error is


# ------------------------------------------------------------ leak (item 6)

def test_notifications_leave_no_future_behind() -> None:
    from lsprotocol import types as lsp

    from lcnotation.lsp.server import make_server

    server = make_server()
    protocol = server.protocol
    sent: List[bytes] = []

    class Writer:
        def write(self, data: bytes) -> None:
            sent.append(data)

        def close(self) -> None:
            pass

    protocol.set_writer(Writer())

    def handle(method: str, params: Any, ident: Optional[int] = None) -> None:
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if ident is not None:
            message["id"] = ident
        protocol.handle_message(protocol.structure_message(message))

    handle(lsp.INITIALIZE, {"processId": None, "rootUri": None, "capabilities": {}}, 1)
    handle(lsp.INITIALIZED, {})
    for n in range(50):
        uri = f"untitled:{n}.lcn"
        handle(lsp.TEXT_DOCUMENT_DID_OPEN, {"textDocument": {
            "uri": uri, "languageId": "lcn", "version": 1, "text": GAME}})
        handle(lsp.TEXT_DOCUMENT_DID_CHANGE, {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": {"line": 2, "character": 3},
                                          "end": {"line": 2, "character": 4}}, "text": "5"}]})
        handle(lsp.TEXT_DOCUMENT_DID_CLOSE, {"textDocument": {"uri": uri}})
    assert protocol._request_futures == {}
    assert server.documents == {}


# ------------------------------------------------------------ size (item 8)

def test_a_huge_game_is_not_read_and_the_server_says_so(server: Stdio) -> None:
    server.initialize()
    note = server.open("untitled:junk.lcn", "x\n" * 20_000)
    diagnostics = note["params"]["diagnostics"]
    assert len(diagnostics) == 1
    assert "characters long" in diagnostics[0]["message"] and diagnostics[0]["severity"] == 3


def test_at_most_so_many_diagnostics_are_published(server: Stdio) -> None:
    from lcnotation.lsp.server import MAX_DIAGNOSTICS

    server.initialize()
    text = "".join(f'[Round "{n}"]\n1. R3-D 2. x\n\n' for n in range(MAX_DIAGNOSTICS + 10))
    note = server.open("untitled:many.lcn", text)
    diagnostics = note["params"]["diagnostics"]
    assert len(diagnostics) == MAX_DIAGNOSTICS + 1
    assert "more findings are not shown" in diagnostics[-1]["message"]


# ------------------------------------------- configuration (defect 10, server side)

def test_a_changed_pyproject_is_noticed_without_file_watching(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.lcnotation]\n")
    uri = (tmp_path / "a.lcn").as_uri()
    client = Stdio()
    try:
        client.initialize()
        note = client.open(uri, "1. R3-D\n2. B4-D\n3. R2-D\n")
        assert "R101" in [d["code"] for d in note["params"]["diagnostics"]]
        config.write_text('[tool.lcnotation]\nignore = ["R101"]\n')
        stat = config.stat()
        os.utime(config, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
        client.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": "1. R3-D\n2. B4-D\n3. R2-D \n"}]}})
        note = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                           and m["params"].get("version") == 2)
        assert "R101" not in [d["code"] for d in note["params"]["diagnostics"]]
    finally:
        client.close()


# ------------------------------------------------------- Markdown (item 11)

@pytest.mark.parametrize("name", ["![t](http://host/x.png)", "[c](command:rm)", "<img src=x>"])
def test_hover_shows_a_record_s_values_as_text(server: Stdio, name: str) -> None:
    server.initialize()
    server.open("untitled:a.lcn", f'[Player1 "{name}"]\n[Player2 "Bob"]\n1. R3-D 2. B4-D\n')
    hover = server.request(2, "textDocument/hover", _hover("untitled:a.lcn", 2, 3))
    value = hover["result"]["contents"]["value"]
    assert name not in value
    assert name.replace("\\", "") == "".join(value.split(": ")[1].split(" plays")[0]
                                             .split("\\"))


# ----------------------------------------------- positions (item 7, issue 25)

_PIECES = st.sampled_from(["a", "R3-D ", "\n", "\r", "\r\n", "é", "\U0001F600", " "])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join),
       st.lists(st.tuples(st.integers(0, 40), st.integers(0, 10),
                          st.lists(_PIECES, max_size=5).map("".join)), max_size=6),
       st.sampled_from(["utf-8", "utf-16", "utf-32"]))
def test_an_edited_line_index_is_the_index_of_the_edited_text(text: str, edits: Any,
                                                              encoding: str) -> None:
    index = LineIndex(text, encoding)
    for at, length, new in edits:
        start = min(at, len(index.text))
        index.edit(start, start + length, new)
        fresh = LineIndex(index.text, encoding)
        assert (index.starts, index.ends) == (fresh.starts, fresh.ends)
    for offset in range(len(index.text) + 1):
        line, column = index.position(offset)
        assert (line, column) == LineIndex(index.text, encoding).position(offset)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["x", "é", "\U0001F600"]), min_size=300, max_size=1200)
       .map("".join), st.sampled_from(["utf-8", "utf-16"]), st.data())
def test_positions_on_a_long_line_count_every_code_unit(line: str, encoding: str,
                                                        data: Any) -> None:
    index = LineIndex("{é} " + line + "\nR3-D", encoding)
    text = index.text
    offset = data.draw(st.integers(0, len(line) + 4))
    column = len(text[:offset].encode("utf-16-le" if encoding == "utf-16" else "utf-8",
                                      "surrogatepass")) // (2 if encoding == "utf-16" else 1)
    assert index.position(offset) == (0, column)
    assert index.offset(0, column) == offset


def test_positions_on_a_long_line_count_each_character_a_bounded_number_of_times(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import lcnotation.core.positions as positions

    counted = [0]
    real = positions.units

    def units(text: str, encoding: str) -> int:
        counted[0] += len(text)
        return real(text, encoding)

    monkeypatch.setattr(positions, "units", units)
    text = "{é} " + "x " * 10_000
    index = LineIndex(text, "utf-16")
    calls = 0
    for offset in range(0, len(text), 10):
        index.position(offset)
        index.offset(0, offset)
        calls += 2
    # Counting from the line's start each time counts 20 million characters
    # here; with checkpoints, the line once and at most 256 a call.
    assert counted[0] <= 2 * len(text) + 256 * calls < 20_000_000 / 10


# ------------------------------------------------------------- TCP (item 3)

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Tcp(Client):
    def __init__(self, port: int) -> None:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not listen"
                time.sleep(0.1)
        super().__init__(self.sock.sendall, self.sock.makefile("rb"))

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def tcp_server() -> Any:
    port = _free_port()
    process = subprocess.Popen(SERVER + ["--tcp", "--port", str(port)], env=ENV,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    yield process, port
    if process.poll() is None:
        process.kill()
    process.wait()
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def test_each_tcp_connection_has_a_server_of_its_own(tcp_server: Any) -> None:
    process, port = tcp_server
    a = Tcp(port)
    a.initialize()
    a.open("untitled:secret.lcn", GAME)
    b = Tcp(port)
    # B, without initialize, is refused; initialized, it does not see A's document.
    assert b.request(2, "textDocument/hover", _hover("untitled:secret.lcn", 2, 3))["error"][
        "code"] == -32002
    b.initialize()
    assert b.request(3, "textDocument/hover", _hover("untitled:secret.lcn", 2, 3))["result"] \
        is None
    b.close()
    # A's session goes on, its answers its own.
    hover = a.request(4, "textDocument/hover", _hover("untitled:secret.lcn", 2, 3))
    assert "Ann" in hover["result"]["contents"]["value"]
    assert a.request(5, "shutdown", None)["result"] is None
    a.send({"jsonrpc": "2.0", "method": "exit"})
    assert process.wait(WAIT) == 0
    a.close()


# ---------------------------------------------------------- signals (item 10)

def _started_stdio(first_message: bool) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=ENV)
    assert process.stdin is not None and process.stdout is not None
    if first_message:
        process.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                   "params": {"processId": None, "rootUri": None,
                                              "capabilities": {}}}))
        process.stdin.flush()
        assert process.stdout.readline().startswith(b"Content-Length")
    else:
        _wait_until_serving(process)
    return process


def _wait_until_serving(process: "subprocess.Popen[bytes]") -> None:
    """Until the server has started (its imports take a while) and waits:
    every thread of it asleep for half a second."""
    deadline = time.monotonic() + WAIT
    quiet_since = None
    tasks = Path(f"/proc/{process.pid}/task")
    while time.monotonic() < deadline:
        try:
            states = [(t / "stat").read_text().rsplit(")", 1)[1].split()[0]
                      for t in tasks.iterdir()]
        except OSError:
            states = ["R"]
        if all(state in ("S", "D") for state in states):
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since > 0.5:
                return
        else:
            quiet_since = None
        time.sleep(0.05)


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")
@pytest.mark.parametrize("tcp", [False, True], ids=["stdio", "tcp"])
@pytest.mark.parametrize("first_message", [False, True], ids=["before", "after"])
@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_ends_the_server_at_once(signum: str, first_message: bool,
                                          tcp: bool) -> None:
    number = getattr(signal, signum)
    if tcp:
        port = _free_port()
        process = subprocess.Popen(SERVER + ["--tcp", "--port", str(port)], env=ENV,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        client = Tcp(port)
        if first_message:
            client.initialize()
        else:
            _wait_until_serving(process)
    else:
        process = _started_stdio(first_message)
    try:
        process.send_signal(number)
        status = process.wait(timeout=2 + 3)  # 2 s, and slack for a loaded machine
        assert status == 128 + number
        assert process.stderr is not None
        err = process.stderr.read().decode("utf-8", "replace")
        assert "Traceback" not in err and "CancelledError" not in err
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        if tcp:
            client.close()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()


# ------------------------------------------------------- arguments (item 12)

def test_a_port_in_use_is_one_line_and_exit_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = subprocess.run(SERVER + ["--tcp", "--port", str(port)], env=ENV,
                           capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert f"127.0.0.1:{port}" in r.stderr and "in use" in r.stderr
    assert "cannot write the output" not in r.stderr


@pytest.mark.parametrize("args, said", [
    (["--port", "99999"], "not a port number"),
    (["--port", "-1"], "not a port number"),
    (["--port", "9" * 5000], "not a port number"),
    (["--host", "no such host.invalid"], "cannot listen on 'no such host.invalid'"),
])
def test_a_bad_port_or_host_is_one_line_and_exit_2(args: List[str], said: str) -> None:
    r = subprocess.run(SERVER + ["--tcp"] + args, env=ENV, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert said in r.stderr and len(r.stderr) < 300
    assert "Traceback" not in r.stderr
