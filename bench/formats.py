"""How fast records of other programs are imported and exported.

Times, on this machine, the import of the chikinn transcripts of
tests/data/formats (repeated), and the export and import of generated games
as Metapyziks replay strings; prints moves per second.  Asserts nothing::

    python bench/formats.py [--repeat N]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import lcnotation as lcn
from lcnotation.formats import export_game, import_games

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "formats"


def _best(repeat: int, work) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = [p.read_text() for p in sorted((DATA / "chikinn").glob("*.txt"))] * 20
    moves = sum(len(g.moves) for t in texts for g in import_games(t, format="chikinn"))
    took = _best(args.repeat, lambda: [import_games(t, format="chikinn") for t in texts])
    print(f"chikinn import     {moves / took:>10,.0f} moves/s  ({len(texts)} transcripts)")
    games = list(lcn.generate_games(500, seed=1, deal=True, colors="RGWBYP"))
    moves = sum(len(g.moves) for g in games)
    took = _best(args.repeat, lambda: [export_game(g, "metapyziks") for g in games])
    print(f"metapyziks export  {moves / took:>10,.0f} moves/s  (rules check included)")
    text = "\n".join(export_game(g, "metapyziks") for g in games)
    took = _best(args.repeat, lambda: import_games(text, format="metapyziks"))
    print(f"metapyziks import  {moves / took:>10,.0f} moves/s  ({len(games)} replay strings)")


if __name__ == "__main__":
    main()
