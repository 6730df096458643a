"""The engine protocol's lines: how each is written and read, in one place.

``spec/engine-protocol.md`` is the protocol in prose; this module is its
grammar.  Both ends use it: the runner's client (:mod:`.client`, :mod:`.aio`)
writes the runner's messages and reads the engine's, the engine library
(:mod:`.bot`) the other way round.  Nothing here does input or output.

A line is UTF-8 text ended by LF (a CR before it is dropped), words separated
by spaces or tabs; a blank line means nothing.

>>> hello()
b'lcn-engine 1\\n'
>>> split_line("go movetime 200 gametime 5000")
('go', 'movetime 200 gametime 5000')
>>> read_go("movetime 200 gametime 5000")
(200, 5000)
>>> game_line(("R", "G", "W", "B", "Y"), 0, [Card("R", 3)] * 8)
b'game RGWBY 1 R3 R3 R3 R3 R3 R3 R3 R3\\n'
"""

from __future__ import annotations

import functools
import re
from collections import deque
from dataclasses import dataclass
from typing import Deque, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..lostcities.text.ast import Card, Move
from ..core.diagnostics import NotationError
from ..lostcities.text.formatter import format_card, format_move
from ..lostcities.text.headers import parse_cards, parse_colors
from ..lostcities.text.reader import parse_move

__all__ = ["VERSION", "HELLO", "MAX_LINE", "MAX_ANSWER", "MAX_NAME", "EngineError",
           "ProtocolError", "EngineTimeout", "EngineCrashed", "Option", "OptionValue",
           "Handshake", "HandshakeReader", "LineBuffer", "hello", "split_line", "read_go",
           "read_move", "game_line", "go_line", "end_line", "read_game", "read_end",
           "read_card", "option_value", "set_line", "ms", "drew_line", "move_line", "QUIT",
           "clean_name", "unexpected", "Send", "Read", "Drain", "Step", "StepResult"]

#: The protocol's version (the only one there is).
VERSION = 1
#: The first word of the runner's first line.
HELLO = "lcn-engine"
#: The longest line either side may write, in bytes, its LF included.
MAX_LINE = 4096
#: The most an engine may write (in bytes) from one request to its answer,
#: ``info`` lines included; beyond it the output is a flood.
MAX_ANSWER = 1 << 20
#: The longest name or author an engine may give, in characters.
MAX_NAME = 100

# A word, and the blanks between words.
_BLANKS = re.compile(r"[ \t]+")
_OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}\Z")
_INT = re.compile(r"-?[0-9]{1,18}\Z")
_FLOAT = re.compile(r"-?[0-9]{1,18}(?:\.[0-9]{1,18})?(?:[eE][-+]?[0-9]{1,3})?\Z")
# Characters that may not stand in a name: the C0 and C1 controls and DEL.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")

#: What an option holds.
OptionValue = Union[int, float, bool, str]
_TYPES = ("int", "float", "bool", "string")


# ---------------------------------------------------------------- errors


class EngineError(Exception):
    """An engine broke the protocol, ran out of time or died.

    ``cause`` is ``"protocol error"``, ``"time forfeit"`` or ``"crash"`` (the
    words of a record's Termination header); ``stderr`` holds the last lines
    the engine wrote to its standard error, when the client kept them.
    """

    cause = "protocol error"

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.stderr = stderr


class ProtocolError(EngineError):
    """A line that is not the protocol: unknown, malformed, too long, a flood,
    or written when no answer was asked for."""


class EngineTimeout(EngineError):
    """No answer within the time allowed."""

    cause = "time forfeit"


class EngineCrashed(EngineError):
    """The engine exited, closed its output, or could not be started."""

    cause = "crash"


# ---------------------------------------------------------------- the steps of a conversation
# What a client does in a conversation that waits for answers (see
# client.Conversation): its driver does each step and sends back the result.


class Send(NamedTuple):
    """A step of a conversation: write ``data`` to the engine."""

    data: bytes


class Read(NamedTuple):
    """A step of a conversation: the engine's next line, by ``deadline``
    (``time.monotonic()``; None: no limit), ``seconds`` after the request;
    ``waiting_for`` names the answer in messages (``its answer to go``)."""

    deadline: Optional[float]
    waiting_for: str
    seconds: float = 0.0


class Drain(NamedTuple):
    """A step of a conversation: the lines the engine wrote while no answer was asked."""


Step = Union[Send, Read, Drain]
#: What a step gives back: nothing (Send), a line (Read), the lines so far (Drain).
StepResult = Union[None, str, List[str]]


# ---------------------------------------------------------------- lines


def split_line(line: str) -> Tuple[str, str]:
    """The first word of ``line`` and the rest, blanks around both removed.

    >>> split_line("  name  Deep Lost 2 ")
    ('name', 'Deep Lost 2')
    """
    parts = _BLANKS.split(line.strip(" \t"), 1)
    return parts[0], parts[1] if len(parts) > 1 else ""


def _words(rest: str) -> List[str]:
    return [w for w in _BLANKS.split(rest) if w]


def ms(seconds: float) -> int:
    """A duration in whole milliseconds, rounded down (never below 0).

    >>> ms(0.2), ms(1.9999), ms(-1)
    (200, 1999, 0)
    """
    return max(0, int(seconds * 1000 + 1e-9))


def hello() -> bytes:
    """The runner's first line."""
    return f"{HELLO} {VERSION}\n".encode()


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(format_card(c) for c in cards)


def game_line(colors: Sequence[str], seat: int, hand: Sequence[Card]) -> bytes:
    """``game COLORS SEAT CARD...``: a new game; ``seat`` 0 is Player1 (written 1)."""
    return f"game {''.join(colors)} {seat + 1} {_cards_text(hand)}\n".encode()


def read_game(rest: str) -> Tuple[Tuple[str, ...], int, Tuple[Card, ...]]:
    """The colours, seat (0 or 1) and hand of a ``game`` line's words after ``game``.

    >>> read_game("RGWBY 2 R3 BH G10 W4 Y2 Y5 B7 R8")[:2]
    (('R', 'G', 'W', 'B', 'Y'), 1)
    """
    words = _words(rest)
    if len(words) < 2 or words[1] not in ("1", "2"):
        raise ProtocolError(f"game {rest!r}: expected the colours, the seat (1 or 2) and "
                            "the hand")
    try:
        colors = parse_colors(words[0])
    except NotationError as exc:
        raise ProtocolError(f"game {rest!r}: {exc.message} ({exc.code})") from None
    return colors, int(words[1]) - 1, tuple(read_card(word) for word in words[2:])


def drew_line(card: Card) -> bytes:
    """``drew CARD``: the card the engine's move drew."""
    return f"drew {format_card(card)}\n".encode()


#: The runner's last line.
QUIT = b"quit\n"


@functools.lru_cache(maxsize=4096)  # the cards there are, in a few spellings
def read_card(rest: str) -> Card:
    """The one card of a ``drew`` line.

    >>> read_card("W10")
    Card(color='W', rank=10)
    """
    try:
        cards = parse_cards(rest)
    except NotationError as exc:
        raise ProtocolError(f"{rest!r}: {exc.message} ({exc.code})") from None
    if len(cards) != 1:
        raise ProtocolError(f"{rest!r}: expected one card")
    return Card(cards[0].color, cards[0].rank)


def move_line(keyword: str, move: Move) -> bytes:
    """``opponent MOVE`` (runner) or ``move MOVE`` (engine), in canonical spelling."""
    return f"{keyword} {format_move(move)}\n".encode()


@functools.lru_cache(maxsize=4096)  # the moves there are, in a few spellings
def read_move(text: str) -> Move:
    """The move of an ``opponent`` or ``move`` line (any spelling the notation's
    reader accepts); ProtocolError when it is not one move.

    >>> read_move("bhx-r")
    Move(placement=Placement(card=Card(color='B', rank=0), discard=True), draw=Draw(color='R'), comments=())
    >>> read_move("R3-D R4-D")
    Traceback (most recent call last):
    ...
    lcnotation.engine.protocol.ProtocolError: 'R3-D R4-D' is not one move in the notation: unexpected 'R4-D' after the move 'R3-D': parse_move reads one move (N107)
    """
    try:
        move = parse_move(text)
    except NotationError as exc:
        raise ProtocolError(f"{text!r} is not one move in the notation: {exc.message} "
                            f"({exc.code})") from None
    return Move(move.placement, move.draw)  # without its position in the line


def go_line(move_seconds: float, game_seconds: Optional[float]) -> bytes:
    """``go movetime MS [gametime MS]``."""
    line = f"go movetime {ms(move_seconds)}"
    if game_seconds is not None:
        line += f" gametime {ms(game_seconds)}"
    return (line + "\n").encode()


def read_go(rest: str) -> Tuple[int, Optional[int]]:
    """The move time and game time (milliseconds; None: no game limit) of a ``go``
    line; pairs of other names are ignored (later versions may add some)."""
    words = _words(rest)
    if len(words) % 2:
        raise ProtocolError(f"go {rest!r}: expected names each followed by a value")
    found: Dict[str, int] = {}
    for name, value in zip(words[::2], words[1::2]):
        if name in ("movetime", "gametime"):
            if not value.isdigit() or not value.isascii():
                raise ProtocolError(f"go {rest!r}: {name} must be a whole number of "
                                    "milliseconds")
            found[name] = int(value)
    if "movetime" not in found:
        raise ProtocolError(f"go {rest!r}: movetime is missing")
    return found["movetime"], found.get("gametime")


def end_line(scores: Tuple[int, int], termination: str) -> bytes:
    """``end SCORE1 SCORE2 TERMINATION``: Player1's score first."""
    return f"end {scores[0]} {scores[1]} {termination}\n".encode()


def read_end(rest: str) -> Tuple[Tuple[int, int], str]:
    """The scores and the termination of an ``end`` line.

    >>> read_end("-12 30 time forfeit by Player1")
    ((-12, 30), 'time forfeit by Player1')
    """
    words = _BLANKS.split(rest, 2)
    if len(words) < 2 or not all(_INT.match(w) for w in words[:2]):
        raise ProtocolError(f"end {rest!r}: expected two scores")
    return (int(words[0]), int(words[1])), words[2] if len(words) > 2 else ""


# ---------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """An option an engine declares: its name, type and default.

    ``type`` is ``int``, ``float``, ``bool`` or ``string``.

    >>> Option("depth", "int", 3).line()
    b'option depth int 3\\n'
    >>> Option.read("verbose bool false")
    Option(name='verbose', type='bool', default=False)
    """

    name: str
    type: str
    default: OptionValue

    def __post_init__(self) -> None:
        if not _OPTION_NAME.match(self.name):
            raise ValueError(f"option name {self.name!r}: expected a letter, then letters, "
                             "digits, '_', '.' or '-' (64 at most)")
        if self.type not in _TYPES:
            raise ValueError(f"option {self.name}: type {self.type!r} is not one of "
                             f"{', '.join(_TYPES)}")
        object.__setattr__(self, "default", self.parse(_text(self.default)))

    def parse(self, text: str) -> OptionValue:
        """``text`` as a value of this option; ValueError when it is not one."""
        kind = self.type
        if kind == "string":
            if "\n" in text or "\r" in text:
                raise ValueError(f"option {self.name}: a string without line breaks")
            return text
        text = text.strip(" \t")
        if kind == "int" and _INT.match(text):
            return int(text)
        if kind == "float" and _FLOAT.match(text):
            return float(text)
        if kind == "bool" and text in ("true", "false"):
            return text == "true"
        raise ValueError(f"option {self.name}: {text!r} is not a {kind}"
                         + (" (true or false)" if kind == "bool" else ""))

    def line(self) -> bytes:
        return f"option {self.name} {self.type} {_text(self.default)}".rstrip(" ").encode() \
            + b"\n"

    @classmethod
    def read(cls, rest: str) -> Option:
        """The option an ``option`` line's words after ``option`` declare."""
        parts = _BLANKS.split(rest.lstrip(" \t"), 2)
        if len(parts) < 2:
            raise ProtocolError(f"declared option {rest!r} without a name, a type and a "
                                "default")
        try:
            return cls(parts[0], parts[1], parts[2] if len(parts) > 2 else "")
        except ValueError as exc:
            raise ProtocolError(f"declared an option wrongly: {exc}") from None


def _text(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_value(options: Sequence[Option], name: str, text: str) -> Tuple[Option, OptionValue]:
    """The option called ``name`` and ``text`` as its value; ValueError, naming
    the options there are, when there is no such option or the value does not fit."""
    for option in options:
        if option.name == name:
            return option, option.parse(text)
    there = ", ".join(o.name for o in options) or "none"
    raise ValueError(f"no option {name!r} (the options: {there})")


def set_line(option: Option, value: OptionValue) -> bytes:
    """``set NAME VALUE``."""
    return f"set {option.name} {_text(value)}\n".encode()


# ---------------------------------------------------------------- the handshake


class Handshake(NamedTuple):
    """What an engine said of itself."""

    name: str
    author: str
    options: Tuple[Option, ...]
    version: int


def clean_name(text: str) -> str:
    """A name or author as a record may hold it: control characters dropped,
    blanks run together, at most :data:`MAX_NAME` characters.

    >>> clean_name("  Deep\\tLost \\x1b[31m 2 ")
    'Deep Lost [31m 2'
    """
    return " ".join(_CONTROLS.sub(" ", text).split())[:MAX_NAME]


class HandshakeReader:
    """Reads the engine's lines in answer to :func:`hello`, up to ``ok``.

    >>> reader = HandshakeReader()
    >>> [reader.feed(line) for line in ("name Greedy", "option seed int 0", "ok 1")][-1]
    Handshake(name='Greedy', author='', options=(Option(name='seed', type='int', default=0),), version=1)
    """

    def __init__(self) -> None:
        self.name: Optional[str] = None
        self.author = ""
        self.options: List[Option] = []

    def feed(self, line: str) -> Optional[Handshake]:
        """Read one line; the handshake once it is complete."""
        word, rest = split_line(line)
        if word == "name":
            self.name = clean_name(rest)
        elif word == "author":
            self.author = clean_name(rest)
        elif word == "option":
            option = Option.read(rest)
            if any(o.name == option.name for o in self.options):
                raise ProtocolError(f"declared option {option.name} twice")
            self.options.append(option)
        elif word == "ok":
            version = rest.strip(" \t")
            if version != str(VERSION):
                raise ProtocolError(f"speaks version {version or '(none)'} of the protocol "
                                    f"(this runner speaks version {VERSION})")
            if not self.name:
                raise ProtocolError("said ok without its name (name NAME)")
            return Handshake(self.name, self.author, tuple(self.options), VERSION)
        elif word not in ("", "info"):
            raise ProtocolError(f"wrote {_quote(line)}, which is not a line of the handshake "
                                "(name, author, option, info, ok)")
        return None


def _quote(line: str, limit: int = 60) -> str:
    """A line as an error message quotes it: shortened, control characters escaped."""
    short = line if len(line) <= limit else line[:limit] + "..."
    return repr(short)


def unexpected(line: str, expected: str) -> ProtocolError:
    """The error for a line that is not what the protocol expects."""
    return ProtocolError(f"wrote {_quote(line)}, which is not the protocol (expected "
                         f"{expected})")


# ---------------------------------------------------------------- reading lines


class LineBuffer:
    """Cuts an engine's output into lines, with the protocol's limits.

    ``feed`` takes bytes as they arrive; ``pop`` gives the next whole line
    (None when there is none yet) or raises :class:`ProtocolError` for a line
    longer than :data:`MAX_LINE`, text that is not UTF-8, or more than
    :data:`MAX_ANSWER` bytes since :meth:`expect_answer`.  Once over a limit
    it keeps nothing more, so memory stays bounded whatever the engine writes.

    >>> buf = LineBuffer()
    >>> buf.feed(b"info thinking\\r\\nmove R3")
    >>> buf.pop(), buf.pop()
    ('info thinking', None)
    >>> buf.feed(b"-D\\n")
    >>> buf.pop()
    'move R3-D'
    """

    def __init__(self, max_line: int = MAX_LINE, max_answer: int = MAX_ANSWER) -> None:
        self._partial = bytearray()
        self._lines: Deque[bytes] = deque()
        self._max_line = max_line
        self._max_answer = max_answer
        self._since = 0  # bytes since expect_answer
        self.eof = False
        self.error: Optional[ProtocolError] = None

    def feed(self, data: bytes) -> None:
        if self.error is not None:
            return
        self._since += len(data)
        if self._since > self._max_answer:
            self._fail(ProtocolError(f"flooded its output: more than {self._max_answer:,} "
                                     "bytes without an answer"))
            return
        start = 0
        partial = self._partial
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                partial += data[start:]
                if len(partial) >= self._max_line:
                    self._fail(ProtocolError(f"wrote a line longer than {self._max_line:,} "
                                             f"bytes (it begins {bytes(partial[:40])!r})"))
                return
            if partial:
                partial += data[start:end]
                line = bytes(partial)
                partial.clear()
            else:
                line = data[start:end]
            if len(line) >= self._max_line:
                self._fail(ProtocolError(f"wrote a line longer than {self._max_line:,} bytes "
                                         f"(it begins {line[:40]!r})"))
                return
            self._lines.append(line)
            start = end + 1

    def _fail(self, error: ProtocolError) -> None:
        self.error = error
        self._partial.clear()

    def expect_answer(self) -> None:
        """A request was sent: count the bytes of its answer from here."""
        self._since = 0

    def pop(self) -> Optional[str]:
        """The next line without its line end; None when no whole line is there
        (see :attr:`eof`)."""
        if self._lines:
            raw = self._lines.popleft()
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ProtocolError(f"wrote a line that is not UTF-8: {raw[:40]!r}") from None
        if self.error is not None:
            raise self.error
        return None

    def pop_all(self) -> List[str]:
        """Every whole line there is now."""
        lines: List[str] = []
        while True:
            line = self.pop()
            if line is None:
                return lines
            lines.append(line)

    @property
    def pending(self) -> bool:
        """Whether a line (or an error) is waiting to be popped."""
        return bool(self._lines) or self.error is not None

    @property
    def tail(self) -> bytes:
        """What follows the last whole line (what an engine that died left unfinished)."""
        return bytes(self._partial)
