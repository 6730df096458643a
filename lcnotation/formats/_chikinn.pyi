# The C extension lcnotation/formats/_chikinn.c (optional: see chikinn.py).
from typing import Optional, Tuple

from ..lostcities.text.ast import Move, Span

def configure(**tables: object) -> None: ...
def round(text: str, pos: int, line: int, /) -> Optional[
    Tuple[int, str, str, bytes, bytes, bytes, int, int, int, int, Tuple[Move, ...], Span, int,
          int]]: ...
