"""Every use of Lark's internal parser and lexer state, in one place.

Error recovery must drop an unfinished move from the LALR parser's stacks
and move the lexer past the bad text; Lark's interactive parser offers no
public way to do either.  This adapter does both through the attributes Lark
has had since 1.1 (``parser_state.value_stack``/``state_stack`` and the
lexer's ``line_ctr``); pyproject.toml pins Lark to the versions tested, and
tests/test_recovery.py fails first if a new Lark moves them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, List, Optional, Tuple, cast

from lark import Lark, Token
from lark.exceptions import UnexpectedInput, UnexpectedToken

__all__ = ["Interactive", "Tok", "where_it_failed"]

if TYPE_CHECKING:
    class Tok(str):
        """A token as Lark's lexer makes it, with all its positions (Lark's
        own type leaves them optional, for tokens made by hand)."""

        type: str
        start_pos: int
        end_pos: int
        line: int
        column: int
        end_line: int
        end_column: int
else:
    Tok = Token


class Interactive:
    """One interactive parse of ``text`` (as Lark reads it) from ``start``."""

    def __init__(self, lark: Lark, text: str, start: str) -> None:
        self._ip = lark.parse_interactive(text, start)

    def resume(self) -> None:
        """Parse on to the end; raises Lark's UnexpectedInput at an error."""
        self._ip.resume_parse()  # type: ignore[no-untyped-call]

    def accepts(self, name: str) -> bool:
        """Whether the parser, as it stands, takes ``name`` next: a terminal,
        or a rule (which it would then begin)."""
        return name in self._ip.choices()  # type: ignore[no-untyped-call]

    def pop_while(self, droppable: Callable[[object], bool]) -> List[object]:
        """Drop values from the top of the parser's stack while ``droppable``
        says so (their states with them); the values, bottom first."""
        state = self._ip.parser_state
        values, states = state.value_stack, state.state_stack
        popped: List[object] = []
        while values and droppable(values[-1]):
            popped.append(values.pop())
            states.pop()
        popped.reverse()
        return popped

    def seek(self, pos: int, text: str, rewind_to: Optional[Tok] = None) -> None:
        """Move the lexer to offset ``pos`` of ``text``, keeping its line and
        column right; it only ever moves back to the start of ``rewind_to``,
        a token it has just read."""
        state = self._ip.lexer_thread.state
        assert state is not None  # the parse has begun
        counter = state.line_ctr
        if counter.char_pos > pos:
            assert rewind_to is not None and rewind_to.start_pos <= pos
            counter.char_pos = rewind_to.start_pos
            counter.line = rewind_to.line
            counter.column = rewind_to.column
            counter.line_start_pos = rewind_to.start_pos - rewind_to.column + 1
        if counter.char_pos < pos:
            counter.feed(text[counter.char_pos:pos])


def where_it_failed(e: UnexpectedInput, text: str) -> Tuple[Optional[Tok], int]:
    """The unexpected token (None for an unexpected character) and its offset
    (the end of the text for the end of the input)."""
    if isinstance(e, UnexpectedToken):
        token = cast(Tok, e.token)
        return token, len(text) if token.type == "$END" else token.start_pos
    return None, cast(int, e.pos_in_stream)


def tokens(values: List[object], types: "frozenset[str]") -> List[Tok]:
    """The tokens among ``values`` whose type is one of ``types``."""
    return [cast(Tok, t) for t in values if isinstance(t, Token) and t.type in types]
