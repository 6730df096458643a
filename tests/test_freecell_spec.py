"""The examples of spec/freecell.md, run against the code (conventions in its
section 8), and every F code shown there under its own heading."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, NamedTuple, Tuple

import pytest

from lcnotation import freecell, lint_text
from lcnotation.freecell.codes import FREECELL_CODES
from lcnotation.core.diagnostics import NotationError

SPEC = Path(__file__).resolve().parent.parent / "spec" / "freecell.md"
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


RESULTS = ("check", "canonical", "import", "lint")


class Example(NamedTuple):
    """An input block and one result block after it (or none, for a deal)."""

    line: int
    info: str
    text: str
    result: Tuple[str, str]  # (info, text) of the result block; ("", "") when none
    heading: str


def examples(document: str) -> List[Example]:
    """Each input block with each of the result blocks that follow it."""
    found: List[Example] = []
    blocks = [(m.start(), m.group(1).strip(), m.group(2)) for m in _FENCE.finditer(document)]
    for i, (start, info, text) in enumerate(blocks):
        if not info.startswith(("freecell", "fc-solve")):
            continue
        headings = re.findall(r"^#+ (.*)$", document[:start], re.M)
        heading = headings[-1] if headings else ""
        line = document.count("\n", 0, start) + 1
        results = []
        for _, result_info, result_text in blocks[i + 1:]:
            if result_info not in RESULTS:
                break
            results.append((result_info, result_text))
        for result in results or [("", "")]:
            found.append(Example(line, info, text, result, heading))
    return found


def render_check(text: str) -> str:
    result = freecell.check(freecell.parse(text))
    head = f"{result.verdict} {result.moves} move{'' if result.moves == 1 else 's'}"
    if result.first_bad_move is not None:
        head += f", first bad move {result.first_bad_move}"
    lines = [head] + [f"{d.line}:{d.column}-{d.end_line}:{d.end_column} {d.code} {d.message}"
                      for d in result.diagnostics]
    return "\n".join(lines) + "\n"


def render_lint(text: str) -> str:
    report = lint_text(text, "record.sfn")
    return "".join(f"{d.line}:{d.column}-{d.end_line}:{d.end_column} {d.code} {d.message}\n"
                   for d in report.diagnostics)


def render_import(text: str, number: int) -> str:
    try:
        return freecell.import_fc_solve(text, number)
    except NotationError as exc:
        return f"{exc.code} {exc.message}\n"


def render(example: Example) -> str:
    kind = example.result[0]
    if kind == "check":
        return render_check(example.text)
    if kind == "canonical":
        return freecell.format(freecell.parse(example.text))
    if kind == "lint":
        return render_lint(example.text)
    if kind == "import":
        return render_import(example.text, int(example.info.split()[1]))
    raise AssertionError(f"line {example.line}: {example.info!r} has no result block")


EXAMPLES = examples(SPEC.read_text("utf-8"))


@pytest.mark.parametrize("example", EXAMPLES,
                         ids=[f"line{e.line}-{e.result[0] or 'deal'}" for e in EXAMPLES])
def test_example(example: Example) -> None:
    if example.info.startswith("freecell-deal"):
        assert example.text == freecell.deal(int(example.info.split()[1]))
        return
    assert render(example) == example.result[1]


def test_every_code_has_an_example_under_its_heading() -> None:
    shown = set()
    for example in EXAMPLES:
        if example.heading in FREECELL_CODES:
            assert re.search(rf"\b{example.heading}\b", example.result[1]), example.heading
            shown.add(example.heading)
    assert shown == set(FREECELL_CODES)
    headings = set(re.findall(r"^### (F\d{3})$", SPEC.read_text("utf-8"), re.M))
    assert headings == set(FREECELL_CODES)
