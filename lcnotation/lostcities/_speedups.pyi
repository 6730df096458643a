# The C extension lcnotation/lostcities/_speedups.c (optional: see accel.py).
from typing import Callable, Dict, Optional, Sequence, Tuple

def configure(*, colors: str, ranks: Dict[str, int], discards: str, minus: str, piles: str,
              card_colors: Dict[str, str], card_ranks: Dict[str, int], tags: Sequence[str],
              names: Sequence[str], hand_size: int, copies: Sequence[int], handshake: int,
              draw_start: Sequence[int], color_counts: Sequence[int],
              score_ranks: Callable[[Sequence[int]], int], max_game: int,
              line_blanks: str) -> None: ...
def check(text: str, default_colors: Tuple[str, ...], /) -> Optional[Tuple[int, bool, int, int]]: ...
def scan(data: bytes, start: int, final: bool, default_colors: Tuple[str, ...],
         judge: Callable[[bytes], bool], /) -> Tuple[int, int, int, bool, int, int, int]: ...
