# The C extension lcnotation/formats/_metapyziks.c (optional: see metapyziks.py).
from typing import Optional, Sequence, Tuple, Union

from ..lostcities.text.ast import Move

def configure(**tables: object) -> None: ...
def replay(data: bytes, line: int, line_start: int, width: int,
           columns: Union[int, Sequence[int]], /) -> Optional[
    Tuple[int, int, int, int, bytes, bytes, bytes, Tuple[Move, ...], Optional[Tuple[int, int]]]]: ...
