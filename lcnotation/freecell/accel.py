"""The compiled clean path of ``lcn freecell check``, when it is there.

``lcnotation.freecell._speedups`` is a small C extension (built by
``setup.py`` where a compiler is; ``pip install .`` without one skips it).
It answers one question of a record's text: ``check(text)`` gives
``(deal, moves)`` when checking the record would find it won without a
diagnostic -- the deal it names and shows as dealt, and how many moves its
solution has -- or None: "look closer", and the record goes the Python way
(:func:`~lcnotation.freecell.parser.parse`, then
:func:`~lcnotation.freecell.checker.check`), which says what is wrong.  It
reads a strict subset of the notation: the canonical layout of a fresh
deal, as ``lcn freecell import`` writes it (``_speedups.c`` lists it), so a
report is the Python check's whether the extension is there or not
(tests/test_freecell_speedups.py holds it so).

The rules tables the C code works from are given to it when it is loaded,
from the modules that own them (:mod:`.cards`, :mod:`.deals`, :mod:`.rules`):
the letters, the deck, the generator's constants of the deals, the names of
the places, Horne's rule.  This module imports neither the reader nor the
checker.

>>> checker = clean_check()
>>> checker is None or checker("Game #1\\n") is None
True
>>> describe() in ("the FreeCell C check (lcnotation.freecell._speedups)",
...                "the FreeCell check in pure Python (its C code is not built)",
...                "the FreeCell check in pure Python (LCNOTATION_PURE_PYTHON=1)")
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Dict, Optional, Tuple

from ..core.compiled import PURE_PYTHON, configured
from .cards import FULL_DECK, RANKS, RED_SUITS, SUITS
from .deals import COLUMNS, DEAL_LIMIT, GENERATOR
from .rules import (FREECELL_NAMES, FREECELLS, GAME_PREFIX, HOME, LONGEST_RUN, OTHER_COLOUR_BELOW,
                    PARTNER_BELOW, SINGLE)

__all__ = ["Clean", "Check", "tables", "clean_check", "describe"]

#: What the C code says of a clean record: the deal and the number of moves.
Clean = Tuple[int, int]
#: ``check(text)``.
Check = Callable[[str], Optional[Clean]]


def tables() -> Optional[Dict[str, object]]:
    """The tables the extension is configured with; None when they do not
    have the shape it reads (a column or a freecell not named by one
    character, say), and the Python path checks every record."""
    if len(FREECELL_NAMES) < FREECELLS or len(HOME) != 1 or len(SINGLE) != 1 or len(
            LONGEST_RUN) != 1 or len(SUITS) != 4 or len(RED_SUITS) != 2:
        return None
    return dict(ranks=RANKS, suits=SUITS, red_suits=RED_SUITS,
                freecell_names=FREECELL_NAMES[:FREECELLS], game_prefix=GAME_PREFIX, home=HOME,
                single=SINGLE, longest=LONGEST_RUN, columns=COLUMNS, deal_limit=DEAL_LIMIT,
                other_colour_below=OTHER_COLOUR_BELOW, partner_below=PARTNER_BELOW,
                deck="".join(map(str, FULL_DECK)), **GENERATOR)


@lru_cache(maxsize=None)
def clean_check() -> Optional[Check]:
    """The extension's check, configured (loaded the first time it is asked
    for); None when it is not built, turned off (``LCNOTATION_PURE_PYTHON=1``)
    or cannot hold the tables."""
    found: Optional[Check] = configured(__name__.rpartition(".")[0] + "._speedups", tables,
                                        "check")
    return found


def describe() -> str:
    """Which path ``lcn freecell check`` takes here, in words (for benchmarks
    and bug reports)."""
    if clean_check() is not None:
        return "the FreeCell C check (lcnotation.freecell._speedups)"
    if PURE_PYTHON:
        return "the FreeCell check in pure Python (LCNOTATION_PURE_PYTHON=1)"
    import importlib.util

    if importlib.util.find_spec(__name__.rpartition(".")[0] + "._speedups") is None:
        return "the FreeCell check in pure Python (its C code is not built)"
    return "the FreeCell check in pure Python (its C code does not fit these tables)"
