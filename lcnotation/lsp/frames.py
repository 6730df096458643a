"""Reading the language server protocol's frames, and the JSON-RPC message in each.

A frame is headers (``Content-Length: N``, perhaps ``Content-Type``), a
blank line, then ``N`` bytes of JSON.  :class:`FrameReader` takes bytes as
they arrive and gives back each frame's body, or a :class:`Malformed` that
says what was wrong with a frame; after a malformed frame it reads on from
the next ``Content-Length`` header, so one bad frame costs one message, not
the session:

>>> reader = FrameReader()
>>> reader.feed(b'Content-Length: abc\\r\\n\\r\\n{}Content-Length: 2\\r\\n\\r\\n{}')
[Malformed(message="the frame's Content-Length is not a number: 'abc'"), b'{}']

A body shorter than its ``Content-Length`` (the next header comes first)
is read as what it is, and said:

>>> reader.feed(b'Content-Length: 99\\r\\n\\r\\n[1]Content-Length: 1\\r\\n\\r\\n7')
[Malformed(message='a frame was shorter than its Content-Length (3 bytes, not 99)'), b'[1]', b'7']

:func:`message_of` reads a body as a JSON-RPC message, or gives the error
response that answers it (-32700 for a body that is not JSON, -32600 for a
message that is not a request, a notification or a response).
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

__all__ = ["FrameReader", "Malformed", "MAX_BODY", "MAX_HEADERS", "message_of",
           "error_response", "PARSE_ERROR", "INVALID_REQUEST", "INVALID_PARAMS",
           "INTERNAL_ERROR", "frame"]

#: The largest body the server reads (bytes): a larger ``Content-Length`` is
#: refused as malformed, and the reader looks for the next frame.
MAX_BODY = 1 << 30
#: The most bytes the headers of one frame may take.
MAX_HEADERS = 1 << 16

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

_HEADER = re.compile(rb"Content-Length[ \t]*:", re.IGNORECASE)
_HEADERS_END = re.compile(rb"\r?\n\r?\n")
#: How far back a search for the next header starts in new data (the length
#: of the header name, which may have been cut between two reads).
_OVERLAP = 20


class Malformed(NamedTuple):
    """A frame the reader could not take as it is: what was wrong."""

    message: str


Event = Union[bytes, Malformed]


def _shown(value: bytes) -> str:
    text = value[:40].decode("ascii", "backslashreplace")
    return repr(text + "..." if len(value) > 40 else text)


class FrameReader:
    """Frames out of a stream of bytes (see the module docstring)."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        #: The body's length once a frame's headers are read, None before.
        self._length: Optional[int] = None
        #: Skipping to the next ``Content-Length`` header (after a malformed frame).
        self._lost = False
        #: Where the search for a header inside a body goes on from.
        self._searched = 0

    def feed(self, data: bytes) -> List[Event]:
        """The frames (and malformed ones) that ``data`` completes."""
        self._buffer += data
        out: List[Event] = []
        while self._step(out):
            pass
        return out

    def end(self) -> List[Event]:
        """The input ended: what is left of a frame, said as malformed."""
        left = bytes(self._buffer)
        self._buffer.clear()
        if self._length is not None:
            self._length, length = None, self._length
            return [Malformed(f"the input ended inside a frame ({len(left)} bytes of "
                              f"{length})")]
        if left.strip() and not self._lost:
            return [Malformed(f"the input ended inside a frame's headers ({_shown(left)})")]
        return []

    def _step(self, out: List[Event]) -> bool:
        if self._length is None:
            return self._headers(out)
        return self._body(out)

    def _headers(self, out: List[Event]) -> bool:
        buffer = self._buffer
        if self._lost:
            found = _HEADER.search(buffer)
            if found is None:
                del buffer[:max(0, len(buffer) - _OVERLAP)]
                return False
            del buffer[:found.start()]
            self._lost = False
        # Blank lines between frames are tolerated.
        skip = 0
        while buffer.startswith(b"\r\n", skip) or buffer.startswith(b"\n", skip):
            skip += 2 if buffer.startswith(b"\r\n", skip) else 1
        if skip:
            del buffer[:skip]
        end = _HEADERS_END.search(buffer, 0, MAX_HEADERS + 4)
        if end is None:
            if len(buffer) > MAX_HEADERS:
                self._lose(out, f"a frame's headers are longer than {MAX_HEADERS} bytes")
                del buffer[:1]  # search past this start
                return True
            return False
        headers = bytes(buffer[:end.start()])
        del buffer[:end.end()]
        length: Optional[int] = None
        for line in headers.split(b"\n"):
            name, colon, value = line.rstrip(b"\r").partition(b":")
            if not colon:
                return self._lose(out, f"a frame's header has no ':' ({_shown(line)})")
            if name.strip().lower() != b"content-length":
                continue  # Content-Type, or a header of a later protocol
            value = value.strip()
            if not value.isdigit():
                return self._lose(out, "the frame's Content-Length is not a number: "
                                       f"{_shown(value)}")
            if len(value) > 12 or int(value) > MAX_BODY:
                return self._lose(out, f"the frame's Content-Length is larger than the "
                                       f"server reads ({MAX_BODY} bytes): {_shown(value)}")
            length = int(value)
        if length is None:
            return self._lose(out, f"a frame has no Content-Length header ({_shown(headers)})")
        self._length = length
        self._searched = 0
        return True

    def _lose(self, out: List[Event], message: str) -> bool:
        out.append(Malformed(message))
        self._lost = True
        return True

    def _body(self, out: List[Event]) -> bool:
        buffer = self._buffer
        length = self._length
        assert length is not None
        # A header inside what should be the body: the body was shorter
        # than said, if what comes before the header is a whole JSON value.
        start = max(0, self._searched - _OVERLAP)
        limit = min(len(buffer), length + _OVERLAP)
        while True:
            found = _HEADER.search(buffer, start, limit)
            if found is None or found.start() >= length:
                break
            body = bytes(buffer[:found.start()])
            if _is_json(body):
                del buffer[:found.start()]
                self._length = None
                out.append(Malformed(f"a frame was shorter than its Content-Length "
                                     f"({len(body)} bytes, not {length})"))
                out.append(body)
                return True
            start = found.end()
        self._searched = len(buffer)
        if len(buffer) < length:
            return False
        body = bytes(buffer[:length])
        del buffer[:length]
        self._length = None
        out.append(body)
        return True


def _is_json(body: bytes) -> bool:
    """Whether ``body`` is one JSON value (first, cheaply: whether it ends as
    a message does, so that a long body that merely spells a header in its
    text is not read again for each time it does)."""
    if body.rstrip()[-1:] not in (b"}", b"]", b'"') and not body.strip().isdigit():
        return False
    try:
        json.loads(body)
    except (ValueError, RecursionError):
        return False
    return True


def error_response(ident: Any, code: int, message: str) -> Dict[str, Any]:
    """A JSON-RPC error response."""
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}


def _ident(value: Any) -> Optional[Union[int, str]]:
    """A message's id, when it is one JSON-RPC allows."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return None


def message_of(body: bytes) -> Tuple[Optional[Dict[str, Any]], Optional[Dict[str, Any]]]:
    """The JSON-RPC message in a frame's body, or the error response for it.

    >>> message_of(b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}')[0]
    {'jsonrpc': '2.0', 'method': 'initialized', 'params': {}}
    >>> message_of(b'{"jsonrpc": "2.0", "id": 3, "method": 7}')[1]["error"]["code"]
    -32600
    >>> message_of(b'{"jsonrpc": ')[1]["error"]["code"]
    -32700
    """
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, error_response(None, PARSE_ERROR, f"Parse error: the message is not "
                                    f"UTF-8 (byte {exc.start})")
    except ValueError as exc:
        return None, error_response(None, PARSE_ERROR, f"Parse error: {exc}")
    except RecursionError:
        return None, error_response(None, PARSE_ERROR, "Parse error: the message is nested "
                                    "too deep")
    if not isinstance(data, dict):
        return None, error_response(None, INVALID_REQUEST, "Invalid Request: a message is a "
                                    "JSON object")
    ident = data.get("id")
    if "id" in data and (ident is not None or "method" in data) and _ident(ident) is None:
        return None, error_response(None, INVALID_REQUEST, "Invalid Request: an id is a "
                                    "number or a string")
    if data.get("jsonrpc") != "2.0":
        return None, error_response(_ident(ident), INVALID_REQUEST,
                                    'Invalid Request: "jsonrpc" must be "2.0"')
    if "method" in data:
        if not isinstance(data["method"], str):
            return None, error_response(_ident(ident), INVALID_REQUEST,
                                        "Invalid Request: a method is a string")
        params = data.get("params")
        if params is not None and not isinstance(params, (dict, list)):
            return None, error_response(_ident(ident), INVALID_PARAMS,
                                        "Invalid params: params are an object or an array")
        return data, None
    if "id" in data and ("result" in data or "error" in data):
        return data, None  # a response to a request of the server
    return None, error_response(_ident(ident), INVALID_REQUEST,
                                "Invalid Request: neither a method nor a result")


def frame(message: Dict[str, Any]) -> bytes:
    """A message as a frame."""
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body
