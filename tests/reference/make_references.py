"""Write the reference outputs of the slow readers (issue 25 item 5).

The importers (metapyziks, chikinn) and ``lcn freecell check`` were made
faster; their outputs must stay byte for byte what they were.  This script
was run ONCE, on the code before that work (commit f3adf40), and its outputs
are committed beside it; ``tests/test_reference.py`` holds today's code to
them.  Run it again only to add inputs, and only on code that passes that
test::

    PYTHONPATH=$PWD python tests/reference/make_references.py

What it writes (under ``tests/reference/``):

- ``importers-inputs.json``: the texts read (the samples of
  ``tests/data/formats``, generated replays and transcripts) and the cases:
  a text, a format, and edits (mutations) applied to it;
- ``importers.json``: per case, the games as ``lcn import`` writes them (or
  the error it raises, with its code, line, column and message), a digest of
  the games' ``repr`` (every header, move, comment and position), and what
  each format's ``detect`` says;
- ``freecell/*.txt``: FreeCell records (fc-solve's solutions of deals, the
  test data, and mutations of them) and ``freecell.json``: the output and
  exit status of ``lcn freecell check`` of them all, in every format.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, ROOT)

Edit = Tuple[int, int, str]


def apply(text: str, edits: List[Edit]) -> str:
    """``text`` with each edit (start, end, replacement) made in turn."""
    for start, end, repl in edits:
        text = text[:start] + repl + text[end:]
    return text


def outcome(fmt_name: str, text: str) -> Dict[str, Any]:
    """What the importer ``fmt_name`` makes of ``text``."""
    from lcnotation import format_games
    from lcnotation.core.diagnostics import NotationError
    from lcnotation.formats import FORMATS, get_format

    fmt = get_format(fmt_name)
    assert fmt.read is not None
    found: Dict[str, Any] = {
        "detect": sorted(n for n, f in FORMATS.items() if f.detect is not None and f.detect(text))}
    try:
        games = fmt.read(text, "input.txt")
    except NotationError as exc:
        found["error"] = [exc.code, exc.path, exc.line, exc.column, exc.message, str(exc)]
        return found
    found["repr"] = hashlib.sha256(repr(games).encode("utf-8")).hexdigest()
    try:
        found["text"] = format_games(games)
    except ValueError as exc:
        found["format_error"] = str(exc)
    return found


def mutations(text: str, rng: random.Random, count: int, lines: bool) -> List[List[Edit]]:
    """``count`` edits of ``text``: characters and (when ``lines``) whole lines."""
    alphabet = sorted(set(text)) + ["x", "0", "9", " ", "\n", ":", "-"]
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n" and i + 1 < len(text)]
    out: List[List[Edit]] = []
    for _ in range(count):
        kind = rng.choice(("delete", "insert", "replace", "line-delete", "line-copy",
                           "line-swap", "truncate") if lines else
                          ("delete", "insert", "replace", "truncate"))
        at = rng.randrange(len(text))
        if kind == "delete":
            out.append([(at, at + 1, "")])
        elif kind == "insert":
            out.append([(at, at, rng.choice(alphabet))])
        elif kind == "replace":
            out.append([(at, at + 1, rng.choice(alphabet))])
        elif kind == "truncate":
            out.append([(at, len(text), "")])
        else:
            i = rng.randrange(len(starts) - 1)
            a, b = starts[i], starts[i + 1]
            c = starts[i + 2] if i + 2 < len(starts) else len(text)
            if kind == "line-delete":
                out.append([(a, b, "")])
            elif kind == "line-copy":
                out.append([(a, a, text[a:b])])
            else:
                out.append([(a, c, text[b:c] + text[a:b])])
    return out


def importer_inputs() -> Dict[str, Any]:
    from formatwriters import chikinn_round, chikinn_transcript  # type: ignore[import-not-found]

    from lcnotation import export_game, generate_games

    bases: Dict[str, Tuple[str, str]] = {}
    data = os.path.join(ROOT, "tests", "data", "formats")
    for fmt in ("chikinn", "metapyziks"):
        for name in sorted(os.listdir(os.path.join(data, fmt))):
            with open(os.path.join(data, fmt, name), encoding="utf-8", newline="") as f:
                bases[f"{fmt}/{name}"] = (fmt, f.read())
    played = list(generate_games(40, 2026, deal=True, colors="RGWBYP"))
    bases["metapyziks/generated-40"] = ("metapyziks", "".join(
        export_game(g, "metapyziks") + "\n" for g in played))
    bases["metapyziks/generated-json"] = ("metapyziks", "".join(
        '{"Replay": "%s"}\n' % export_game(g, "metapyziks") for g in played[:3]))
    bases["chikinn/generated-4-rounds"] = ("chikinn", "".join(
        chikinn_round(g, i) for i, g in enumerate(played[:4])))
    for i, g in enumerate(played[4:8]):
        bases[f"chikinn/generated-transcript-{i}"] = ("chikinn", chikinn_transcript(g))
    bases["chikinn/crlf"] = ("chikinn", chikinn_transcript(played[8]).replace("\n", "\r\n"))
    rng = random.Random(25)
    cases: List[Dict[str, Any]] = []
    for name, (fmt, text) in list(bases.items()):
        cases.append({"name": name, "format": fmt, "base": name, "edits": []})
        if name.endswith("generated-40") or "crlf" in name:
            continue
        small = text if fmt == "chikinn" else text.split("\n")[0] + "\n"
        if small != text:
            bases[name + "/first"] = (fmt, small)
            cases.append({"name": name + "/first", "format": fmt, "base": name + "/first",
                          "edits": []})
        for k, edits in enumerate(mutations(small, rng, 25 if fmt == "chikinn" else 40,
                                            fmt == "chikinn")):
            cases.append({"name": f"{name}/mutation-{k}", "format": fmt,
                          "base": name + ("/first" if small != text else ""), "edits": edits})
    return {"bases": {k: v[1] for k, v in bases.items()}, "cases": cases}


def lcn(*args: str, input: Optional[bytes] = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT}
    return subprocess.run([sys.executable, "-m", "lcnotation", *args], capture_output=True,
                          cwd=ROOT, env=env, input=input)


def freecell_records(folder: str, deals: int) -> List[str]:
    """fc-solve's solutions of deals 1 to ``deals`` as records, the test data,
    and mutations of some; the paths, relative to the repository."""
    os.makedirs(folder, exist_ok=True)
    env = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}
    for deal in range(1, deals + 1):
        board = subprocess.run(["make-microsoft-freecell-board", "-t", str(deal)],
                               check=True, capture_output=True, env=env).stdout
        solution = subprocess.run(["fc-solve", "-m", "-snx"], input=board,
                                  capture_output=True, env=env, timeout=60).stdout
        record = lcn("freecell", "import", "--from", "fc-solve", "-", "--deal", str(deal),
                     input=solution)
        if record.returncode == 0:
            with open(os.path.join(folder, f"deal-{deal:03}.txt"), "wb") as f:
                f.write(record.stdout)
    data = os.path.join(ROOT, "tests", "data", "freecell")
    for name in sorted(os.listdir(data)):
        if name.startswith("deal-"):
            with open(os.path.join(data, name), "rb") as f:
                raw = f.read()
            with open(os.path.join(folder, f"data-{name}"), "wb") as f:
                f.write(raw)
    rng = random.Random(617)
    for deal in range(1, min(deals, 30) + 1):
        path = os.path.join(folder, f"deal-{deal:03}.txt")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        for k, edits in enumerate(mutations(text, rng, 3, True)):
            with open(os.path.join(folder, f"mutation-{deal:03}-{k}.txt"), "w",
                      encoding="utf-8", newline="") as f:
                f.write(apply(text, edits))
    return sorted(os.path.relpath(os.path.join(folder, n), ROOT) for n in os.listdir(folder))


def freecell_outputs(paths: List[str]) -> Dict[str, Any]:
    out: Dict[str, Any] = {"paths": paths}
    for fmt in ("text", "json", "github", "sarif"):
        done = lcn("freecell", "check", "--format", fmt, *paths)
        out[fmt] = {"status": done.returncode, "stdout": done.stdout.decode("utf-8"),
                    "stderr": done.stderr.decode("utf-8")}
    return out


def main() -> None:
    inputs = importer_inputs()
    outputs = {case["name"]: outcome(case["format"],
                                     apply(inputs["bases"][case["base"]],
                                           [tuple(e) for e in case["edits"]]))
               for case in inputs["cases"]}
    for name, value in (("importers-inputs.json", inputs), ("importers.json", outputs)):
        with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
            json.dump(value, f, indent=0, sort_keys=True, ensure_ascii=False)
            f.write("\n")
    paths = freecell_records(os.path.join(HERE, "freecell"), 60)
    with open(os.path.join(HERE, "freecell.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(freecell_outputs(paths), f, indent=0, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    print(f"{len(outputs)} importer cases "
          f"({sum('error' in o for o in outputs.values())} errors), {len(paths)} FreeCell records")


if __name__ == "__main__":
    main()
