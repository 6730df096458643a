"""How fast the FreeCell notation is read, checked, formatted and dealt.

Reads the committed solution of deal 617 (122 moves, 18 lines) and times, per
record: ``parse``, ``check`` (layout, deal, replay with Horne automoves) and
``format``; and ``deal`` per deal number.  Prints figures, asserts nothing::

    python bench/freecell.py            # a few seconds
    python bench/freecell.py --repeat 5000
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable

from lcnotation import freecell

RECORD = Path(__file__).resolve().parent.parent / "tests" / "data" / "freecell" / "deal-617.txt"


def per_call(label: str, repeat: int, call: Callable[[int], object]) -> None:
    call(0)  # warm up (the grammar is built once)
    start = time.perf_counter()
    for i in range(repeat):
        call(i)
    seconds = (time.perf_counter() - start) / repeat
    print(f"{label:<28} {seconds * 1e6:9.0f} µs   {1 / seconds:9.0f} a second")


def main() -> None:
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--repeat", type=int, default=500)
    repeat = options.parse_args().repeat
    text = RECORD.read_text()
    record = freecell.parse(text)
    per_call("parse (122-move record)", repeat, lambda i: freecell.parse(text))
    per_call("check (122-move record)", repeat, lambda i: freecell.check(record))
    per_call("format (122-move record)", repeat, lambda i: freecell.format(record))
    per_call("deal", repeat, lambda i: freecell.deal(i * 2654435761 % freecell.DEAL_LIMIT))


if __name__ == "__main__":
    main()
