"""Writing an engine in Python: a ``choose(view) -> Move`` becomes a program that
speaks the engine protocol.

The whole of an engine:

.. code-block:: python

    import random
    from lcnotation.engine import run_engine

    def choose(view):
        return random.choice(view.legal_moves)

    if __name__ == "__main__":
        run_engine(choose, name="Dice", author="Ann")

:func:`run_engine` reads the runner's lines on standard input, keeps a
:class:`~.view.View` of the game up to date and answers each request to move
with what ``choose`` returns (a :class:`~lcnotation.Move`, or its text, such
as ``"R3-D"``).  For more (options, something to do when a game starts or
ends), subclass :class:`Engine` and call its :meth:`~Engine.run`.

What the runner sends is checked: a line it cannot read is reported on
standard error and the engine exits with status 2.  An exception in
``choose`` ends the engine with its traceback on standard error (the runner
counts it as a crash, and restarts the engine for its next game).
"""

from __future__ import annotations

import sys
from typing import IO, Callable, Dict, Optional, Sequence, TypeVar, Union

from ..lostcities.text.ast import Card, Move
from .protocol import (VERSION, Option, OptionValue, ProtocolError, move_line, read_card,
                       read_end, read_game, read_go, read_move, split_line)
from .view import View

__all__ = ["Engine", "run_engine", "GameEnd"]

#: What ``choose`` may return.
Choice = Union[Move, str]
_N = TypeVar("_N", Move, Card)


class GameEnd:
    """How a game ended, as the runner says: the scores (Player1's first) and the
    Termination header's words (``normal``, ``time forfeit by Player2``, ...)."""

    __slots__ = ("scores", "termination")

    def __init__(self, scores: tuple[int, int], termination: str) -> None:
        self.scores = scores
        self.termination = termination

    def __repr__(self) -> str:
        return f"GameEnd(scores={self.scores!r}, termination={self.termination!r})"


class Engine:
    """An engine: subclass it and give :meth:`choose`; :meth:`run` serves it.

    ``name`` and ``author`` are what the engine says of itself; ``options`` the
    options it declares (the runner sets them with ``set`` before the first
    game: :meth:`set_option`, which by default stores the value in
    :attr:`settings`, the defaults there from the start).
    """

    name = "Unnamed engine"
    author = ""
    options: Sequence[Option] = ()

    def __init__(self) -> None:
        self.settings: Dict[str, OptionValue] = {o.name: o.default for o in self.options}
        #: The view of the game being played (None between games).
        self.view: Optional[View] = None

    def choose(self, view: View) -> Choice:
        """The move to make in ``view`` (one of ``view.legal_moves``)."""
        raise NotImplementedError("an Engine needs a choose(view) method")

    def new_game(self, view: View) -> None:
        """A game starts (``view`` holds the hand dealt)."""

    def opponent_moved(self, view: View, move: Move) -> None:
        """The opponent made ``move`` (``view`` has it already)."""

    def drew(self, view: View, card: Card) -> None:
        """The engine's last move drew ``card`` (``view`` has it already)."""

    def game_over(self, view: View, end: GameEnd) -> None:
        """The game ended."""

    def set_option(self, name: str, value: OptionValue) -> None:
        self.settings[name] = value

    def run(self, stdin: Optional[IO[bytes]] = None, stdout: Optional[IO[bytes]] = None
            ) -> int:
        """Speak the protocol on ``stdin`` and ``stdout`` (the process's by default)
        until ``quit`` or the end of the input; the exit status."""
        reader = stdin if stdin is not None else sys.stdin.buffer
        writer = stdout if stdout is not None else sys.stdout.buffer
        try:
            return self._serve(reader, writer)
        except ProtocolError as exc:
            print(f"{self.name}: the runner sent what is not the protocol: {exc.message}",
                  file=sys.stderr)
            return 2
        except (BrokenPipeError, KeyboardInterrupt):
            return 1

    def _serve(self, reader: IO[bytes], writer: IO[bytes]) -> int:
        view: Optional[View] = None
        for raw in reader:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            word, rest = split_line(line)
            if word == "opponent":
                view = _need(view, line)
                move = read_move(rest)
                _runner_said(view.opponent_moved, move)
                self.opponent_moved(view, move)
            elif word == "go":
                view = _need(view, line)
                move_ms, game_ms = read_go(rest)
                view.time_for_move = move_ms / 1000
                view.game_time_left = None if game_ms is None else game_ms / 1000
                move = _as_move(self.choose(view))
                view.played(move)
                writer.write(move_line("move", move))
                writer.flush()
            elif word == "drew":
                view = _need(view, line)
                card = read_card(rest)
                _runner_said(view.drew, card)
                self.drew(view, card)
            elif word == "game":
                colors, seat, hand = read_game(rest)
                view = self.view = View(colors, seat, hand)
                self.new_game(view)
            elif word == "end":
                scores, termination = read_end(rest)
                self.game_over(_need(view, line), GameEnd(scores, termination))
                view = self.view = None
            elif word == "set":
                name, value = split_line(rest)
                self._set(name, value)
            elif word == "lcn-engine":
                self._hello(rest, writer)
            elif word == "quit":
                return 0
            # Any other line is for a later version of the protocol: ignored.
        return 0

    def _hello(self, rest: str, writer: IO[bytes]) -> None:
        versions = rest.split()
        if not versions or not versions[0].isdigit() or int(versions[0]) < VERSION:
            raise ProtocolError(f"lcn-engine {rest!r}: this engine speaks version {VERSION}")
        lines = [f"name {self.name}\n".encode()]
        if self.author:
            lines.append(f"author {self.author}\n".encode())
        lines += [o.line() for o in self.options]
        lines.append(f"ok {VERSION}\n".encode())
        writer.write(b"".join(lines))
        writer.flush()

    def _set(self, name: str, text: str) -> None:
        for option in self.options:
            if option.name == name:
                try:
                    value = option.parse(text)
                except ValueError as exc:
                    raise ProtocolError(str(exc)) from None
                self.set_option(name, value)
                return
        raise ProtocolError(f"set {name}: this engine has no such option")


def _need(view: Optional[View], line: str) -> View:
    if view is None:
        raise ProtocolError(f"{line!r} outside a game")
    return view


def _runner_said(learn: Callable[[_N], None], news: _N) -> None:
    """Tell the view ``news``; what it refuses, the runner got wrong."""
    try:
        learn(news)
    except ValueError as exc:
        raise ProtocolError(str(exc)) from None


def _as_move(choice: Choice) -> Move:
    if isinstance(choice, Move):
        return choice
    if isinstance(choice, str):
        try:
            return read_move(choice)
        except ProtocolError as exc:
            raise ValueError(f"choose() returned {exc.message}") from None
    raise TypeError(f"choose() returned {choice!r}: expected a Move or its text")


class _FunctionEngine(Engine):
    def __init__(self, choose: Callable[[View], Choice], name: str, author: str,
                 options: Sequence[Option]) -> None:
        self.name, self.author, self.options = name, author, tuple(options)
        super().__init__()
        self._choose = choose

    def choose(self, view: View) -> Choice:
        return self._choose(view)


def run_engine(choose: Callable[[View], Choice], *, name: str, author: str = "",
               options: Sequence[Option] = ()) -> None:
    """Serve ``choose`` as an engine on standard input and output, then exit
    (see the module)."""
    sys.exit(_FunctionEngine(choose, name, author, options).run())
