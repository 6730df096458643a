"""Coverage-guided fuzzing of lcnotation with atheris (libFuzzer for Python).

    python fuzz/fuzz.py TARGET [libFuzzer options] WORK_DIR [SEED_DIRS...]

TARGET is one of fuzz/targets.py's TARGETS (``read``, ``convert``, ``cli``,
``numbers``, ``names``, ``importers``); see
fuzz/README.md for how to run it and what to do with what it finds.
"""

from __future__ import annotations

import os
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

with atheris.instrument_imports(include=["lcnotation", "lark"]):
    import targets


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in targets.TARGETS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(targets.TARGETS)}}} [libFuzzer options] "
                 "WORK_DIR [SEED_DIRS...]")
    target = targets.TARGETS[sys.argv.pop(1)]
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
