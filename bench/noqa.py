"""``lcn lint --add-noqa`` against plain ``lcn lint`` on a 100-game file, in
instructions counted by valgrind's callgrind (as bench/instructions.py: a
fresh Python runs each row with one pass and with two; the difference is
the figure, so start-up and warm-up cancel out).

Three files of the same 100 generated games (seed 2026):

- ``clean``: as ``format_games`` writes them: nothing to suppress (the cost
  of --add-noqa is then a lint);
- ``lower``: in the lower-case dialect, linted for upper case: every move has
  S102, so every line of moves gets a suppression;
- ``suppressed``: ``lower`` after --add-noqa (what plain lint costs on a file
  full of suppressions).

    python bench/noqa.py              # 100 games
    python bench/noqa.py --games 20   # quicker

It prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Dict

HERE = os.path.abspath(__file__)
sys.path.insert(0, os.path.dirname(HERE))


def row(mode: str, path: str) -> None:
    """The measured process: ``lint:N`` or ``noqa:N`` over ``path``, N passes
    (--add-noqa reads the file and computes its new bytes; nothing is written)."""
    from lcnotation.core.lint import LintConfig
    from lcnotation.tools.lint import lint_file, lint_text
    from lcnotation.tools.noqa import add_noqa_bytes

    warm = b"1. R3-D 2. r4-d\n"
    lint_text(warm.decode(), "w.lcn")
    add_noqa_bytes(warm, "w.lcn", LintConfig())
    what, passes = mode.split(":")
    with open(path, "rb") as f:
        data = f.read()
    for _ in range(int(passes)):
        if what == "noqa":
            add_noqa_bytes(data, path, LintConfig())
        else:
            lint_file(path, LintConfig())


def files(folder: str, games: int) -> Dict[str, str]:
    from lcnotation import format_games, generate_games
    from lcnotation.core.lint import LintConfig
    from lcnotation.tools.noqa import add_noqa_bytes

    made = list(generate_games(games, 2026, deal=True))
    paths = {name: os.path.join(folder, f"{name}.lcn") for name in ("clean", "lower",
                                                                  "suppressed")}
    with open(paths["clean"], "w", encoding="utf-8", newline="\n") as f:
        f.write(format_games(made))
    lower = format_games(made, "lower").encode("utf-8")
    with open(paths["lower"], "wb") as f:
        f.write(lower)
    done = add_noqa_bytes(lower, paths["lower"], LintConfig())
    print(f"lower: {done.added:,} suppressions ({done.codes:,} codes), {len(done.left)} left")
    with open(paths["suppressed"], "wb") as f:
        f.write(done.data)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--row", help=argparse.SUPPRESS)
    parser.add_argument("path", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.row:
        row(args.row, args.path)
        return
    from instructions import instructions_of  # type: ignore[import-not-found]

    def per_pass(mode: str, path: str) -> int:
        return (instructions_of([HERE, "--row", f"{mode}:2", path])
                - instructions_of([HERE, "--row", f"{mode}:1", path]))

    with tempfile.TemporaryDirectory() as folder:
        paths = files(folder, args.games)
        for name in ("clean", "lower"):
            lint, noqa = per_pass("lint", paths[name]), per_pass("noqa", paths[name])
            print(f"{name}: lint {lint / 1e6:,.1f} M instructions, --add-noqa "
                  f"{noqa / 1e6:,.1f} M ({noqa / lint:.2f}x)")
        lint = per_pass("lint", paths["suppressed"])
        print(f"suppressed: lint {lint / 1e6:,.1f} M instructions")


if __name__ == "__main__":
    main()
