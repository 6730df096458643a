"""Every use of Lark's internal parser and lexer state, in one place.

Error recovery must drop an unfinished move from the LALR parser's stacks
and move the lexer past the bad text; Lark's interactive parser offers no
public way to do either.  This adapter does both through the attributes Lark
has had since 1.1 (``parser_state.value_stack``/``state_stack`` and the
lexer's ``line_ctr``); pyproject.toml pins Lark to the versions tested, and
tests/test_recovery.py fails first if a new Lark moves them.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple

from lark import Lark, Token
from lark.exceptions import UnexpectedInput, UnexpectedToken

__all__ = ["Interactive", "where_it_failed"]


class Interactive:
    """One interactive parse of ``text`` (as Lark reads it) from ``start``."""

    def __init__(self, lark: Lark, text: str, start: str) -> None:
        self._ip = lark.parse_interactive(text, start)

    def resume(self) -> None:
        """Parse on to the end; raises Lark's UnexpectedInput at an error."""
        self._ip.resume_parse()

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

    def seek(self, pos: int, text: str, rewind_to: Optional[Token] = None) -> None:
        """Move the lexer to offset ``pos`` of ``text``, keeping its line and
        column right; it only ever moves back to the start of ``rewind_to``,
        a token it has just read."""
        counter = self._ip.lexer_thread.state.line_ctr
        if counter.char_pos > pos:
            assert rewind_to is not None and rewind_to.start_pos <= pos
            counter.char_pos = rewind_to.start_pos
            counter.line = rewind_to.line
            counter.column = rewind_to.column
            counter.line_start_pos = rewind_to.start_pos - rewind_to.column + 1
        if counter.char_pos < pos:
            counter.feed(text[counter.char_pos:pos])


def where_it_failed(e: UnexpectedInput, text: str) -> Tuple[Optional[Token], int]:
    """The unexpected token (None for an unexpected character) and its offset
    (the end of the text for the end of the input)."""
    if isinstance(e, UnexpectedToken):
        token: Token = e.token
        return token, len(text) if token.type == "$END" else token.start_pos
    return None, e.pos_in_stream
